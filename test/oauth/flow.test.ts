// OAuth 2.1 for the MCP face, end to end with a real OAuth client library (oauth4webapi) and the
// official MCP SDK client: discovery from the resource, dynamic registration, the person's passkey
// sign-in and consent, the code exchange with PKCE, tool calls with the token (the grant's key's
// scopes), refresh with rotation, and revocation from the settings page cutting the assistant off.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { listKeys } from "../../src/accounts/apiKeys";
import { send } from "../support/harness";
import { mcpCall, mcpClient } from "../support/mcp";
import {
  authorizationRequest,
  connectedClient,
  consentTo,
  discover,
  exchangeCode,
  MCP_OAUTH_URL,
  oauthErrorOf,
  refresh,
  register,
  tokensOf,
} from "../support/oauthClient";
import { db, invitedBrowser, type PagesBrowser, rowIds, signedInPerson } from "../support/pagesBrowser";

type Connected = Awaited<ReturnType<typeof mcpClient>>;
const clients: Connected[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function overOAuth(accessToken: string) {
  const client = await mcpClient(accessToken, "/mcp/oauth");
  clients.push(client);
  return client;
}

/** A raw MCP tools/call on the OAuth resource: the HTTP answer, as any client first sees it. */
const rawCall = (accessToken: string, name = "getAccount") =>
  send("/mcp/oauth", {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
  });

/** The connected assistant's key id, as the settings page lists it. */
async function assistantKeyId(browser: PagesBrowser): Promise<string> {
  const settings = await browser.get("/settings/assistants");
  const [keyId] = rowIds(settings.text, "assistants", "data-key-id");
  expect(keyId, settings.text).toBeDefined();
  return keyId!;
}

describe("discovery", () => {
  it("challenges a call without a token with the resource's metadata, which names this origin as the authorization server", async () => {
    const challenge = await send("/mcp/oauth", { method: "POST", body: "{}" });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("WWW-Authenticate")).toContain(
      'resource_metadata="https://api.test/.well-known/oauth-protected-resource/mcp/oauth"',
    );
    const metadata = await send("/.well-known/oauth-protected-resource/mcp/oauth");
    expect(metadata.body).toMatchObject({
      resource: MCP_OAUTH_URL,
      authorization_servers: ["https://api.test"],
      bearer_methods_supported: ["header"],
    });
    const as = await discover();
    expect(as).toMatchObject({
      issuer: "https://api.test",
      authorization_endpoint: "https://api.test/oauth/authorize",
      token_endpoint: "https://api.test/oauth/token",
      registration_endpoint: "https://api.test/oauth/register",
      code_challenge_methods_supported: ["S256"],
    });
    expect(as.scopes_supported).toContain("library:delete");
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
  });
});

