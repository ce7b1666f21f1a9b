// Play records (addPlayRecord, updatePlayRecord, removePlayRecord, getPlayRecords,
// getGamePlayHistory) over a tiny fictional master (ids 790000-790099, marker word オリオン in every
// title). Each test makes its own accounts; heavy tests spread their calls over several keys of the
// same user so no key meets its burst limit.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Plan, Scope } from "../../../src/platform/plans";
import { utcDay } from "../../../src/platform/time";
import { callWith, type Player, type Reply, player as rotatingPlayer } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";
import { headStartOf, race } from "../../support/race";
// This suite reads its bodies untyped (its assertions index lists and pick two-step branches freely).
import { expectError, okAny as ok } from "../../support/replies";

const P1 = 790001;
const P2 = 790002;
const G_RPG = 790001; // root "orion_rpg"
const G_DUNGEON = 790002; // orion_rpg.dungeon
const G_ACT = 790003; // root "orion_act"

// gameId: title (reading) | platform | genre / support genre | release
const A = 790011; // オリオンの冒険 (おりおんのぼうけん) | P1 | RPG / - | 1990-01-01
const B = 790012; // オリオン大作戦 (おりおんだいさくせん) | P1 | ACT / DUNGEON | 1990-01-02
const C = 790013; // オリオン・パズル (おりおんぱずる) | P2 | ACT / RPG | undated
const D = 790014; // オリオン外伝 (おりおんがいでん) | P2 | - / - | 1990-01-03
const E = 790015; // オリオン迷宮 (おりおんめいきゅう) | P1 | ACT / - | 1989-12-31
const X = 790016; // オリオン予備, never in a library
const MISSING = 790099; // no such game

const game = (
  gameId: number,
  title: string,
  titleReading: string,
  platformId: number,
  genreId: number | null,
  genreSubId: number | null,
  releaseDate: string | null,
) => fictionalGame({ gameId, title, titleReading, platformId, genreId, genreSubId, releaseDate });

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([
      { platformId: P1, name: "オリオン機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P2, name: "オリオン携帯機", nameEn: null, shortName: null, maker: null, releaseDate: null },
    ]),
    genres: toNdjson([
      { genreId: G_RPG, name: "オリオンRPG", parentId: null, taxonomyKey: "orion_rpg" },
      { genreId: G_DUNGEON, name: "オリオンダンジョン", parentId: G_RPG, taxonomyKey: "orion_rpg.dungeon" },
      { genreId: G_ACT, name: "オリオンACT", parentId: null, taxonomyKey: "orion_act" },
    ]),
    games: toNdjson([
      game(A, "オリオンの冒険", "おりおんのぼうけん", P1, G_RPG, null, "1990-01-01"),
      game(B, "オリオン大作戦", "おりおんだいさくせん", P1, G_ACT, G_DUNGEON, "1990-01-02"),
      game(C, "オリオン・パズル", "おりおんぱずる", P2, G_ACT, G_RPG, null),
      game(D, "オリオン外伝", "おりおんがいでん", P2, null, null, "1990-01-03"),
      game(E, "オリオン迷宮", "おりおんめいきゅう", P1, G_ACT, null, "1989-12-31"),
      game(X, "オリオン予備", "おりおんよび", P2, null, null, null),
    ]),
  });
});

// ---------------------------------------------------------------------------------------------
// Helpers

type Args = Record<string, unknown>;

/** This suite rotates over three keys by default: two extra. */
const player = (options: { plan?: Plan; scopes?: Scope[] } = {}, extraKeys = 2) => rotatingPlayer(options, extraKeys);

const today = () => utcDay(new Date());
const daysFromToday = (days: number) => utcDay(new Date(Date.now() + days * 86_400_000));
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function own(p: Player, gameId: number) {
  ok(await p.call("addToLibrary", { gameId }), `addToLibrary ${gameId}`);
}

/** Owns the game and starts its play record; answers the addPlayRecord body. */
async function started(p: Player, gameId: number, args: Args = {}) {
  await own(p, gameId);
  return ok(await p.call("addPlayRecord", { gameId, ...args }), `addPlayRecord ${gameId}`);
}

async function addLog(p: Player, playId: string, playTime: number, extra: Args = {}) {
  return ok(await p.call("addPlayLog", { playId, playTime, ...extra }), `addPlayLog ${playId}`).item;
}

const records = (p: Player, args: Args = {}, method: "POST" | "GET" = "POST") => p.call("getPlayRecords", args, method);
const history = (p: Player, gameId: number) => p.call("getGamePlayHistory", { gameId });
const ids = (reply: Reply) => (reply.body.items as { gameId: number }[]).map((item) => item.gameId);
const playIds = (reply: Reply) => (reply.body.items as { playId: string }[]).map((item) => item.playId);

