// The pages' one script (src/faces/pages/): the passkey ceremonies, the new key's copy button and
// permission fields whose ticked scopes follow the chosen preset.
// Written for this service, no library: the browser's own WebAuthn JSON helpers where it has them
// (PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON, credential.toJSON),
// a few lines of base64url where it does not. Everything else on the pages works without it.
"use strict";

(() => {
  const toBase64url = (buffer) => {
    let binary = "";
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };

  const fromBase64url = (text) => {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  };

  const withBinaryIds = (descriptors) => (descriptors || []).map((descriptor) => ({ ...descriptor, id: fromBase64url(descriptor.id) }));

  function creationOptions(json) {
    if (typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function") return PublicKeyCredential.parseCreationOptionsFromJSON(json);
    return {
      ...json,
      challenge: fromBase64url(json.challenge),
      user: { ...json.user, id: fromBase64url(json.user.id) },
      excludeCredentials: withBinaryIds(json.excludeCredentials),
    };
  }

  function requestOptions(json) {
    if (typeof PublicKeyCredential.parseRequestOptionsFromJSON === "function") return PublicKeyCredential.parseRequestOptionsFromJSON(json);
    return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: withBinaryIds(json.allowCredentials) };
  }

  /** The credential as the JSON the server reads (RegistrationResponseJSON / AuthenticationResponseJSON). */
  function credentialJson(credential) {
    if (typeof credential.toJSON === "function") return credential.toJSON();
    const answer = credential.response;
    const response = { clientDataJSON: toBase64url(answer.clientDataJSON) };
    if (answer.attestationObject) {
      response.attestationObject = toBase64url(answer.attestationObject);
      response.transports = typeof answer.getTransports === "function" ? answer.getTransports() : [];
    } else {
      response.authenticatorData = toBase64url(answer.authenticatorData);
      response.signature = toBase64url(answer.signature);
      if (answer.userHandle) response.userHandle = toBase64url(answer.userHandle);
    }
    return {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response,
    };
  }

  /** POSTs JSON to the service; a refusal throws with the service's message. */
  async function postJson(url, body, csrfToken) {
    const headers = { "Content-Type": "application/json" };
    if (csrfToken) headers["X-CSRF-Token"] = csrfToken;
    const reply = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin" });
    const answer = await reply.json().catch(() => ({}));
    if (!reply.ok) throw new Error(answer.message || `HTTP ${reply.status}`);
    return answer;
  }

  /** Options from the service, the authenticator's answer, the answer to the service, then where it sends us. */
  async function runCeremony(button) {
    const { ceremony, options, verify, csrf } = button.dataset;
    const started = await postJson(options, {}, csrf);
    const registering = ceremony === "register";
    const credential = registering
      ? await navigator.credentials.create({ publicKey: creationOptions(started.options) })
      : await navigator.credentials.get({ publicKey: requestOptions(started.options) });
    const body = { ceremonyToken: started.ceremonyToken, response: credentialJson(credential) };
    const name = registering ? document.getElementById("passkey-name")?.value.trim() : "";
    if (name) body.name = name;
    const done = await postJson(verify, body, csrf);
    window.location.assign(done.redirect);
  }

  function wireCeremony(button) {
    const status = document.getElementById(`${button.id}-status`);
    const say = (text) => {
      if (status) status.textContent = text;
    };
    if (!window.PublicKeyCredential || !navigator.credentials) {
      button.disabled = true;
      say(status?.dataset.unsupported ?? "");
      return;
    }
    button.addEventListener("click", async () => {
      button.disabled = true;
      say(status?.dataset.working ?? "");
      try {
        await runCeremony(button);
      } catch (error) {
        say(`${status?.dataset.failed ?? ""} ${error.message}`);
        button.disabled = false;
      }
    });
  }

  function wireCopy() {
    const button = document.getElementById("copy-new-key");
    const key = document.getElementById("new-key");
    if (!button || !key || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", async () => {
      await navigator.clipboard.writeText(key.textContent.trim());
      button.textContent = button.dataset.copied;
    });
  }

  /** Choosing a preset ticks exactly its scopes; ticking a scope by hand chooses individual settings. */
  function wirePermissions(form) {
    const presets = form.querySelectorAll('input[name="preset"]');
    const boxes = form.querySelectorAll('input[name="scopes"]');
    for (const preset of presets) {
      preset.addEventListener("change", () => {
        if (preset.dataset.scopes === undefined) return;
        const scopes = preset.dataset.scopes.split(" ");
        for (const box of boxes) box.checked = scopes.includes(box.value);
      });
    }
    const individual = form.querySelector('input[name="preset"][value="individual"]');
    for (const box of boxes) box.addEventListener("change", () => individual && (individual.checked = true));
  }

  for (const button of document.querySelectorAll("button[data-ceremony]")) wireCeremony(button);
  for (const form of document.querySelectorAll("form")) if (form.querySelector('input[name="preset"]')) wirePermissions(form);
  wireCopy();
})();
