// Part C of issue 24: keys as a person issues them on the settings page and the operator through
// /admin/v1 (src/accounts/apiKeys.ts), key expiry, and the account summary the page shows.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountSummary } from "../../src/accounts/accountSummary";
import { issueKeyFor, type KeyChoice, listKeys, revokeKeyOf } from "../../src/accounts/apiKeys";
import { listEvents } from "../../src/accounts/events";
import { createDb } from "../../src/platform/db";
import { ApiError } from "../../src/platform/errors";
import { KEY_PRESETS, type Plan, REGISTERED_LIMITS } from "../../src/platform/plans";
import { DAY_MS, utcDay } from "../../src/platform/time";
import { USAGE_HISTORY_DAYS } from "../../src/platform/userAccounting";
import { expireKey, setUsedOn } from "../support/accounting";
import { admin, callWith, ORIGIN, type Reply, send } from "../support/harness";
import { mcpCall, mcpClient } from "../support/mcp";
import { expectError, ok } from "../support/replies";

const db = createDb(env.DB);

async function newUser(plan: Plan = "PREMIUM") {
  const reply = await admin("POST", "/users", { plan, name: "key holder" });
  return { userId: reply.body.userId as string, plan };
}

const limitOf = (user: { userId: string; plan: Plan }) => ({ ...user, upgradeUrl: `${ORIGIN}/docs` });

const issue = (user: { userId: string; plan: Plan }, choice: Partial<KeyChoice> = {}) =>
  issueKeyFor(db, limitOf(user), { preset: "standard", name: null, expiresInDays: null, ...choice } as KeyChoice);

/** The ApiError a promise rejects with (fails the test when it resolves or throws something else). */
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const postMcp = (apiKey: string, body: unknown) =>
  send("/mcp", {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  });
const mcpToolCall = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } });

/** 401 invalid_token naming why, in the body and in the RFC 6750 challenge. */
const expectKeyRefused = (reply: Reply, reason: "revoked" | "expired") => {
  expectError(reply, 401, "invalid_token");
  expect(reply.body).toMatchObject({ error: "invalid_token", reason, message: expect.stringContaining(reason) });
  expect(reply.headers.get("WWW-Authenticate")).toBe(`Bearer error="invalid_token", error_description="${reply.body.message}"`);
};

