// getPlayRecords (latest records, filters, sorts, field groups), isolation and scopes across the
// play tools, and complete records. Master rows and helpers: ./playRecordsSupport.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { callWith, oncePer, type Reply } from "../../support/harness";
// The assertions index lists and read either branch of two-step answers, so ok() stays untyped
// here; setup lines use the typed okDone / okPreview.
import { expectError, okAny as ok, okDone } from "../../support/replies";
import {
  A,
  type Args,
  addLog,
  B,
  C,
  CORE,
  D,
  daysFromToday,
  E,
  expectFilters,
  G_ACT,
  G_DUNGEON,
  G_RPG,
  history,
  ids,
  importPlayMaster,
  OWN_LABEL,
  own,
  P1,
  P2,
  player,
  records,
  seeded,
  started,
} from "./playRecordsSupport";

beforeAll(importPlayMaster);

/** The seeded account of each plan that the tests which only read share (a seeding is some 25 writes). */
const seededForReading = oncePer(seeded);

describe("getPlayRecords: one latest record per game", () => {
  it("lists each game once with its latest cycle", async () => {
    const p = await seeded();
    const replay = okDone(await p.call("addPlayRecord", { gameId: B, replay: true }));
    const listed = ok(await records(p, { fields: [] }));
    expect(listed.totalCount).toBe(5);
    expect([...ids({ body: listed } as Reply)].sort()).toEqual([A, B, C, D, E].sort());
    const b = listed.items.find((item: { gameId: number }) => item.gameId === B);
    expect(b).toMatchObject({ playId: replay.playId, status: "PLAYING", isLatest: true, hasHistory: true, totalPlayTime: 0 });
    expect(listed.items.filter((item: { hasHistory: boolean }) => item.hasHistory).map((item: { gameId: number }) => item.gameId)).toEqual([
      B,
    ]);
  });

  it("shows only the caller's records", async () => {
    const [a, b] = await Promise.all([player({}, 0), player({}, 0)]);
    await started(a, A);
    await own(b, A);
    expect(ok(await records(b))).toMatchObject({ totalCount: 0, items: [] });
    expect(ok(await records(a)).totalCount).toBe(1);
  });
});

