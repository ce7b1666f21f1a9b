import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { REGISTERED_LIMITS } from "../../../src/platform/plans";
import { SYSTEM_ATTRIBUTES } from "../../../src/platform/systemAttributes";
import { type Account, callWith, newAccount } from "../../support/harness";

const labelsOf = async (account: Account) =>
  ((await account.call("listAttributes", { limit: 200 }, "GET")).body.items as { label: string; custom: boolean }[]).map((a) => a.label);

const add = (account: Account, label: string) => account.call("addAttribute", { label });
const remove = (account: Account, args: Record<string, unknown>) => account.call("removeAttribute", args);

describe("addAttribute", () => {
  it("adds an own label, listed after the system labels", async () => {
    const account = await newAccount({ plan: "FREE" });
    const reply = await add(account, "帯あり");
    expect(reply.status).toBe(200);
    expect(reply.body.item).toMatchObject({ label: "帯あり", custom: true });
    expect(reply.body.item.id).toMatch(/^attr_/);
    expect(await labelsOf(account)).toEqual([...SYSTEM_ATTRIBUTES.map((a) => a.label), "帯あり"]);
  });

  it.each([
    ["a label of yours", "帯あり"],
    ["a system label", SYSTEM_ATTRIBUTES[0].label],
    ["a system id", "box"],
  ])("answers 409 already_exists for %s", async (_case, label) => {
    const account = await newAccount();
    await add(account, "帯あり");
    const reply = await add(account, label);
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ code: "already_exists", field: "label" });
  });

  it("holds the plan's limit against concurrent adds: count and insert are one batch", async () => {
    const free = await newAccount({ plan: "FREE" });
    for (let i = 0; i < REGISTERED_LIMITS.attributes.FREE - 1; i++) await add(free, `label ${i}`);
    const replies = await Promise.all([1, 2, 3, 4, 5].map((i) => add(free, `racer ${i}`)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 403).every((r) => r.body.code === "plan_required")).toBe(true);
    expect((await free.call("getAccount")).body.registered.attributes.count).toBe(REGISTERED_LIMITS.attributes.FREE);
  });

  it("keeps labels per user: another user may use the same label", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    expect((await add(a, "サイン入り")).status).toBe(200);
    expect((await add(b, "サイン入り")).status).toBe(200);
    expect(await labelsOf(a)).toContain("サイン入り");
  });

  it.each([[{}], [{ label: "" }], [{ label: "x".repeat(31) }], [{ label: 5 }], [{ label: "ok", extra: 1 }]])(
    "refuses %j with 400",
    async (args) => {
      const account = await newAccount();
      const reply = await account.call("addAttribute", args);
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe("invalid_input");
    },
  );

  it("needs library:write, and stops at the plan's limit with 403 plan_required", async () => {
    const viewer = await newAccount({ scopes: ["library:read"] });
    expect((await add(viewer, "x")).body.code).toBe("insufficient_scope");
    const free = await newAccount({ plan: "FREE" });
    for (let i = 0; i < REGISTERED_LIMITS.attributes.FREE; i++) expect((await add(free, `label ${i}`)).status).toBe(200);
    const over = await add(free, "one more");
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ code: "plan_required" });
    expect(over.body.upgradeUrl).toBeTruthy();
    expect((await free.call("getAccount")).body.registered.attributes).toEqual({ count: 10, limit: 10 });
  });
});

