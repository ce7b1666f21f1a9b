// The account's time zone decides "today": default dates (play start and end, play log, maintenance
// done) and overdue filters, read with a fixed clock (the app built with one, as createApp allows;
// REST and MCP read the same clock);
// getAccount shows the zone and its day; the daily quota keeps its UTC day.

import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { setTimeZone } from "../../../src/accounts/timeZone";
import { createApp } from "../../../src/app";
import { createDb } from "../../../src/platform/db";
import { dayIn, timeZoneNamed } from "../../../src/platform/time";
import { type Account, authHeader, fetchThrough, newAccount, sendTo } from "../../support/harness";
import { mcpCall, mcpClient } from "../../support/mcp";
import { ok } from "../../support/replies";
import { A, B, importPlayMaster } from "../play/playRecordsSupport";

/** 08:00 in Japan on 2026-12-02, still 2026-12-01 in UTC. */
const MORNING_IN_JAPAN = new Date("2026-12-01T23:00:00Z");
const app = createApp(undefined, { clock: () => MORNING_IN_JAPAN });

/** A call through the app whose clock stands at MORNING_IN_JAPAN. */
const at = (account: Account, tool: string, args: Record<string, unknown> = {}) =>
  sendTo(app, `/rest/v1/${tool}`, {
    method: "POST",
    headers: { ...authHeader(account.apiKey), "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });

/** The bodies of calls through that app over a face: REST as above, or MCP with the SDK client (which checks the listed output schemas). */
async function callsOver(face: "REST" | "MCP", account: Account) {
  if (face === "REST") return async (tool: string, args: Record<string, unknown>) => ok(await at(account, tool, args));
  const client = await mcpClient(account.apiKey, "/mcp", fetchThrough(app));
  return async (tool: string, args: Record<string, unknown>) => {
    const reply = await mcpCall(client, tool, args);
    expect(reply.isError, reply.text).toBe(false);
    return reply.body;
  };
}

async function owning(timeZone?: string) {
  const account = await newAccount({ plan: "PREMIUM" });
  if (timeZone) await setTimeZone(createDb(env.DB), account.userId, timeZone);
  for (const gameId of [A, B]) ok(await account.call("addToLibrary", { gameId }));
  return account;
}

beforeAll(importPlayMaster);

describe("today in the account's time zone", () => {
  for (const face of ["REST", "MCP"] as const) {
    it(`a game cleared at 08:00 JST on 2026-12-02 by an Asia/Tokyo account ends on 2026-12-02 (over ${face})`, async () => {
      const account = await owning();
      const call = await callsOver(face, account);
      const cleared = await call("addPlayRecord", { gameId: A, status: "COMPLETED" });
      expect(cleared.item).toMatchObject({ status: "COMPLETED", playEndDate: "2026-12-02", playStartDate: null });
      const started = await call("addPlayRecord", { gameId: B, status: "PLAYING" });
      expect(started.item.playStartDate).toBe("2026-12-02");
      const log = await call("addPlayLog", { playId: started.playId, playTime: 30 });
      expect(log.item.playDate).toBe("2026-12-02");
      const done = await call("updatePlayRecord", { playId: started.playId, status: "DROPPED" });
      expect(done.item.playEndDate).toBe("2026-12-02");
    });

    it(`the same moment is still 2026-12-01 for an account in UTC (over ${face})`, async () => {
      const call = await callsOver(face, await owning("UTC"));
      const cleared = await call("addPlayRecord", { gameId: A, status: "COMPLETED" });
      expect(cleared.item.playEndDate).toBe("2026-12-01");
    });
  }

  it("getAccount shows the zone (Asia/Tokyo for a new account) and its day; the quota counts the UTC day", async () => {
    const account = await owning();
    const body = ok(await at(account, "getAccount"));
    expect(body).toMatchObject({ timeZone: "Asia/Tokyo", today: "2026-12-02" });
    expect(body.usage.date).toBe("2026-12-01");
    await setTimeZone(createDb(env.DB), account.userId, "america/new_york");
    expect(ok(await at(account, "getAccount"))).toMatchObject({ timeZone: "America/New_York", today: "2026-12-01" });
  });

  it("a maintenance log marked DONE gets the account's day", async () => {
    const account = await owning();
    const consoleId = ok(await at(account, "addConsole", { name: "スーパーファミコン" })).item.consoleId;
    const done = ok(await at(account, "addConsoleMaintenanceLog", { consoleId, title: "端子清掃", status: "DONE" }));
    expect(done.item.completedDate).toBe("2026-12-02");
    const planned = ok(await at(account, "addConsoleMaintenanceLog", { consoleId, title: "電池交換" }));
    const later = ok(await at(account, "updateConsoleMaintenanceLog", { maintenanceLogId: planned.item.maintenanceLogId, status: "DONE" }));
    expect(later.item.completedDate).toBe("2026-12-02");
  });

  it("overdue filters compare with the account's day: a target of 2026-12-01 is overdue in Tokyo, not yet in UTC", async () => {
    const overdueIds = async (account: Account) => {
      const records = ok(await at(account, "getPlayRecords", { clearTargetOverdue: "overdue", fields: [] }));
      const wishes = ok(await at(account, "getWishlist", { wishDateOverdue: "overdue", fields: [] }));
      return {
        records: records.items.map((item: { gameId: number }) => item.gameId),
        wishes: wishes.items.map((item: { gameId: number }) => item.gameId),
      };
    };
    const seed = async (timeZone?: string) => {
      const account = await owning(timeZone);
      ok(await at(account, "addPlayRecord", { gameId: A, status: "PLAYING", clearTargetDate: "2026-12-01" }));
      ok(await at(account, "addToWishlist", { gameId: 790014, wishDate: "2026-12-01" }));
      return account;
    };
    expect(await overdueIds(await seed())).toEqual({ records: [A], wishes: [790014] });
    expect(await overdueIds(await seed("UTC"))).toEqual({ records: [], wishes: [] });
  });
});

describe("time zone names", () => {
  it("takes IANA names as Intl knows them, in its spelling; refuses offsets, abbreviations and nonsense", () => {
    expect(timeZoneNamed("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(timeZoneNamed("asia/tokyo")).toBe("Asia/Tokyo");
    expect(timeZoneNamed("UTC")).toBe("UTC");
    for (const bad of ["+09:00", "JST", "Mars/Olympus", "", "Asia/Tokyo; DROP", "../etc"]) expect(timeZoneNamed(bad), bad).toBeUndefined();
    expect(dayIn(MORNING_IN_JAPAN, "Asia/Tokyo")).toBe("2026-12-02");
    expect(dayIn(MORNING_IN_JAPAN, "Pacific/Honolulu")).toBe("2026-12-01");
  });

  it("setTimeZone refuses what is not a zone with a 400 naming timeZone, and changes nothing", async () => {
    const account = await newAccount();
    await expect(setTimeZone(createDb(env.DB), account.userId, "JST")).rejects.toMatchObject({
      code: "invalid_input",
      details: { field: "timeZone" },
    });
    expect(ok(await account.call("getAccount")).timeZone).toBe("Asia/Tokyo");
  });
});
