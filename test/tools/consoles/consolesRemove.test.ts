// removeConsole (two-step). Platforms and helpers: ./consolesSupport.ts. Each test seeds its own
// accounts.
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, callWith, newAccount } from "../../support/harness";
import { added, ids, importConsolePlatforms, list, remove, seeded, tick, update } from "./consolesSupport";

beforeAll(importConsolePlatforms);

describe("removeConsole (two-step)", () => {
  async function withLogs() {
    const seed = await seeded();
    for (const title of ["電池交換", "端子清掃"]) {
      const reply = await seed.account.call("addConsoleMaintenanceLog", { consoleId: seed.A, title });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    return seed;
  }
  const logsOf = (account: Account, consoleId: string) => account.call("getConsoleMaintenanceLogs", { consoleId });

  it("previews without changing anything, naming the console and its maintenance logs", async () => {
    const { account, A } = await withLogs();
    const preview = await remove(account, { consoleId: A });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ confirmRequired: true, targetChanged: false, expiresInSec: 600 });
    expect(preview.body.confirmToken).toEqual(expect.any(String));
    expect(Date.parse(preview.body.expiresAt)).toBeGreaterThan(Date.now());
    expect(preview.body.summary).toContain("Nebula Alpha");
    expect(preview.body.summary).toMatch(/maintenance/i);
    expect(preview.body.summary).toMatch(/\b2\b/);
    expect(ids(await list(account))).toContain(A);
    expect((await logsOf(account, A)).body.totalCount).toBe(2);
    expect((await account.call("getAccount")).body.registered.consoles.count).toBe(5);
  });

  it("removes the console and its maintenance logs with the token; other consoles keep theirs", async () => {
    const { account, A, B } = await withLogs();
    const keep = await account.call("addConsoleMaintenanceLog", { consoleId: B, title: "ファン清掃" });
    const doomedLogs = (await logsOf(account, A)).body.items.map((log: { maintenanceLogId: string }) => log.maintenanceLogId);
    const preview = await remove(account, { consoleId: A });
    const done = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ consoleId: A, removed: true });
    expect(ids(await list(account))).not.toContain(A);
    expect((await list(account)).body.totalCount).toBe(4);
    expect((await account.call("getAccount")).body.registered.consoles.count).toBe(4);
    expect((await logsOf(account, A)).status).toBe(404);
    for (const maintenanceLogId of doomedLogs) {
      expect((await account.call("updateConsoleMaintenanceLog", { maintenanceLogId, title: "残骸" })).status).toBe(404);
    }
    expect((await logsOf(account, B)).body.items.map((log: { maintenanceLogId: string }) => log.maintenanceLogId)).toEqual([
      keep.body.item.maintenanceLogId,
    ]);
    expect((await update(account, { consoleId: A, rating: 1 })).status).toBe(404);
    expect((await remove(account, { consoleId: A })).status).toBe(404);
  });

  it("refuses a used token, a token for other arguments, another tool's or user's token and a malformed one, naming confirmToken", async () => {
    const [{ account, A, B }, other] = await Promise.all([seeded(), newAccount()]);
    const theirs = await added(other, { name: "他人の機械" });

    const forA = await remove(account, { consoleId: A });
    const wrongArgs = await remove(account, { consoleId: B, confirmToken: forA.body.confirmToken });
    expect(wrongArgs.status).toBe(400);
    expect(wrongArgs.body).toMatchObject({ code: "invalid_input", field: "confirmToken" });
    expect(ids(await list(account))).toContain(B);

    const otherUser = await remove(other, { consoleId: theirs, confirmToken: forA.body.confirmToken });
    expect(otherUser.status).toBe(400);
    expect(otherUser.body.field).toBe("confirmToken");
    expect(ids(await list(other))).toEqual([theirs]);

    const fresh = await remove(account, { consoleId: A });
    expect((await remove(account, { consoleId: A, confirmToken: fresh.body.confirmToken })).status).toBe(200);
    const reused = await remove(account, { consoleId: B, confirmToken: fresh.body.confirmToken });
    expect(reused.status).toBe(400);
    expect(reused.body.field).toBe("confirmToken");

    const log = await account.call("addConsoleMaintenanceLog", { consoleId: B, title: "清掃" });
    const logPreview = await account.call("removeConsoleMaintenanceLog", {
      consoleId: B,
      maintenanceLogId: log.body.item.maintenanceLogId,
    });
    expect(logPreview.status, JSON.stringify(logPreview.body)).toBe(200);
    const otherTool = await remove(account, { consoleId: B, confirmToken: logPreview.body.confirmToken });
    expect(otherTool.status).toBe(400);
    expect(otherTool.body.field).toBe("confirmToken");

    const malformed = await remove(account, { consoleId: B, confirmToken: "not-a-token" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("confirmToken");
    expect(ids(await list(account))).toContain(B);
  });

  it("uses a token once even when the first use succeeded (same arguments)", async () => {
    const { account, A } = await seeded();
    const preview = await remove(account, { consoleId: A });
    await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    const again = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect([400, 404]).toContain(again.status);
    if (again.status === 400) expect(again.body.field).toBe("confirmToken");
  });

  it("answers a new preview (targetChanged) when a maintenance log was added after the preview", async () => {
    const { account, A } = await seeded();
    const preview = await remove(account, { consoleId: A });
    await account.call("addConsoleMaintenanceLog", { consoleId: A, title: "電池交換" });
    const second = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(second.body.confirmToken).not.toBe(preview.body.confirmToken);
    expect(second.body.summary).toMatch(/\b1\b/);
    expect(ids(await list(account))).toContain(A);
    const done = await remove(account, { consoleId: A, confirmToken: second.body.confirmToken });
    expect(done.body).toMatchObject({ consoleId: A, removed: true });
  });

  it("answers a new preview (targetChanged) when the console itself changed after the preview", async () => {
    const { account, A } = await seeded();
    const preview = await remove(account, { consoleId: A });
    await tick();
    expect((await update(account, { consoleId: A, name: "Nebula Alpha改" })).status).toBe(200);
    const second = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(second.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(second.body.summary).toContain("Nebula Alpha改");
    expect(ids(await list(account))).toContain(A);
  });

  it("treats another user's console and an unknown id as not found, in both steps", async () => {
    const [{ account: a, A }, b] = await Promise.all([seeded(), newAccount()]);
    const preview = await remove(b, { consoleId: A });
    expect(preview.status).toBe(404);
    expect(preview.body.code).toBe("not_found");
    expect((await remove(b, { consoleId: "con_doesnotexist000" })).status).toBe(404);
    const ownToken = (await remove(a, { consoleId: A })).body.confirmToken;
    expect((await remove(b, { consoleId: A, confirmToken: ownToken })).status).toBe(404);
    expect(ids(await list(a))).toContain(A);
    const missing = await remove(a, {});
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe("consoleId");
  });

  it("needs play:delete and LIGHT or above", async () => {
    const { account, A } = await seeded("LIGHT");
    const writer = await account.newKey(["play:read", "play:write"]);
    const refused = await callWith(writer.apiKey, "removeConsole", { consoleId: A });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const preview = await remove(account, { consoleId: A });
    const confirm = await callWith(writer.apiKey, "removeConsole", { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(confirm.status).toBe(403);
    expect(ids(await list(account))).toContain(A);
    const free = await newAccount({ plan: "FREE" });
    const plan = await remove(free, { consoleId: A });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect(plan.body.upgradeUrl).toBeTruthy();
  });
});
