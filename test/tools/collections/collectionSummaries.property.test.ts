// Collection summaries are kept by triggers (migrations/0007_collection_summaries.sql) instead of
// being counted on each call. After every write of a random sequence (library, play records and
// their status, tags and their games, collections of every type with their games and exclusions,
// custom games moved between platforms, genres and release dates, master imports moving official
// games and genres), every collection's stored summary must equal a recount worked out here from
// the rows by the rules of the spec, and getCollectionGames' pages (which still read the members)
// must agree with it after the seed and at the end of each sequence. Then parallel writes on one
// collection must end with the exact summary.
// Fictional master: ids 561000+, marker word サマリ.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { GameRow } from "../../../src/tools/games/masterRows";
import { recountCollections } from "../../support/collectionRecount";
import { type Player, player } from "../../support/harness";
import { fictionalGame, importFixture, importOk, toNdjson } from "../../support/master";
import { pick, removeConfirmed, removeSomeCollection, some, updateSomeCollection } from "../../support/propertyOps";

const [P1, P2] = [561001, 561002];
const [RPG, ARPG, ACT, STG, DUNGEON] = [561201, 561202, 561203, 561204, 561205];
const DATES = [null, "1990-01-01", "1995-06-01", "2001-03-03"];

/** The official games; master imports in the test move them between platforms, genres and dates. */
const gameRow = (i: number, shift = 0): GameRow =>
  fictionalGame({
    gameId: 561101 + i,
    title: `サマリ${i}`,
    platformId: (i + shift) % 3 === 0 ? P2 : P1,
    genreId: [null, RPG, ACT][(i + shift) % 3]!,
    genreSubId: [null, ARPG, STG, DUNGEON][(i + 2 * shift) % 4]!,
    releaseDate: DATES[(i + shift) % 4]!,
  });
const GAMES = Array.from({ length: 10 }, (_, i) => 561101 + i);

/** DUNGEON sits under RPG > ARPG or, moved by a genre import, under ACT > STG. */
const genreRows = (dungeonUnderStg: boolean) =>
  toNdjson([
    { genreId: RPG, name: "サマリRPG", parentId: null, taxonomyKey: "summ_rpg" },
    { genreId: ACT, name: "サマリACT", parentId: null, taxonomyKey: "summ_act" },
    { genreId: ARPG, name: "サマリARPG", parentId: RPG, taxonomyKey: "summ_rpg.arpg" },
    { genreId: STG, name: "サマリSTG", parentId: ACT, taxonomyKey: "summ_act.stg" },
    dungeonUnderStg
      ? { genreId: DUNGEON, name: "サマリ迷宮", parentId: STG, taxonomyKey: "summ_act.stg.dungeon" }
      : { genreId: DUNGEON, name: "サマリ迷宮", parentId: ARPG, taxonomyKey: "summ_rpg.arpg.dungeon" },
  ]);

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson(
      [P1, P2].map((platformId, i) => ({
        platformId,
        name: `サマリ機${i}`,
        nameEn: null,
        shortName: null,
        maker: null,
        releaseDate: null,
      })),
    ),
    genres: genreRows(false),
    games: toNdjson(GAMES.map((_, i) => gameRow(i))),
  });
});

const rows = async <T>(query: string, ...values: unknown[]) =>
  (
    await env.DB.prepare(query)
      .bind(...values)
      .all<T>()
  ).results;

interface Op {
  kind: keyof typeof OPS;
  a: number;
  b: number;
}

/** The user's records an operation picks its target among. */
async function targets(userId: string) {
  const [custom, tags, collections, plays] = await Promise.all([
    rows<{ id: number }>("SELECT id FROM games WHERE owner_user_id = ? ORDER BY id", userId),
    rows<{ id: number }>("SELECT id FROM tags WHERE user_id = ? ORDER BY id", userId),
    rows<{ id: string; revision: string; type: string }>(
      "SELECT id, revision, type FROM collections WHERE user_id = ? ORDER BY id",
      userId,
    ),
    rows<{ id: string }>("SELECT id FROM play_records WHERE user_id = ? ORDER BY id", userId),
  ]);
  return {
    games: [...GAMES, ...custom.map((row) => row.id)],
    custom: custom.map((row) => row.id),
    tags: tags.map((row) => row.id),
    collections,
    plays: plays.map((row) => row.id),
  };
}
type Targets = Awaited<ReturnType<typeof targets>>;

