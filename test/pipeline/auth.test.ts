import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, authHeader, callWith, newAccount, send, sendTo, testApp } from "../support/harness";
import { testTools } from "../support/testTools";

const app = testApp(testTools);
const echo = (apiKey: string, args: Record<string, unknown>) =>
  sendTo(app, "/rest/v1/testEcho", { method: "POST", headers: authHeader(apiKey), body: JSON.stringify(args) });

describe("authentication (401, entry-error shape)", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["no Authorization header", {}, "unauthorized"],
    ["a non-Bearer scheme", { Authorization: "Basic dXNlcjpwYXNz" }, "unauthorized"],
    ["an empty bearer", { Authorization: "Bearer " }, "unauthorized"],
    ["a malformed key", { Authorization: "Bearer not-a-key" }, "invalid_token"],
    ["an unknown well-formed key", { Authorization: `Bearer rgc_${"A".repeat(48)}` }, "invalid_token"],
  ];
  it.each(cases)("refuses %s", async (_label, headers, error) => {
    const reply = await send("/rest/v1/getAccount", { headers });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ error });
    expect(reply.body.requestId).toMatch(/^req_/);
    // RFC 6750: no error fields without a token; a refused token names the error and why.
    const challenge = reply.headers.get("WWW-Authenticate");
    if (error === "unauthorized") expect(challenge).toBe("Bearer");
    else {
      expect(reply.body.reason).toBe("unknown");
      expect(challenge).toBe(`Bearer error="invalid_token", error_description="${reply.body.message}"`);
    }
  });

  it("refuses a key whose secret part was altered", async () => {
    const account = await newAccount();
    const tampered = `${account.apiKey.slice(0, -1)}${account.apiKey.endsWith("A") ? "B" : "A"}`;
    expect((await callWith(tampered, "getAccount")).status).toBe(401);
  });

  it("refuses a revoked key at once while the user's other keys keep working", async () => {
    const account = await newAccount();
    const second = await account.newKey(["games:read"]);
    expect((await account.call("getAccount")).status).toBe(200);
    expect((await admin("DELETE", `/keys/${account.keyId}`)).status).toBe(200);
    expect((await account.call("getAccount")).status).toBe(401);
    expect((await callWith(second.apiKey, "getAccount")).status).toBe(200);
  });

  it("never stores the key itself, only its hash and a display prefix", async () => {
    const account = await newAccount();
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(account.keyId).first<Record<string, string>>();
    expect(Object.values(row!)).not.toContain(account.apiKey);
    expect(row!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(account.apiKey.startsWith(String(row!.display_prefix))).toBe(true);
  });
});

describe("authorization (403)", () => {
  it("answers insufficient_scope listing the scopes the tool needs", async () => {
    const account = await newAccount({ scopes: ["library:read"] });
    const reply = await echo(account.apiKey, {});
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["games:read"] });
  });

  it("answers plan_required with upgradeUrl when the tool is above the plan", async () => {
    const account = await newAccount({ plan: "LIGHT" });
    const reply = await sendTo(app, "/rest/v1/testPremiumWrite", {
      method: "POST",
      headers: authHeader(account.apiKey),
      body: JSON.stringify({ value: 1 }),
    });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "plan_required" });
    expect(reply.body.upgradeUrl).toMatch(/^https?:\/\//);
  });

  it("answers access_suspended for a suspended account, and serves it again once lifted", async () => {
    const account = await newAccount();
    await admin("PATCH", `/users/${account.userId}`, { suspended: true });
    const reply = await account.call("getAccount");
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("access_suspended");
    await admin("PATCH", `/users/${account.userId}`, { suspended: false });
    expect((await account.call("getAccount")).status).toBe(200);
  });

  it("checks a plan change on the next call", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    await admin("PATCH", `/users/${account.userId}`, { plan: "FREE" });
    expect((await account.call("getAccount")).body.plan).toBe("FREE");
  });
});

// Identity changes between two reads of the same key: the second must be answered as the new one,
// whatever a previous call of that key left behind.
describe("identity changes between two reads", () => {
  it("refuses a revoked key at once on a read it was served before", async () => {
    const account = await newAccount();
    expect((await account.call("searchGames", { query: "ゼルダ" })).status).toBe(200);
    await admin("DELETE", `/keys/${account.keyId}`);
    expect((await account.call("searchGames", { query: "ゼルダ" })).status).toBe(401);
  });

  it("refuses a suspended account at once on a read it was served before", async () => {
    const account = await newAccount();
    expect((await account.call("searchGames", { query: "ゼルダ" })).status).toBe(200);
    await admin("PATCH", `/users/${account.userId}`, { suspended: true });
    expect((await account.call("searchGames", { query: "ゼルダ" })).body.code).toBe("access_suspended");
  });

  it("applies a downgrade to the next read: its tools and arguments", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    expect((await account.call("browseGames", {})).status).toBe(200);
    expect((await echo(account.apiKey, { flag: true })).status).toBe(200);
    await admin("PATCH", `/users/${account.userId}`, { plan: "FREE" });
    expect((await account.call("browseGames", {})).body.code).toBe("plan_required");
    expect((await echo(account.apiKey, { flag: true })).body).toMatchObject({ code: "plan_required", field: "flag" });
  });

  it("applies an upgrade to the next read", async () => {
    const account = await newAccount({ plan: "FREE" });
    expect((await echo(account.apiKey, { flag: true })).status).toBe(403);
    await admin("PATCH", `/users/${account.userId}`, { plan: "PREMIUM" });
    expect((await echo(account.apiKey, { flag: true })).status).toBe(200);
    expect((await account.call("browseGames", {})).status).toBe(200);
  });
});

describe("planDifferences are enforced as published", () => {
  it("refuses an argument removed on the caller's plan with 403 plan_required naming it", async () => {
    const free = await newAccount({ plan: "FREE" });
    const reply = await echo(free.apiKey, { flag: true });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "plan_required", field: "flag" });
    expect(reply.body.message).toContain("flag");
    expect((await echo((await newAccount({ plan: "PREMIUM" })).apiKey, { flag: true })).status).toBe(200);
  });

  it("refuses a value outside the narrowed definition, and accepts one inside it", async () => {
    const free = await newAccount({ plan: "FREE" });
    expect((await echo(free.apiKey, { count: 9 })).body).toMatchObject({ code: "plan_required", field: "count" });
    expect((await echo(free.apiKey, { count: 5 })).status).toBe(200);
  });

  it("requires an argument that only the lower plan requires", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    expect((await echo(light.apiKey, {})).body).toMatchObject({ code: "invalid_input", field: "text" });
    expect((await echo(light.apiKey, { text: "x" })).status).toBe(200);
  });
});
