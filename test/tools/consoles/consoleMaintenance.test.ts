// Console maintenance logs (addConsoleMaintenanceLog, updateConsoleMaintenanceLog,
// getConsoleMaintenanceLogs, removeConsoleMaintenanceLog). Every test makes its own accounts and
// consoles; the logs need no game master data.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountDay } from "../../support/days";
import { type Account, callWith, newAccount, player, type Reply } from "../../support/harness";
import { headStartOf, RACE_ROUNDS, race } from "../../support/race";

/** A pause so consecutive writes get distinct createdAt / updatedAt values. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const addLog = (account: Account, args: Record<string, unknown>) => account.call("addConsoleMaintenanceLog", args);
const updateLog = (account: Account, args: Record<string, unknown>) => account.call("updateConsoleMaintenanceLog", args);
const logs = (account: Account, args: Record<string, unknown>, method: "GET" | "POST" = "POST") =>
  account.call("getConsoleMaintenanceLogs", args, method);
const removeLog = (account: Account, args: Record<string, unknown>) => account.call("removeConsoleMaintenanceLog", args);
const logIds = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body.items as { maintenanceLogId: string }[]).map((log) => log.maintenanceLogId);
};

async function consoleOf(account: Account, name = "ネビュラ機本体"): Promise<string> {
  const reply = await account.call("addConsole", { name });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.item.consoleId as string;
}

async function loggedId(account: Account, args: Record<string, unknown>): Promise<string> {
  const reply = await addLog(account, args);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.item.maintenanceLogId as string;
}

/** Runs a call and gives the account's days before and after it, so a call across midnight still passes. */
async function aroundToday<T>(call: () => Promise<T>): Promise<{ result: T; days: string[] }> {
  const before = accountDay();
  const result = await call();
  const after = accountDay();
  return { result, days: [before, after] };
}

async function owner(plan: "LIGHT" | "PREMIUM" = "PREMIUM") {
  const account = await newAccount({ plan });
  const consoleId = await consoleOf(account);
  return { account, consoleId };
}

