import { describe, expect, it } from "vitest";
import { KEY_PRESETS, REGISTERED_LIMITS } from "../src/platform/plans";
import { admin, callWith, send } from "./support/harness";

const createUser = async (plan = "PREMIUM") => (await admin("POST", "/users", { plan, name: "someone" })).body.userId as string;

describe("operator API authentication", () => {
  it.each([
    ["no token", {}],
    ["a wrong token", { Authorization: "Bearer wrong" }],
    ["a user's API key scheme", { Authorization: "Basic x" }],
  ])("refuses %s with 401", async (_label, headers) => {
    const reply = await send("/admin/v1/users", { method: "POST", headers, body: JSON.stringify({ plan: "FREE" }) });
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe("unauthorized");
  });

  it("is not part of the tool catalog", async () => {
    const catalog = await send("/rest/v1/tools");
    expect(JSON.stringify(catalog.body)).not.toContain("/admin");
  });
});

describe("users", () => {
  it("creates a user with a plan and lists it", async () => {
    const reply = await admin("POST", "/users", { plan: "LIGHT", name: "collector" });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ plan: "LIGHT", name: "collector" });
    expect(reply.body.userId).toMatch(/^usr_/);
    const list = await admin("GET", "/users?limit=1000");
    expect(list.body.effectiveLimit).toBe(100);
    expect(list.body.totalCount).toBeGreaterThan(0);
  });

  it.each([
    [{}, "plan"],
    [{ plan: "GOLD" }, "plan"],
    [{ plan: "FREE", name: "" }, "name"],
    [{ plan: "FREE", extra: 1 }, "extra"],
  ])("refuses %j naming %s", async (body, field) => {
    const reply = await admin("POST", "/users", body);
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe(field);
  });

  it("changes plan and suspension; an unknown user is 404", async () => {
    const userId = await createUser("FREE");
    const reply = await admin("PATCH", `/users/${userId}`, { plan: "PREMIUM", suspended: true });
    expect(reply.body).toMatchObject({ userId, plan: "PREMIUM", suspended: true });
    expect((await admin("PATCH", "/users/usr_missing", { plan: "FREE" })).status).toBe(404);
    expect((await admin("PATCH", `/users/${userId}`, {})).status).toBe(400);
  });
});

describe("keys", () => {
  it.each(["viewOnly", "standard"] as const)("issues a %s key with the preset's scopes, shown once", async (preset) => {
    const userId = await createUser();
    const reply = await admin("POST", `/users/${userId}/keys`, { preset });
    expect(reply.status).toBe(201);
    expect(reply.body.scopes).toEqual([...KEY_PRESETS[preset]]);
    expect(reply.body.apiKey).toMatch(/^rgc_[A-Za-z0-9]{48}$/);
    expect(reply.body.scopes.some((s: string) => s.endsWith(":delete"))).toBe(false);
    expect((await callWith(reply.body.apiKey, "getAccount")).body.key.scopes).toEqual([...KEY_PRESETS[preset]]);
  });

  it("grants delete scopes only through the individual preset", async () => {
    const userId = await createUser();
    const reply = await admin("POST", `/users/${userId}/keys`, { preset: "individual", scopes: ["library:delete", "library:read"] });
    expect(reply.body.scopes).toEqual(["library:delete", "library:read"]);
    expect((await admin("POST", `/users/${userId}/keys`, { preset: "standard", scopes: ["library:delete"] })).status).toBe(400);
    expect((await admin("POST", `/users/${userId}/keys`, { preset: "individual" })).body.field).toBe("scopes");
    expect((await admin("POST", `/users/${userId}/keys`, { preset: "individual", scopes: ["root"] })).status).toBe(400);
  });

  it("refuses a key for an unknown user, and more keys than the plan allows", async () => {
    expect((await admin("POST", "/users/usr_missing/keys", { preset: "viewOnly" })).status).toBe(404);
    const userId = await createUser("FREE");
    for (let i = 0; i < REGISTERED_LIMITS.apiKeys.FREE; i++) {
      expect((await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly" })).status).toBe(201);
    }
    const over = await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly" });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe("plan_required");
  });

  it("revokes a key once; revoking again is 404", async () => {
    const userId = await createUser();
    const key = (await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly" })).body;
    const revoked = await admin("DELETE", `/keys/${key.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.keyId).toBe(key.keyId);
    expect((await callWith(key.apiKey, "getAccount")).status).toBe(401);
    expect((await admin("DELETE", `/keys/${key.keyId}`)).status).toBe(404);
  });
});
