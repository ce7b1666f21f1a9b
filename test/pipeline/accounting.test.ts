// Each user's accounting object (src/platform/userAccounting.ts): exact limits however many calls
// arrive at once, on every face together; refunds racing charges; revocation and suspension racing
// a key's first call; what getAccount and the settings page read; and a read call's D1 traffic:
// reads only.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountSummary } from "../../src/accounts/accountSummary";
import { accountingOf } from "../../src/platform/admission";
import { createDb } from "../../src/platform/db";
import { PLAN_LIMITS } from "../../src/platform/plans";
import { DOWNLOAD_COSTS } from "../../src/tools/exports/downloadCosts";
import { atWindowStart, burstUsed, setUsedOn, usedOn, usedToday } from "../support/accounting";
import { fetchLink } from "../support/downloads";
import { admin, authHeader, callWith, newAccount, type Reply, send, sendTo, testApp } from "../support/harness";
import { statementsOf } from "../support/recordingD1";
import { testTools } from "../support/testTools";

const mcpToolCall = (apiKey: string, name: string, args: Record<string, unknown> = {}) =>
  send("/mcp", {
    method: "POST",
    headers: { ...authHeader(apiKey), "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });

/** What an MCP tool call ended with: "ok" or the code of its error (the REST error body, as the result's text). */
const mcpOutcome = (reply: Reply) => (reply.body.result?.isError ? JSON.parse(reply.body.result.content[0].text).code : "ok");
const restOutcome = (reply: Reply) => (reply.status === 200 ? "ok" : reply.body.code);
const count = (outcomes: string[], outcome: string) => outcomes.filter((o) => o === outcome).length;

describe("exact limits under concurrency", () => {
  it("admits exactly the burst limit of 80 when 200 calls of one key arrive at once, over REST and MCP together", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    const { burstLimit } = PLAN_LIMITS.PREMIUM;
    await atWindowStart();
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? mcpToolCall(account.apiKey, "listGenres") : account.call("listGenres"))),
    );
    const outcomes = replies.map((reply, i) => (i % 2 ? mcpOutcome(reply) : restOutcome(reply)));
    expect(count(outcomes, "ok")).toBe(burstLimit);
    expect(count(outcomes, "rate_limited")).toBe(200 - burstLimit);
    expect(await burstUsed(account.keyId)).toBe(burstLimit);
    expect(await usedToday(account.userId), "only admitted calls are charged").toBe(burstLimit);
  });

  it("admits exactly the quota's room when 200 calls on four keys arrive at once, over REST, MCP and downloads", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    const keys = [account, ...(await Promise.all([1, 2, 3].map(() => account.newKey(["library:read", "games:read"]))))];
    const link = await account.call("exportMyData", { dataset: "library", format: "json" });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const { dailyQuota } = PLAN_LIMITS.PREMIUM;
    const room = 60;
    await setUsedOn(account.userId, dailyQuota - room);
    await atWindowStart();
    const calls = Array.from({ length: 200 }, (_, i) => {
      const key = keys[i % 4]!.apiKey;
      if (i % 10 === 0)
        return fetchLink(link.body.url).then(async (response) => ({
          kind: "download",
          outcome: response.status === 200 ? "ok" : (await response.json<{ code: string }>()).code,
        }));
      if (i % 2) return mcpToolCall(key, "listGenres").then((reply) => ({ kind: "call", outcome: mcpOutcome(reply) }));
      return callWith(key, "listGenres").then((reply) => ({ kind: "call", outcome: restOutcome(reply) }));
    });
    const results = await Promise.all(calls);
    const served = results.filter((result) => result.outcome === "ok");
    const charged = served.reduce((sum, result) => sum + (result.kind === "download" ? DOWNLOAD_COSTS.myData : 1), 0);
    expect(
      results.every((result) => ["ok", "quota_exceeded"].includes(result.outcome)),
      JSON.stringify(results),
    ).toBe(true);
    expect(charged).toBeLessThanOrEqual(room);
    // Only a download's 5 units can be left over: every call of 1 unit was served while 1 was free.
    expect(room - charged).toBeLessThan(DOWNLOAD_COSTS.myData);
    expect(await usedToday(account.userId)).toBe(dailyQuota - room + charged);
    expect(
      count(
        results.filter((r) => r.kind === "call").map((r) => r.outcome),
        "quota_exceeded",
      ),
    ).toBeGreaterThan(0);
  });

  it("gives back exactly what failed calls were charged while other calls race them for the last units", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    const second = await account.newKey(["games:read"]);
    const app = testApp(testTools);
    const { dailyQuota } = PLAN_LIMITS.PREMIUM;
    const room = 30;
    await setUsedOn(account.userId, dailyQuota - room);
    await atWindowStart();
    const [failing, valid] = await Promise.all([
      Promise.all(Array.from({ length: 40 }, () => sendTo(app, "/rest/v1/testFailing", { headers: authHeader(account.apiKey) }))),
      Promise.all(Array.from({ length: 40 }, () => callWith(second.apiKey, "listGenres"))),
    ]);
    expect(failing.every((reply) => reply.status === 500 || reply.body.code === "quota_exceeded")).toBe(true);
    const served = valid.filter((reply) => reply.status === 200).length;
    expect(valid.every((reply) => reply.status === 200 || reply.body.code === "quota_exceeded")).toBe(true);
    expect(served).toBeGreaterThan(0);
    expect(await usedToday(account.userId), "every failed call's unit came back; every served call's stayed").toBe(
      dailyQuota - room + served,
    );
    // Once the races are over, the units the failures held are there to use.
    const left = room - served;
    const after = await Promise.all(Array.from({ length: left + 1 }, () => callWith(second.apiKey, "listGenres")));
    expect(after.filter((reply) => reply.status === 200)).toHaveLength(left);
  });
});