/** A PLATFORM collection's narrowing: none, a genre (root or not), release dates. */
const platformShape = (a: number, b: number) => ({
  type: "PLATFORM",
  platformId: pick([P1, P2], b)!,
  genreId: pick([null, RPG, ARPG, ACT, STG], a >> 1) ?? null,
  releaseDateFrom: pick([null, "1991-01-01"], a >> 3) ?? null,
  releaseDateTo: pick([null, null, "1999-12-31"], b >> 2) ?? null,
});

/** Every kind of write that can change a summary, on targets chosen by `a` and `b`. */
const OPS = {
  addToLibrary: (p: Player, t: Targets, { a }: Op) => p.call("addToLibrary", { gameId: pick(t.games, a) }),
  removeFromLibrary: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removeFromLibrary", { gameId: pick(t.games, a) }),
  addPlayRecord: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("addPlayRecord", { gameId: pick(t.games, a), status: pick(["PLAYING", "COMPLETED"], b), ...(b & 4 ? { replay: true } : {}) }),
  updatePlayRecord: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("updatePlayRecord", { playId: pick(t.plays, a) ?? "none", status: pick(["COMPLETED", "PLAYING", "DROPPED"], b) }),
  removePlayRecord: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removePlayRecord", { playId: pick(t.plays, a) ?? "none" }),
  addTag: (p: Player, _t: Targets, { a }: Op) => p.call("addTag", { name: `サマリタグ${a}` }),
  updateTagGames: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("updateTagGames", { tagId: pick(t.tags, a) ?? 1, mode: pick(["add", "remove"], a >> 3), gameIds: some(t.games, b).slice(0, 4) }),
  removeTag: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removeTag", { tagId: pick(t.tags, a) ?? 1 }),
  addCollection: (p: Player, t: Targets, { a, b }: Op) => {
    const shapes = [
      { type: "INDIVIDUAL", gameIds: some(t.games, b).slice(0, 5) },
      { type: "TAG", tagId: pick(t.tags, b) ?? 1, excludeGameIds: some(t.games, a).slice(0, 2) },
      { ...platformShape(a, b), excludeGameIds: some(t.games, a >> 2).slice(0, 2) },
    ];
    return p.call("addCollection", { name: `サマリ集${a}`, purpose: pick(["LIBRARY", "PLAY"], a >> 2), ...pick(shapes, a) });
  },
  updateCollection: (p: Player, t: Targets, { a, b }: Op) => updateSomeCollection(p, t, a, b, 4),
  removeCollection: (p: Player, t: Targets, { a }: Op) => removeSomeCollection(p, t, a),
  addCustomGame: (p: Player, _t: Targets, { a, b }: Op) =>
    p.call("addCustomGame", {
      title: `サマリ自作${a}`,
      platformId: pick([P1, P2], b),
      genreId: pick([null, RPG, ACT], a),
      genreSubId: pick([null, ARPG, STG, DUNGEON], b >> 1),
      releaseDate: pick(DATES, a >> 2),
    }),
  updateCustomGame: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("updateCustomGame", {
      gameId: pick(t.custom, a) ?? 1,
      ...[
        { platformId: pick([P1, P2], b) },
        { genreId: pick([null, RPG, ACT], b) ?? null },
        { genreSubId: pick([null, ARPG, STG, DUNGEON], b) ?? null },
        { releaseDate: pick(DATES, b) ?? null },
      ][a % 4],
    }),
  removeCustomGame: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removeCustomGame", { gameId: pick(t.custom, a) ?? 1 }),
  /** The operator moves an official game to another platform, genre or release date. */
  importGame: async (_p: Player, _t: Targets, { a, b }: Op) => importOk("games", toNdjson([gameRow(a % GAMES.length, 1 + (b % 5))])),
  /** The operator moves DUNGEON from under ARPG to under STG or back (its games' genre ids stay). */
  importGenres: async (_p: Player, _t: Targets, { a }: Op) => importOk("genres", genreRows(a % 2 === 1)),
};

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom(...(Object.keys(OPS) as (keyof typeof OPS)[])),
  a: fc.nat(63),
  b: fc.nat(63),
});

const body = (reply: { status: number; body: any }, what: string) => {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
};

const summaryOf = ({ totalGames, achievedGames }: { totalGames: number; achievedGames: number }) => ({
  totalGames,
  achievedGames,
  achievementRate: totalGames === 0 ? 0 : Math.round((achievedGames / totalGames) * 10_000) / 10_000,
  isCompleted: totalGames > 0 && achievedGames === totalGames,
});