describe("issueKeyFor: the spec's presets", () => {
  it("a view-only key reads and cannot write", async () => {
    const key = await issue(await newUser(), { preset: "viewOnly" });
    expect(key.scopes).toEqual([...KEY_PRESETS.viewOnly]);
    ok(await callWith(key.apiKey, "getLibrary"));
    expectError(await callWith(key.apiKey, "addToLibrary", { gameId: 1 }), 403, "insufficient_scope");
  });

  it("a standard key writes but holds no delete scope", async () => {
    const key = await issue(await newUser(), { preset: "standard" });
    expect(key.scopes).toEqual([...KEY_PRESETS.standard]);
    expect(key.scopes.some((scope) => scope.endsWith(":delete"))).toBe(false);
    expectError(await callWith(key.apiKey, "removeFromLibrary", { gameId: 1 }), 403, "insufficient_scope");
  });

  it("individual settings grant exactly the scopes chosen, delete included", async () => {
    const key = await issue(await newUser(), { preset: "individual", scopes: ["library:read", "library:delete", "library:delete"] });
    expect(key.scopes).toEqual(["library:read", "library:delete"]);
    const removed = await callWith(key.apiKey, "removeFromLibrary", { gameId: 999_999_999 });
    expect(removed.body.code).not.toBe("insufficient_scope");
    expectError(await callWith(key.apiKey, "getPlayRecords"), 403, "insufficient_scope");
  });

  it.each([
    ["delete scopes with another preset", { preset: "standard", scopes: ["library:delete"] }, /library:delete and play:delete.*individual/],
    ["any scopes with another preset", { preset: "viewOnly", scopes: ["library:read"] }, /only with individual settings/],
    ["individual settings without scopes", { preset: "individual" }, /choose the key's scopes/],
    ["an empty scope list", { preset: "individual", scopes: [] }, /.+/],
    ["an unknown scope", { preset: "individual", scopes: ["root"] }, /.+/],
  ])("refuses %s: 400 naming scopes, nothing stored", async (_case, choice, message) => {
    const user = await newUser();
    const error = await refusal(issue(user, choice as Partial<KeyChoice>));
    expect(error).toMatchObject({ code: "invalid_input", status: 400 });
    expect(error.details.field).toMatch(/^scopes/);
    expect(error.message).toMatch(message);
    expect((await listKeys(env, db, user.userId, 1, 10)).totalCount).toBe(0);
  });

  it("refuses a name that is too long or not text a person wrote", async () => {
    const user = await newUser();
    expect((await refusal(issue(user, { name: "x".repeat(101) }))).details).toMatchObject({ field: "name" });
    expect((await refusal(issue(user, { name: "caf\ud800" }))).details).toMatchObject({ field: "name" });
  });

  it("shows the secret once and records keyCreated with the key's name, never its secret", async () => {
    const user = await newUser();
    const key = await issue(user, { name: "laptop" });
    const [event] = (await listEvents(db, user.userId, 1, 10)).items;
    expect(event).toMatchObject({ kind: "keyCreated", detail: { keyId: key.keyId, name: "laptop" } });
    expect(JSON.stringify(event)).not.toContain(key.apiKey.slice(10));
  });
});

describe("expiry", () => {
  it.each([30, 90, 365] as const)("a key for %i days expires that many days from now", async (days) => {
    const before = Date.now();
    const key = await issue(await newUser(), { expiresInDays: days });
    const expiresAt = Date.parse(key.expiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + days * DAY_MS);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + days * DAY_MS);
  });

  it("a key without expiry never expires", async () => {
    const user = await newUser();
    expect((await issue(user)).expiresAt).toBeNull();
    expect((await listKeys(env, db, user.userId, 1, 1)).items[0]).toMatchObject({ expiresAt: null, state: "active" });
  });

  it.each([7, 0, "30"])("refuses expiresInDays %j: 400 naming it", async (days) => {
    const error = await refusal(issue(await newUser(), { expiresInDays: days } as unknown as Partial<KeyChoice>));
    expect(error).toMatchObject({ code: "invalid_input", details: { field: "expiresInDays" } });
  });

  it("an expired key answers 401 on REST like a revoked one, also right after a call this isolate remembers", async () => {
    const key = await issue(await newUser(), { expiresInDays: 30 });
    ok(await callWith(key.apiKey, "getLibrary")); // admitted: the isolate now knows the key's caller
    await expireKey(key.keyId);
    expectKeyRefused(await callWith(key.apiKey, "getLibrary"), "expired");
    expectKeyRefused(await callWith(key.apiKey, "getAccount", {}, "GET"), "expired");
  });

  it("an expired key answers 401 on MCP, for a tool call and for a request that runs none", async () => {
    const key = await issue(await newUser(), { expiresInDays: 90 });
    const client = await mcpClient(key.apiKey);
    expect((await mcpCall(client, "getLibrary")).isError).toBe(false);
    await expireKey(key.keyId);
    expectKeyRefused(await postMcp(key.apiKey, mcpToolCall("getLibrary")), "expired");
    expectKeyRefused(await postMcp(key.apiKey, { jsonrpc: "2.0", id: 2, method: "tools/list" }), "expired");
  });

  it("an expired key charges nothing and no longer counts against the plan's key limit", async () => {
    const user = await newUser("FREE");
    const keys = [];
    for (let i = 0; i < REGISTERED_LIMITS.apiKeys.FREE; i++) keys.push(await issue(user, { expiresInDays: 30 }));
    expect((await refusal(issue(user))).code).toBe("plan_required");
    await expireKey(keys[0]!.keyId);
    const usedBefore = (await accountSummary(env, db, user.userId, new Date())).usage.used;
    expectKeyRefused(await callWith(keys[0]!.apiKey, "getAccount"), "expired");
    const fresh = await issue(user);
    const account = ok(await callWith(fresh.apiKey, "getAccount"));
    expect(account.registered.apiKeys?.count).toBe(REGISTERED_LIMITS.apiKeys.FREE);
    expect(account.usage.used).toBe(usedBefore + 1);
  });
});

