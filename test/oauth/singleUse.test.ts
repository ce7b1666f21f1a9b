// Authorization codes and refresh tokens are single-use under any concurrency (the token endpoint
// claims each one in D1 before the OAuth library sees it), and a second use ends the grant: every
// token of it stops, the client's and the thief's, and the settings page says why.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listKeys } from "../../src/accounts/apiKeys";
import { claimSingleUse, deleteExpiredClaims } from "../../src/accounts/oauthClaims";
import { send } from "../support/harness";
import {
  authorizationRequest,
  connectedClient,
  consentTo,
  discover,
  exchangeCode,
  oauth,
  oauthErrorOf,
  refresh,
  register,
  viaWorker,
} from "../support/oauthClient";
import { db, type PagesBrowser, signedInPerson } from "../support/pagesBrowser";

const AT_ONCE = 20;

/** A tools/call with the access token on the OAuth resource: its HTTP status. */
const callStatus = async (accessToken: string) =>
  (
    await send("/mcp/oauth", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${accessToken}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "getAccount", arguments: {} } }),
    })
  ).status;

const refreshResponse = (as: oauth.AuthorizationServer, client: oauth.Client, refreshToken: string) =>
  oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, viaWorker);

/** The token sets among raw token responses. */
async function tokenSetsOf(responses: Response[]): Promise<{ access_token: string; refresh_token: string }[]> {
  const ok = responses.filter((response) => response.status === 200);
  for (const refused of responses.filter((response) => response.status !== 200)) {
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe("invalid_grant");
  }
  return Promise.all(ok.map((response) => response.json() as Promise<{ access_token: string; refresh_token: string }>));
}

/** The person's connected assistants as the settings page lists them: state and why it ended. */
async function assistantsOf(userId: string) {
  return (await listKeys(env, db, userId, 1, 50, "assistants")).items.map(({ state, endedReason }) => ({ state, endedReason }));
}

async function expectEnded(browser: PagesBrowser, userId: string, reason: string, words: string) {
  expect((await assistantsOf(userId))[0]).toEqual({ state: "revoked", endedReason: reason });
  const settings = await browser.get("/settings/assistants?lang=en");
  expect(settings.text).toContain(words);
}

describe("an authorization code", () => {
  it(`exchanged ${AT_ONCE} times at once gives exactly one token set, in each of 10 rounds, and the grant ends`, async () => {
    const { browser, userId } = await signedInPerson();
    const as = await discover();
    const client = await register(as);
    for (let round = 0; round < 10; round++) {
      const request = await authorizationRequest(as, client);
      const callback = await consentTo(browser, request);
      const responses = await Promise.all(Array.from({ length: AT_ONCE }, () => exchangeCode(as, client, request, callback)));
      const sets = await tokenSetsOf(responses);
      expect(sets, `round ${round}`).toHaveLength(1);
      // The other 19 were second uses: the one token set stops, access and refresh.
      expect(await callStatus(sets[0]!.access_token)).toBe(401);
      expect(await oauthErrorOf(refresh(as, client, sets[0]!.refresh_token))).toBe("invalid_grant");
    }
    await expectEnded(browser, userId, "code_reused", "its authorization code was used twice");
  }, 180_000);

  it("used a second time ends the grant it produced (RFC 6749 4.1.2): its tokens stop", async () => {
    const { browser, userId } = await signedInPerson();
    const as = await discover();
    const client = await register(as);
    const request = await authorizationRequest(as, client);
    const callback = await consentTo(browser, request);
    const [set] = await tokenSetsOf([await exchangeCode(as, client, request, callback)]);
    expect(await callStatus(set!.access_token)).toBe(200);
    expect(await tokenSetsOf([await exchangeCode(as, client, request, callback)])).toHaveLength(0);
    expect(await callStatus(set!.access_token)).toBe(401);
    expect(await oauthErrorOf(refresh(as, client, set!.refresh_token))).toBe("invalid_grant");
    await expectEnded(browser, userId, "code_reused", "its authorization code was used twice");
  });

  it("a made-up code of someone's grant, sent twice, ends nothing", async () => {
    const { browser } = await signedInPerson();
    const { as, client, tokens } = await connectedClient(browser);
    const [userId, grantId] = tokens.refresh_token!.split(":");
    const forged = `${userId}:${grantId}:not-the-code`;
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code: forged,
      client_id: client.client_id,
      code_verifier: "x".repeat(43),
    });
    for (let i = 0; i < 2; i++) {
      const refused = await send("/oauth/token", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
      });
      expect(refused.body.error).toBe("invalid_grant");
    }
    expect(await callStatus(tokens.access_token)).toBe(200);
    expect((await refresh(as, client, tokens.refresh_token!)).access_token).toBeDefined();
  });
});

