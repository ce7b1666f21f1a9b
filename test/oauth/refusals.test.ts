// What the OAuth server and the consent page refuse, each with the right OAuth error and nothing
// left behind: PKCE missing or wrong, a redirect URI not registered, a code used twice or expired,
// a code or grant of another client, a forged, foreign or replayed consent (also when answered
// twice at once), and tokens and keys on each other's doors.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listKeys } from "../../src/accounts/apiKeys";
import { ADDRESS_CEILING, REGISTRATIONS_PER_SOFTWARE } from "../../src/accounts/throttle";
import { atWindowStart } from "../support/accounting";
import { freshAddress } from "../support/accountsHarness";
import { send } from "../support/harness";
import {
  answerConsent,
  authorizationRequest,
  connectedClient,
  consentFields,
  consentTo,
  discover,
  exchangeCode,
  oauth,
  oauthErrorOf,
  REDIRECT_URI,
  register,
  tokensOf,
  viaWorker,
} from "../support/oauthClient";
import { db, signedInPerson } from "../support/pagesBrowser";

const assistantKeys = async (userId: string) => (await listKeys(env, db, userId, 1, 50, "assistants")).items;

const mcpWith = (path: string, token: string) =>
  send(path, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

/** A signed-in person, a registered client and a fresh authorization request of it. */
async function startedFlow(extra: Record<string, string | null> = {}, metadata: Partial<oauth.Client> = {}) {
  const person = await signedInPerson();
  const as = await discover();
  const client = await register(as, metadata);
  const request = await authorizationRequest(as, client, extra);
  return { ...person, as, client, request };
}

/** The error a refused authorization request sends back to the client (it names it only once the redirect URI is vouched for). */
function redirectedError(location: string | null) {
  expect(location).not.toBeNull();
  const url = new URL(location!);
  expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI);
  return url.searchParams.get("error");
}

describe("PKCE", () => {
  it("is required: a request without a code challenge goes back to the client as invalid_request, and no consent is shown", async () => {
    const { browser, request } = await startedFlow({ code_challenge: null, code_challenge_method: null });
    const reply = await browser.get(request.path);
    expect(reply.status).toBe(302);
    expect(redirectedError(reply.headers.get("Location"))).toBe("invalid_request");
  });

  it("is S256 only: the plain method is refused", async () => {
    const { browser, request } = await startedFlow({ code_challenge: "a".repeat(43), code_challenge_method: "plain" });
    const reply = await browser.get(request.path);
    expect(reply.status).toBe(302);
    expect(redirectedError(reply.headers.get("Location"))).toBe("invalid_request");
  });

  it("refuses a code exchanged with the wrong verifier (invalid_grant)", async () => {
    const { browser, as, client, request } = await startedFlow();
    const callback = await consentTo(browser, request);
    const wrong = oauth.generateRandomCodeVerifier();
    expect(await oauthErrorOf(tokensOf(as, client, await exchangeCode(as, client, request, callback, wrong)))).toBe("invalid_grant");
  });
});