describe("the plan's key limit", () => {
  it("lets exactly the limit of parallel creations through, each refusal saying what to do", async () => {
    const user = await newUser("FREE");
    const limit = REGISTERED_LIMITS.apiKeys.FREE;
    const results = await Promise.allSettled(Array.from({ length: limit * 3 }, () => issue(user)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(limit);
    for (const result of results.filter((r) => r.status === "rejected")) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: "plan_required", details: { upgradeUrl: `${ORIGIN}/docs` } });
      expect((result as PromiseRejectedResult).reason.message).toMatch(new RegExp(`FREE plan allows ${limit} active API keys.*revoke one`));
    }
    expect((await listKeys(env, db, user.userId, 1, 100)).totalCount).toBe(limit);
    expect((await listEvents(db, user.userId, 1, 100)).items.filter((e) => e.kind === "keyCreated")).toHaveLength(limit);
  });

  it("counts only live keys: a revoked one makes room", async () => {
    const user = await newUser("FREE");
    const keys = await Promise.all(Array.from({ length: REGISTERED_LIMITS.apiKeys.FREE }, () => issue(user)));
    await revokeKeyOf(env, db, user.userId, keys[1]!.keyId);
    expect((await issue(user)).keyId).toMatch(/^key_/);
  });
});

describe("listKeys", () => {
  it("lists name, scopes, dates and state, never the secret nor its hash", async () => {
    const user = await newUser();
    const active = await issue(user, { name: "active", preset: "viewOnly", expiresInDays: 365 });
    const revoked = await issue(user, { name: "revoked" });
    const expired = await issue(user, { name: "expired" });
    await revokeKeyOf(env, db, user.userId, revoked.keyId);
    await expireKey(expired.keyId);
    const { items, totalCount } = await listKeys(env, db, user.userId, 1, 10);
    expect(totalCount).toBe(3);
    const byId = Object.fromEntries(items.map((item) => [item.keyId, item]));
    expect(byId[active.keyId]).toMatchObject({
      name: "active",
      displayPrefix: active.apiKey.slice(0, 10),
      scopes: [...KEY_PRESETS.viewOnly],
      expiresAt: active.expiresAt,
      lastUsedAt: null,
      state: "active",
    });
    expect(byId[revoked.keyId]!.state).toBe("revoked");
    expect(byId[expired.keyId]!.state).toBe("expired");
    const listed = JSON.stringify(items);
    for (const key of [active, revoked, expired]) expect(listed).not.toContain(key.apiKey.slice(10));
    expect(listed).not.toMatch(/[0-9a-f]{64}/);
  });

  it("shows when a key was last used: the instant its last call was admitted", async () => {
    const user = await newUser();
    const key = await issue(user);
    const before = Date.now();
    ok(await callWith(key.apiKey, "getAccount"));
    const lastUsedAt = Date.parse((await listKeys(env, db, user.userId, 1, 1)).items[0]!.lastUsedAt!);
    expect(lastUsedAt).toBeGreaterThan(before - 10_000);
    expect(lastUsedAt).toBeLessThanOrEqual(Date.now());
  });

  it("pages newest first, and never lists another user's keys", async () => {
    const [user, other] = await Promise.all([newUser(), newUser()]);
    const issued = [];
    for (let i = 0; i < 5; i++) issued.push((await issue(user, { name: `k${i}` })).keyId);
    await issue(other);
    const pages = await Promise.all([1, 2, 3].map((page) => listKeys(env, db, user.userId, page, 2)));
    expect(pages.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    expect(pages.flatMap((page) => page.items.map((item) => item.keyId))).toEqual([...issued].reverse());
    expect((await listKeys(env, db, other.userId, 1, 10)).items.map((item) => item.keyId)).not.toContain(issued[0]);
  });
});

describe("revokeKeyOf", () => {
  it("revokes the user's key: 401 at once, recorded once; again: 404", async () => {
    const user = await newUser();
    const key = await issue(user, { name: "leaked" });
    ok(await callWith(key.apiKey, "getAccount"));
    const revoked = await revokeKeyOf(env, db, user.userId, key.keyId);
    expect(revoked).toMatchObject({ keyId: key.keyId, revokedAt: expect.any(String) });
    expectKeyRefused(await callWith(key.apiKey, "getAccount"), "revoked");
    expect((await refusal(revokeKeyOf(env, db, user.userId, key.keyId))).code).toBe("not_found");
    const events = (await listEvents(db, user.userId, 1, 10)).items;
    expect(events[0]).toMatchObject({ kind: "keyRevoked", detail: { keyId: key.keyId, name: "leaked" } });
  });

  it("answers 404 for another user's key and an unknown id, and the key keeps working", async () => {
    const [owner, other] = await Promise.all([newUser(), newUser()]);
    const key = await issue(owner);
    expect((await refusal(revokeKeyOf(env, db, other.userId, key.keyId))).code).toBe("not_found");
    expect((await refusal(revokeKeyOf(env, db, owner.userId, "key_unknown"))).code).toBe("not_found");
    ok(await callWith(key.apiKey, "getAccount"));
    expect((await listEvents(db, other.userId, 1, 10)).items).toEqual([]);
  });

  it("of parallel revocations of one key, exactly one does it", async () => {
    const user = await newUser();
    const key = await issue(user);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => revokeKeyOf(env, db, user.userId, key.keyId)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect((await listEvents(db, user.userId, 1, 10)).items.filter((e) => e.kind === "keyRevoked")).toHaveLength(1);
  });

  it("the operator's revoke goes through it too", async () => {
    const user = await newUser();
    const key = await issue(user);
    expect((await admin("DELETE", `/keys/${key.keyId}`)).body.keyId).toBe(key.keyId);
    expect((await listKeys(env, db, user.userId, 1, 1)).items[0]!.state).toBe("revoked");
    expect((await listEvents(db, user.userId, 1, 10)).items[0]!.kind).toBe("keyRevoked");
  });
});

describe("accountSummary", () => {
  const addUsage = (userId: string, daysAgo: number, count: number) => setUsedOn(userId, count, daysAgo);

  it("shows what getAccount answers, but the calling key", async () => {
    const user = await newUser("LIGHT");
    const key = await issue(user, { preset: "viewOnly" });
    const { key: calling, ...account } = ok(await callWith(key.apiKey, "getAccount"));
    expect(calling.keyId).toBe(key.keyId);
    const { usageHistory, ...summary } = await accountSummary(env, db, user.userId, new Date());
    expect(summary).toEqual(account);
    expect(usageHistory.at(-1)).toEqual({ date: account.usage.date, used: 1 });
  });

  it("charts the last 30 UTC days, oldest first, with zeros filled, and only the user's own calls", async () => {
    const [user, other] = await Promise.all([newUser(), newUser()]);
    await Promise.all([addUsage(user.userId, 3, 40), addUsage(user.userId, 29, 7), addUsage(user.userId, 30, 999)]);
    await Promise.all([addUsage(other.userId, 3, 5), addUsage(other.userId, 0, 5)]);
    const now = new Date();
    const { usageHistory } = await accountSummary(env, db, user.userId, now);
    expect(usageHistory).toHaveLength(USAGE_HISTORY_DAYS);
    expect(usageHistory.map((day) => day.date)).toEqual(
      Array.from({ length: 30 }, (_, i) => utcDay(new Date(now.getTime() - (29 - i) * DAY_MS))),
    );
    expect(usageHistory[0]).toEqual({ date: utcDay(new Date(now.getTime() - 29 * DAY_MS)), used: 7 });
    expect(usageHistory[26]!.used).toBe(40);
    expect(usageHistory.reduce((sum, day) => sum + day.used, 0)).toBe(47);
  });

  it("answers 404 for an unknown user", async () => {
    expect((await refusal(accountSummary(env, db, "usr_unknown", new Date()))).code).toBe("not_found");
  });
});
