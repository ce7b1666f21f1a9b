// Loopback redirect URIs as RFC 8252 (7.3) has them: a native app registers its loopback callback
// and listens on whatever port the system gives it at the time, so the port of a loopback redirect
// may differ from the registered one; the scheme, the host (as written: 127.0.0.1, [::1] or
// localhost) and the path must still match. Every other redirect URI matches exactly.
import { describe, expect, it } from "vitest";
import { answerConsent, authorizationRequest, discover, MCP_OAUTH_URL, oauth, register, viaWorker } from "../support/oauthClient";
import { signedInPerson } from "../support/pagesBrowser";

/** A person, and a client registered with `registered`, asking to be sent back to `asked`. */
async function askedWith(registered: string, asked: string) {
  const { browser } = await signedInPerson();
  const as = await discover();
  const client = await register(as, { redirect_uris: [registered] });
  const request = await authorizationRequest(as, client, { redirect_uri: asked });
  return { browser, as, client, request, page: await browser.get(request.path) };
}

/** A consented authorization at `asked` of a client registered with `registered`, and its code's exchange. */
async function authorized(registered: string, asked: string) {
  const { browser, as, client, request, page } = await askedWith(registered, asked);
  expect(page.status, `${registered} -> ${asked}: ${page.text}`).toBe(200);
  expect(page.text).toContain(`id="redirect-host"><strong>${new URL(asked).host}</strong>`);
  expect(page.headers.get("Content-Security-Policy")).toContain(`form-action 'self' ${new URL(asked).origin};`);
  const answer = await answerConsent(browser, page, { decision: "approve", preset: "viewOnly" });
  expect(answer.status, answer.text).toBe(302);
  const callback = new URL(answer.headers.get("Location")!);
  expect(`${callback.origin}${callback.pathname}`).toBe(asked);
  const params = oauth.validateAuthResponse(as, client, callback, request.state);
  const exchange = (redirectUri: string) =>
    oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, request.verifier, {
      ...viaWorker,
      additionalParameters: { resource: MCP_OAUTH_URL },
    });
  return { as, client, exchange };
}

describe("loopback redirect URIs (RFC 8252 7.3)", () => {
  it("take any port with the registered scheme, host and path, and the code is redeemed with that same URI", async () => {
    for (const [registered, asked] of [
      ["http://127.0.0.1/callback", "http://127.0.0.1:49152/callback"],
      ["http://127.0.0.1:33418/callback", "http://127.0.0.1:61000/callback"],
      ["http://[::1]:8080/oauth/callback", "http://[::1]:53682/oauth/callback"],
      ["http://localhost:3334/oauth/callback", "http://localhost:40001/oauth/callback"],
    ] as const) {
      // The token request names the redirect URI of the authorization request, port and all; a
      // code presented with another one is spent (single use), so the right URI takes a new code.
      const refused = await authorized(registered, asked);
      const otherPort = await refused.exchange(registered);
      expect(otherPort.status).toBe(400);
      expect(((await otherPort.json()) as { error: string }).error).toBe("invalid_grant");
      const granted = await authorized(registered, asked);
      const tokens = await oauth.processAuthorizationCodeResponse(granted.as, granted.client, await granted.exchange(asked));
      expect(tokens.access_token).toEqual(expect.any(String));
    }
  });

  it("still match the host as written, the scheme, the path and the query: anything else is a page here, never a redirect", async () => {
    for (const [registered, asked] of [
      ["http://127.0.0.1/callback", "http://localhost:49152/callback"],
      ["http://localhost/callback", "http://127.0.0.1:49152/callback"],
      ["http://127.0.0.1/callback", "http://127.0.0.2:49152/callback"],
      ["http://127.0.0.1/callback", "http://[::1]:49152/callback"],
      ["http://127.0.0.1/callback", "http://127.0.0.1:49152/other"],
      ["http://127.0.0.1/callback", "http://127.0.0.1:49152/callback/"],
      ["http://127.0.0.1/callback", "http://127.0.0.1:49152/callback?x=1"],
      ["http://127.0.0.1/callback", "https://127.0.0.1:49152/callback"],
    ] as const) {
      const { page } = await askedWith(registered, asked);
      expect(page.status, `${registered} -> ${asked}`).toBe(400);
      expect(page.headers.get("Location")).toBeNull();
      expect(page.text).toContain("This connection request is not valid");
    }
  });

  it("is for loopback hosts only: an https redirect on another port is refused", async () => {
    const { page } = await askedWith("https://assistant.example/oauth/callback", "https://assistant.example:8443/oauth/callback");
    expect(page.status).toBe(400);
    expect(page.headers.get("Location")).toBeNull();
  });
});