describe("changes the object hears before D1", () => {
  it("refuses a key at once once its revocation returns, however many of its first calls race it", async () => {
    const account = await newAccount();
    const racing = Array.from({ length: 20 }, () => account.call("listGenres"));
    const revoked = admin("DELETE", `/keys/${account.keyId}`);
    const replies = await Promise.all(racing);
    expect((await revoked).status).toBe(200);
    expect(replies.every((reply) => reply.status === 200 || reply.status === 401)).toBe(true);
    expect((await account.call("listGenres")).status).toBe(401);
    expect((await mcpToolCall(account.apiKey, "listGenres")).status).toBe(401);
  });

  it("refuses a suspended account at once, and counts nothing for it, however many first calls race the suspension", async () => {
    const account = await newAccount();
    const racing = Array.from({ length: 20 }, () => account.call("listGenres"));
    const suspended = admin("PATCH", `/users/${account.userId}`, { suspended: true });
    const replies = await Promise.all(racing);
    expect((await suspended).status).toBe(200);
    const servedBefore = replies.filter((reply) => reply.status === 200).length;
    const refused = await account.call("listGenres");
    expect(refused.body.code).toBe("access_suspended");
    expect(await usedToday(account.userId)).toBe(servedBefore);
  });

  it("applies a plan change to the limits on the next call", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    expect((await account.call("listGenres")).headers.get("RateLimit-Policy")).toContain(`q=${PLAN_LIMITS.PREMIUM.burstLimit};`);
    await admin("PATCH", `/users/${account.userId}`, { plan: "FREE" });
    const reply = await account.call("listGenres");
    expect(reply.headers.get("RateLimit-Policy")).toContain(`"burst";q=${PLAN_LIMITS.FREE.burstLimit};`);
    expect(reply.headers.get("RateLimit-Policy")).toContain(`"daily";q=${PLAN_LIMITS.FREE.dailyQuota};`);
  });
});

describe("what getAccount and the settings page read", () => {
  it("both show the object's count of today, the call itself included", async () => {
    const account = await newAccount();
    await Promise.all(Array.from({ length: 7 }, () => account.call("listGenres")));
    const { usage } = (await account.call("getAccount")).body;
    expect(usage.used).toBe(8);
    expect(await usedToday(account.userId)).toBe(8);
    const summary = await accountSummary(env, createDb(env.DB), account.userId, new Date());
    expect(summary.usage.used).toBe(8);
    expect(summary.usageHistory.at(-1)!.used).toBe(8);
  });

  it("keeps the history the page charts and forgets older days as a new day begins", async () => {
    const account = await newAccount();
    await Promise.all([setUsedOn(account.userId, 9, 29), setUsedOn(account.userId, 4, 30), setUsedOn(account.userId, 3, 45)]);
    expect((await account.call("listGenres")).status).toBe(200);
    expect(await usedOn(account.userId, 29)).toBe(9);
    const kept = await runInDurableObject(accountingOf(env, account.userId), (_, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM daily_usage").one(),
    );
    expect(kept.n, "today and 29 days ago").toBe(2);
  });
});

describe("a read call's D1 traffic", () => {
  const WRITE = /^\s*(insert|update|delete|replace|create|drop|alter)\b/i;
  const READ_CALLS: [string, Record<string, unknown>][] = [
    ["getLibrary", {}],
    ["searchGames", { query: "ゼルダ" }],
    ["listGenres", {}],
    ["getWishlist", {}],
    ["getAccount", {}],
    ["getPlayRecords", {}],
    ["getCollections", {}],
  ];

  it.each(READ_CALLS)("%s writes nothing to D1, on its key's first call and after", async (tool, args) => {
    const account = await newAccount();
    const request = {
      method: "POST",
      headers: { ...authHeader(account.apiKey), "Content-Type": "application/json" },
      body: JSON.stringify(args),
    };
    for (const round of ["first", "later"]) {
      const { reply, statements } = await statementsOf(`/rest/v1/${tool}`, request);
      expect(reply.status, `${round}: ${JSON.stringify(reply.body)}`).toBe(200);
      expect(
        statements.filter((statement) => WRITE.test(statement)),
        round,
      ).toEqual([]);
    }
    expect(await usedToday(account.userId)).toBe(2);
  });

  it("an MCP session's requests write nothing to D1 either", async () => {
    const account = await newAccount();
    const post = (body: unknown) => ({
      method: "POST",
      headers: { ...authHeader(account.apiKey), "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    });
    const list = await statementsOf("/mcp", post({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    const call = await statementsOf(
      "/mcp",
      post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "getLibrary", arguments: {} } }),
    );
    expect(call.reply.body.result.isError ?? false, JSON.stringify(call.reply.body)).toBe(false);
    expect([...list.statements, ...call.statements].filter((statement) => WRITE.test(statement))).toEqual([]);
  });
});