describe("a refresh token", () => {
  it("used again after its successor was issued ends the grant: the thief's tokens and the client's stop", async () => {
    const { browser, userId } = await signedInPerson();
    const { as, client, tokens } = await connectedClient(browser);
    const stolen = tokens.refresh_token!;
    const clients = await refresh(as, client, stolen);
    expect(await callStatus(clients.access_token)).toBe(200);
    // The thief replays the copy: refused, and the grant ends.
    expect(await oauthErrorOf(refresh(as, client, stolen))).toBe("invalid_grant");
    expect(await callStatus(clients.access_token)).toBe(401);
    expect(await oauthErrorOf(refresh(as, client, clients.refresh_token!))).toBe("invalid_grant");
    await expectEnded(browser, userId, "refresh_token_reused", "its refresh token was used twice");
  });

  it("used by the thief first, then by the client: the thief's new tokens stop too", async () => {
    const { browser, userId } = await signedInPerson();
    const { as, client, tokens } = await connectedClient(browser);
    const thiefs = await refresh(as, client, tokens.refresh_token!);
    expect(await oauthErrorOf(refresh(as, client, tokens.refresh_token!))).toBe("invalid_grant");
    expect(await callStatus(thiefs.access_token)).toBe(401);
    expect(await oauthErrorOf(refresh(as, client, thiefs.refresh_token!))).toBe("invalid_grant");
    expect((await assistantsOf(userId))[0]?.endedReason).toBe("refresh_token_reused");
  });

  it(`sent ${AT_ONCE} times at once gives exactly one token set, in each of 5 rounds, and the grant ends`, async () => {
    const { browser } = await signedInPerson();
    for (let round = 0; round < 5; round++) {
      const { as, client, tokens } = await connectedClient(browser);
      const responses = await Promise.all(Array.from({ length: AT_ONCE }, () => refreshResponse(as, client, tokens.refresh_token!)));
      const sets = await tokenSetsOf(responses);
      expect(sets, `round ${round}`).toHaveLength(1);
      for (const accessToken of [tokens.access_token, sets[0]!.access_token]) expect(await callStatus(accessToken)).toBe(401);
      expect(await oauthErrorOf(refresh(as, client, sets[0]!.refresh_token))).toBe("invalid_grant");
    }
  }, 120_000);

  it("of another grant, forged from a real one's ids, ends nothing", async () => {
    const { browser } = await signedInPerson();
    const { as, client, tokens } = await connectedClient(browser);
    const [userId, grantId] = tokens.refresh_token!.split(":");
    for (let i = 0; i < 2; i++) expect(await oauthErrorOf(refresh(as, client, `${userId}:${grantId}:forged`))).toBe("invalid_grant");
    expect(await callStatus(tokens.access_token)).toBe(200);
  });
});

describe("the claims", () => {
  it("hold hashes only and are deleted by the cron once expired; a live one stays claimed", async () => {
    const secret = `usr_claims:grant${Date.now()}:secret`;
    const [userId = "", grantId = ""] = secret.split(":");
    const stale = { kind: "code" as const, secret, userId, grantId };
    const live = { ...stale, secret: `${secret}-live` };
    const longAgo = Date.now() - 2 * 60 * 60_000;
    expect(await claimSingleUse(db, stale, longAgo)).toBe("claimed");
    expect(await claimSingleUse(db, live)).toBe("claimed");
    const stored = await env.DB.prepare("SELECT claim FROM oauth_claims WHERE claim LIKE 'code:%'").all<{ claim: string }>();
    expect(stored.results.every(({ claim }) => /^code:[0-9a-f]{64}$/.test(claim))).toBe(true);
    expect(await deleteExpiredClaims(db)).toBeGreaterThanOrEqual(1);
    expect(await claimSingleUse(db, stale)).toBe("claimed");
    expect(await claimSingleUse(db, live)).toBe("reused");
  });
});