/** The preview of a two-step call, checked to be one. */
async function preview(p: Player, tool: string, args: Args) {
  const body = ok(await p.call(tool, args), `${tool} preview`);
  expect(body).toMatchObject({ confirmRequired: true, targetChanged: false });
  expect(typeof body.summary).toBe("string");
  expect(body.confirmToken).toMatch(/^ct_/);
  return body as { summary: string; confirmToken: string };
}

/** Preview then confirm; answers the confirming reply. */
async function confirmed(p: Player, tool: string, args: Args) {
  const { confirmToken } = await preview(p, tool, args);
  return p.call(tool, { ...args, confirmToken });
}

// ---------------------------------------------------------------------------------------------
// The seeded account of the getPlayRecords tests: five games, one latest record each, with values
// chosen so that inclusive bounds, empty values (sorted last) and ties (by gameId) show.
//
// game | status    | start      | end        | clear target | rating | attributes   | console | logs
// A    | COMPLETED | 2024-01-10 | 2024-02-10 | today-5      | 5      | box          | C1      | 60+40 = 100
// B    | PLAYING   | 2024-01-11 | -          | today-1      | 3      | box, manual  | C2      | 101
// C    | PLANNED   | -          | -          | -            | -      | -            | -       | 0
// D    | PAUSED    | 2024-01-09 | -          | today        | 4      | manual       | C1      | 99
// E    | DROPPED   | 2024-01-10 | 2024-02-11 | today-30     | 1      | (own label)  | -       | 200
// Updated in the order C, A, E, B, D, so updatedAt descending (the default sort) is D, B, E, A, C.

interface Seeded extends Player {
  play: Record<"A" | "B" | "C" | "D" | "E", string>;
  consoles: { C1: string; C2: string };
  ownAttributeId: string;
}

const OWN_LABEL = "オリオン限定版";

async function seeded(plan: Plan = "PREMIUM"): Promise<Seeded> {
  const p = await player({ plan }, plan === "FREE" ? 2 : 3);
  const consoleOf = async (name: string) =>
    plan === "FREE" ? null : (ok(await p.call("addConsole", { name }), "addConsole").item.consoleId as string);
  const C1 = await consoleOf("オリオン本体一号");
  const C2 = await consoleOf("オリオン本体二号");
  const ownAttributeId = ok(await p.call("addAttribute", { label: OWN_LABEL }), "addAttribute").item.id as string;
  const plan_ = {
    C: { gameId: C, changes: { memo: "いつか" }, logs: [] as number[] },
    A: {
      gameId: A,
      changes: {
        status: "COMPLETED",
        playStartDate: "2024-01-10",
        playEndDate: "2024-02-10",
        clearTargetDate: daysFromToday(-5),
        rating: 5,
        attributes: ["box"],
        consoleId: C1,
      },
      logs: [60, 40],
    },
    E: {
      gameId: E,
      changes: {
        status: "DROPPED",
        playStartDate: "2024-01-10",
        playEndDate: "2024-02-11",
        clearTargetDate: daysFromToday(-30),
        rating: 1,
        attributes: [OWN_LABEL],
      },
      logs: [200],
    },
    B: {
      gameId: B,
      changes: {
        status: "PLAYING",
        playStartDate: "2024-01-11",
        clearTargetDate: daysFromToday(-1),
        rating: 3,
        attributes: ["box", "manual"],
        consoleId: C2,
      },
      logs: [101],
    },
    D: {
      gameId: D,
      changes: {
        status: "PAUSED",
        playStartDate: "2024-01-09",
        clearTargetDate: daysFromToday(0),
        rating: 4,
        attributes: ["manual"],
        consoleId: C1,
      },
      logs: [99],
    },
  };
  const play = {} as Seeded["play"];
  for (const [name, { gameId, changes, logs }] of Object.entries(plan_) as [keyof Seeded["play"], (typeof plan_)["A"]][]) {
    const { playId } = await started(p, gameId);
    play[name] = playId;
    const update = { playId, ...changes } as Args;
    if (plan === "FREE") delete update.consoleId;
    else if (update.consoleId === null) delete update.consoleId;
    await tick();
    ok(await p.call("updatePlayRecord", update), `updatePlayRecord ${name}`);
    for (const minutes of logs) await addLog(p, playId, minutes);
    await tick();
  }
  return { ...p, play, consoles: { C1: C1!, C2: C2! }, ownAttributeId };
}