describe("getPlayRecords: filters", () => {
  it("statuses (OR), platformIds, genreId, title and release dates", async () => {
    const p = await seededForReading("PREMIUM");
    await expectFilters(p, [
      [{ statuses: ["PLAYING", "PAUSED"] }, [B, D]],
      [{ statuses: ["PLANNED"] }, [C]],
      [{ statuses: ["COMPLETED", "DROPPED"] }, [A, E]],
      [{ platformIds: [P1] }, [A, B, E]],
      [{ platformIds: [P2] }, [C, D]],
      [{ platformIds: [P1, P2] }, [A, B, C, D, E]],
      [{ platformIds: [P2], statuses: ["PAUSED"] }, [D]],
      [{ genreId: G_RPG }, [A, C]],
      [{ genreId: G_DUNGEON }, [B]],
      [{ genreId: G_ACT }, [B, C, E]],
      [{ title: "パズル" }, [C]],
      [{ title: "ぼうけん" }, [A]],
      [{ title: "オリオン" }, [A, B, C, D, E]],
      [{ releaseDateFrom: "1990-01-01", releaseDateTo: "1990-01-02" }, [A, B]],
      [{ releaseDateFrom: "1990-01-03" }, [D]],
      [{ releaseDateTo: "1989-12-31" }, [E]],
    ]);
  });

  it("attributes by id or label (AND) and consoleIds (OR)", async () => {
    const p = await seededForReading("PREMIUM");
    await expectFilters(p, [
      [{ attributes: ["box"] }, [A, B]],
      [{ attributes: ["箱あり"] }, [A, B]],
      [{ attributes: ["manual"] }, [B, D]],
      [{ attributes: ["box", "説明書あり"] }, [B]],
      [{ attributes: [OWN_LABEL] }, [E]],
      [{ attributes: [p.ownAttributeId, "box"] }, []],
      [{ consoleIds: [p.consoles.C1] }, [A, D]],
      [{ consoleIds: [p.consoles.C2] }, [B]],
      [{ consoleIds: [p.consoles.C1, p.consoles.C2] }, [A, B, D]],
      [{ consoleIds: ["con_nosuchconsole"] }, []],
    ]);
    expectError(await records(p, { attributes: ["box", "無い属性"] }), 400, "invalid_input", "attributes[1]");
  });

  it("consoleIds is not available on FREE: 403 plan_required naming it", async () => {
    const p = await player({ plan: "FREE" }, 0);
    await started(p, A);
    expectError(await records(p, { consoleIds: ["con_x"] }), 403, "plan_required", "consoleIds");
    expect(ok(await records(p)).totalCount).toBe(1);
  });

  it("play start and end date ranges, inclusive at both ends, excluding undated records", async () => {
    const p = await seededForReading("PREMIUM");
    await expectFilters(p, [
      [{ playStartDateFrom: "2024-01-10", playStartDateTo: "2024-01-10" }, [A, E]],
      [{ playStartDateFrom: "2024-01-10" }, [A, B, E]],
      [{ playStartDateTo: "2024-01-09" }, [D]],
      [{ playStartDateFrom: "2024-01-12" }, []],
      [{ playEndDateFrom: "2024-02-10", playEndDateTo: "2024-02-10" }, [A]],
      [{ playEndDateFrom: "2024-02-11" }, [E]],
      [{ playEndDateTo: "2024-02-11" }, [A, E]],
      [{ playEndDateTo: "2024-02-09" }, []],
    ]);
  });

  it("clear target date range (inclusive) and overdue (unfinished with a target before today, UTC)", async () => {
    const p = await seededForReading("PREMIUM");
    await expectFilters(p, [
      [{ clearTargetDateFrom: daysFromToday(-5), clearTargetDateTo: daysFromToday(-1) }, [A, B]],
      [{ clearTargetDateFrom: daysFromToday(0) }, [D]],
      [{ clearTargetDateTo: daysFromToday(-30) }, [E]],
      [{ clearTargetDateTo: daysFromToday(-6) }, [E]],
      [{ clearTargetOverdue: "overdue" }, [B]],
      [{ clearTargetOverdue: "overdue", statuses: ["PAUSED", "PLANNED"] }, []],
    ]);
  });

  it("not_overdue is every other record, including unfinished ones with no clear target", async () => {
    const p = await seededForReading("PREMIUM");
    // C is PLANNED with no clear target: not overdue.
    await expectFilters(p, [
      [{ clearTargetOverdue: "not_overdue" }, [A, C, D, E]],
      [{ clearTargetOverdue: "not_overdue", statuses: ["PLANNED"] }, [C]],
    ]);
  });

  it("total play time (the sum of the logs) and rating ranges, inclusive", async () => {
    const p = await seededForReading("PREMIUM");
    await expectFilters(p, [
      [{ totalPlayTimeFrom: 100 }, [A, B, E]],
      [{ totalPlayTimeTo: 99 }, [C, D]],
      [{ totalPlayTimeFrom: 100, totalPlayTimeTo: 100 }, [A]],
      [{ totalPlayTimeFrom: 0, totalPlayTimeTo: 0 }, [C]],
      [{ totalPlayTimeFrom: 101, totalPlayTimeTo: 199 }, [B]],
      [{ ratingFrom: 4 }, [A, D]],
      [{ ratingTo: 3 }, [B, E]],
      [{ ratingFrom: 3, ratingTo: 3 }, [B]],
      [{ ratingFrom: 1, ratingTo: 5 }, [A, B, D, E]],
    ]);
  });

  it.each([
    [{ statuses: ["DONE"] }, "statuses[0]"],
    [{ clearTargetOverdue: "late" }, "clearTargetOverdue"],
    [{ ratingFrom: 0 }, "ratingFrom"],
    [{ ratingTo: 6 }, "ratingTo"],
    [{ playStartDateFrom: "2024-02-01", playStartDateTo: "2024-01-01" }, "playStartDateTo"],
    [{ clearTargetDateFrom: "2024-02-30" }, "clearTargetDateFrom"],
    [{ totalPlayTimeFrom: -1 }, "totalPlayTimeFrom"],
    [{ totalPlayTimeFrom: 10, totalPlayTimeTo: 5 }, "totalPlayTimeTo"],
    [{ consoleIds: ["a", "b", "c", "d", "e", "f"] }, "consoleIds"],
    [{ title: "x".repeat(31) }, "title"],
    [{ sortBy: "releaseDate" }, "sortBy"],
    [{ sortOrder: "up" }, "sortOrder"],
    [{ fields: ["purchase"] }, "fields[0]"],
    [{ limit: 0 }, "limit"],
    [{ gameId: A }, "gameId"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const p = await player({}, 0);
    expectError(await records(p, args), 400, "invalid_input", field);
  });
});

describe("getPlayRecords: sorts", () => {
  it("defaults to updatedAt, newest first", async () => {
    const p = await seeded();
    expect(ids(await records(p))).toEqual([D, B, E, A, C]);
    expect(ids(await records(p, { sortBy: "updatedAt", sortOrder: "asc" }))).toEqual([C, A, E, B, D]);
    ok(await p.call("updatePlayRecord", { playId: p.play.C, rating: 2 }));
    expect(ids(await records(p))).toEqual([C, D, B, E, A]);
  });

  it.each([
    ["playStartDate", "asc", [D, A, E, B, C]],
    ["playStartDate", "desc", [B, A, E, D, C]],
    ["playEndDate", "asc", [A, E, B, C, D]],
    ["playEndDate", "desc", [E, A, B, C, D]],
    ["clearTargetDate", "asc", [E, A, B, D, C]],
    ["clearTargetDate", "desc", [D, B, A, E, C]],
    ["title", "asc", [D, B, A, C, E]], // readings: が < だ < の < ぱ < め
    ["title", "desc", [E, C, A, B, D]],
    ["totalPlayTime", "asc", [C, D, A, B, E]],
    ["totalPlayTime", "desc", [E, B, A, D, C]],
    ["rating", "asc", [E, B, D, A, C]],
    ["rating", "desc", [A, D, B, E, C]],
  ] as const)("sorts by %s %s with empty values last and ties by gameId", async (sortBy, sortOrder, expected) => {
    const p = await seededForReading("PREMIUM");
    expect(ids(await records(p, { sortBy, sortOrder, fields: [] }))).toEqual(expected);
    expect(ids(await records(p, { sortBy, sortOrder }, "GET"))).toEqual(expected);
  });

  it("pages stably", async () => {
    const p = await seededForReading("PREMIUM");
    const first = ok(await records(p, { sortBy: "title", sortOrder: "asc", limit: 2 }));
    const second = ok(await records(p, { sortBy: "title", sortOrder: "asc", limit: 2, page: 2 }));
    const third = ok(await records(p, { sortBy: "title", sortOrder: "asc", limit: 2, page: 3 }));
    expect(first).toMatchObject({ totalCount: 5, returnedCount: 2, hasMore: true, page: 1 });
    expect(third).toMatchObject({ returnedCount: 1, hasMore: false, page: 3 });
    expect([first, second, third].flatMap((body) => ids({ body } as Reply))).toEqual([D, B, A, C, E]);
  });
});

describe("getPlayRecords: field groups and caps", () => {
  const GROUP_KEYS = ["game", "console", "consoleId", "clearTargetDate", "attributes", "userLinks", "memo", "createdAt", "updatedAt"];

  it("defaults to game, console and goal on PREMIUM", async () => {
    const p = await seededForReading("PREMIUM");
    const a = ok(await records(p, { sortBy: "title", sortOrder: "desc", limit: 3 })).items.find(
      (item: { gameId: number }) => item.gameId === A,
    );
    expect(a).toMatchObject({
      playId: p.play.A,
      gameId: A,
      status: "COMPLETED",
      totalPlayTime: 100,
      clearTargetDate: daysFromToday(-5),
      consoleId: p.consoles.C1,
      console: { consoleId: p.consoles.C1, name: "オリオン本体一号" },
      game: { gameId: A, title: "オリオンの冒険", platform: { platformId: P1 }, releaseDate: "1990-01-01" },
    });
    for (const key of CORE) expect(a, key).toHaveProperty(key);
    for (const key of ["attributes", "userLinks", "memo", "createdAt", "updatedAt"]) expect(a, key).not.toHaveProperty(key);
  });

  it("defaults to game and goal on FREE", async () => {
    const p = await seededForReading("FREE");
    const item = ok(await records(p, { statuses: ["COMPLETED"] })).items[0];
    expect(item).toMatchObject({ gameId: A, clearTargetDate: daysFromToday(-5), game: { gameId: A } });
    for (const key of ["console", "consoleId", "attributes", "memo", "createdAt"]) expect(item, key).not.toHaveProperty(key);
  });

  it("[] gives the core fields only (GET fields= too); a group adds only itself", async () => {
    const p = await seededForReading("PREMIUM");
    for (const reply of [await records(p, { fields: [] }), await p.call("getPlayRecords", { fields: "" } as Args, "GET")]) {
      const item = ok(reply).items[0];
      for (const key of CORE) expect(item, key).toHaveProperty(key);
      for (const key of GROUP_KEYS) expect(item, key).not.toHaveProperty(key);
    }
    const memoOnly = ok(await records(p, { fields: ["memo"], statuses: ["PLANNED"] })).items[0];
    expect(memoOnly.memo).toBe("いつか");
    for (const key of GROUP_KEYS.filter((k) => k !== "memo")) expect(memoOnly, key).not.toHaveProperty(key);
    const stamps = ok(await records(p, { fields: ["timestamps", "attributes"], statuses: ["PLAYING"] })).items[0];
    expect(typeof stamps.createdAt).toBe("string");
    expect(typeof stamps.updatedAt).toBe("string");
    expect(stamps.attributes.map((a: { id: string }) => a.id)).toEqual(["box", "manual"]);
    expect(stamps).not.toHaveProperty("game");
  });

  it("caps the page at 100 with game, 50 with userLinks, 200 otherwise", async () => {
    const p = await player({}, 0);
    await started(p, A);
    expect(ok(await records(p, { limit: 500 }))).toMatchObject({ effectiveLimit: 100, limitReduced: true });
    expect(ok(await records(p, { limit: 500, fields: [] }))).toMatchObject({ effectiveLimit: 200, limitReduced: true });
    expect(ok(await records(p, { limit: 500, fields: ["userLinks"] }))).toMatchObject({ effectiveLimit: 50, limitReduced: true });
    expect(ok(await records(p, { limit: 500, fields: ["game", "userLinks"] }))).toMatchObject({ effectiveLimit: 50, limitReduced: true });
    expect(ok(await records(p, { limit: 100 }))).toMatchObject({ effectiveLimit: 100, limitReduced: false });
    expect(ok(await records(p, { limit: 5000, fields: [] }))).toMatchObject({ effectiveLimit: 200, limitReduced: true });
  });
});

describe("isolation and scopes", () => {
  it("another user's play records are invisible to every play tool", async () => {
    const [a, b] = await Promise.all([player({}, 1), player({}, 1)]);
    const { playId } = await started(a, A);
    const log = await addLog(a, playId, 50);
    await own(b, A);

    expect(ok(await records(b)).totalCount).toBe(0);
    expect(ok(await history(b, A)).totalCount).toBe(0);
    expectError(await b.call("updatePlayRecord", { playId, status: "DROPPED" }), 404, "not_found");
    expectError(await b.call("removePlayRecord", { playId }), 404, "not_found");
    expectError(await b.call("getPlayLogs", { playId }), 404, "not_found");
    expectError(await b.call("addPlayLog", { playId, playTime: 5 }), 404, "not_found");
    expectError(await b.call("updatePlayLog", { playLogId: log.playLogId, playTime: 5 }), 404, "not_found");
    expectError(await b.call("removePlayLog", { playLogId: log.playLogId }), 404, "not_found");
    // b's own record of the same game does not see or touch a's.
    const mine = okDone(await b.call("addPlayRecord", { gameId: A, status: "PLAYING" }));
    expect(mine.replayed).toBe(false);
    expect(ok(await b.call("addPlayRecord", { gameId: A, replay: true })).item.hasHistory).toBe(true);
    expect(ok(await history(b, A)).totalCount).toBe(2);

    expect(ok(await records(a)).items[0]).toMatchObject({ playId, status: "PLANNED", totalPlayTime: 50, hasHistory: false });
    expect(ok(await history(a, A)).totalCount).toBe(1);
    expect(ok(await a.call("getPlayLogs", { playId })).items[0]).toMatchObject({ playLogId: log.playLogId, playTime: 50 });
  });

  it("a view-only key reads play records but cannot write or remove them", async () => {
    const p = await player({}, 1);
    const { playId } = await started(p, A);
    const log = await addLog(p, playId, 15);
    const viewer = await p.account.newKey(["library:read", "play:read", "games:read"]);
    const as = (tool: string, args: Args, method: "POST" | "GET" = "POST") => callWith(viewer.apiKey, tool, args, method);

    expect(ok(await as("getPlayRecords", {}, "GET")).totalCount).toBe(1);
    expect(ok(await as("getGamePlayHistory", { gameId: A }, "GET")).totalCount).toBe(1);
    expect(ok(await as("getPlayLogs", { playId }, "GET")).totalCount).toBe(1);
    expect(ok(await as("getLibrary", { fields: ["latestPlay"] })).items[0].latestPlay.playId).toBe(playId);

    await own(p, B);
    for (const [tool, args] of [
      ["addPlayRecord", { gameId: B }],
      ["addPlayRecord", { gameId: A, replay: true }],
      ["updatePlayRecord", { playId, rating: 1 }],
      ["removePlayRecord", { playId }],
      ["addPlayLog", { playId, playTime: 1 }],
      ["updatePlayLog", { playLogId: log.playLogId, playTime: 1 }],
      ["removePlayLog", { playLogId: log.playLogId }],
    ] as const) {
      expectError(await as(tool, args), 403, "insufficient_scope");
    }
    expect(ok(await records(p))).toMatchObject({ totalCount: 1, items: [{ playId, rating: null, totalPlayTime: 15 }] });
  });

  it("a key without play:read cannot read play records", async () => {
    const p = await player({}, 0);
    const { playId } = await started(p, A);
    const writer = await p.account.newKey(["library:read", "library:write", "play:write", "games:read"]);
    for (const [tool, args] of [
      ["getPlayRecords", {}],
      ["getGamePlayHistory", { gameId: A }],
      ["getPlayLogs", { playId }],
    ] as const) {
      expectError(await callWith(writer.apiKey, tool, args), 403, "insufficient_scope");
    }
  });
});

describe("records complete (issue 21, item 13)", () => {
  it("getGamePlayHistory items carry game, like getPlayRecords' and the write results' items", async () => {
    const p = await player({}, 1);
    await started(p, A);
    ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
    const items = ok(await history(p, A)).items;
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(item.game).toMatchObject({ gameId: A, title: "オリオンの冒険", platform: { platformId: P1 }, releaseDate: "1990-01-01" });
    }
    const listed = ok(await records(p, { fields: ["game"] })).items[0];
    expect(items[0].game).toEqual(listed.game);
  });

  it("reads the title filter like a search term: symbols and spaces drop, a title of symbols alone is a 400", async () => {
    const p = await player({}, 1);
    await started(p, A);
    await started(p, B);
    expect(ok(await records(p, { title: "オリオン・の冒険！" })).items.map((item: { gameId: number }) => item.gameId)).toEqual([A]);
    expectError(await records(p, { title: "・！？" }), 400, "invalid_input", "title");
    expectError(await records(p, { title: " " }, "GET"), 400, "invalid_input", "title");
  });

  it("updatePlayRecord answers { item }, the whole record, as updateConsole and updateTag answer theirs", async () => {
    const p = await player({}, 1);
    const { playId } = await started(p, A);
    const body = ok(await p.call("updatePlayRecord", { playId, memo: "二周目" }));
    expect(Object.keys(body)).toEqual(["item"]);
    const [latest] = ok(await history(p, A)).items;
    expect(body.item).toEqual(latest);
    expect(body.item).toMatchObject({ playId, memo: "二周目", game: { gameId: A } });
  });
});
