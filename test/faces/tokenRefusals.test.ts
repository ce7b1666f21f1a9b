// A refused bearer token says why, in a JSON body and in the RFC 6750 challenge, on every door:
// REST and /mcp with an API key (unknown, revoked, expired) and /mcp/oauth with an access token
// (unknown, a revoked connection, a token of a live grant that no longer validates); and what the
// official MCP SDK clients (v1 and v2) then tell their user.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { revokeKeyOf } from "../../src/accounts/apiKeys";
import { expireKey } from "../support/accounting";
import { admin, callWith, newAccount, send } from "../support/harness";
import { mcpClient, mcpClientV2 } from "../support/mcp";
import { connectedClient } from "../support/oauthClient";
import { db, type PagesBrowser, rowIds, signedInPerson } from "../support/pagesBrowser";

const METADATA = 'resource_metadata="https://api.test/.well-known/oauth-protected-resource/mcp/oauth"';

/** An API key of each refused kind. */
async function refusedKeys() {
  const revoked = await newAccount();
  await admin("DELETE", `/keys/${revoked.keyId}`);
  const expired = await newAccount();
  await expireKey(expired.keyId);
  return { unknown: `rgc_${"b".repeat(48)}`, revoked: revoked.apiKey, expired: expired.apiKey };
}

const initialize = (path: string, token: string) =>
  send(path, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } },
    }),
  });

/** What a client using an SDK sees when it connects with a refused token: the error's message. */
async function sdkErrorOf(connecting: Promise<{ close(): Promise<void> }>): Promise<string> {
  const outcome = await connecting.then(
    async (client) => {
      await client.close();
      return undefined;
    },
    (error: unknown) => String((error as Error)?.message ?? error),
  );
  expect(outcome, "expected the connection to be refused").toBeDefined();
  return outcome!;
}

const KEY_SAYS = { unknown: "The API key is unknown", revoked: "The API key was revoked", expired: "The API key has expired" };

describe("a refused API key", () => {
  it("is a 401 invalid_token naming why, in the body and in the challenge, on REST and /mcp", async () => {
    for (const [reason, key] of Object.entries(await refusedKeys())) {
      for (const reply of [await callWith(key, "getAccount"), await initialize("/mcp", key)]) {
        expect(reply.status, reason).toBe(401);
        expect(reply.headers.get("Content-Type")).toMatch(/^application\/json/);
        expect(reply.body).toMatchObject({
          error: "invalid_token",
          code: "invalid_token",
          reason,
          message: expect.stringContaining(reason),
        });
        expect(reply.headers.get("WWW-Authenticate")).toBe(`Bearer error="invalid_token", error_description="${reply.body.message}"`);
      }
    }
  });

  it("tells the MCP SDK v1 and v2 clients' users why", async () => {
    for (const [reason, key] of Object.entries(await refusedKeys())) {
      // v1, and v2 in its default (2025) handshake: "... Error POSTing to endpoint ...: <the JSON body>".
      for (const message of [await sdkErrorOf(mcpClient(key)), await sdkErrorOf(mcpClientV2(key, { era: "default" }))]) {
        expect(message, reason).toContain("Error POSTing to endpoint");
        expect(message).toContain("invalid_token");
        expect(message).toContain(KEY_SAYS[reason as keyof typeof KEY_SAYS]);
      }
      // v2 pinned to 2026-07-28 (server/discover) says only the status: the SDK does not pass the body on.
      expect(await sdkErrorOf(mcpClientV2(key))).toBe("Version negotiation failed: the server requires authorization (HTTP 401)");
    }
  });
});

/** The connected assistant's key id, as the settings page lists it. */
async function assistantKeyId(browser: PagesBrowser): Promise<string> {
  const [keyId] = rowIds((await browser.get("/settings/assistants")).text, "assistants", "data-key-id");
  expect(keyId).toBeDefined();
  return keyId!;
}

describe("a refused access token on /mcp/oauth", () => {
  it("a revoked connection: a JSON body and a challenge naming why, and the SDK clients show it", async () => {
    const { browser } = await signedInPerson();
    const { tokens } = await connectedClient(browser);
    expect((await initialize("/mcp/oauth", tokens.access_token)).status).toBe(200);
    const keyId = await assistantKeyId(browser);
    expect((await browser.postForm(`/settings/keys/${keyId}/revoke`)).status).toBe(303);
    const reply = await initialize("/mcp/oauth", tokens.access_token);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ error: "invalid_token", error_description: expect.stringContaining("revoked") });
    const challenge = reply.headers.get("WWW-Authenticate")!;
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`error_description="${reply.body.error_description}"`);
    expect(challenge).toContain(METADATA);
    for (const message of [
      await sdkErrorOf(mcpClient(tokens.access_token, "/mcp/oauth")),
      await sdkErrorOf(mcpClientV2(tokens.access_token, { path: "/mcp/oauth", era: "default" })),
    ]) {
      expect(message).toContain("Error POSTing to endpoint");
      expect(message).toContain("connection was revoked or has ended");
    }
  });

  it("an unknown token, and a token of a live grant that no longer validates (expired: refresh it)", async () => {
    const { browser } = await signedInPerson();
    const { tokens } = await connectedClient(browser);
    const stale = `${tokens.access_token.slice(0, -1)}${tokens.access_token.endsWith("A") ? "B" : "A"}`;
    for (const [token, said] of [
      ["not-a-token", "is unknown"],
      [`${"x".repeat(300)}:a:b`, "is unknown"],
      [stale, "has expired"],
    ] as const) {
      const reply = await initialize("/mcp/oauth", token);
      expect(reply.status, token).toBe(401);
      expect(reply.body).toEqual({ error: "invalid_token", error_description: expect.stringContaining(said) });
      expect(reply.headers.get("WWW-Authenticate")).toContain(METADATA);
    }
  });

  it("a connection whose key was revoked while its grant lives: the pipeline's 401 with the same fields", async () => {
    const { browser, userId } = await signedInPerson();
    const { tokens } = await connectedClient(browser);
    const keyId = await assistantKeyId(browser);
    // The key alone, as a failure between the key's revocation and the grant's end would leave it.
    await revokeKeyOf(env, db, userId, keyId);
    const reply = await initialize("/mcp/oauth", tokens.access_token);
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ error: "invalid_token", reason: "revoked" });
    expect(reply.headers.get("WWW-Authenticate")).toBe(
      `Bearer error="invalid_token", error_description="${reply.body.message}", ${METADATA}`,
    );
  });
});
