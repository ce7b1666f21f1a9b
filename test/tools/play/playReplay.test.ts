// addPlayRecord with replay: a new cycle on PREMIUM (its history in getGamePlayHistory), a
// two-step replacement on FREE and LIGHT. Master rows and helpers: ./playRecordsSupport.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { callWith } from "../../support/harness";
// The assertions index lists and read either branch of two-step answers, so ok() stays untyped
// here; setup lines use the typed okDone / okPreview.
import { expectError, okAny as ok, okDone, okPreview } from "../../support/replies";
import {
  A,
  addLog,
  B,
  history,
  importPlayMaster,
  own,
  P1,
  player,
  playIds,
  preview,
  records,
  started,
  tick,
  today,
  X,
} from "./playRecordsSupport";

beforeAll(importPlayMaster);

describe("addPlayRecord replay on PREMIUM: a new cycle, history kept", () => {
  it("starts a new PLAYING cycle; the old one stays in the history with its logs", async () => {
    const p = await player({}, 1);
    const first = await started(p, A, { status: "PLAYING" });
    ok(await p.call("updatePlayRecord", { playId: first.playId, status: "COMPLETED", playEndDate: "2024-03-01", rating: 5 }));
    await addLog(p, first.playId, 90);
    await tick();

    const reply = okDone(await p.call("addPlayRecord", { gameId: A, replay: true }));
    expect(reply.replayed).toBe(true);
    expect(reply.playId).not.toBe(first.playId);
    expect(reply.item).toMatchObject({
      playId: reply.playId,
      gameId: A,
      playLogId: null,
      status: "PLAYING",
      playStartDate: today(),
      playEndDate: null,
      totalPlayTime: 0,
      hasHistory: true,
      isLatest: true,
    });

    const cycles = ok(await history(p, A));
    expect(cycles.totalCount).toBe(2);
    expect(cycles.items.map((c: { playId: string }) => c.playId)).toEqual([reply.playId, first.playId]);
    expect(cycles.items[0]).toMatchObject({ isLatest: true, hasHistory: true, status: "PLAYING" });
    expect(cycles.items[1]).toMatchObject({
      isLatest: false,
      hasHistory: true,
      status: "COMPLETED",
      playEndDate: "2024-03-01",
      rating: 5,
      totalPlayTime: 90,
    });

    const latest = ok(await records(p));
    expect(latest.totalCount).toBe(1);
    expect(latest.items[0]).toMatchObject({ playId: reply.playId, isLatest: true, hasHistory: true, totalPlayTime: 0 });
    expect(ok(await p.call("getPlayLogs", { playId: first.playId })).totalCount).toBe(1);
  });

  it("accepts status PLAYING explicitly and needs no confirmation or play:delete", async () => {
    const p = await player({ scopes: ["library:read", "library:write", "play:read", "play:write", "games:read"] }, 0);
    await started(p, A);
    const reply = ok(await p.call("addPlayRecord", { gameId: A, replay: true, status: "PLAYING" }));
    expect(reply).toMatchObject({ replayed: true, item: { status: "PLAYING" } });
    expect(reply.confirmRequired).toBeUndefined();
  });

  it("is not idempotent: two replays make three cycles, newest first", async () => {
    const p = await player({}, 1);
    const first = await started(p, A);
    await tick();
    const second = okDone(await p.call("addPlayRecord", { gameId: A, replay: true }));
    await tick();
    const third = okDone(await p.call("addPlayRecord", { gameId: A, replay: true }));
    expect(new Set([first.playId, second.playId, third.playId]).size).toBe(3);
    const cycles = ok(await history(p, A));
    expect(cycles.totalCount).toBe(3);
    expect(cycles.items.map((c: { playId: string }) => c.playId)).toEqual([third.playId, second.playId, first.playId]);
    expect(cycles.items.map((c: { isLatest: boolean }) => c.isLatest)).toEqual([true, false, false]);
    const latest = ok(await records(p));
    expect(latest.totalCount).toBe(1);
    expect(latest.items[0].playId).toBe(third.playId);
  });

  it("refuses a replay with another status (400 naming status) and a replay of nothing (404)", async () => {
    const p = await player({}, 0);
    const { playId } = await started(p, A);
    for (const status of ["PLANNED", "PAUSED", "COMPLETED", "DROPPED"]) {
      expectError(await p.call("addPlayRecord", { gameId: A, replay: true, status }), 400, "invalid_input", "status");
    }
    expect(ok(await history(p, A)).totalCount).toBe(1);
    await own(p, B);
    expectError(await p.call("addPlayRecord", { gameId: B, replay: true }), 404, "not_found");
    expectError(await p.call("addPlayRecord", { gameId: X, replay: true }), 404, "not_found");
    expect(playIds(await records(p))).toEqual([playId]);
  });
});

describe("getGamePlayHistory", () => {
  it("is PREMIUM only and needs the game in the caller's library", async () => {
    for (const plan of ["FREE", "LIGHT"] as const) {
      const p = await player({ plan }, 0);
      await started(p, A);
      expectError(await history(p, A), 403, "plan_required");
    }
    const p = await player({}, 0);
    expectError(await history(p, X), 404, "not_found");
    await own(p, A);
    expect(ok(await history(p, A))).toMatchObject({ totalCount: 0, items: [] });
  });
});

