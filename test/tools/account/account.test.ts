import { describe, expect, it } from "vitest";
import { PLAN_LIMITS, REGISTERED_LIMITS } from "../../../src/platform/plans";
import { callWith, newAccount } from "../../support/harness";

describe("getAccount", () => {
  it("returns plan, registered counts with limits, today's usage and rate (GET and POST)", async () => {
    const account = await newAccount({ plan: "LIGHT", scopes: ["library:read"] });
    const reply = await account.call("getAccount", {}, "GET");
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      userId: account.userId,
      plan: "LIGHT",
      key: { keyId: account.keyId, scopes: ["library:read"] },
      registered: { apiKeys: { count: 1, limit: REGISTERED_LIMITS.apiKeys.LIGHT } },
      usage: { used: 1, limit: PLAN_LIMITS.LIGHT.dailyQuota, remaining: PLAN_LIMITS.LIGHT.dailyQuota - 1 },
      rate: { burstLimit: PLAN_LIMITS.LIGHT.burstLimit },
    });
    expect(reply.body.usage.usageRate).toBeCloseTo(1 / PLAN_LIMITS.LIGHT.dailyQuota, 6);
    expect((await account.call("getAccount")).body.usage.used).toBe(2);
  });

  it("needs no scope: a key with none still proves itself", async () => {
    const account = await newAccount();
    const bare = await account.newKey(["games:read"]);
    expect((await callWith(bare.apiKey, "getAccount")).status).toBe(200);
  });

  it("refuses arguments it does not take", async () => {
    const account = await newAccount();
    const reply = await account.call("getAccount", { userId: "usr_someoneElse" });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("userId");
  });

  it("shows only the caller's own account", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount({ plan: "FREE" })]);
    expect((await a.call("getAccount")).body.userId).toBe(a.userId);
    expect((await b.call("getAccount")).body).toMatchObject({ userId: b.userId, plan: "FREE" });
  });
});
