// Collections over a tiny fictional master (ids 810000+, marker word ミネルヴァ in every title).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, newAccount, player } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";
import { headStartOf, RACE_ROUNDS, race } from "../../support/race";
import { expectError, ok, okPreview } from "../../support/replies";

const P1 = 810001;
const P2 = 810002;
/** Games sorted into genres, for the summary of PLATFORM collections narrowed by genre and dates. */
const P3 = 810003;
/** Games the racing updates replace one another's with. */
const P4 = 810004;
const game = (gameId: number, platformId: number, releaseDate: string | null, n: number) =>
  fictionalGame({ gameId, title: `ミネルヴァ物語${n}`, titleReading: `みねるゔぁものがたり${n}`, platformId, releaseDate });
const [A, B, C, D] = [810101, 810102, 810103, 810104];
// Genres: a root, its child and grandchild, and another root.
const [RPG, DUNGEON, DEEP, ACTION] = [810001, 810002, 810003, 810004];
const [E, F, G, H] = [810301, 810302, 810303, 810304];
const RACE = Array.from({ length: 30 }, (_, i) => 810401 + i);

beforeAll(async () => {
  const platform = (platformId: number, name: string) => ({
    platformId,
    name,
    nameEn: null,
    shortName: null,
    maker: null,
    releaseDate: null,
  });
  await importFixture({
    platforms: toNdjson([
      platform(P1, "ミネルヴァ機"),
      platform(P2, "ミネルヴァ携帯機"),
      platform(P3, "ミネルヴァ据置機"),
      platform(P4, "ミネルヴァ競争機"),
    ]),
    genres: toNdjson([
      { genreId: RPG, name: "ミネルヴァRPG", parentId: null, taxonomyKey: "minerva_rpg" },
      { genreId: DUNGEON, name: "ミネルヴァ迷宮", parentId: RPG, taxonomyKey: "minerva_rpg.dungeon" },
      { genreId: DEEP, name: "ミネルヴァ深層", parentId: DUNGEON, taxonomyKey: "minerva_rpg.dungeon.deep" },
      { genreId: ACTION, name: "ミネルヴァACT", parentId: null, taxonomyKey: "minerva_act" },
    ]),
    games: toNdjson([
      game(A, P1, "1990-01-01", 1),
      game(B, P1, "1991-01-01", 2),
      game(C, P1, null, 3),
      game(D, P2, "1992-01-01", 4),
      { ...game(E, P3, "1990-01-01", 5), genreId: RPG },
      { ...game(F, P3, "1991-01-01", 6), genreId: RPG, genreSubId: DUNGEON },
      { ...game(G, P3, "1992-01-01", 7), genreId: ACTION, genreSubId: DEEP },
      { ...game(H, P3, null, 8), genreId: ACTION },
      ...RACE.map((gameId, i) => game(gameId, P4, null, 100 + i)),
    ]),
  });
});

/** The collection's rows of collection_games, read straight from D1. */
const storedGames = (collectionId: string) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM collection_games WHERE collection_id = ?").bind(collectionId).first<number>("n");

const add = (account: Account, args: Record<string, unknown>) => account.call("addCollection", { name: "goal", ...args });
const games = (account: Account, args: Record<string, unknown>) => account.call("getCollectionGames", args);

