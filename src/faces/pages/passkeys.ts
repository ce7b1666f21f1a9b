import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Hono } from "hono";
import { html } from "hono/html";
import { listPasskeys, type PasskeySummary, removePasskey } from "../../accounts/passkeys";
import { completeRegistration, registrationOptions } from "../../accounts/webauthn";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { ceremonyAnswerOf, settingsCeremony, settingsForm, settingsPage } from "./guards";
import { confirmationPage, type Html, htmlPage, type Page, pageOf, pathParam, redirectTo } from "./layout";
import { formatInstant } from "./messages";

const removePath = (passkeyId: string) => `/settings/passkeys/${encodeURIComponent(passkeyId)}/remove`;

const passkeyRow = (page: Page, passkey: PasskeySummary) => html`<tr data-passkey-id="${passkey.passkeyId}">
<td>${passkey.name}</td>
<td>${formatInstant(passkey.createdAt)}</td>
<td>${passkey.lastUsedAt ? formatInstant(passkey.lastUsedAt) : page.t.notYet}</td>
<td><a class="remove" href="${page.href(removePath(passkey.passkeyId))}">${page.t.remove}</a></td>
</tr>`;

/**
 * The button and status line of a passkey ceremony, run by public/settings/passkeys.js: it asks
 * `options` for the browser's options, lets the authenticator answer, sends the answer to `verify`
 * and follows the redirect it gets back. Its status line (`#<id>-status`) speaks the page's language.
 */
export function ceremonyButton(
  page: Page,
  button: { id: string; ceremony: "register" | "signIn"; options: string; verify: string; label: string; csrfToken?: string },
): Html {
  const { t } = page;
  return html`<p><button id="${button.id}" type="button" data-ceremony="${button.ceremony}" data-options="${page.href(button.options)}" data-verify="${page.href(button.verify)}"${button.csrfToken ? html` data-csrf="${button.csrfToken}"` : ""}>${button.label}</button></p>
<p id="${button.id}-status" class="ceremony-status" role="status" aria-live="polite" data-working="${t.ceremonyWorking}" data-failed="${t.ceremonyFailed}" data-unsupported="${t.ceremonyUnsupported}"></p>
<noscript><p class="error">${t.needsScript}</p></noscript>`;
}

/** The optional name of a passkey being registered (the script sends it with the answer). */
export const passkeyNameField = (page: Page) =>
  html`<label>${page.t.passkeyNameLabel} <input id="passkey-name" name="passkeyName" maxlength="100" autocomplete="off"></label>`;

/** The person's passkeys, each removable after a confirmation, and the button that adds another. */
export function passkeysSection(page: Page, csrfToken: string, passkeys: readonly PasskeySummary[]): Html {
  const { t } = page;
  return html`<table id="passkeys">
<thead><tr><th scope="col">${t.keyName}</th><th scope="col">${t.added}</th><th scope="col">${t.lastUsed}</th><th scope="col"></th></tr></thead>
<tbody>${passkeys.map((passkey) => passkeyRow(page, passkey))}</tbody>
</table>
${passkeyNameField(page)}
${ceremonyButton(page, {
  id: "passkey-add",
  ceremony: "register",
  options: "/settings/passkeys/options",
  verify: "/settings/passkeys/verify",
  label: t.addPasskeyButton,
  csrfToken,
})}`;
}

/** Adding a passkey (JSON, for the script) and removing one (a confirmation page, then its form). */
export function mountPasskeys(app: Hono<AppEnv>): void {
  app.post(
    "/settings/passkeys/options",
    settingsCeremony(async (c, _body, session) => c.json(await registrationOptions(c, { kind: "signedIn", userId: session.userId }))),
  );
  app.post(
    "/settings/passkeys/verify",
    settingsCeremony(async (c, body, session) => {
      await completeRegistration(c, ceremonyAnswerOf<RegistrationResponseJSON>(body), { kind: "signedIn", userId: session.userId });
      return c.json({ redirect: pageOf(c).href("/settings?notice=passkeyAdded#passkeys-section") });
    }),
  );
  app.get(
    "/settings/passkeys/:passkeyId/remove",
    settingsPage(async (c, page, session) => {
      const passkeyId = pathParam(c, "passkeyId");
      const passkey = (await listPasskeys(createDb(c.env.DB), session.userId)).find((p) => p.passkeyId === passkeyId);
      if (!passkey) throw new ApiError("not_found", "This passkey was not found among yours.");
      const { t } = page;
      return htmlPage(
        c,
        confirmationPage(page, {
          title: t.removePasskeyTitle,
          explain: t.removePasskeyExplain(passkey.name),
          action: removePath(passkeyId),
          csrfToken: session.csrfToken,
          buttonId: "confirm-remove",
          buttonLabel: t.confirmRemovePasskey,
          back: "/settings#passkeys-section",
        }),
      );
    }),
  );
  app.post(
    "/settings/passkeys/:passkeyId/remove",
    settingsForm(async (c, page, session) => {
      await removePasskey(createDb(c.env.DB), session.userId, pathParam(c, "passkeyId"));
      return redirectTo(c, page.href("/settings?notice=passkeyRemoved#passkeys-section"));
    }),
  );
}