describe("redirect URIs", () => {
  it("must match a registered one exactly: a mismatch is a page here, never a redirect", async () => {
    for (const redirect of ["https://evil.example/oauth/callback", `${REDIRECT_URI}/`, `${REDIRECT_URI}?x=1`]) {
      const { browser, request } = await startedFlow({ redirect_uri: redirect });
      const reply = await browser.get(request.path);
      expect(reply.status, redirect).toBe(400);
      expect(reply.headers.get("Location")).toBeNull();
      expect(reply.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(reply.text).toContain("This connection request is not valid");
    }
  });

  it("refuses a request of an unknown client as a page", async () => {
    const { browser, as, client } = await startedFlow();
    const request = await authorizationRequest(as, { ...client, client_id: "no-such-client" });
    const reply = await browser.get(request.path);
    expect(reply.status).toBe(400);
    expect(reply.headers.get("Location")).toBeNull();
  });
});

describe("authorization codes", () => {
  it("work once: a second exchange is invalid_grant and ends the grant (its tokens stop)", async () => {
    const { browser, as, client, request } = await startedFlow();
    const callback = await consentTo(browser, request);
    const tokens = await tokensOf(as, client, await exchangeCode(as, client, request, callback));
    expect(await oauthErrorOf(tokensOf(as, client, await exchangeCode(as, client, request, callback)))).toBe("invalid_grant");
    expect((await mcpWith("/mcp/oauth", tokens.access_token)).status).toBe(401);
  });

  it("expire: the code's record lives 10 minutes in the OAuth store, and once gone the exchange is invalid_grant", async () => {
    const { browser, as, client, request, userId } = await startedFlow();
    const callback = await consentTo(browser, request);
    const { keys } = await env.OAUTH_KV.list({ prefix: `grant:${userId}:` });
    expect(keys).toHaveLength(1);
    const lifetime = keys[0]!.expiration! - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(500);
    expect(lifetime).toBeLessThanOrEqual(600);
    // KV removes the record when its expiration passes; removing it now is what the exchange meets then.
    await env.OAUTH_KV.delete(keys[0]!.name);
    expect(await oauthErrorOf(tokensOf(as, client, await exchangeCode(as, client, request, callback)))).toBe("invalid_grant");
  });

  it("belong to their client: another client redeeming one gets invalid_grant", async () => {
    const { browser, as, request } = await startedFlow();
    const callback = await consentTo(browser, request);
    const thief = await register(as, { client_name: "Thief" });
    const params = oauth.validateAuthResponse(as, thief, callback, request.state);
    const stolen = oauth.authorizationCodeGrantRequest(as, thief, oauth.None(), params, REDIRECT_URI, request.verifier, viaWorker);
    expect(await oauthErrorOf(stolen.then((response) => oauth.processAuthorizationCodeResponse(as, thief, response)))).toBe(
      "invalid_grant",
    );
  });
});

describe("the consent page", () => {
  it("shows who asks (escaped), that its name is unverified, where the access goes, and a loopback warning", async () => {
    const loopback = "http://127.0.0.1:33418/callback";
    const { browser, request } = await startedFlow(
      { redirect_uri: loopback },
      { client_name: '<script>alert("x")</script>', redirect_uris: [loopback] },
    );
    const page = await browser.get(request.path);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<script>alert");
    expect(page.text).toContain("&lt;script&gt;");
    expect(page.text).toContain('id="redirect-host"><strong>127.0.0.1:33418</strong>');
    expect(page.text).toContain('id="loopback-warning"');
    expect(page.text).toContain("self-registered");
    expect(page.headers.get("X-Frame-Options")).toBe("DENY");
    expect(page.headers.get("Content-Security-Policy")).toContain("form-action 'self' http://127.0.0.1:33418;");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.headers.getSetCookie().some((cookie) => cookie.startsWith("__Host-oauth-consent"))).toBe(true);
  });

  it("in Japanese too", async () => {
    const { browser, request } = await startedFlow();
    const page = await browser.get(request.path, { "Accept-Language": "ja" });
    expect(page.text).toContain("アシスタントの接続");
    expect(page.text).toContain("許可する");
  });

  it("deny: back to the client with access_denied and its state; no key is made", async () => {
    const { browser, request, userId } = await startedFlow();
    const page = await browser.get(request.path);
    const denied = await answerConsent(browser, page, { decision: "deny" });
    expect(denied.status).toBe(302);
    const location = denied.headers.get("Location");
    expect(redirectedError(location)).toBe("access_denied");
    expect(new URL(location!).searchParams.get("state")).toBe(request.state);
    expect(await assistantKeys(userId)).toEqual([]);
  });

  it("a choice that does not fit is asked again beside the reason, and the corrected answer goes through", async () => {
    const { browser, request, userId } = await startedFlow();
    const page = await browser.get(request.path);
    const refused = await answerConsent(browser, page, { decision: "approve", preset: "individual" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('class="error" role="alert">Permissions: with individual settings, tick at least one');
    expect(refused.text).toContain('value="individual" checked');
    const allowed = await answerConsent(browser, refused, {
      decision: "approve",
      preset: "individual",
      scopes: ["library:read", "library:delete"],
    });
    expect(allowed.status).toBe(302);
    expect((await assistantKeys(userId)).map((key) => key.scopes)).toEqual([["library:read", "library:delete"]]);
  });

  it("answered twice at once: exactly one answer grants, one key is made", async () => {
    const { browser, request, userId } = await startedFlow();
    const page = await browser.get(request.path);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => answerConsent(browser, page, { decision: "approve", preset: "viewOnly" })),
    );
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    for (const answer of answers.filter((one) => one.status !== 302)) expect(answer.status).toBe(400);
    expect(await assistantKeys(userId)).toHaveLength(1);
  });

  it("replayed after it granted: refused, nothing more made", async () => {
    const { browser, request, userId } = await startedFlow();
    const page = await browser.get(request.path);
    expect((await answerConsent(browser, page, { decision: "approve", preset: "viewOnly" })).status).toBe(302);
    expect((await answerConsent(browser, page, { decision: "approve", preset: "viewOnly" })).status).toBe(400);
    expect(await assistantKeys(userId)).toHaveLength(1);
  });

  it("refuses an answer without the session's CSRF token, from another origin, or another person's consent", async () => {
    const { browser, request, userId } = await startedFlow();
    const page = await browser.get(request.path);
    const fields = { ...consentFields(page.text), decision: "approve", preset: "viewOnly" };
    expect((await browser.postForm("/oauth/authorize", { ...fields, csrf: "0".repeat(64) })).status).toBe(401);
    expect((await browser.postForm("/oauth/authorize", fields, { Origin: "https://evil.example" })).status).toBe(401);
    const other = await signedInPerson();
    await other.browser.get("/settings");
    const foreign = await other.browser.postForm("/oauth/authorize", fields);
    expect(foreign.status).toBe(400);
    expect(await assistantKeys(userId)).toEqual([]);
    expect(await assistantKeys(other.userId)).toEqual([]);
    // None of the refused answers used up the person's consent: their own answer still grants.
    expect((await browser.postForm("/oauth/authorize", fields)).status).toBe(302);
    expect(await assistantKeys(userId)).toHaveLength(1);
  });

  it("refuses a consent token posted with another request's handle, and grants nothing", async () => {
    const { browser, as, client, request, userId } = await startedFlow();
    const first = await browser.get(request.path);
    const second = await browser.get((await authorizationRequest(as, client)).path);
    const mixed = {
      consent: consentFields(first.text).consent,
      handle: consentFields(second.text).handle,
      decision: "approve",
      preset: "viewOnly",
    };
    const refused = await browser.postForm("/oauth/authorize", mixed);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("another connection request");
    expect(await assistantKeys(userId)).toEqual([]);
  });

  it("without a session: the POST is refused (401) and GET goes to sign-in", async () => {
    const { browser, request } = await startedFlow();
    const page = await browser.get(request.path);
    browser.cookie = undefined;
    const reply = await browser.postForm("/oauth/authorize", { ...consentFields(page.text), decision: "approve", preset: "viewOnly" });
    expect(reply.status).toBe(401);
    expect((await browser.get(request.path)).status).toBe(303);
  });
});