describe("collections", () => {
  it("INDIVIDUAL / LIBRARY: achievement follows the library; summary covers the whole collection", async () => {
    const account = await newAccount();
    const { item } = (await add(account, { type: "INDIVIDUAL", gameIds: [A, B, D] })).body;
    expect(item).toMatchObject({ type: "INDIVIDUAL", purpose: "LIBRARY", gameIds: [A, B, D] });
    await account.call("addToLibrary", { gameId: B });
    const reply = await games(account, { collectionId: item.collectionId });
    expect(reply.body.items.map((g: { gameId: number }) => g.gameId)).toEqual([A, B, D]);
    expect(reply.body.items[1]).toMatchObject({ gameId: B, isAchieved: true, game: { title: "ミネルヴァ物語2" } });
    expect(reply.body.items[1].achievedAt).toBeTruthy();
    expect(reply.body.summary).toEqual({ totalGames: 3, achievedGames: 1, achievementRate: 0.3333, isCompleted: false });
    const filtered = await games(account, { collectionId: item.collectionId, achieved: false, platformIds: [P1] });
    expect(filtered.body.items.map((g: { gameId: number }) => g.gameId)).toEqual([A]);
    expect(filtered.body.summary.totalGames).toBe(3);
  });

  it("PLATFORM / PLAY with exclusions: achieved means the latest play record is COMPLETED", async () => {
    const account = await newAccount();
    const { item } = (await add(account, { type: "PLATFORM", purpose: "PLAY", platformId: P1, excludeGameIds: [C] })).body;
    await account.call("addToLibrary", { gameId: A });
    await account.call("addPlayRecord", { gameId: A, status: "PLAYING" });
    let reply = await games(account, { collectionId: item.collectionId });
    expect(reply.body.summary).toMatchObject({ totalGames: 2, achievedGames: 0 });
    const playId = (await account.call("getPlayRecords", { fields: [] })).body.items[0].playId;
    await account.call("updatePlayRecord", { playId, status: "COMPLETED", playEndDate: "2024-01-02" });
    reply = await games(account, { collectionId: item.collectionId, sortBy: "achievedAt", sortOrder: "desc" });
    expect(reply.body.items[0]).toMatchObject({ gameId: A, isAchieved: true, achievedAt: "2024-01-02" });
    expect(reply.body.summary).toMatchObject({ achievedGames: 1, achievementRate: 0.5 });
  });

  it("TAG: every game carrying the tag; an empty collection is 0% and not completed", async () => {
    const account = await newAccount();
    const { tagId } = (await account.call("addTag", { name: "ミネ" })).body.item;
    const { item } = (await add(account, { type: "TAG", tagId })).body;
    expect((await games(account, { collectionId: item.collectionId })).body.summary).toEqual({
      totalGames: 0,
      achievedGames: 0,
      achievementRate: 0,
      isCompleted: false,
    });
    for (const gameId of [A, D]) await account.call("addToLibrary", { gameId });
    await account.call("updateTagGames", { tagId, mode: "add", gameIds: [A, D] });
    expect((await games(account, { collectionId: item.collectionId })).body.summary).toMatchObject({
      totalGames: 2,
      achievedGames: 2,
      isCompleted: true,
    });
  });

  it("validates each type's shape and the 1,000-game limit", async () => {
    const account = await newAccount();
    expect((await add(account, { type: "TAG" })).body.field).toBe("tagId");
    expect((await add(account, { type: "PLATFORM" })).body.field).toBe("platformId");
    expect((await add(account, { type: "INDIVIDUAL", excludeGameIds: [A] })).body.field).toBe("excludeGameIds");
    expect((await add(account, { type: "PLATFORM", platformId: P1, gameIds: [A] })).body.field).toBe("gameIds");
    expect((await add(account, { type: "INDIVIDUAL", gameIds: Array.from({ length: 1001 }, (_, i) => i + 1) })).body.field).toBe("gameIds");
    expect((await add(account, { type: "INDIVIDUAL", gameIds: [A, 819999] })).status).toBe(404);
    expect((await add(await newAccount({ plan: "LIGHT" }), { type: "INDIVIDUAL", gameIds: [A] })).body.code).toBe("plan_required");
  });

  it("updateCollection replaces games with the revision (409 when stale); removeCollection is two-step", async () => {
    const account = await newAccount();
    const { item } = (await add(account, { type: "INDIVIDUAL", gameIds: [A] })).body;
    expect((await account.call("updateCollection", { collectionId: item.collectionId, gameIds: [B] })).body.field).toBe("revision");
    const updated = await account.call("updateCollection", { collectionId: item.collectionId, gameIds: [B, C], revision: item.revision });
    expect(updated.body.item.gameIds).toEqual([B, C]);
    const stale = await account.call("updateCollection", { collectionId: item.collectionId, gameIds: [A], revision: item.revision });
    expect(stale.body.code).toBe("revision_conflict");
    const preview = await account.call("removeCollection", { collectionId: item.collectionId });
    expect(preview.body.confirmRequired).toBe(true);
    expect((await account.call("getCollections")).body.totalCount).toBe(1);
    await account.call("removeCollection", { collectionId: item.collectionId, confirmToken: preview.body.confirmToken });
    expect((await account.call("getCollections")).body.totalCount).toBe(0);
  });

  it("getCollections filters by name, type and purpose; other users see nothing", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await add(a, { name: "ファミコン全部", type: "PLATFORM", platformId: P1 });
    await add(a, { name: "クリア目標", type: "INDIVIDUAL", purpose: "PLAY", gameIds: [A] });
    expect((await a.call("getCollections", { name: "ふぁみ" })).body.totalCount).toBe(0);
    expect((await a.call("getCollections", { name: "ファミ" })).body.totalCount).toBe(1);
    expect((await a.call("getCollections", { types: ["INDIVIDUAL"] })).body.items[0].name).toBe("クリア目標");
    expect((await a.call("getCollections", { purposeTypes: ["LIBRARY"] })).body.totalCount).toBe(1);
    const id = (await a.call("getCollections")).body.items[0].collectionId;
    expect((await b.call("getCollections")).body.totalCount).toBe(0);
    expect((await b.call("getCollectionGames", { collectionId: id })).status).toBe(404);
  });
});