/** Sorted gameIds of every latest record matching a filter, asked with POST and GET (they must agree). */
async function matching(p: Player, filter: Args): Promise<number[]> {
  const results: number[][] = [];
  for (const method of ["POST", "GET"] as const) {
    const reply = await records(p, { ...filter, fields: [], limit: 200 }, method);
    expect(reply.status, `${method} ${JSON.stringify(filter)}: ${JSON.stringify(reply.body)}`).toBe(200);
    expect(reply.body.totalCount, `${method} ${JSON.stringify(filter)}`).toBe(reply.body.items.length);
    results.push(ids(reply).sort((a, b) => a - b));
  }
  expect(results[1], `GET and POST disagree for ${JSON.stringify(filter)}`).toEqual(results[0]);
  return results[0]!;
}

async function expectFilters(p: Player, cases: [Args, number[]][]) {
  for (const [filter, expected] of cases) {
    expect(await matching(p, filter), JSON.stringify(filter)).toEqual([...expected].sort((a, b) => a - b));
  }
}

const CORE = ["playId", "gameId", "status", "playStartDate", "playEndDate", "totalPlayTime", "rating", "hasHistory"];

// ---------------------------------------------------------------------------------------------

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
    const item = ok(await p.call("addPlayRecord", { gameId: A, consoleId: mine })).item;
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
    [{ gameId: A, rating: 3 }, "rating"],
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