/** Stored summaries and getCollections' equal the recount (cheap: one call); returns the recount. */
async function checkSummaries(p: Player, after: string) {
  const { userId } = p.account;
  const expected = await recountCollections(userId);
  const stored = await rows<{ collection_id: string; total_games: number; achieved_games: number }>(
    "SELECT s.collection_id, s.total_games, s.achieved_games FROM collection_summaries s JOIN collections c ON c.id = s.collection_id WHERE c.user_id = ?",
    userId,
  );
  expect(
    new Map(stored.map((row) => [row.collection_id, { totalGames: row.total_games, achievedGames: row.achieved_games }])),
    `stored summaries after ${after}`,
  ).toEqual(expected);
  const listed = body(await p.call("getCollections", { limit: 100 }), "getCollections").items as { collectionId: string; summary: any }[];
  expect(listed).toHaveLength(expected.size);
  for (const item of listed) {
    expect(item.summary, `getCollections ${item.collectionId} after ${after}`).toEqual(summaryOf(expected.get(item.collectionId)!));
  }
  return expected;
}

/** One collection's getCollectionGames pages (plain, achieved only, by achievedAt, platform filter) agree with its recount. */
async function checkPages(p: Player, id: string, counts: { totalGames: number; achievedGames: number }, after: string) {
  const { totalGames, achievedGames } = counts;
  const read = async (args: Record<string, unknown>, what: string) =>
    body(await p.call("getCollectionGames", { collectionId: id, limit: 100, ...args }), what);
  const [page, onlyAchieved, byDate, filtered] = await Promise.all([
    read({}, "getCollectionGames"),
    read({ achieved: true }, "achieved"),
    read({ sortBy: "achievedAt" }, "achievedAt"),
    read({ platformIds: [P1, P2] }, "platformIds"),
  ]);
  expect(page.summary, `page summary of ${id} after ${after}`).toEqual(summaryOf(counts));
  expect(page.totalCount, `page count of ${id} after ${after}`).toBe(totalGames);
  const achievedOnPage = (page.items as { isAchieved: boolean }[]).filter((game) => game.isAchieved).length;
  expect(achievedOnPage, `achieved games on the page of ${id} after ${after}`).toBe(achievedGames);
  // The ways that work out every member's achievement (achieved filter, achievedAt sort) and a game filter agree.
  expect(onlyAchieved.totalCount).toBe(achievedGames);
  expect(onlyAchieved.items).toHaveLength(achievedGames);
  expect(byDate.items.map((game: { gameId: number }) => game.gameId).sort()).toEqual(
    page.items.map((game: { gameId: number }) => game.gameId).sort(),
  );
  expect(filtered.totalCount).toBe(totalGames);
}

/** As checkSummaries, and every collection's pages agree with the recount (reads only: all at once). */
async function checkSummariesAndPages(p: Player, after: string) {
  const expected = await checkSummaries(p, after);
  await Promise.all([...expected].map(([id, counts]) => checkPages(p, id, counts, after)));
}

/** A few records of every kind to start from, so the random writes find targets. */
async function seed(p: Player) {
  const custom = body(
    await p.call("addCustomGame", { title: "サマリ元作", platformId: P1, genreId: RPG, releaseDate: "1995-06-01" }),
    "custom",
  ).item.gameId;
  for (const gameId of [GAMES[0], GAMES[1], GAMES[4], custom]) body(await p.call("addToLibrary", { gameId }), "addToLibrary");
  body(await p.call("addPlayRecord", { gameId: GAMES[1], status: "COMPLETED" }), "addPlayRecord");
  const { tagId } = body(await p.call("addTag", { name: "サマリ元タグ" }), "addTag").item;
  body(await p.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0], GAMES[4], custom] }), "updateTagGames");
  body(await p.call("addCollection", { name: "元個別", type: "INDIVIDUAL", gameIds: [GAMES[1], GAMES[3], custom] }), "INDIVIDUAL");
  body(await p.call("addCollection", { name: "元タグ集", type: "TAG", tagId, purpose: "PLAY" }), "TAG");
  body(await p.call("addCollection", { name: "元機種集", type: "PLATFORM", platformId: P1 }), "PLATFORM");
  body(await p.call("addCollection", { name: "元ジャンル集", type: "PLATFORM", platformId: P1, genreId: RPG, purpose: "PLAY" }), "genre");
  for (const genreId of [ARPG, STG]) {
    body(await p.call("addCollection", { name: `元下位ジャンル集${genreId}`, type: "PLATFORM", platformId: P2, genreId }), "subgenre");
  }
}

