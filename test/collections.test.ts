// Collections over a tiny fictional master (ids 810000+, marker word ミネルヴァ in every title).
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, newAccount } from "./support/harness";
import { fictionalGame, importFixture, toNdjson } from "./support/master";

const P1 = 810001;
const P2 = 810002;
const game = (gameId: number, platformId: number, releaseDate: string | null, n: number) =>
  fictionalGame({ gameId, title: `ミネルヴァ物語${n}`, titleReading: `みねるゔぁものがたり${n}`, platformId, releaseDate });
const [A, B, C, D] = [810101, 810102, 810103, 810104];

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([
      { platformId: P1, name: "ミネルヴァ機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P2, name: "ミネルヴァ携帯機", nameEn: null, shortName: null, maker: null, releaseDate: null },
    ]),
    games: toNdjson([game(A, P1, "1990-01-01", 1), game(B, P1, "1991-01-01", 2), game(C, P1, null, 3), game(D, P2, "1992-01-01", 4)]),
  });
});

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