describe("addPlayRecord replay on PREMIUM: a new cycle, history kept", () => {
  it("starts a new PLAYING cycle; the old one stays in the history with its logs", async () => {
    const p = await player({}, 1);
    const first = await started(p, A, { status: "PLAYING" });
    ok(await p.call("updatePlayRecord", { playId: first.playId, status: "COMPLETED", playEndDate: "2024-03-01", rating: 5 }));
    await addLog(p, first.playId, 90);
    await tick();

    const reply = ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
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
    const second = ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
    await tick();
    const third = ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
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

    const done = ok(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: shown.confirmToken }));
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
    const again = ok(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: first.confirmToken }));
    expect(again).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(again.confirmToken).not.toBe(first.confirmToken);
    expect(playIds(await records(p))).toEqual([old.playId]);
    expect(ok(await p.call("getPlayLogs", { playId: old.playId })).totalCount).toBe(1);
    const done = ok(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: again.confirmToken }));
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
    const again = ok(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: first.confirmToken }));
    expect(again).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(again.summary).toContain("900 minutes");
    expect(playIds(await records(p))).toEqual([old.playId]);
  });

  it("answers a fresh preview when the record itself was updated between preview and confirm", async () => {
    const p = await player({ plan }, 1);
    const old = await started(p, A);
    const first = await preview(p, "addPlayRecord", { gameId: A, replay: true });
    ok(await p.call("updatePlayRecord", { playId: old.playId, rating: 2 }));
    const again = ok(await p.call("addPlayRecord", { gameId: A, replay: true, confirmToken: first.confirmToken }));
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

    const done = ok(await p.call("removePlayRecord", { playId, confirmToken: shown.confirmToken }));
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
    const second = ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
    ok(await p.call("updatePlayRecord", { playId: second.playId, status: "COMPLETED" }));
    await tick();
    const third = ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
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
    const again = ok(await p.call("removePlayRecord", { playId, confirmToken: first.confirmToken }));
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
    const again = ok(await p.call("removePlayRecord", { playId, confirmToken: first.confirmToken }));
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

describe("getPlayRecords: one latest record per game", () => {
  it("lists each game once with its latest cycle", async () => {
    const p = await seeded();
    const replay = ok(await p.call("addPlayRecord", { gameId: B, replay: true }));
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
    const p = await seeded();
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
    const p = await seeded();
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
    const p = await seeded();
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
    const p = await seeded();
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
    const p = await seeded();
    // C is PLANNED with no clear target: not overdue.
    await expectFilters(p, [
      [{ clearTargetOverdue: "not_overdue" }, [A, C, D, E]],
      [{ clearTargetOverdue: "not_overdue", statuses: ["PLANNED"] }, [C]],
    ]);
  });

  it("total play time (the sum of the logs) and rating ranges, inclusive", async () => {
    const p = await seeded();
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
    const p = await seeded();
    expect(ids(await records(p, { sortBy, sortOrder, fields: [] }))).toEqual(expected);
    expect(ids(await records(p, { sortBy, sortOrder }, "GET"))).toEqual(expected);
  });

  it("pages stably", async () => {
    const p = await seeded();
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
    const p = await seeded();
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
    const p = await seeded("FREE");
    const item = ok(await records(p, { statuses: ["COMPLETED"] })).items[0];
    expect(item).toMatchObject({ gameId: A, clearTargetDate: daysFromToday(-5), game: { gameId: A } });
    for (const key of ["console", "consoleId", "attributes", "memo", "createdAt"]) expect(item, key).not.toHaveProperty(key);
  });

  it("[] gives the core fields only (GET fields= too); a group adds only itself", async () => {
    const p = await seeded();
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

describe("play records and the library", () => {
  it("getLibrary's latestPlay follows the latest record (it needs play:read)", async () => {
    const p = await player({}, 1);
    await own(p, A);
    const latestPlay = async () => ok(await p.call("getLibrary", { fields: ["latestPlay"] })).items[0].latestPlay;
    expect(await latestPlay()).toMatchObject({ hasPlayRecord: false });
    const first = await p.call("addPlayRecord", { gameId: A, status: "PLAYING" });
    expect(await latestPlay()).toMatchObject({ hasPlayRecord: true, playId: first.body.playId, status: "PLAYING", hasHistory: false });
    const replay = ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
    expect(await latestPlay()).toMatchObject({ hasPlayRecord: true, playId: replay.playId, status: "PLAYING", hasHistory: true });
    const noPlay = await p.account.newKey(["library:read", "games:read"]);
    expectError(await callWith(noPlay.apiKey, "getLibrary", { fields: ["latestPlay"] }), 403, "insufficient_scope");
  });

  it("removeFromLibrary's preview counts the play records, and they go with the game", async () => {
    const p = await player({}, 2);
    const first = await started(p, A);
    await addLog(p, first.playId, 30);
    await tick();
    const second = ok(await p.call("addPlayRecord", { gameId: A, replay: true }));
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
    const mine = ok(await b.call("addPlayRecord", { gameId: A, status: "PLAYING" }));
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

describe("under concurrency (issue 13)", () => {
  const count = async (sql: string, ...params: unknown[]) =>
    (await env.DB.prepare(sql)
      .bind(...params)
      .first<number>("n")) ?? 0;

  it("runs a LIGHT replay token once: 15 racing confirmations replace the record once", async () => {
    const p = await player({ plan: "LIGHT" }, 4);
    for (let round = 0; round < 3; round++) {
      const gameId = [A, B, C][round]!;
      const old = await started(p, gameId, { status: "COMPLETED" });
      await addLog(p, old.playId, 30);
      const { confirmToken } = await preview(p, "addPlayRecord", { gameId, replay: true });
      const replies = await Promise.all(Array.from({ length: 15 }, () => p.call("addPlayRecord", { gameId, replay: true, confirmToken })));
      const replayed = replies.filter((r) => r.status === 200 && r.body.replayed === true);
      expect(replayed, JSON.stringify(replies.map((r) => r.body))).toHaveLength(1);
      for (const loser of replies.filter((r) => !(r.status === 200 && r.body.replayed === true))) {
        expect(loser.body, JSON.stringify(loser.body)).toMatchObject({ code: "invalid_input", field: "confirmToken" });
      }
      expect(await count("SELECT COUNT(*) AS n FROM play_records WHERE user_id = ? AND game_id = ?", p.account.userId, gameId)).toBe(1);
      expect(playIds(await records(p, { statuses: ["PLAYING"] }))).toContain(replayed[0]!.body.playId);
      expect(await count("SELECT COUNT(*) AS n FROM play_logs WHERE play_id = ?", old.playId)).toBe(0);
    }
  }, 60_000);

  it("answers addPlayRecord racing removeFromLibrary with its result or 404, never 500, and leaves no record behind", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    const statuses: number[] = [];
    for (let round = 0; round < 40; round++) {
      await own(p, D);
      const { confirmToken } = await preview(p, "removeFromLibrary", { gameId: D });
      const [removed, added] = await race(
        () => p.call("removeFromLibrary", { gameId: D, confirmToken }),
        () => p.call("addPlayRecord", { gameId: D }),
        headStartOf(round),
      );
      statuses.push(added.status);
      expect([200, 404], JSON.stringify(added.body)).toContain(added.status);
      if (removed.body.removed !== true) {
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        expect((await p.call("removeFromLibrary", { gameId: D, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
      // The game left the library: none of its play records may stay.
      expect(await count("SELECT COUNT(*) AS n FROM play_records WHERE user_id = ? AND game_id = ?", p.account.userId, D)).toBe(0);
    }
    expect(statuses).not.toContain(500);
  }, 60_000);

  it("answers updatePlayRecord racing removeFromLibrary with its result or 404, never 500", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    for (let round = 0; round < 40; round++) {
      const { playId } = await started(p, E);
      const { confirmToken } = await preview(p, "removeFromLibrary", { gameId: E });
      const [removed, updated] = await race(
        () => p.call("removeFromLibrary", { gameId: E, confirmToken }),
        () => p.call("updatePlayRecord", { playId, memo: `round ${round}` }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(updated.body)).toContain(updated.status);
      if (removed.body.removed !== true) {
        expect((await p.call("removeFromLibrary", { gameId: E, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
    }
  }, 60_000);
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
