// The pages' defences: every POST checked (the session's CSRF token, the Origin), refused ones
// change nothing; one person's session never reaches another's keys, passkeys, usage or activity;
// the session cookie opens nothing of the API, which stays bearer-only.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listKeys } from "../../src/accounts/apiKeys";
import { listPasskeys } from "../../src/accounts/passkeys";
import { callWith, send } from "../support/harness";
import { db, type PagesBrowser, rowIds, signedInPerson } from "../support/pagesBrowser";

const FOREIGN = { Origin: "https://evil.example" };

async function keyOf(browser: PagesBrowser) {
  const reply = await browser.postForm("/settings/keys", { preset: "viewOnly" });
  const apiKey = /<code id="new-key">([^<]+)<\/code>/.exec(reply.text)![1]!;
  return { apiKey, keyId: `key_${apiKey.slice(4, 20)}` };
}

const keyCount = async (userId: string) => (await listKeys(env, db, userId, 1, 100)).totalCount;

describe("CSRF", () => {
  it("refuses a form without the csrf field, or with another session's, and creates nothing", async () => {
    const { browser, userId } = await signedInPerson();
    const other = await signedInPerson();
    const missing = await browser.postForm("/settings/keys", { csrf: "", preset: "viewOnly" });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(missing.text).toContain("CSRF");
    const foreignToken = await browser.postForm("/settings/keys", { csrf: other.browser.csrf!, preset: "viewOnly" });
    expect(foreignToken.status).toBe(401);
    const garbage = await browser.postForm("/settings/keys", { csrf: "<script>", preset: "viewOnly" });
    expect(garbage.status).toBe(401);
    expect(await keyCount(userId)).toBe(0);
  });

  it("keeps a key working when its revocation comes without the token", async () => {
    const { browser } = await signedInPerson();
    const { apiKey, keyId } = await keyOf(browser);
    expect((await browser.postForm(`/settings/keys/${keyId}/revoke`, { csrf: "0".repeat(64) })).status).toBe(401);
    expect((await callWith(apiKey, "getAccount", {})).status).toBe(200);
  });

  it("keeps the session when sign-out comes without the token", async () => {
    const { browser } = await signedInPerson();
    expect((await browser.postForm("/settings/signout", { csrf: "" })).status).toBe(401);
    expect((await browser.postForm("/settings/signout-everywhere", { csrf: "" })).status).toBe(401);
    expect((await browser.get("/settings")).status).toBe(200);
  });

  it("refuses the add-passkey steps without X-CSRF-Token (JSON 401)", async () => {
    const { browser, userId } = await signedInPerson();
    const options = await browser.postJson("/settings/passkeys/options");
    expect(options.status).toBe(401);
    expect(options.json.code).toBe("unauthorized");
    expect((await browser.postJson("/settings/passkeys/verify", {}, { "X-CSRF-Token": "0".repeat(64) })).status).toBe(401);
    expect(await listPasskeys(db, userId)).toHaveLength(1);
  });
});

describe("posts from another site", () => {
  it("refuses a form with a foreign Origin, right token or not, and changes nothing", async () => {
    const { browser, userId } = await signedInPerson();
    const { apiKey, keyId } = await keyOf(browser);
    expect((await browser.postForm("/settings/keys", { preset: "viewOnly" }, FOREIGN)).status).toBe(401);
    expect((await browser.postForm(`/settings/keys/${keyId}/revoke`, {}, FOREIGN)).status).toBe(401);
    expect((await browser.postForm("/settings/signout", {}, FOREIGN)).status).toBe(401);
    expect(await keyCount(userId)).toBe(1);
    expect((await callWith(apiKey, "getAccount", {})).status).toBe(200);
    expect((await browser.get("/settings")).status).toBe(200);
  });

  it("refuses the ceremony steps from a foreign Origin (JSON 401)", async () => {
    const { browser } = await signedInPerson();
    const added = await browser.postJson("/settings/passkeys/options", {}, { ...FOREIGN, "X-CSRF-Token": browser.csrf! });
    expect(added.status).toBe(401);
    const signIn = await browser.postJson("/signin/options", {}, FOREIGN);
    expect(signIn.status).toBe(401);
    expect(signIn.json.code).toBe("unauthorized");
  });
});

describe("isolation", () => {
  it("shows each person only their own keys, passkeys, usage and activity", async () => {
    const alice = await signedInPerson("PREMIUM", "Alice");
    const bob = await signedInPerson("PREMIUM", "Bob");
    const { apiKey, keyId } = await keyOf(alice.browser);
    for (let i = 0; i < 2; i++) await callWith(apiKey, "getAccount", {}, "GET");
    const pagesOf = async (browser: PagesBrowser) =>
      (await Promise.all(["/settings", "/settings/keys", "/settings/passkeys"].map((path) => browser.get(path)))).map((page) => page.text);
    const [aliceOverview, aliceKeys, alicePasskeyPage] = await pagesOf(alice.browser);
    const [bobOverview, bobKeys, bobPasskeyPage] = await pagesOf(bob.browser);
    expect(rowIds(aliceKeys!, "keys", "data-key-id")).toEqual([keyId]);
    expect(bobKeys).not.toContain(keyId);
    const alicePasskeys = rowIds(alicePasskeyPage!, "passkeys", "data-passkey-id");
    expect(alicePasskeys).toHaveLength(1);
    expect(bobPasskeyPage).not.toContain(alicePasskeys[0]!);
    expect(aliceOverview).toContain("2 of 20,000 calls");
    expect(bobOverview).toContain("0 of 20,000 calls");
    expect((await bob.browser.get("/settings/activity")).text).not.toContain('data-kind="keyCreated"');
  });

  it("cannot revoke another person's key by its id, nor see its confirmation", async () => {
    const alice = await signedInPerson();
    const bob = await signedInPerson();
    const { apiKey, keyId } = await keyOf(alice.browser);
    expect((await bob.browser.get(`/settings/keys/${keyId}/revoke`)).status).toBe(404);
    const revoke = await bob.browser.postForm(`/settings/keys/${keyId}/revoke`);
    expect(revoke.status).toBe(404);
    expect((await callWith(apiKey, "getAccount", {})).status).toBe(200);
  });

  it("cannot remove another person's passkey by its id", async () => {
    const alice = await signedInPerson();
    const bob = await signedInPerson();
    await alice.browser.addPasskey("second");
    const [first] = await listPasskeys(db, alice.userId);
    expect((await bob.browser.get(`/settings/passkeys/${first!.passkeyId}/remove`)).status).toBe(404);
    expect((await bob.browser.postForm(`/settings/passkeys/${first!.passkeyId}/remove`)).status).toBe(404);
    expect(await listPasskeys(db, alice.userId)).toHaveLength(2);
  });
});

describe("the API stays bearer-only", () => {
  it("does not accept the session cookie on /rest/v1 or /mcp (401)", async () => {
    const { browser } = await signedInPerson();
    const cookie = { Cookie: browser.cookie!, Origin: "https://api.test" };
    const rest = await send("/rest/v1/getAccount", { headers: cookie });
    expect(rest.status).toBe(401);
    const mcp = await send("/mcp", {
      method: "POST",
      headers: { ...cookie, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "getAccount", arguments: {} } }),
    });
    expect(mcp.status).toBe(401);
  });
});