describe("addConsoleMaintenanceLog", () => {
  it("adds a log, SCHEDULED by default, with every field", async () => {
    const { account, consoleId } = await owner("LIGHT");
    const reply = await addLog(account, { consoleId, title: "電池交換", memo: "CR2032", scheduledDate: "2030-04-01" });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { item } = reply.body;
    expect(item.maintenanceLogId).toMatch(/^mlog_/);
    expect(item).toMatchObject({
      consoleId,
      title: "電池交換",
      memo: "CR2032",
      status: "SCHEDULED",
      scheduledDate: "2030-04-01",
      completedDate: null,
    });
    expect(typeof item.createdAt).toBe("string");
    expect(typeof item.updatedAt).toBe("string");
    expect(logIds(await logs(account, { consoleId }))).toEqual([item.maintenanceLogId]);
  });

  it("takes a title alone; the optional fields are null", async () => {
    const { account, consoleId } = await owner();
    const reply = await addLog(account, { consoleId, title: "t".repeat(100), memo: null, scheduledDate: null, completedDate: null });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({ memo: null, status: "SCHEDULED", scheduledDate: null, completedDate: null });
    const long = await addLog(account, { consoleId, title: "x", memo: "m".repeat(2000) });
    expect(long.status).toBe(200);
  });

  it("sets completedDate to today (UTC) when a DONE log has none", async () => {
    const { account, consoleId } = await owner();
    const omitted = await aroundToday(() => addLog(account, { consoleId, title: "端子清掃", status: "DONE" }));
    expect(omitted.result.status, JSON.stringify(omitted.result.body)).toBe(200);
    expect(omitted.result.body.item.status).toBe("DONE");
    expect(omitted.days).toContain(omitted.result.body.item.completedDate);

    const nulled = await aroundToday(() => addLog(account, { consoleId, title: "端子清掃2", status: "DONE", completedDate: null }));
    expect(nulled.days).toContain(nulled.result.body.item.completedDate);

    const given = await addLog(account, {
      consoleId,
      title: "ファン交換",
      status: "DONE",
      completedDate: "2020-05-05",
      scheduledDate: "2020-05-01",
    });
    expect(given.body.item).toMatchObject({ status: "DONE", completedDate: "2020-05-05", scheduledDate: "2020-05-01" });

    const scheduled = await addLog(account, { consoleId, title: "予定", status: "SCHEDULED" });
    expect(scheduled.body.item).toMatchObject({ status: "SCHEDULED", completedDate: null });
  });

  it.each([
    [{ title: "x" }, "consoleId"],
    [{}, "title"],
    [{ title: "" }, "title"],
    [{ title: "t".repeat(101) }, "title"],
    [{ title: null }, "title"],
    [{ title: "x", memo: "" }, "memo"],
    [{ title: "x", memo: "m".repeat(2001) }, "memo"],
    [{ title: "x", status: "LATER" }, "status"],
    [{ title: "x", status: "done" }, "status"],
    [{ title: "x", status: null }, "status"],
    [{ title: "x", scheduledDate: "2024-02-30" }, "scheduledDate"],
    [{ title: "x", scheduledDate: "20240201" }, "scheduledDate"],
    [{ title: "x", completedDate: "2024-13-01" }, "completedDate"],
    [{ title: "x", maintenanceLogId: "mlog_x" }, "maintenanceLogId"],
  ])("refuses %j with 400 naming %s, adding nothing", async (args, field) => {
    const { account, consoleId } = await owner();
    const reply = await addLog(account, field === "consoleId" ? args : { consoleId, ...args });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
    expect((await logs(account, { consoleId })).body.totalCount).toBe(0);
  });

  it("answers 404 for another user's console or an unknown one, adding nothing", async () => {
    const [{ account: a, consoleId }, b] = await Promise.all([owner(), newAccount()]);
    const foreign = await addLog(b, { consoleId, title: "いたずら" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect((await addLog(b, { consoleId: "con_doesnotexist000", title: "x" })).status).toBe(404);
    expect((await logs(a, { consoleId })).body.totalCount).toBe(0);
  });

  it("needs play:write and LIGHT or above", async () => {
    const { account, consoleId } = await owner("LIGHT");
    const reader = await account.newKey(["play:read", "library:write"]);
    const refused = await callWith(reader.apiKey, "addConsoleMaintenanceLog", { consoleId, title: "x" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const free = await newAccount({ plan: "FREE" });
    const plan = await addLog(free, { consoleId, title: "x" });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect(plan.body.upgradeUrl).toBeTruthy();
    expect((await logs(account, { consoleId })).body.totalCount).toBe(0);
  });
});

describe("updateConsoleMaintenanceLog", () => {
  it("patches: omitted fields are kept, null clears, updatedAt moves and createdAt stays", async () => {
    const { account, consoleId } = await owner();
    const { item: before } = (await addLog(account, { consoleId, title: "電池交換", memo: "CR2032", scheduledDate: "2030-04-01" })).body;
    await tick();
    const reply = await updateLog(account, { maintenanceLogId: before.maintenanceLogId, memo: null, title: "電池とパッキン交換" });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({
      maintenanceLogId: before.maintenanceLogId,
      consoleId,
      title: "電池とパッキン交換",
      memo: null,
      status: "SCHEDULED",
      scheduledDate: "2030-04-01",
      completedDate: null,
      createdAt: before.createdAt,
    });
    expect(reply.body.item.updatedAt > before.updatedAt).toBe(true);
    const cleared = await updateLog(account, { maintenanceLogId: before.maintenanceLogId, scheduledDate: null, memo: "後で" });
    expect(cleared.body.item).toMatchObject({ scheduledDate: null, memo: "後で", title: "電池とパッキン交換" });
    expect((await logs(account, { consoleId })).body.items[0]).toMatchObject({
      scheduledDate: null,
      memo: "後で",
      title: "電池とパッキン交換",
    });
  });

  it("sets completedDate to today when a log moves to DONE without one", async () => {
    const { account, consoleId } = await owner();
    const id = await loggedId(account, { consoleId, title: "清掃", scheduledDate: "2021-01-01" });
    const untouched = await updateLog(account, { maintenanceLogId: id, title: "内部清掃" });
    expect(untouched.body.item).toMatchObject({ status: "SCHEDULED", completedDate: null });
    const done = await aroundToday(() => updateLog(account, { maintenanceLogId: id, status: "DONE" }));
    expect(done.result.status, JSON.stringify(done.result.body)).toBe(200);
    expect(done.result.body.item).toMatchObject({ status: "DONE", scheduledDate: "2021-01-01", title: "内部清掃" });
    expect(done.days).toContain(done.result.body.item.completedDate);
    expect((await logs(account, { consoleId })).body.items[0].completedDate).toBe(done.result.body.item.completedDate);
  });

  it("keeps a completedDate the log already has, or the one sent with DONE", async () => {
    const { account, consoleId } = await owner();
    const dated = await loggedId(account, { consoleId, title: "修理", completedDate: "2021-01-15" });
    const done = await updateLog(account, { maintenanceLogId: dated, status: "DONE" });
    expect(done.body.item).toMatchObject({ status: "DONE", completedDate: "2021-01-15" });

    const plain = await loggedId(account, { consoleId, title: "点検" });
    const withDate = await updateLog(account, { maintenanceLogId: plain, status: "DONE", completedDate: "2022-02-02" });
    expect(withDate.body.item).toMatchObject({ status: "DONE", completedDate: "2022-02-02" });

    const redated = await updateLog(account, { maintenanceLogId: plain, completedDate: "2022-03-03" });
    expect(redated.body.item).toMatchObject({ status: "DONE", completedDate: "2022-03-03" });
  });

  it("keeps both of two concurrent patches to different fields (omitted fields are kept)", async () => {
    const { account, consoleId } = await owner();
    const id = await loggedId(account, { consoleId, title: "電池交換", scheduledDate: "2030-04-01" });
    const replies = await Promise.all([
      updateLog(account, { maintenanceLogId: id, title: "電池とパッキン交換" }),
      updateLog(account, { maintenanceLogId: id, memo: "並行更新" }),
      updateLog(account, { maintenanceLogId: id, completedDate: "2030-04-02" }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await logs(account, { consoleId })).body.items[0]).toMatchObject({
      title: "電池とパッキン交換",
      memo: "並行更新",
      completedDate: "2030-04-02",
      scheduledDate: "2030-04-01",
    });
  });

  it.each([
    [{ title: null }, "title"],
    [{ title: "" }, "title"],
    [{ title: "t".repeat(101) }, "title"],
    [{ status: null }, "status"],
    [{ status: "LATER" }, "status"],
    [{ memo: "" }, "memo"],
    [{ memo: "m".repeat(2001) }, "memo"],
    [{ scheduledDate: "2024-02-30" }, "scheduledDate"],
    [{ completedDate: "2023-02-29" }, "completedDate"],
    [{ unknownField: true }, "unknownField"],
  ])("refuses %j with 400 naming %s, changing nothing", async (patch, field) => {
    const { account, consoleId } = await owner();
    const id = await loggedId(account, { consoleId, title: "電池交換", memo: "CR2032", scheduledDate: "2030-04-01" });
    const reply = await updateLog(account, { maintenanceLogId: id, ...patch });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
    expect((await logs(account, { consoleId })).body.items[0]).toMatchObject({
      title: "電池交換",
      memo: "CR2032",
      status: "SCHEDULED",
      scheduledDate: "2030-04-01",
      completedDate: null,
    });
  });

  it("needs a maintenanceLogId, and answers 404 for an unknown one or another user's log, changing nothing", async () => {
    const [{ account: a, consoleId }, b] = await Promise.all([owner(), newAccount()]);
    const id = await loggedId(a, { consoleId, title: "電池交換" });
    const missing = await updateLog(a, { title: "x" });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe("maintenanceLogId");
    expect((await updateLog(a, { maintenanceLogId: "mlog_doesnotexist00", title: "x" })).status).toBe(404);
    const foreign = await updateLog(b, { maintenanceLogId: id, title: "盗った", status: "DONE" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect((await logs(a, { consoleId })).body.items[0]).toMatchObject({ title: "電池交換", status: "SCHEDULED", completedDate: null });
  });

  it("needs play:write and LIGHT or above", async () => {
    const { account, consoleId } = await owner("LIGHT");
    const id = await loggedId(account, { consoleId, title: "電池交換" });
    const reader = await account.newKey(["play:read"]);
    const refused = await callWith(reader.apiKey, "updateConsoleMaintenanceLog", { maintenanceLogId: id, title: "x" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const free = await newAccount({ plan: "FREE" });
    const plan = await updateLog(free, { maintenanceLogId: id, title: "x" });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect((await logs(account, { consoleId })).body.items[0].title).toBe("電池交換");
  });
});

describe("getConsoleMaintenanceLogs", () => {
  /**
   * Logs whose order key is coalesce(completedDate, scheduledDate, createdAt), newest first,
   * ties by createdAt, newest first. Added in the order L1, L2, L6, L3, L4, L5.
   */
  async function seeded() {
    const { account, consoleId } = await owner();
    // key 2021-03-01 (the later scheduledDate must not count)
    const L1 = await loggedId(account, {
      consoleId,
      title: "L1",
      status: "DONE",
      scheduledDate: "2021-08-01",
      completedDate: "2021-03-01",
    });
    await tick();
    const L2 = await loggedId(account, { consoleId, title: "L2", scheduledDate: "2021-06-01" }); // key 2021-06-01
    await tick();
    const L6 = await loggedId(account, { consoleId, title: "L6", status: "DONE" }); // key today (completedDate)
    await tick();
    const L3 = await loggedId(account, { consoleId, title: "L3" }); // key createdAt (now)
    await tick();
    const L4 = await loggedId(account, { consoleId, title: "L4", scheduledDate: "2021-03-01" }); // ties with L1, created later
    await tick();
    const L5 = await loggedId(account, { consoleId, title: "L5", scheduledDate: "2099-01-01" });
    return { account, consoleId, L1, L2, L3, L4, L5, L6 };
  }

  it("lists a console's logs newest first by completed, scheduled or created date, ties by creation", async () => {
    const { account, consoleId, L1, L2, L3, L4, L5, L6 } = await seeded();
    const reply = await logs(account, { consoleId });
    expect(logIds(reply)).toEqual([L5, L3, L6, L2, L4, L1]);
    expect(reply.body).toMatchObject({ page: 1, returnedCount: 6, totalCount: 6, hasMore: false, limitReduced: false });
    for (const item of reply.body.items) {
      expect(item.consoleId).toBe(consoleId);
      for (const key of [
        "maintenanceLogId",
        "consoleId",
        "title",
        "memo",
        "status",
        "scheduledDate",
        "completedDate",
        "createdAt",
        "updatedAt",
      ]) {
        expect(item, key).toHaveProperty(key);
      }
    }
  });

  it("reorders after an update moves a date", async () => {
    const { account, consoleId, L1, L2, L3, L4, L5, L6 } = await seeded();
    await updateLog(account, { maintenanceLogId: L5, scheduledDate: "2000-01-01" });
    await updateLog(account, { maintenanceLogId: L1, completedDate: null, status: "SCHEDULED" });
    // L1 now keys on its scheduledDate 2021-08-01
    expect(logIds(await logs(account, { consoleId }))).toEqual([L3, L6, L1, L2, L4, L5]);
  });

  it("pages without repeats, by POST or GET, and reduces large limits to 200", async () => {
    const { account, consoleId, L1, L2, L3, L4, L5, L6 } = await seeded();
    const first = await logs(account, { consoleId, limit: 4 }, "GET");
    const second = await logs(account, { consoleId, limit: 4, page: 2 }, "GET");
    expect(first.body).toMatchObject({ page: 1, returnedCount: 4, totalCount: 6, hasMore: true, effectiveLimit: 4 });
    expect(second.body).toMatchObject({ page: 2, returnedCount: 2, totalCount: 6, hasMore: false });
    expect([...logIds(first), ...logIds(second)]).toEqual([L5, L3, L6, L2, L4, L1]);
    const third = await logs(account, { consoleId, limit: 4, page: 3 });
    expect(third.body).toMatchObject({ returnedCount: 0, items: [], hasMore: false });
    const capped = await logs(account, { consoleId, limit: 5000 });
    expect(capped.body).toMatchObject({ effectiveLimit: 200, limitReduced: true, returnedCount: 6 });
    expect(typeof capped.body.limitReason).toBe("string");
    expect((await logs(account, { consoleId, limit: 200 })).body).toMatchObject({ effectiveLimit: 200, limitReduced: false });
  });

  it("shows only the asked console's logs", async () => {
    const { account, consoleId } = await owner();
    const other = await consoleOf(account, "ネビュラ携帯機本体");
    const mine = await loggedId(account, { consoleId, title: "本体の清掃" });
    const theirs = await loggedId(account, { consoleId: other, title: "携帯機の清掃" });
    expect(logIds(await logs(account, { consoleId }))).toEqual([mine]);
    expect(logIds(await logs(account, { consoleId: other }))).toEqual([theirs]);
    const empty = await consoleOf(account, "未使用機");
    expect((await logs(account, { consoleId: empty })).body).toMatchObject({ items: [], totalCount: 0, hasMore: false });
  });

  it.each([
    [{}, "consoleId"],
    [{ limit: 0 }, "limit"],
    [{ limit: 2.5 }, "limit"],
    [{ page: 0 }, "page"],
    [{ sortBy: "title" }, "sortBy"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const { account, consoleId } = await owner();
    const reply = await logs(account, field === "consoleId" ? args : { consoleId, ...args });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("answers 404 for another user's console or an unknown one", async () => {
    const [{ account: a, consoleId }, b] = await Promise.all([owner(), newAccount()]);
    await loggedId(a, { consoleId, title: "電池交換" });
    const foreign = await logs(b, { consoleId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect(JSON.stringify(foreign.body)).not.toContain("電池交換");
    expect((await logs(a, { consoleId: "con_doesnotexist000" })).status).toBe(404);
  });

  it("needs play:read and LIGHT or above", async () => {
    const { account, consoleId } = await owner("LIGHT");
    const writer = await account.newKey(["play:write", "library:read"]);
    const refused = await callWith(writer.apiKey, "getConsoleMaintenanceLogs", { consoleId }, "GET");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const free = await newAccount({ plan: "FREE" });
    const plan = await logs(free, { consoleId });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect(plan.body.upgradeUrl).toBeTruthy();
    const reader = await account.newKey(["play:read"]);
    expect((await callWith(reader.apiKey, "getConsoleMaintenanceLogs", { consoleId }, "GET")).status).toBe(200);
  });
});

describe("removeConsoleMaintenanceLog (two-step)", () => {
  async function twoLogs() {
    const { account, consoleId } = await owner();
    const doomed = await loggedId(account, { consoleId, title: "電池交換", scheduledDate: "2030-01-01" });
    const kept = await loggedId(account, { consoleId, title: "端子清掃", scheduledDate: "2029-01-01" });
    return { account, consoleId, doomed, kept };
  }

  it("previews without changing anything, then removes that log only with the token", async () => {
    const { account, consoleId, doomed, kept } = await twoLogs();
    const preview = await removeLog(account, { consoleId, maintenanceLogId: doomed });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ confirmRequired: true, targetChanged: false, expiresInSec: 600 });
    expect(typeof preview.body.confirmToken).toBe("string");
    expect(typeof preview.body.expiresAt).toBe("string");
    expect(preview.body.summary.includes("電池交換") || preview.body.summary.includes(doomed)).toBe(true);
    expect(logIds(await logs(account, { consoleId }))).toEqual([doomed, kept]);

    const done = await removeLog(account, { consoleId, maintenanceLogId: doomed, confirmToken: preview.body.confirmToken });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ maintenanceLogId: doomed, removed: true });
    expect(logIds(await logs(account, { consoleId }))).toEqual([kept]);
    expect((await updateLog(account, { maintenanceLogId: doomed, title: "x" })).status).toBe(404);
    expect((await removeLog(account, { consoleId, maintenanceLogId: doomed })).status).toBe(404);
  });

  it("accepts the token with the arguments in another key order", async () => {
    const { account, consoleId, doomed } = await twoLogs();
    const preview = await removeLog(account, { maintenanceLogId: doomed, consoleId });
    const done = await removeLog(account, { confirmToken: preview.body.confirmToken, maintenanceLogId: doomed, consoleId });
    expect(done.body).toMatchObject({ maintenanceLogId: doomed, removed: true });
  });

  it("answers 404 when the log belongs to another console of the same user, in both steps", async () => {
    const { account, consoleId, doomed } = await twoLogs();
    const other = await consoleOf(account, "ネビュラ携帯機本体");
    const wrong = await removeLog(account, { consoleId: other, maintenanceLogId: doomed });
    expect(wrong.status).toBe(404);
    expect(wrong.body.code).toBe("not_found");
    const token = (await removeLog(account, { consoleId, maintenanceLogId: doomed })).body.confirmToken;
    expect((await removeLog(account, { consoleId: other, maintenanceLogId: doomed, confirmToken: token })).status).toBe(404);
    expect(logIds(await logs(account, { consoleId }))).toContain(doomed);
  });

  it("treats another user's log and console as not found", async () => {
    const [{ account: a, consoleId, doomed }, b] = await Promise.all([twoLogs(), newAccount()]);
    const bConsole = await consoleOf(b);
    expect((await removeLog(b, { consoleId, maintenanceLogId: doomed })).status).toBe(404);
    expect((await removeLog(b, { consoleId: bConsole, maintenanceLogId: doomed })).status).toBe(404);
    const token = (await removeLog(a, { consoleId, maintenanceLogId: doomed })).body.confirmToken;
    expect((await removeLog(b, { consoleId, maintenanceLogId: doomed, confirmToken: token })).status).toBe(404);
    expect((await removeLog(a, { consoleId, maintenanceLogId: "mlog_doesnotexist00" })).status).toBe(404);
    expect(logIds(await logs(a, { consoleId }))).toContain(doomed);
  });

  it("refuses a used token, a token for another log and a malformed one, naming confirmToken", async () => {
    const { account, consoleId, doomed, kept } = await twoLogs();
    const forDoomed = await removeLog(account, { consoleId, maintenanceLogId: doomed });
    const otherArgs = await removeLog(account, { consoleId, maintenanceLogId: kept, confirmToken: forDoomed.body.confirmToken });
    expect(otherArgs.status).toBe(400);
    expect(otherArgs.body).toMatchObject({ code: "invalid_input", field: "confirmToken" });
    expect(logIds(await logs(account, { consoleId }))).toEqual([doomed, kept]);

    expect((await removeLog(account, { consoleId, maintenanceLogId: doomed, confirmToken: forDoomed.body.confirmToken })).status).toBe(200);
    const forKept = await removeLog(account, { consoleId, maintenanceLogId: kept });
    expect((await removeLog(account, { consoleId, maintenanceLogId: kept, confirmToken: forKept.body.confirmToken })).status).toBe(200);
    const third = await loggedId(account, { consoleId, title: "三つ目" });
    const reused = await removeLog(account, { consoleId, maintenanceLogId: third, confirmToken: forKept.body.confirmToken });
    expect(reused.status).toBe(400);
    expect(reused.body.field).toBe("confirmToken");

    const consolePreview = await account.call("removeConsole", { consoleId });
    const otherTool = await removeLog(account, { consoleId, maintenanceLogId: third, confirmToken: consolePreview.body.confirmToken });
    expect(otherTool.status).toBe(400);
    expect(otherTool.body.field).toBe("confirmToken");

    const malformed = await removeLog(account, { consoleId, maintenanceLogId: third, confirmToken: "ct_short" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("confirmToken");
    expect(logIds(await logs(account, { consoleId }))).toEqual([third]);
  });

  it("answers a new preview (targetChanged) when the log changed after the preview", async () => {
    const { account, consoleId, doomed } = await twoLogs();
    const preview = await removeLog(account, { consoleId, maintenanceLogId: doomed });
    await tick();
    await updateLog(account, { maintenanceLogId: doomed, status: "DONE" });
    const second = await removeLog(account, { consoleId, maintenanceLogId: doomed, confirmToken: preview.body.confirmToken });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(logIds(await logs(account, { consoleId }))).toContain(doomed);
    const done = await removeLog(account, { consoleId, maintenanceLogId: doomed, confirmToken: second.body.confirmToken });
    expect(done.body).toMatchObject({ maintenanceLogId: doomed, removed: true });
  });

  it.each([
    [{ maintenanceLogId: "mlog_x" }, "consoleId"],
    [{ consoleId: "con_x" }, "maintenanceLogId"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const reply = await removeLog(await newAccount(), args);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("needs play:delete and LIGHT or above", async () => {
    const { account, consoleId, doomed } = await twoLogs();
    const writer = await account.newKey(["play:read", "play:write"]);
    const refused = await callWith(writer.apiKey, "removeConsoleMaintenanceLog", { consoleId, maintenanceLogId: doomed });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const preview = await removeLog(account, { consoleId, maintenanceLogId: doomed });
    const confirm = await callWith(writer.apiKey, "removeConsoleMaintenanceLog", {
      consoleId,
      maintenanceLogId: doomed,
      confirmToken: preview.body.confirmToken,
    });
    expect(confirm.status).toBe(403);
    expect(logIds(await logs(account, { consoleId }))).toContain(doomed);
    const light = await newAccount({ plan: "LIGHT" });
    const lightConsole = await consoleOf(light);
    const lightLog = await loggedId(light, { consoleId: lightConsole, title: "x" });
    expect((await removeLog(light, { consoleId: lightConsole, maintenanceLogId: lightLog })).status).toBe(200);
    const free = await newAccount({ plan: "FREE" });
    const plan = await removeLog(free, { consoleId, maintenanceLogId: doomed });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect(plan.body.upgradeUrl).toBeTruthy();
  });
});

describe("under concurrency (issue 13)", () => {
  it("answers addConsoleMaintenanceLog racing removeConsole with its result or 404, never 500, and leaves no log behind", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    const statuses: number[] = [];
    // Without the console re-checked in the writing batch, this failed at head start 3.
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const consoleId = (await p.call("addConsole", { name: `消える本体 ${round}` })).body.item.consoleId as string;
      const { confirmToken } = (await p.call("removeConsole", { consoleId })).body;
      const [removed, added] = await race(
        () => p.call("removeConsole", { consoleId, confirmToken }),
        () => p.call("addConsoleMaintenanceLog", { consoleId, title: "清掃" }),
        headStartOf(round),
      );
      statuses.push(added.status);
      expect([200, 404], JSON.stringify(added.body)).toContain(added.status);
      if (removed.body.removed !== true) {
        expect((await p.call("removeConsole", { consoleId, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
      const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM maintenance_logs WHERE console_id = ?")
        .bind(consoleId)
        .first<number>("n");
      expect(left).toBe(0);
    }
    expect(statuses).not.toContain(500);
  }, 60_000);
});