describe("no-op writes (issue 13)", () => {
  it("updateCollection that changes nothing keeps the revision and updatedAt", async () => {
    const account = await newAccount();
    const { item } = (await add(account, { type: "INDIVIDUAL", gameIds: [B, A], description: "説明" })).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await account.call("updateCollection", {
      collectionId: item.collectionId,
      name: item.name,
      description: "説明",
      gameIds: [A, B, A],
      revision: item.revision,
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.item).toEqual(item);
    const platform = (await add(account, { type: "PLATFORM", platformId: P1, excludeGameIds: [C] })).body.item;
    const kept = await account.call("updateCollection", {
      collectionId: platform.collectionId,
      excludeGameIds: [C],
      revision: platform.revision,
    });
    expect(kept.body.item).toEqual(platform);
    const changed = await account.call("updateCollection", { collectionId: item.collectionId, gameIds: [A], revision: item.revision });
    expect(changed.body.item.revision).not.toBe(item.revision);
    expect(changed.body.item.gameIds).toEqual([A]);
  });
});

describe("getCollections' achievement (issue 21)", () => {
  it("carries each collection's summary, equal to getCollectionGames', for every type, purpose, genre and date narrowing", async () => {
    const account = await newAccount();
    const { tagId } = ok(await account.call("addTag", { name: "ミネ集計" })).item;
    for (const gameId of [A, B, D, F]) ok(await account.call("addToLibrary", { gameId }));
    ok(await account.call("updateTagGames", { tagId, mode: "add", gameIds: [A, D] }));
    ok(await account.call("addPlayRecord", { gameId: F, status: "COMPLETED" }));
    const expected = new Map<string, { totalGames: number; achievedGames: number }>();
    const collection = async (args: Record<string, unknown>, totalGames: number, achievedGames: number) => {
      const { item } = ok(await add(account, args));
      expected.set(item.collectionId, { totalGames, achievedGames });
    };
    await collection({ type: "INDIVIDUAL", gameIds: [A, B, D] }, 3, 3);
    await collection({ type: "INDIVIDUAL", purpose: "PLAY", gameIds: [A, F] }, 2, 1);
    await collection({ type: "TAG", tagId, excludeGameIds: [D] }, 1, 1);
    await collection({ type: "PLATFORM", platformId: P1, excludeGameIds: [C] }, 2, 2);
    // A root genre is the game's main or support genre itself (not DEEP beneath it); another genre takes the genres beneath it.
    await collection({ type: "PLATFORM", platformId: P3, genreId: RPG }, 2, 1);
    await collection({ type: "PLATFORM", platformId: P3, genreId: DUNGEON }, 2, 1);
    await collection({ type: "PLATFORM", platformId: P3, genreId: DUNGEON, excludeGameIds: [G] }, 1, 1);
    await collection({ type: "PLATFORM", purpose: "PLAY", platformId: P3, releaseDateFrom: "1991-01-01" }, 2, 1);
    await collection({ type: "PLATFORM", platformId: P3, releaseDateTo: "1991-12-31" }, 2, 1);

    const listed = ok(await account.call("getCollections", { limit: 100 }));
    expect(listed.items).toHaveLength(expected.size);
    for (const item of listed.items) {
      const { summary } = ok(await account.call("getCollectionGames", { collectionId: item.collectionId }));
      expect(item.summary, item.name).toEqual(summary);
      expect(item.summary).toMatchObject(expected.get(item.collectionId)!);
    }
    // A later page counts its own collections only.
    const second = ok(await account.call("getCollections", { limit: 4, page: 2 }));
    expect(second.items.map((item) => item.summary)).toEqual(listed.items.slice(4, 8).map((item) => item.summary));
  });

  it("answers addCollection and updateCollection with the summary too", async () => {
    const account = await newAccount();
    ok(await account.call("addToLibrary", { gameId: A }));
    const { item } = ok(await add(account, { type: "INDIVIDUAL", gameIds: [A, B] }));
    expect(item.summary).toEqual({ totalGames: 2, achievedGames: 1, achievementRate: 0.5, isCompleted: false });
    const updated = ok(await account.call("updateCollection", { collectionId: item.collectionId, gameIds: [A], revision: item.revision }));
    expect(updated.item.summary).toEqual({ totalGames: 1, achievedGames: 1, achievementRate: 1, isCompleted: true });
  });
});

describe("revision-guarded writes under concurrency (issue 21)", () => {
  it("lets one of 30 updateCollection calls with one revision win; the 409s replace nothing", async () => {
    const p = await player({}, 9);
    const { item } = ok(await p.call("addCollection", { name: "競争", type: "INDIVIDUAL" }));
    let revision = item.revision;
    for (let round = 0; round < 12; round++) {
      // Two games a call, never the set a previous round stored, so that no call is a no-op.
      const sets = RACE.map((gameId, i) => [gameId, RACE[(i + round + 1) % RACE.length]!].sort((x, y) => x - y));
      const replies = await Promise.all(
        sets.map((gameIds) => p.call("updateCollection", { collectionId: item.collectionId, gameIds, revision })),
      );
      const winners = replies.filter((reply) => reply.status === 200);
      expect(winners, `round ${round}`).toHaveLength(1);
      for (const reply of replies) if (reply.status !== 200) expectError(reply, 409, "revision_conflict", "revision");
      const won = ok(winners[0]!).item;
      expect(won.gameIds).toEqual(sets[replies.indexOf(winners[0]!)]);
      const [stored] = ok(await p.call("getCollections")).items;
      expect(stored!.gameIds, `round ${round}`).toEqual(won.gameIds);
      expect(stored!.revision).toBe(won.revision);
      revision = won.revision;
    }
  }, 60_000);

  it("never keeps the games of a collection removed while updateCollection replaces them", async () => {
    const p = await player({}, 4);
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const { item } = ok(await p.call("addCollection", { name: `競争${round}`, type: "INDIVIDUAL", gameIds: [A] }));
      const { confirmToken } = okPreview(await p.call("removeCollection", { collectionId: item.collectionId }));
      const [removed, updated] = await race(
        () => p.call("removeCollection", { collectionId: item.collectionId, confirmToken }),
        () => p.call("updateCollection", { collectionId: item.collectionId, gameIds: [B, C], revision: item.revision }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(updated.body)).toContain(updated.status);
      if (removed.body.removed !== true) {
        // The update won: the removal saw the changed collection and previewed again.
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        ok(await p.call("removeCollection", { collectionId: item.collectionId, confirmToken: removed.body.confirmToken }));
      }
      expect(await storedGames(item.collectionId), `round ${round}: ${JSON.stringify(updated.body)}`).toBe(0);
    }
  }, 60_000);

  it("renames a collection whose custom game was removed (only the lists it replaces are checked)", async () => {
    const account = await newAccount();
    const custom = ok(await account.call("addCustomGame", { title: "ミネルヴァ自作", platformId: P1 })).item.gameId;
    const { item } = ok(await add(account, { type: "INDIVIDUAL", gameIds: [A, custom] }));
    const { confirmToken } = okPreview(await account.call("removeCustomGame", { gameId: custom }));
    ok(await account.call("removeCustomGame", { gameId: custom, confirmToken }));
    const renamed = ok(await account.call("updateCollection", { collectionId: item.collectionId, name: "改名" }));
    expect(renamed.item.name).toBe("改名");
  });
});