describe("an assistant connects", () => {
  it("lists and calls tools with the token, as the view-only key the person chose (a write is insufficient_scope)", async () => {
    const { browser, userId } = await signedInPerson();
    const { tokens } = await connectedClient(browser, { preset: "viewOnly" });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope?.split(" ").sort()).toEqual(["games:read", "library:read", "play:read"]);
    const client = await overOAuth(tokens.access_token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("searchGames");
    const account = await mcpCall(client, "getAccount");
    expect(account.isError, account.text).toBe(false);
    expect(account.body.userId).toBe(userId);
    const write = await mcpCall(client, "addToLibrary", { gameId: 1 });
    expect(write.isError).toBe(true);
    expect(write.body.code).toBe("insufficient_scope");
  });

  it("makes the grant one of the person's keys: listed as a connected assistant, counted, used like a key", async () => {
    const { browser, userId } = await signedInPerson();
    const { tokens } = await connectedClient(browser, { preset: "standard" });
    const [key] = (await listKeys(env, db, userId, 1, 10, "assistants")).items;
    expect(key).toMatchObject({ name: "Test Assistant", connectedTo: "assistant.example", state: "active", lastUsedAt: null });
    expect((await listKeys(env, db, userId, 1, 10, "keys")).totalCount).toBe(0);
    expect((await rawCall(tokens.access_token)).status).toBe(200);
    const settings = await browser.get("/settings/assistants");
    expect(rowIds(settings.text, "assistants", "data-key-id")).toEqual([key!.keyId]);
    expect(settings.text).toContain("assistant.example");
    const account = await mcpCall(await overOAuth(tokens.access_token), "getAccount");
    expect(account.body.registered.apiKeys.count).toBe(1);
    const [used] = (await listKeys(env, db, userId, 1, 10, "assistants")).items;
    expect(used?.lastUsedAt).not.toBeNull();
  });

  it("charges the person's daily quota like any of their keys (the same RateLimit header as REST)", async () => {
    const { browser } = await signedInPerson("FREE");
    const { tokens } = await connectedClient(browser);
    const dailyLeft = (reply: { headers: Headers }) => Number(/"daily";r=(\d+)/.exec(reply.headers.get("RateLimit") ?? "")?.[1]);
    const first = await rawCall(tokens.access_token);
    expect(first.headers.get("X-Request-Id")).toMatch(/^req_/);
    const keyCreated = await browser.postForm("/settings/keys", { preset: "viewOnly" });
    const apiKey = /<code id="new-key">([^<]+)<\/code>/.exec(keyCreated.text)![1]!;
    const rest = await send("/rest/v1/getAccount", { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(dailyLeft(rest)).toBe(dailyLeft(first) - 1);
    expect(dailyLeft(await rawCall(tokens.access_token))).toBe(dailyLeft(rest) - 1);
  });
});

describe("refresh tokens", () => {
  it("rotate: each refresh gives a new refresh token, which the next refresh uses (a reuse ends the grant: singleUse.test.ts)", async () => {
    const { browser } = await signedInPerson();
    const { as, client, tokens } = await connectedClient(browser);
    const second = await refresh(as, client, tokens.refresh_token!);
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    const third = await refresh(as, client, second.refresh_token!);
    expect(third.refresh_token).not.toBe(second.refresh_token);
    expect((await rawCall(third.access_token)).status).toBe(200);
  });

  it("are refused for another client than the one they were issued to", async () => {
    const { browser } = await signedInPerson();
    const { as, tokens } = await connectedClient(browser);
    const other = await register(as, { client_name: "Other" });
    expect(await oauthErrorOf(refresh(as, other, tokens.refresh_token!))).toBe("invalid_grant");
  });
});

describe("revoking the connected assistant in the settings", () => {
  it("cuts it off at once: the next call is 401 with the OAuth challenge, and its refresh token is refused", async () => {
    const { browser } = await signedInPerson();
    const { as, client, tokens } = await connectedClient(browser);
    expect((await rawCall(tokens.access_token)).status).toBe(200);
    const keyId = await assistantKeyId(browser);
    const confirm = await browser.get(`/settings/keys/${keyId}/revoke`);
    expect(confirm.text).toContain("assistant.example");
    const revoked = await browser.postForm(`/settings/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toContain("assistantRevoked");
    const after = await rawCall(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("WWW-Authenticate")).toContain("resource_metadata=");
    expect(await oauthErrorOf(refresh(as, client, tokens.refresh_token!))).toBe("invalid_grant");
  });

  it("is also how the operator's revocation of the key works (DELETE /admin/v1/keys/{id})", async () => {
    const { browser } = await signedInPerson();
    const { tokens } = await connectedClient(browser);
    const keyId = await assistantKeyId(browser);
    const { admin } = await import("../support/harness");
    expect((await admin("DELETE", `/keys/${keyId}`)).status).toBe(200);
    expect((await rawCall(tokens.access_token)).status).toBe(401);
  });
});

describe("connecting again", () => {
  it("replaces the same client's earlier grant and key (the old token stops), keeping the key count", async () => {
    const { browser, userId } = await signedInPerson();
    const first = await connectedClient(browser);
    const request = await authorizationRequest(first.as, first.client);
    const callback = await consentTo(browser, request, { preset: "standard" });
    const second = await tokensOf(first.as, first.client, await exchangeCode(first.as, first.client, request, callback));
    expect((await rawCall(second.access_token)).status).toBe(200);
    expect((await rawCall(first.tokens.access_token)).status).toBe(401);
    const states = (await listKeys(env, db, userId, 1, 10, "assistants")).items.map((key) => key.state);
    expect(states).toEqual(["active", "revoked"]);
  });

  it("at the FREE plan's key limit still works for the same client, and is refused (403, nothing made) for a new one", async () => {
    const { browser, userId } = await signedInPerson("FREE");
    for (const name of ["a", "b"]) expect((await browser.postForm("/settings/keys", { name, preset: "viewOnly" })).status).toBe(201);
    const first = await connectedClient(browser);
    const again = await authorizationRequest(first.as, first.client);
    await consentTo(browser, again);
    const other = await register(first.as, { client_name: "Third" });
    const page = await browser.get((await authorizationRequest(first.as, other)).path);
    const { answerConsent } = await import("../support/oauthClient");
    const refused = await answerConsent(browser, page, { decision: "approve", preset: "viewOnly" });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("active API keys");
    expect(refused.text).toContain('id="consent"');
    expect((await listKeys(env, db, userId, 1, 10, "all")).items.filter((key) => key.state === "active")).toHaveLength(3);
  });
});

describe("another person", () => {
  it("never reaches the first one's data with their own connected assistant", async () => {
    const alice = await signedInPerson();
    const bob = await signedInPerson();
    const aliceTokens = (await connectedClient(alice.browser, { preset: "standard" })).tokens;
    const bobTokens = (await connectedClient(bob.browser)).tokens;
    const aliceClient = await overOAuth(aliceTokens.access_token);
    const bobClient = await overOAuth(bobTokens.access_token);
    expect((await mcpCall(aliceClient, "getAccount")).body.userId).toBe(alice.userId);
    expect((await mcpCall(bobClient, "getAccount")).body.userId).toBe(bob.userId);
    // Bob's browser cannot revoke Alice's assistant.
    const aliceKey = await assistantKeyId(alice.browser);
    expect((await bob.browser.postForm(`/settings/keys/${aliceKey}/revoke`)).status).toBe(404);
    expect((await rawCall(aliceTokens.access_token)).status).toBe(200);
  });

  it("signing in on a new browser during the flow comes back to the consent (?next= only ever to the authorize page)", async () => {
    const { userId } = await signedInPerson();
    const browser = await invitedBrowser(userId);
    await browser.postForm("/settings/signout");
    const as = await discover();
    const client = await register(as);
    const request = await authorizationRequest(as, client);
    const toSignIn = await browser.get(request.path);
    expect(toSignIn.status).toBe(303);
    const location = toSignIn.headers.get("Location")!;
    expect(location).toMatch(/^\/signin\?next=%2Foauth%2Fauthorize%3F/);
    const signInPage = await browser.get(location);
    expect(signInPage.text).toContain('data-verify="/signin/verify?next=%2Foauth%2Fauthorize%3F');
    const started = await browser.postJson("/signin/options");
    const response = await browser.authenticator.getAssertion(started.json.options, "https://api.test");
    const next = new URL(location, "https://api.test").searchParams.get("next")!;
    const done = await browser.postJson(`/signin/verify?next=${encodeURIComponent(next)}`, {
      ceremonyToken: started.json.ceremonyToken,
      response,
    });
    expect(done.json.redirect).toBe(request.path);
    for (const elsewhere of [
      "https://evil.example/oauth/authorize",
      "//evil.example/oauth/authorize",
      "/settings/keys",
      "/\\evil.example",
    ]) {
      const shown = await browser.get(`/signin?next=${encodeURIComponent(elsewhere)}`);
      expect(shown.status).toBe(303);
      expect(shown.headers.get("Location")).toBe("/settings");
    }
  });
});