describe("dynamic registration", () => {
  const registrationFrom = (address: string, clientName: string) => () =>
    send("/oauth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
      body: JSON.stringify({ client_name: clientName, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
    });

  it(`takes at most ${REGISTRATIONS_PER_SOFTWARE} registrations of one software per 10-second window from one address, also at once (429 past that); another software there still registers`, async () => {
    const address = freshAddress();
    await atWindowStart();
    const answers = await Promise.all(Array.from({ length: REGISTRATIONS_PER_SOFTWARE + 4 }, registrationFrom(address, "Flood")));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(REGISTRATIONS_PER_SOFTWARE).fill(201), ...Array(4).fill(429)]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body.code).toBe("rate_limited");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await registrationFrom(address, "Another assistant")()).status).toBe(201);
  });

  it(`holds one address to ${ADDRESS_CEILING} registrations per window, whatever software they name`, async () => {
    const address = freshAddress();
    await atWindowStart();
    const names = Array.from({ length: ADDRESS_CEILING + 3 }, (_, i) => `Name ${i}`);
    const statuses = (await Promise.all(names.map((name) => registrationFrom(address, name)()))).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(ADDRESS_CEILING);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
  });

  it("refuses a registration without a usable redirect URI (400 invalid_redirect_uri or invalid_client_metadata)", async () => {
    const reply = await send("/oauth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshAddress() },
      body: JSON.stringify({ client_name: "Remote http", redirect_uris: ["http://evil.example/cb"], token_endpoint_auth_method: "none" }),
    });
    expect(reply.status).toBe(400);
    expect(["invalid_redirect_uri", "invalid_client_metadata"]).toContain(reply.body.error);
  });
});

describe("each way in keeps to its door", () => {
  it("/mcp never advertises OAuth: a bare Bearer challenge, and no metadata for it or at the root", async () => {
    const reply = await send("/mcp", { method: "POST", body: "{}" });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect((await send("/.well-known/oauth-protected-resource/mcp")).status).toBe(404);
    expect((await send("/.well-known/oauth-protected-resource")).status).toBe(404);
  });

  it("an access token is no API key (401 on /mcp and REST), and an API key is no access token (401 challenge on /mcp/oauth)", async () => {
    const { browser } = await signedInPerson();
    const { tokens } = await connectedClient(browser);
    expect((await mcpWith("/mcp", tokens.access_token)).status).toBe(401);
    expect((await send("/rest/v1/getAccount", { headers: { Authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    const created = await browser.postForm("/settings/keys", { preset: "viewOnly" });
    const apiKey = /<code id="new-key">([^<]+)<\/code>/.exec(created.text)![1]!;
    const refused = await mcpWith("/mcp/oauth", apiKey);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });

  it("a suspended account's assistant is refused like its keys (403 access_suspended)", async () => {
    const { browser, userId } = await signedInPerson();
    const { tokens } = await connectedClient(browser);
    const { admin } = await import("../support/harness");
    await admin("PATCH", `/users/${userId}`, { suspended: true });
    const reply = await mcpWith("/mcp/oauth", tokens.access_token);
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("access_suspended");
  });
});