describe.each(["FREE", "LIGHT"] as const)("addPlayRecord replay on %s: two-step replacement", (plan) => {
  it("previews without changing anything, then replaces the latest record and deletes its logs", async () => {
    const p = await player({ plan }, 2);
    const old = await started(p, A, { status: "COMPLETED" });
    await addLog(p, old.playId, 45);
    await addLog(p, old.playId, 15);

    const shown = await preview(p, "addPlayRecord", { gameId: A, replay: true });
    expect(shown.summary).toContain("オリオンの冒険");
    expect(playIds(await records(p))).toEqual([old.playId]);
    expect(ok(await p.call("getPlayLogs", { playId: old.playId })).totalCount).toBe(2);

    const done = okDone(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: shown.confirmToken }));
    expect(done.replayed).toBe(true);
    expect(done.playId).not.toBe(old.playId);
    expect(done.item).toMatchObject({
      playId: done.playId,
      status: "PLAYING",
      playStartDate: today(),
      totalPlayTime: 0,
      hasHistory: false,
      isLatest: true,
    });

    const latest = ok(await records(p));
    expect(latest.totalCount).toBe(1);
    expect(latest.items[0]).toMatchObject({ playId: done.playId, status: "PLAYING", totalPlayTime: 0, hasHistory: false });
    expectError(await p.call("getPlayLogs", { playId: old.playId }), 404, "not_found");
    const lib = ok(await p.call("getLibrary", { fields: ["latestPlay"] }));
    expect(lib.items[0].latestPlay).toMatchObject({ hasPlayRecord: true, playId: done.playId, status: "PLAYING", hasHistory: false });
  });

  it("needs play:delete: a key without it is 403 insufficient_scope, and nothing changes", async () => {
    const p = await player({ plan }, 0);
    const old = await started(p, A);
    const writer = await p.account.newKey(["library:read", "play:read", "play:write", "games:read"]);
    const reply = await callWith(writer.apiKey, "addPlayRecord", { gameId: A, replay: true });
    expectError(reply, 403, "insufficient_scope");
    expect(playIds(await records(p))).toEqual([old.playId]);
  });

  it("answers a fresh preview (targetChanged) when a log was added between preview and confirm", async () => {
    const p = await player({ plan }, 2);
    const old = await started(p, A, { status: "PLAYING" });
    const first = await preview(p, "addPlayRecord", { gameId: A, replay: true });
    await addLog(p, old.playId, 30);
    const again = okPreview(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: first.confirmToken }));
    expect(again).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(again.confirmToken).not.toBe(first.confirmToken);
    expect(playIds(await records(p))).toEqual([old.playId]);
    expect(ok(await p.call("getPlayLogs", { playId: old.playId })).totalCount).toBe(1);
    const done = okDone(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: again.confirmToken }));
    expect(done.replayed).toBe(true);
    expect(playIds(await records(p))).toEqual([done.playId]);
  });

  it("answers a fresh preview when a log's minutes changed between preview and confirm (the summary counted them)", async () => {
    const p = await player({ plan }, 2);
    const old = await started(p, A, { status: "PLAYING" });
    const log = await addLog(p, old.playId, 30);
    const first = await preview(p, "addPlayRecord", { gameId: A, replay: true });
    expect(first.summary).toContain("30 minutes");
    ok(await p.call("updatePlayLog", { playLogId: log.playLogId, playTime: 900 }));
    const again = okPreview(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: first.confirmToken }));
    expect(again).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(again.summary).toContain("900 minutes");
    expect(playIds(await records(p))).toEqual([old.playId]);
  });

  it("answers a fresh preview when the record itself was updated between preview and confirm", async () => {
    const p = await player({ plan }, 1);
    const old = await started(p, A);
    const first = await preview(p, "addPlayRecord", { gameId: A, replay: true });
    ok(await p.call("updatePlayRecord", { playId: old.playId, rating: 2 }));
    const again = okPreview(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: first.confirmToken }));
    expect(again).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(playIds(await records(p))).toEqual([old.playId]);
  });

  it("refuses a replay with another status (400 naming status) and a replay of nothing (404)", async () => {
    const p = await player({ plan }, 0);
    await started(p, A);
    expectError(await p.call("addPlayRecord", { gameId: A, replay: true, status: "COMPLETED" }), 400, "invalid_input", "status");
    await own(p, B);
    expectError(await p.call("addPlayRecord", { gameId: B, replay: true }), 404, "not_found");
  });

  it("refuses a token issued for other arguments", async () => {
    const p = await player({ plan }, 1);
    const a = await started(p, A);
    await started(p, B);
    const shown = await preview(p, "addPlayRecord", { gameId: B, replay: true });
    expectError(
      await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: shown.confirmToken }),
      400,
      "invalid_input",
      "confirmToken",
    );
    expect(ok(await records(p, { statuses: ["PLANNED"] })).totalCount).toBe(2);
    expect(playIds(await records(p, { platformIds: [P1], title: "ぼうけん" }))).toEqual([a.playId]);
  });
});
