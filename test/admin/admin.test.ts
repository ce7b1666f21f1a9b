import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INVITE_TTL_HOURS, inviteByToken } from "../../src/accounts/invites";
import { OPERATOR_AUTH_FAILURES_PER_WINDOW } from "../../src/admin/operatorAuth";
import { authFailureCounter } from "../../src/admin/queries";
import { createApp } from "../../src/app";
import { createDb } from "../../src/platform/db";
import { countFailure, failuresIn } from "../../src/platform/failedAttempts";
import { KEY_PRESETS, REGISTERED_LIMITS } from "../../src/platform/plans";
import { burstWindowOf } from "../../src/platform/quota";
import { ADMIN_TOKEN, admin, callWith, send, sendTo } from "../support/harness";

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

describe("key expiry and the key list", () => {
  it("issues a key that expires after expiresInDays (30, 90, 365), and refuses other values naming the field", async () => {
    const userId = await createUser();
    const reply = await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly", expiresInDays: 30 });
    expect(reply.status).toBe(201);
    expect(Date.parse(reply.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly" })).body.expiresAt).toBeNull();
    for (const expiresInDays of [7, "30", 366]) {
      const refused = await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly", expiresInDays });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "invalid_input", field: "expiresInDays" });
    }
  });

  it("lists a user's keys a page at a time, newest first, never the secret", async () => {
    const userId = await createUser();
    const issued = [];
    for (const name of ["one", "two", "three"])
      issued.push((await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly", name })).body);
    await admin("DELETE", `/keys/${issued[0].keyId}`);
    const first = await admin("GET", `/users/${userId}/keys?page=1&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, returnedCount: 2, totalCount: 3, hasMore: true, effectiveLimit: 2 });
    expect(first.body.items.map((key: { name: string }) => key.name)).toEqual(["three", "two"]);
    const second = await admin("GET", `/users/${userId}/keys?page=2&limit=2`);
    expect(second.body.items).toEqual([expect.objectContaining({ keyId: issued[0].keyId, state: "revoked", lastUsedAt: null })]);
    expect(JSON.stringify([first.body, second.body])).not.toContain(issued[1].apiKey);
    expect((await admin("GET", `/users/${userId}/keys?limit=1000`)).body).toMatchObject({ effectiveLimit: 100, limitReduced: true });
  });

  it("answers 404 for an unknown user, 400 for a bad page and 401 without the operator token", async () => {
    expect((await admin("GET", "/users/usr_missing/keys")).status).toBe(404);
    const userId = await createUser();
    expect((await admin("GET", `/users/${userId}/keys?page=0`)).body).toMatchObject({ code: "invalid_input", field: "page" });
    expect((await send(`/admin/v1/users/${userId}/keys`)).status).toBe(401);
  });
});

describe("invites", () => {
  const invite = (userId: string) => admin("POST", `/users/${userId}/invites`);
  const tokenOf = (url: string) => new URL(url).pathname.replace(/^\/invite\//, "");

  it("issues a one-time link on the service's origin, valid 72 hours, that names the user", async () => {
    const userId = await createUser();
    const reply = await invite(userId);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      inviteId: expect.stringMatching(/^inv_/),
      url: expect.stringMatching(/^https:\/\/api\.test\/invite\/\S+$/),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(reply.body.expiresAt) - Date.now()).toBeGreaterThan(INVITE_TTL_HOURS * 3_600_000 - 60_000);
    const found = await inviteByToken(createDb(env.DB), tokenOf(reply.body.url));
    expect(found).toMatchObject({ inviteId: reply.body.inviteId, userId, state: "live" });
  });

  it("gives a user any number of invites (recovery), each its own link", async () => {
    const userId = await createUser();
    const [a, b] = await Promise.all([invite(userId), invite(userId)]);
    expect(a.body.url).not.toBe(b.body.url);
  });

  it("puts PUBLIC_BASE_URL in the link when set, and localhost for a loopback address (browsers refuse passkeys on IP origins)", async () => {
    const userId = await createUser();
    const headers = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const configured = await sendTo(
      createApp(),
      `/admin/v1/users/${userId}/invites`,
      { method: "POST", headers },
      { PUBLIC_BASE_URL: "https://rgc.example" },
    );
    expect(configured.body.url).toMatch(/^https:\/\/rgc\.example\/invite\//);
    const local = await exports.default.fetch(
      new Request(`http://127.0.0.1:8787/admin/v1/users/${userId}/invites`, { method: "POST", headers }),
    );
    expect(((await local.json()) as { url: string }).url).toMatch(/^http:\/\/localhost:8787\/invite\//);
  });

  it("answers 404 for an unknown user and 401 without the operator token", async () => {
    expect((await invite("usr_missing")).body).toMatchObject({ code: "not_found" });
    expect((await invite("usr_missing")).status).toBe(404);
    expect((await send(`/admin/v1/users/${await createUser()}/invites`, { method: "POST" })).status).toBe(401);
  });
});

describe("throttling wrong operator tokens", () => {
  const LIMIT = OPERATOR_AUTH_FAILURES_PER_WINDOW;
  let next = 0;
  /** A client address no other test uses (the harness's own calls carry none: `local`). */
  const freshIPv4 = () => `198.51.100.${next++}`;
  const from = (address: string, token: string) =>
    send("/admin/v1/users?limit=1", { headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": address } });

  /**
   * Runs `attempt` until it starts and ends within one fixed window (it takes far less than one,
   * but could straddle a boundary, where the count starts again), and answers its result.
   */
  async function withinOneWindow<T>(attempt: () => Promise<T>): Promise<T> {
    for (;;) {
      const window = burstWindowOf(new Date()).start;
      const result = await attempt();
      if (burstWindowOf(new Date()).start === window) return result;
    }
  }

  it("answers exactly the limit of concurrent wrong tokens with 401, every other with 429 and Retry-After", async () => {
    const { statuses, throttled } = await withinOneWindow(async () => {
      const address = freshIPv4();
      const replies = await Promise.all(Array.from({ length: LIMIT * 5 }, (_, i) => from(address, `wrong-${i}`)));
      return { statuses: replies.map((reply) => reply.status), throttled: replies.find((reply) => reply.status === 429) };
    });
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(LIMIT * 4);
    expect(throttled!.body).toMatchObject({ error: "rate_limited", code: "rate_limited", retryable: true, requestId: expect.any(String) });
    expect(Number(throttled!.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("lets the right token through from an address past its limit of wrong ones, which stay throttled", async () => {
    const { rightFromThrottled, wrongAfter } = await withinOneWindow(async () => {
      const address = freshIPv4();
      for (let i = 0; i < LIMIT + 2; i++) expect((await from(address, `wrong-${i}`)).status).toBe(i < LIMIT ? 401 : 429);
      return { rightFromThrottled: await from(address, ADMIN_TOKEN), wrongAfter: await from(address, "wrong-again") };
    });
    expect(rightFromThrottled.status).toBe(200);
    expect(wrongAfter.status).toBe(429);
  });

  it("lets the right token through among many concurrent wrong ones from the same address", async () => {
    const { statuses, rights } = await withinOneWindow(async () => {
      const address = freshIPv4();
      const wrong = Array.from({ length: LIMIT * 3 }, (_, i) => from(address, `wrong-${i}`));
      const right = Array.from({ length: 3 }, () => from(address, ADMIN_TOKEN));
      const [wrongReplies, rightReplies] = await Promise.all([Promise.all(wrong), Promise.all(right)]);
      return { statuses: wrongReplies.map((reply) => reply.status), rights: rightReplies.map((reply) => reply.status) };
    });
    expect(rights).toEqual([200, 200, 200]);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(LIMIT * 2);
  });

  it("counts an IPv6 client by its /64", async () => {
    const { sameBlock, nextBlock } = await withinOneWindow(async () => {
      const block = `2001:db8:${next++}:7`;
      for (let i = 0; i < LIMIT; i++) await from(`${block}::${i + 1}`, `wrong-${i}`);
      return { sameBlock: await from(`${block}:0:0:0:ffff`, "wrong-last"), nextBlock: await from(`2001:db8:${next++}:7::1`, "wrong-last") };
    });
    expect(sameBlock.status).toBe(429);
    expect(nextBlock.status).toBe(401);
  });

  it("counts in fixed windows: the limit holds within one, and a new window starts again at one", async () => {
    const db = createDb(env.DB);
    const address = freshIPv4();
    const windowAt = (start: number) => ({ start, end: new Date(start + 10_000) });
    const first = windowAt(1_000_000);
    expect([
      await countFailure(db, authFailureCounter(address), first, 2),
      await countFailure(db, authFailureCounter(address), first, 2),
    ]).toEqual([true, true]);
    expect(await countFailure(db, authFailureCounter(address), first, 2)).toBe(false);
    expect(await failuresIn(db, authFailureCounter(address), first)).toBe(2);
    const next = windowAt(1_010_000);
    expect(await failuresIn(db, authFailureCounter(address), next)).toBe(0);
    expect(await countFailure(db, authFailureCounter(address), next, 2)).toBe(true);
    expect(await failuresIn(db, authFailureCounter(address), next)).toBe(1);
  });

  it("does not count requests that carry no bearer token", async () => {
    const address = freshIPv4();
    const replies = await Promise.all(
      Array.from({ length: LIMIT * 2 }, () => send("/admin/v1/users", { headers: { "CF-Connecting-IP": address } })),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(LIMIT * 2).fill(401));
    expect((await from(address, ADMIN_TOKEN)).status).toBe(200);
  });
});

describe("operator bodies", () => {
  it("refuses a lone surrogate in a name with a 400 naming the field, storing nothing", async () => {
    const body = '{"plan":"FREE","name":"caf\\ud800e"}';
    const reply = await send("/admin/v1/users", {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body,
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field: "name" });
    const userId = await createUser();
    const key = await send(`/admin/v1/users/${userId}/keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: '{"preset":"viewOnly","name":"\\udc00"}',
    });
    expect(key.body).toMatchObject({ code: "invalid_input", field: "name" });
  });
});