describe("collection summaries kept by the writes that change them", () => {
  it("equal a recount after every write of a random sequence", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 12 }), async (ops) => {
        // Seven keys: a run's ~210 calls at most stay well inside their 7 x 80 burst limit (a 429 would skip a write).
        const p = await player({ plan: "PREMIUM" }, 6);
        await seed(p);
        await checkSummariesAndPages(p, "the seed");
        // After each write the stored and listed summaries; the pages (4 calls a collection) once the sequence is done.
        for (const [i, op] of ops.entries()) {
          const reply = await OPS[op.kind](p, await targets(p.account.userId), op);
          expect(reply.status, `${op.kind}: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
          expect(reply.status, `${op.kind} over the burst limit`).not.toBe(429);
          await checkSummaries(p, `op ${i} ${op.kind}(${op.a}, ${op.b})`);
        }
        await checkSummariesAndPages(p, `the last op of ${ops.length}`);
      }),
      { numRuns: 12, endOnFailure: true },
    );
    // Put the master back as beforeAll left it, for the test below.
    await importFixture({ genres: genreRows(false), games: toNdjson(GAMES.map((_, i) => gameRow(i))) });
  }, 240_000);

  it("stay exact when parallel writes change one collection at once", async () => {
    const p = await player({ plan: "PREMIUM" }, 4);
    const games = [...GAMES];
    for (let i = 0; i < 6; i++) {
      games.push(
        body(await p.call("addCustomGame", { title: `サマリ並行${i}`, platformId: P1, releaseDate: "1995-06-01" }), "custom").item.gameId,
      );
    }
    const { tagId } = body(await p.call("addTag", { name: "サマリ並行タグ" }), "addTag").item;
    const platform = body(await p.call("addCollection", { name: "並行機種", type: "PLATFORM", platformId: P1 }), "PLATFORM").item;
    const play = body(
      await p.call("addCollection", { name: "並行プレイ", type: "PLATFORM", platformId: P1, purpose: "PLAY" }),
      "PLAY",
    ).item;
    const tag = body(await p.call("addCollection", { name: "並行タグ", type: "TAG", tagId }), "TAG").item;
    // Library adds, play records, tagging, an exclusion and the operator moving games, all at once.
    const p1Games = games.filter((id) => id > 561200 || gameRow(id - 561101).platformId === P1);
    const adds = await Promise.all([
      ...p1Games.map((gameId) => p.call("addToLibrary", { gameId })),
      p.call("updateCollection", { collectionId: platform.collectionId, excludeGameIds: [p1Games[0]], revision: platform.revision }),
      importOk("games", toNdjson([gameRow(1, 2), gameRow(2, 2)])),
    ]);
    for (const reply of adds) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    // Tags hold games of the library: tagged once the adds are in, beside the play records.
    const [tagging, ...plays] = await Promise.all([
      p.call("updateTagGames", { tagId, mode: "add", gameIds: p1Games.slice(0, 5) }),
      ...p1Games.map((gameId) => p.call("addPlayRecord", { gameId, status: "COMPLETED" })),
    ]);
    for (const reply of [tagging!, ...plays]) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const removals = await Promise.all([
      ...plays.slice(0, 3).map((reply) => removeConfirmed(p, "removePlayRecord", { playId: reply.body.playId })),
      ...p1Games.slice(-2).map((gameId) => removeConfirmed(p, "removeFromLibrary", { gameId })),
      importOk("games", toNdjson([gameRow(1), gameRow(2)])),
    ]);
    for (const reply of removals) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const expected = await recountCollections(p.account.userId);
    for (const collection of [platform, play, tag]) {
      const { summary } = body(await p.call("getCollectionGames", { collectionId: collection.collectionId, limit: 1 }), "page");
      expect(summary, collection.name).toMatchObject(expected.get(collection.collectionId)!);
    }
    // The library collection saw every add and the two removals; the play one every completion and three removals.
    expect(expected.get(platform.collectionId)!.achievedGames).toBeGreaterThan(0);
    await checkSummariesAndPages(p, "the parallel writes");
  }, 120_000);
});
