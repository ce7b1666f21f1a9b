import { describe, expect, it } from "vitest";
import { BURST_WINDOW_SEC, PLAN_LIMITS } from "../../src/platform/plans";
import { atWindowStart, setUsedOn, useBurstWindow, usedToday } from "../support/accounting";
import { authHeader, newAccount, type Reply, send, sendTo, testApp } from "../support/harness";
import { testTools } from "../support/testTools";

describe("daily usage quota", () => {
  it("counts each tool call exactly", async () => {
    const account = await newAccount();
    for (let i = 0; i < 3; i++) await account.call("getAccount");
    expect(await usedToday(account.userId)).toBe(3);
    expect((await account.call("getAccount")).body.usage).toMatchObject({ used: 4, limit: PLAN_LIMITS.PREMIUM.dailyQuota });
  });

  it("answers 429 with Retry-After, retryable, resetAt and remaining once the quota is used up", async () => {
    const account = await newAccount({ plan: "FREE" });
    const limit = PLAN_LIMITS.FREE.dailyQuota;
    await setUsedOn(account.userId, limit - 1);
    expect((await account.call("getAccount")).status).toBe(200);
    const reply = await account.call("getAccount");
    expect(reply.status).toBe(429);
    expect(reply.body).toMatchObject({ error: "quota_exceeded", retryable: true, remaining: 0 });
    expect(reply.body.resetAt).toBe(`${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`);
    expect(Number(reply.headers.get("Retry-After"))).toBe(reply.body.retryAfterSec);
    expect(reply.body.retryAfterSec).toBeGreaterThan(0);
    expect(await usedToday(account.userId)).toBe(limit);
  });

  it("gives the charge back when the call fails on the server's side", async () => {
    const account = await newAccount();
    const reply = await sendTo(testApp(testTools), "/rest/v1/testFailing", { headers: authHeader(account.apiKey) });
    expect(reply.status).toBe(500);
    expect(await usedToday(account.userId)).toBe(0);
  });

  it("charges nothing for a call refused for its key's scope or its plan", async () => {
    const account = await newAccount({ plan: "FREE", scopes: ["games:read"] });
    expect((await account.call("getLibrary")).body.code).toBe("insufficient_scope");
    expect((await account.call("browseGames", { platformIds: [1] })).body.code).toBe("plan_required");
    expect(await usedToday(account.userId)).toBe(0);
  });

  it("charges nobody for a known key id presented with a wrong secret", async () => {
    const account = await newAccount();
    const last = account.apiKey.at(-1) === "A" ? "B" : "A";
    const forged = await send("/rest/v1/getAccount", { headers: authHeader(`${account.apiKey.slice(0, -1)}${last}`) });
    expect(forged.status).toBe(401);
    expect(await usedToday(account.userId)).toBe(0);
  });

  it("never counts catalog calls, with or without a key", async () => {
    const account = await newAccount();
    await send("/rest/v1/tools", { headers: authHeader(account.apiKey) });
    await send("/rest/v1/openapi.json", { headers: authHeader(account.apiKey) });
    expect(await usedToday(account.userId)).toBe(0);
  });
});

describe("burst limit per key", () => {
  it("answers 429 rate_limited within a burst, for that key only", async () => {
    const account = await newAccount({ plan: "FREE" });
    const { burstLimit } = PLAN_LIMITS.FREE;
    // Any run of 2 * limit + 1 quick calls holds a full window's worth, whatever the boundaries.
    let limited: Reply | undefined;
    let served = 0;
    for (let i = 0; i <= 2 * burstLimit && !limited; i++) {
      const reply = await account.call("getAccount");
      if (reply.status === 429) limited = reply;
      else served++;
    }
    expect(limited, "no 429 within two windows' worth of calls").toBeDefined();
    expect(await usedToday(account.userId), "a refused call is not charged").toBe(served);
    expect(limited!.body).toMatchObject({ error: "rate_limited", retryable: true, remaining: 0 });
    expect(limited!.body.retryAfterSec).toBeGreaterThan(0);
    expect(limited!.body.retryAfterSec).toBeLessThanOrEqual(BURST_WINDOW_SEC);
    expect(limited!.headers.get("Retry-After")).toBe(String(limited!.body.retryAfterSec));
    expect(Date.parse(limited!.body.resetAt)).toBeGreaterThan(Date.now() - 1000);

    const otherKey = await account.newKey(["games:read"]);
    const other = await send("/rest/v1/getAccount", { headers: authHeader(otherKey.apiKey) });
    expect(other.status).toBe(200);
  });
});

describe("burst limit under concurrency", () => {
  it("lets exactly the plan's burst through when 2x as many calls arrive at once", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    const { burstLimit } = PLAN_LIMITS.PREMIUM;
    await atWindowStart();
    const replies = await Promise.all(Array.from({ length: 2 * burstLimit }, () => account.call("listGenres")));
    const served = replies.filter((reply) => reply.status === 200).length;
    const limited = replies.filter((reply) => reply.status === 429);
    expect(served + limited.length).toBe(2 * burstLimit);
    expect(served).toBe(burstLimit);
    expect(await usedToday(account.userId), "only served calls are charged").toBe(served);
    const resetAt = Date.parse(limited[0]!.body.resetAt);
    expect(resetAt % (BURST_WINDOW_SEC * 1000), "resetAt is the window's end").toBe(0);
    expect(limited[0]!.headers.get("Retry-After")).toBe(String(limited[0]!.body.retryAfterSec));
  });
});

describe("refused calls and the daily quota", () => {
  it("never lets a refused call hold quota: every valid call is served while refused ones race it", async () => {
    const plan = "LIGHT";
    const { dailyQuota, burstLimit } = PLAN_LIMITS[plan];
    const account = await newAccount({ plan });
    const viewer = await account.newKey(["library:read"]);
    const planBound = await account.newKey(["games:read"]);
    const exhausted = await account.newKey(["games:read"]);
    const valid = 12;
    await setUsedOn(account.userId, dailyQuota - valid);
    // The third key's burst window is already full: its calls are refused by the burst limit.
    await useBurstWindow(exhausted.keyId, burstLimit);
    const times = (n: number, call: () => Promise<Reply>) => Array.from({ length: n }, call);
    const refusedFor = async (code: string, replies: Promise<Reply>[]) => ({ code, replies: await Promise.all(replies) });
    const [served, ...refused] = await Promise.all([
      Promise.all(times(valid, () => account.call("listGenres"))),
      refusedFor(
        "insufficient_scope",
        times(12, () => send("/rest/v1/listGenres", { headers: authHeader(viewer.apiKey) })),
      ),
      refusedFor(
        "plan_required",
        times(12, () => send("/rest/v1/browseGames", { headers: authHeader(planBound.apiKey) })),
      ),
      refusedFor(
        "rate_limited",
        times(12, () => send("/rest/v1/listGenres", { headers: authHeader(exhausted.apiKey) })),
      ),
    ]);
    expect(
      served.map((reply) => reply.status),
      JSON.stringify(served.map((reply) => reply.body.code)),
    ).toEqual(Array(valid).fill(200));
    for (const { code, replies } of refused) expect(replies.map((reply) => reply.body.code)).toEqual(Array(12).fill(code));
    expect(await usedToday(account.userId), "exactly the valid calls were charged").toBe(dailyQuota);
  });
});
