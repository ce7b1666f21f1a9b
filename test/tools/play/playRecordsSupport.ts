// Shared by the play record suites (playRecordsWrite, playRecordsRead): a tiny
// fictional master (ids 790000-790099, marker word オリオン in every title), the calls the suites
// make, and the seeded account of the getPlayRecords tests. Heavy tests spread their calls over
// several keys of the same user so no key meets its burst limit.
import { expect } from "vitest";
import type { Plan, Scope } from "../../../src/platform/plans";
import { accountDay } from "../../support/days";
import { type Player, type Reply, player as rotatingPlayer } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";
import { ok, okDone } from "../../support/replies";

export const P1 = 790001;
export const P2 = 790002;
export const G_RPG = 790001; // root "orion_rpg"
export const G_DUNGEON = 790002; // orion_rpg.dungeon
export const G_ACT = 790003; // root "orion_act"

// gameId: title (reading) | platform | genre / support genre | release
export const A = 790011; // オリオンの冒険 (おりおんのぼうけん) | P1 | RPG / - | 1990-01-01
export const B = 790012; // オリオン大作戦 (おりおんだいさくせん) | P1 | ACT / DUNGEON | 1990-01-02
export const C = 790013; // オリオン・パズル (おりおんぱずる) | P2 | ACT / RPG | undated
export const D = 790014; // オリオン外伝 (おりおんがいでん) | P2 | - / - | 1990-01-03
export const E = 790015; // オリオン迷宮 (おりおんめいきゅう) | P1 | ACT / - | 1989-12-31
export const X = 790016; // オリオン予備, never in a library
export const MISSING = 790099; // no such game

const game = (
  gameId: number,
  title: string,
  titleReading: string,
  platformId: number,
  genreId: number | null,
  genreSubId: number | null,
  releaseDate: string | null,
) => fictionalGame({ gameId, title, titleReading, platformId, genreId, genreSubId, releaseDate });

/** Imports the suites' master rows (each file's beforeAll). */
export async function importPlayMaster() {
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
}

// ---------------------------------------------------------------------------------------------
// Helpers

export type Args = Record<string, unknown>;

/** The suites rotate over three keys by default: two extra. */
export const player = (options: { plan?: Plan; scopes?: Scope[] } = {}, extraKeys = 2) => rotatingPlayer(options, extraKeys);

/** Today and other days as the account counts them (its time zone, Asia/Tokyo by default). */
export const today = () => accountDay();
export const daysFromToday = (days: number) => accountDay(days);
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

export async function own(p: Player, gameId: number) {
  ok(await p.call("addToLibrary", { gameId }), `addToLibrary ${gameId}`);
}

/** Owns the game and starts its play record; answers the addPlayRecord body. */
export async function started(p: Player, gameId: number, args: Args = {}) {
  await own(p, gameId);
  return okDone(await p.call("addPlayRecord", { gameId, ...args }), `addPlayRecord ${gameId}`);
}

export async function addLog(p: Player, playId: string, playTime: number, extra: Args = {}) {
  return ok(await p.call("addPlayLog", { playId, playTime, ...extra }), `addPlayLog ${playId}`).item;
}

export const records = (p: Player, args: Args = {}, method: "POST" | "GET" = "POST") => p.call("getPlayRecords", args, method);
export const history = (p: Player, gameId: number) => p.call("getGamePlayHistory", { gameId });
export const ids = (reply: Reply) => (reply.body.items as { gameId: number }[]).map((item) => item.gameId);
export const playIds = (reply: Reply) => (reply.body.items as { playId: string }[]).map((item) => item.playId);

/** The preview of a two-step call, checked to be one. */
export async function preview(p: Player, tool: string, args: Args) {
  const body = ok(await p.call(tool, args), `${tool} preview`);
  expect(body).toMatchObject({ confirmRequired: true, targetChanged: false });
  expect(typeof body.summary).toBe("string");
  expect(body.confirmToken).toMatch(/^ct_/);
  return body as { summary: string; confirmToken: string };
}

/** Preview then confirm; answers the confirming reply. */
export async function confirmed(p: Player, tool: string, args: Args) {
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

export interface Seeded extends Player {
  play: Record<"A" | "B" | "C" | "D" | "E", string>;
  consoles: { C1: string; C2: string };
  ownAttributeId: string;
}

export const OWN_LABEL = "オリオン限定版";

export async function seeded(plan: Plan = "PREMIUM"): Promise<Seeded> {
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
export async function matching(p: Player, filter: Args): Promise<number[]> {
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

export async function expectFilters(p: Player, cases: [Args, number[]][]) {
  for (const [filter, expected] of cases) {
    expect(await matching(p, filter), JSON.stringify(filter)).toEqual([...expected].sort((a, b) => a - b));
  }
}

export const CORE = ["playId", "gameId", "status", "playStartDate", "playEndDate", "totalPlayTime", "rating", "hasHistory"];
