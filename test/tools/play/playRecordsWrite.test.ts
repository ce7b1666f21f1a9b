// addPlayRecord (and its replay: a new cycle on PREMIUM, its history in getGamePlayHistory, a
// two-step replacement on FREE and LIGHT), updatePlayRecord and removePlayRecord, and how play
// records go with the library. Master rows and helpers: ./playRecordsSupport.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { callWith, type Reply } from "../../support/harness";
// The assertions index lists and read either branch of two-step answers, so ok() stays untyped
// here; setup lines use the typed okDone / okPreview.
import { expectError, okAny as ok, okDone, okPreview } from "../../support/replies";
import {
  A,
  addLog,
  B,
  C,
  confirmed,
  D,
  history,
  ids,
  importPlayMaster,
  MISSING,
  OWN_LABEL,
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

describe("addPlayRecord", () => {
  it("starts the record of an owned game, PLANNED by default, with the documented response", async () => {
    const p = await player({}, 0);
    await own(p, A);
    const reply = await p.call("addPlayRecord", { gameId: A, memo: "週末に" });
    const body = ok(reply);
    expect(body.replayed).toBe(false);
    expect(typeof body.playId).toBe("string");
    expect(body.item).toMatchObject({
      gameId: A,
      playId: body.playId,
      playLogId: null,
      status: "PLANNED",
      playStartDate: null,
      playEndDate: null,
      clearTargetDate: null,
      totalPlayTime: 0,
      rating: null,
      hasHistory: false,
      isLatest: true,
      userLinks: [],
      attributes: [],
      memo: "週末に",
    });
    for (const key of ["createdAt", "updatedAt", "revision"]) expect(typeof body.item[key], key).toBe("string");
    const listed = ok(await records(p));
    expect(listed.totalCount).toBe(1);
    expect(listed.items[0]).toMatchObject({
      playId: body.playId,
      gameId: A,
      status: "PLANNED",
      game: { gameId: A, title: "オリオンの冒険" },
    });
  });

  it("takes owned games only: a game outside the library, or no game at all, is 404", async () => {
    const p = await player({}, 0);
    expectError(await p.call("addPlayRecord", { gameId: X }), 404, "not_found");
    expectError(await p.call("addPlayRecord", { gameId: MISSING }), 404, "not_found");
    await p.call("addToWishlist", { gameId: X });
    expectError(await p.call("addPlayRecord", { gameId: X }), 404, "not_found");
    expect(ok(await records(p)).totalCount).toBe(0);
  });

  it("PLAYING starts today (UTC); COMPLETED and DROPPED end today", async () => {
    const p = await player({}, 1);
    const playing = (await started(p, A, { status: "PLAYING" })).item;
    expect(playing).toMatchObject({ status: "PLAYING", playStartDate: today(), playEndDate: null });
    const completed = (await started(p, B, { status: "COMPLETED" })).item;
    expect(completed).toMatchObject({ status: "COMPLETED", playEndDate: today() });
    const dropped = (await started(p, C, { status: "DROPPED" })).item;
    expect(dropped).toMatchObject({ status: "DROPPED", playEndDate: today() });
    const paused = (await started(p, D, { status: "PAUSED" })).item;
    expect(paused).toMatchObject({ status: "PAUSED", playStartDate: null, playEndDate: null });
  });

  it("refuses a second record without replay (409 already_exists), changing nothing", async () => {
    const p = await player({}, 0);
    const { playId } = await started(p, A, { status: "PLAYING" });
    expectError(await p.call("addPlayRecord", { gameId: A }), 409, "already_exists");
    expectError(await p.call("addPlayRecord", { gameId: A, replay: false, status: "COMPLETED" }), 409, "already_exists");
    const listed = ok(await records(p));
    expect(playIds({ body: listed } as Reply)).toEqual([playId]);
    expect(listed.items[0].status).toBe("PLAYING");
  });

  it("takes one of the caller's consoles (LIGHT and above); another's or an unknown one is 404 naming consoleId", async () => {
    const [p, other] = await Promise.all([player({ plan: "LIGHT" }, 1), player({ plan: "LIGHT" }, 0)]);
    const mine = ok(await p.call("addConsole", { name: "オリオン本体" })).item.consoleId as string;
    const theirs = ok(await other.call("addConsole", { name: "よその本体" })).item.consoleId as string;
    await own(p, A);
    await own(p, B);
    expectError(await p.call("addPlayRecord", { gameId: A, consoleId: theirs }), 404, "not_found", "consoleId");
    expectError(await p.call("addPlayRecord", { gameId: A, consoleId: "con_nosuchconsole" }), 404, "not_found", "consoleId");
    expect(ok(await records(p)).totalCount).toBe(0);
    const item = okDone(await p.call("addPlayRecord", { gameId: A, consoleId: mine })).item;
    expect(item).toMatchObject({ consoleId: mine, console: { consoleId: mine, name: "オリオン本体" } });
    const listed = ok(await records(p, { consoleIds: [mine] }));
    expect(ids({ body: listed } as Reply)).toEqual([A]);
  });

  it("FREE cannot send consoleId: 403 plan_required naming it, nothing created", async () => {
    const p = await player({ plan: "FREE" }, 0);
    await own(p, A);
    expectError(await p.call("addPlayRecord", { gameId: A, consoleId: "con_anything" }), 403, "plan_required", "consoleId");
    expect(ok(await records(p)).totalCount).toBe(0);
    expect(ok(await p.call("addPlayRecord", { gameId: A })).item.status).toBe("PLANNED");
  });

  it.each([
    [{ gameId: A, status: "FINISHED" }, "status"],
    [{ gameId: 0 }, "gameId"],
    [{}, "gameId"],
    [{ gameId: A, memo: "" }, "memo"],
    [{ gameId: A, replay: "yes" }, "replay"],
    [{ gameId: A, rating: 0 }, "rating"],
    [{ gameId: A, userLinks: [] }, "userLinks"],
    [{ gameId: A, replay: true, confirmToken: "not-a-token" }, "confirmToken"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const p = await player({}, 0);
    await own(p, A);
    expectError(await p.call("addPlayRecord", args), 400, "invalid_input", field);
    expect(ok(await records(p)).totalCount).toBe(0);
  });

  it("needs play:write", async () => {
    const p = await player({ scopes: ["library:read", "library:write", "play:read", "games:read"] }, 0);
    await own(p, A);
    expectError(await p.call("addPlayRecord", { gameId: A }), 403, "insufficient_scope");
  });
});

describe("updatePlayRecord", () => {
  it("patches: an omitted field is kept, null clears", async () => {
    const p = await player({}, 1);
    const { playId } = await started(p, A);
    const links = [{ name: "攻略", url: "https://example.com/orion" }];
    const set = ok(
      await p.call("updatePlayRecord", {
        playId,
        rating: 4,
        memo: "二周目",
        clearTargetDate: "2030-01-01",
        userLinks: links,
        playStartDate: "2024-05-05",
      }),
    ).item;
    expect(set).toMatchObject({
      playId,
      status: "PLANNED",
      rating: 4,
      memo: "二周目",
      clearTargetDate: "2030-01-01",
      userLinks: links,
      playStartDate: "2024-05-05",
    });
    const cleared = ok(await p.call("updatePlayRecord", { playId, rating: null, clearTargetDate: null })).item;
    expect(cleared).toMatchObject({
      rating: null,
      clearTargetDate: null,
      memo: "二周目",
      userLinks: links,
      playStartDate: "2024-05-05",
      status: "PLANNED",
    });
    const listed = ok(await records(p, { fields: ["memo", "userLinks", "goal"] })).items[0];
    expect(listed).toMatchObject({ rating: null, clearTargetDate: null, memo: "二周目", userLinks: links });
  });

  it("checks an optional revision: a stale one is 409 revision_conflict and changes nothing", async () => {
    const p = await player({}, 1);
    const { playId, item } = await started(p, A);
    const updated = ok(await p.call("updatePlayRecord", { playId, rating: 3, revision: item.revision })).item;
    expect(updated.revision).not.toBe(item.revision);
    expectError(await p.call("updatePlayRecord", { playId, rating: 1, revision: item.revision }), 409, "revision_conflict");
    expect(ok(await records(p)).items[0]).toMatchObject({ rating: 3, revision: updated.revision });
    expect(ok(await p.call("updatePlayRecord", { playId, rating: 2 })).item.rating).toBe(2);
  });

  it("fills dates from status moves when empty, and keeps dates that are set or sent", async () => {
    const p = await player({}, 2);
    const { playId } = await started(p, A);
    const playing = ok(await p.call("updatePlayRecord", { playId, status: "PLAYING" })).item;
    expect(playing).toMatchObject({ status: "PLAYING", playStartDate: today(), playEndDate: null });
    const done = ok(await p.call("updatePlayRecord", { playId, status: "COMPLETED" })).item;
    expect(done).toMatchObject({ status: "COMPLETED", playStartDate: today(), playEndDate: today() });

    const b = (await started(p, B)).playId;
    const explicit = ok(await p.call("updatePlayRecord", { playId: b, status: "PLAYING", playStartDate: "2023-04-01" })).item;
    expect(explicit).toMatchObject({ playStartDate: "2023-04-01", playEndDate: null });
    ok(await p.call("updatePlayRecord", { playId: b, status: "PAUSED" }));
    const resumed = ok(await p.call("updatePlayRecord", { playId: b, status: "PLAYING" })).item;
    expect(resumed.playStartDate).toBe("2023-04-01");
    const dropped = ok(await p.call("updatePlayRecord", { playId: b, status: "DROPPED", playEndDate: "2023-05-05" })).item;
    expect(dropped).toMatchObject({ status: "DROPPED", playStartDate: "2023-04-01", playEndDate: "2023-05-05" });

    const c = (await started(p, C)).playId;
    ok(await p.call("updatePlayRecord", { playId: c, playEndDate: "2022-02-02" }));
    expect(ok(await p.call("updatePlayRecord", { playId: c, status: "DROPPED" })).item.playEndDate).toBe("2022-02-02");
  });

  it("takes attributes by id or exact label, replaces the set, [] clears; an unknown one is 400 naming attributes[i]", async () => {
    const p = await player({}, 1);
    const own_ = ok(await p.call("addAttribute", { label: OWN_LABEL })).item.id as string;
    const { playId } = await started(p, A);
    const item = ok(await p.call("updatePlayRecord", { playId, attributes: ["box", "説明書あり", OWN_LABEL] })).item;
    expect(item.attributes.map((a: { id: string }) => a.id)).toEqual(["box", "manual", own_]);
    expect(item.attributes[2]).toMatchObject({ id: own_, label: OWN_LABEL, custom: true });
    expectError(await p.call("updatePlayRecord", { playId, attributes: ["box", "存在しない"] }), 400, "invalid_input", "attributes[1]");
    expect(ok(await records(p, { fields: ["attributes"] })).items[0].attributes).toHaveLength(3);
    expect(ok(await p.call("updatePlayRecord", { playId, attributes: [] })).item.attributes).toEqual([]);
  });

  it("sets and clears the console on LIGHT; another user's console is 404 naming consoleId", async () => {
    const [p, other] = await Promise.all([player({ plan: "LIGHT" }, 1), player({ plan: "LIGHT" }, 0)]);
    const mine = ok(await p.call("addConsole", { name: "オリオン本体" })).item.consoleId as string;
    const theirs = ok(await other.call("addConsole", { name: "よその本体" })).item.consoleId as string;
    const { playId } = await started(p, A);
    expect(ok(await p.call("updatePlayRecord", { playId, consoleId: mine })).item).toMatchObject({
      consoleId: mine,
      console: { consoleId: mine },
    });
    expectError(await p.call("updatePlayRecord", { playId, consoleId: theirs }), 404, "not_found", "consoleId");
    expect(ok(await records(p)).items[0].consoleId).toBe(mine);
    expect(ok(await p.call("updatePlayRecord", { playId, consoleId: null })).item).toMatchObject({ consoleId: null, console: null });
  });

  it("FREE cannot send consoleId, not even null: 403 plan_required naming it", async () => {
    const p = await player({ plan: "FREE" }, 0);
    const { playId } = await started(p, A);
    expectError(await p.call("updatePlayRecord", { playId, consoleId: "con_x" }), 403, "plan_required", "consoleId");
    expectError(await p.call("updatePlayRecord", { playId, consoleId: null }), 403, "plan_required", "consoleId");
    expect(ok(await p.call("updatePlayRecord", { playId, rating: 5 })).item.rating).toBe(5);
  });

  it("treats another user's or an unknown playId as not found", async () => {
    const [a, b] = await Promise.all([player({}, 0), player({}, 0)]);
    const { playId } = await started(a, A);
    expectError(await b.call("updatePlayRecord", { playId, rating: 1 }), 404, "not_found");
    expectError(await a.call("updatePlayRecord", { playId: "play_nosuchrecord", rating: 1 }), 404, "not_found");
    expect(ok(await records(a)).items[0].rating).toBe(null);
  });

  it.each([
    [{ rating: 6 }, "rating"],
    [{ rating: 0 }, "rating"],
    [{ rating: 2.5 }, "rating"],
    [{ status: "DONE" }, "status"],
    [{ playStartDate: "2024-02-30" }, "playStartDate"],
    [{ playEndDate: "2024/01/01" }, "playEndDate"],
    [{ clearTargetDate: "tomorrow" }, "clearTargetDate"],
    [{ memo: "" }, "memo"],
    [{ userLinks: [{ name: "攻略", url: "ftp://example.com" }] }, "userLinks[0].url"],
    [{ gameId: A }, "gameId"],
    [{ revision: "" }, "revision"],
  ])("refuses %j with 400 naming %s, changing nothing", async (args, field) => {
    const p = await player({}, 0);
    const { playId, item } = await started(p, A);
    expectError(await p.call("updatePlayRecord", { playId, ...args }), 400, "invalid_input", field);
    expect(ok(await records(p)).items[0].revision).toBe(item.revision);
  });

  it("needs playId, and play:write", async () => {
    const p = await player({}, 0);
    const { playId } = await started(p, A);
    expectError(await p.call("updatePlayRecord", { rating: 3 }), 400, "invalid_input", "playId");
    const viewer = await p.account.newKey(["library:read", "play:read", "games:read"]);
    expectError(await callWith(viewer.apiKey, "updatePlayRecord", { playId, rating: 3 }), 403, "insufficient_scope");
  });
});

describe("removePlayRecord (two-step)", () => {
  it("previews, then removes the record with its logs", async () => {
    const p = await player({}, 2);
    const { playId } = await started(p, A);
    await addLog(p, playId, 20);
    await addLog(p, playId, 25);
    const shown = await preview(p, "removePlayRecord", { playId });
    expect(shown.summary).toContain("オリオンの冒険");
    expect(shown.summary).toContain("2 play logs");
    expect(playIds(await records(p))).toEqual([playId]);
    expect(ok(await p.call("getPlayLogs", { playId })).totalCount).toBe(2);

    const done = okDone(await p.call("removePlayRecord", { playId, confirmToken: shown.confirmToken }));
    expect(done).toMatchObject({ playId, removed: true });
    expect(ok(await records(p)).totalCount).toBe(0);
    expectError(await p.call("getPlayLogs", { playId }), 404, "not_found");
    expectError(await p.call("addPlayLog", { playId, playTime: 10 }), 404, "not_found");
    expect(ok(await p.call("getLibrary", { fields: ["latestPlay"] })).items[0].latestPlay).toMatchObject({ hasPlayRecord: false });
    expect(ok(await p.call("addPlayRecord", { gameId: A })).item.status).toBe("PLANNED");
  });

  it("on PREMIUM, removing the latest cycle makes the newest remaining one latest", async () => {
    const p = await player({}, 2);
    const first = await started(p, A);
    await tick();
    const second = okDone(await p.call("addPlayRecord", { gameId: A, replay: true }));
    ok(await p.call("updatePlayRecord", { playId: second.playId, status: "COMPLETED" }));
    await tick();
    const third = okDone(await p.call("addPlayRecord", { gameId: A, replay: true }));
    expect(ok(await confirmed(p, "removePlayRecord", { playId: third.playId }))).toMatchObject({ removed: true });

    const latest = ok(await records(p));
    expect(latest.totalCount).toBe(1);
    expect(latest.items[0]).toMatchObject({ playId: second.playId, isLatest: true, status: "COMPLETED", hasHistory: true });
    const cycles = ok(await history(p, A));
    expect(cycles.items.map((c: { playId: string; isLatest: boolean }) => [c.playId, c.isLatest])).toEqual([
      [second.playId, true],
      [first.playId, false],
    ]);
    const lib = ok(await p.call("getLibrary", { fields: ["latestPlay"] }));
    expect(lib.items[0].latestPlay).toMatchObject({ hasPlayRecord: true, playId: second.playId, status: "COMPLETED", hasHistory: true });

    // Removing an earlier cycle leaves the latest alone.
    expect(ok(await confirmed(p, "removePlayRecord", { playId: first.playId }))).toMatchObject({ removed: true });
    expect(ok(await records(p)).items[0]).toMatchObject({ playId: second.playId, isLatest: true, hasHistory: false });
    expect(ok(await history(p, A)).totalCount).toBe(1);
  });

  it("answers a fresh preview when a log was added between preview and confirm", async () => {
    const p = await player({}, 1);
    const { playId } = await started(p, A);
    const first = await preview(p, "removePlayRecord", { playId });
    await addLog(p, playId, 10);
    const again = okPreview(await p.call("removePlayRecord", { playId, confirmToken: first.confirmToken }));
    expect(again).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(again.summary).toContain("1 play log");
    expect(playIds(await records(p))).toEqual([playId]);
  });

  it("answers a fresh preview when the record's logs were swapped (same count) between preview and confirm", async () => {
    const p = await player({}, 2);
    const { playId } = await started(p, A);
    const kept = await addLog(p, playId, 10);
    const first = await preview(p, "removePlayRecord", { playId });
    // The log the user saw goes, another comes: the record now holds a session the preview never showed.
    ok(await confirmed(p, "removePlayLog", { playLogId: kept.playLogId }));
    await addLog(p, playId, 600, { memo: "プレビュー後の記録" });
    const again = okPreview(await p.call("removePlayRecord", { playId, confirmToken: first.confirmToken }));
    expect(again).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(playIds(await records(p))).toEqual([playId]);
  });

  it("needs play:delete; another user's playId is 404; a token for another record is 400", async () => {
    const [a, b] = await Promise.all([player({}, 1), player({}, 0)]);
    const one = (await started(a, A)).playId;
    const two = (await started(a, B)).playId;
    const standard = await a.account.newKey(["library:read", "library:write", "play:read", "play:write", "games:read"]);
    expectError(await callWith(standard.apiKey, "removePlayRecord", { playId: one }), 403, "insufficient_scope");
    expectError(await b.call("removePlayRecord", { playId: one }), 404, "not_found");
    const shown = await preview(a, "removePlayRecord", { playId: one });
    expectError(await b.call("removePlayRecord", { playId: one, confirmToken: shown.confirmToken }), 404, "not_found");
    expectError(await a.call("removePlayRecord", { playId: two, confirmToken: shown.confirmToken }), 400, "invalid_input", "confirmToken");
    expect(ok(await records(a)).totalCount).toBe(2);
    expect(ok(await a.call("removePlayRecord", { playId: one, confirmToken: shown.confirmToken }))).toMatchObject({ removed: true });
    expect(playIds(await records(a))).toEqual([two]);
  });
});

describe("play records and the library", () => {
  it("getLibrary's latestPlay follows the latest record (it needs play:read)", async () => {
    const p = await player({}, 1);
    await own(p, A);
    const latestPlay = async () => ok(await p.call("getLibrary", { fields: ["latestPlay"] })).items[0].latestPlay;
    expect(await latestPlay()).toMatchObject({ hasPlayRecord: false });
    const first = await p.call("addPlayRecord", { gameId: A, status: "PLAYING" });
    expect(await latestPlay()).toMatchObject({ hasPlayRecord: true, playId: first.body.playId, status: "PLAYING", hasHistory: false });
    const replay = okDone(await p.call("addPlayRecord", { gameId: A, replay: true }));
    expect(await latestPlay()).toMatchObject({ hasPlayRecord: true, playId: replay.playId, status: "PLAYING", hasHistory: true });
    const noPlay = await p.account.newKey(["library:read", "games:read"]);
    expectError(await callWith(noPlay.apiKey, "getLibrary", { fields: ["latestPlay"] }), 403, "insufficient_scope");
  });

  it("removeFromLibrary's preview counts the play records, and they go with the game", async () => {
    const p = await player({}, 2);
    const first = await started(p, A);
    await addLog(p, first.playId, 30);
    await tick();
    const second = okDone(await p.call("addPlayRecord", { gameId: A, replay: true }));
    await addLog(p, second.playId, 40);
    await started(p, B);

    const shown = await preview(p, "removeFromLibrary", { gameId: A });
    expect(shown.summary).toContain("2 play records");
    expect(ok(await records(p)).totalCount).toBe(2);
    ok(await p.call("removeFromLibrary", { gameId: A, confirmToken: shown.confirmToken }));

    expect(ids(await records(p))).toEqual([B]);
    expectError(await p.call("getPlayLogs", { playId: first.playId }), 404, "not_found");
    expectError(await p.call("getPlayLogs", { playId: second.playId }), 404, "not_found");
    await own(p, A);
    expect(ok(await history(p, A)).totalCount).toBe(0);
    expect(
      ok(await p.call("getLibrary", { fields: ["latestPlay"], platformIds: [P1], title: "ぼうけん" })).items[0].latestPlay,
    ).toMatchObject({
      hasPlayRecord: false,
    });
    expect(ok(await p.call("addPlayRecord", { gameId: A })).replayed).toBe(false);
  });

  it("a play record added on a FREE account is removed with the game, too", async () => {
    const p = await player({ plan: "FREE" }, 1);
    const { playId } = await started(p, A);
    await addLog(p, playId, 5);
    const shown = await preview(p, "removeFromLibrary", { gameId: A });
    expect(shown.summary).toContain("1 play record");
    ok(await p.call("removeFromLibrary", { gameId: A, confirmToken: shown.confirmToken }));
    expect(ok(await records(p)).totalCount).toBe(0);
    expectError(await p.call("getPlayLogs", { playId }), 404, "not_found");
  });
});

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