describe("removeAttribute (two-step)", () => {
  it("previews without changing anything, then removes with the token", async () => {
    const account = await newAccount();
    const { id } = (await add(account, "帯あり")).body.item;
    const preview = await remove(account, { attribute: id });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ confirmRequired: true, targetChanged: false, expiresInSec: 600 });
    expect(preview.body.summary).toContain("帯あり");
    expect(preview.body.confirmToken).toMatch(/^ct_/);
    expect(await labelsOf(account)).toContain("帯あり");

    const done = await remove(account, { attribute: id, confirmToken: preview.body.confirmToken });
    expect(done.body).toEqual({ id, removed: true });
    expect(await labelsOf(account)).not.toContain("帯あり");
  });

  it("takes the exact label as well as the id", async () => {
    const account = await newAccount();
    await add(account, "サイン入り");
    const preview = await remove(account, { attribute: "サイン入り" });
    expect((await remove(account, { attribute: "サイン入り", confirmToken: preview.body.confirmToken })).body.removed).toBe(true);
  });

  it("uses a token once", async () => {
    const account = await newAccount();
    const { id } = (await add(account, "帯あり")).body.item;
    const { confirmToken } = (await remove(account, { attribute: id })).body;
    await remove(account, { attribute: id, confirmToken });
    await add(account, "帯あり");
    const again = await remove(account, { attribute: "帯あり", confirmToken });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "invalid_input", field: "confirmToken" });
  });

  it("refuses a token issued for other arguments", async () => {
    const account = await newAccount();
    const first = (await add(account, "帯あり")).body.item.id;
    const second = (await add(account, "サイン入り")).body.item.id;
    const { confirmToken } = (await remove(account, { attribute: first })).body;
    const reply = await remove(account, { attribute: second, confirmToken });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("other arguments");
    expect(await labelsOf(account)).toEqual(expect.arrayContaining(["帯あり", "サイン入り"]));
  });

  it("refuses another user's token", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await add(a, "帯あり");
    await add(b, "帯あり");
    const { confirmToken } = (await remove(a, { attribute: "帯あり" })).body;
    const reply = await remove(b, { attribute: "帯あり", confirmToken });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("confirmToken");
    expect(await labelsOf(b)).toContain("帯あり");
  });

  it("refuses an expired token", async () => {
    const account = await newAccount();
    const { id } = (await add(account, "帯あり")).body.item;
    const { confirmToken } = (await remove(account, { attribute: id })).body;
    const key = `confirm:${confirmToken}`;
    const stored = JSON.parse((await env.KV.get(key))!);
    await env.KV.put(key, JSON.stringify({ ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() }));
    const reply = await remove(account, { attribute: id, confirmToken });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("expired");
    expect(await labelsOf(account)).toContain("帯あり");
  });

  it("answers a changed target with a fresh preview, not an error, and changes nothing", async () => {
    const account = await newAccount();
    const oldId = (await add(account, "帯あり")).body.item.id;
    const { confirmToken } = (await remove(account, { attribute: "帯あり" })).body;
    // The label now names another attribute than the one previewed.
    await remove(account, { attribute: oldId, confirmToken: (await remove(account, { attribute: oldId })).body.confirmToken });
    const newId = (await add(account, "帯あり")).body.item.id;
    const reply = await remove(account, { attribute: "帯あり", confirmToken });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(reply.body.confirmToken).not.toBe(confirmToken);
    expect(await labelsOf(account)).toContain("帯あり");
    expect((await remove(account, { attribute: "帯あり", confirmToken: reply.body.confirmToken })).body).toEqual({
      id: newId,
      removed: true,
    });
  });

  it("refuses a malformed token, system labels, unknown and other users' attributes", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const { id } = (await add(b, "帯あり")).body.item;
    expect((await remove(a, { attribute: "box", confirmToken: "nope" })).body.field).toBe("confirmToken");
    expect((await remove(a, { attribute: "box" })).body).toMatchObject({ code: "invalid_input", field: "attribute" });
    expect((await remove(a, { attribute: "missing" })).status).toBe(404);
    expect((await remove(a, { attribute: id })).status).toBe(404);
  });

  it("needs library:delete, which only an individual key grants", async () => {
    const account = await newAccount();
    await add(account, "帯あり");
    const standard = await account.newKey(["library:read", "library:write", "play:read", "play:write", "games:read"]);
    const reply = await callWith(standard.apiKey, "removeAttribute", { attribute: "帯あり" });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["library:delete"] });
  });

  it("is POST only", async () => {
    const account = await newAccount();
    expect((await account.call("removeAttribute", { attribute: "x" }, "GET")).status).toBe(405);
  });
});
