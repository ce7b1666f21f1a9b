// Each family's queries (src/tools/<family>/queries.ts) called directly against the real local D1:
// what they find for the owner, and that another user's id finds nothing. The records are made
// through the tools, as a person would make them; the master rows are the library set (ids 750000+).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/platform/db";
import { findUser } from "../../src/tools/account/queries";
import { attributeLabels, findOwnAttribute, insertOwnAttribute, systemAttribute } from "../../src/tools/attributes/queries";
import { collectionsListingGame, findCollection } from "../../src/tools/collections/queries";
import { findConsole, platformsOf } from "../../src/tools/consoles/queries";
import { findCustomGame } from "../../src/tools/customGames/queries";
import { findCustom, PLATFORM } from "../../src/tools/customMaster/queries";
import { loadGameRecords, usableIds } from "../../src/tools/games/queries";
import { createJob, findJob, ownJob } from "../../src/tools/imports/queries";
import { findEntry } from "../../src/tools/library/queries";
import { findCopy, listCopies } from "../../src/tools/physicalCopies/queries";
import { findPlayLog } from "../../src/tools/play/queries";
import { findTag, tagsOfGames } from "../../src/tools/tags/queries";
import { findWish } from "../../src/tools/wishlist/queries";
import { type Account, newAccount } from "../support/harness";
import { insertCustomPlatform } from "../support/master";
import { importLibraryMaster, KASUMI_GAME } from "../support/masterSets";
import { ok, okDone } from "../support/replies";

const KASUMI = KASUMI_GAME.gameId;
const IZUMI = 750002;
const PA = KASUMI_GAME.platform.platformId;

const db = () => createDb(env.DB);

let owner: Account;
let stranger: Account;

beforeAll(async () => {
  await importLibraryMaster();
  [owner, stranger] = await Promise.all([newAccount(), newAccount()]);
});

describe("account queries", () => {
  it("findUser finds the user by id and nothing for an unknown id", async () => {
    expect(await findUser(db(), owner.userId)).toMatchObject({ id: owner.userId, plan: "PREMIUM" });
    expect(await findUser(db(), "usr_nobody")).toBeUndefined();
  });
});

describe("attributes queries", () => {
  it("insertOwnAttribute stores a label that findOwnAttribute and attributeLabels find for its owner only", async () => {
    const limit = { userId: owner.userId, plan: "PREMIUM" as const, upgradeUrl: "https://api.test/upgrade" };
    const stored = await insertOwnAttribute(db(), limit, "クエリ帯あり");
    expect(await findOwnAttribute(db(), owner.userId, "クエリ帯あり")).toMatchObject({ id: stored.id, label: "クエリ帯あり" });
    expect(await findOwnAttribute(db(), stranger.userId, "クエリ帯あり")).toBeUndefined();
    expect((await attributeLabels(db(), owner.userId)).get(stored.id)).toMatchObject({ label: "クエリ帯あり" });
    expect(systemAttribute("box")).toMatchObject({ id: "box" });
  });
});

describe("collections queries", () => {
  it("findCollection and collectionsListingGame see the owner's collection, not another user's", async () => {
    const { collectionId } = ok(await owner.call("addCollection", { name: "クエリ集", type: "INDIVIDUAL", gameIds: [KASUMI] })).item;
    expect(await findCollection(db(), owner.userId, collectionId)).toMatchObject({ id: collectionId, name: "クエリ集" });
    expect(await findCollection(db(), stranger.userId, collectionId)).toBeUndefined();
    expect((await collectionsListingGame(db(), owner.userId, KASUMI)).map((row) => row.id)).toContain(collectionId);
    expect(await collectionsListingGame(db(), stranger.userId, KASUMI)).toEqual([]);
  });
});

describe("consoles queries", () => {
  it("findConsole and platformsOf read the owner's console and its platforms", async () => {
    const { consoleId } = ok(
      await owner.call("addConsole", { name: "クエリ機", platformPriorities: [{ platformId: PA, priority: 3 }] }),
    ).item;
    expect(await findConsole(db(), owner.userId, consoleId)).toMatchObject({ id: consoleId, name: "クエリ機" });
    expect(await findConsole(db(), stranger.userId, consoleId)).toBeUndefined();
    expect((await platformsOf(db(), [consoleId])).get(consoleId)).toMatchObject([{ platformId: PA, priority: 3 }]);
  });
});

describe("customGames and customMaster queries", () => {
  it("findCustomGame and findCustom find the owner's custom records only", async () => {
    const platformId = await insertCustomPlatform(owner.userId, "クエリ自作機");
    const { gameId } = ok(await owner.call("addCustomGame", { title: "クエリ自作", platformId })).item;
    expect(await findCustomGame(db(), owner.userId, gameId)).toMatchObject({ title: "クエリ自作", platformId });
    expect(await findCustomGame(db(), stranger.userId, gameId)).toBeUndefined();
    expect(await findCustom(db(), PLATFORM, owner.userId, platformId)).toMatchObject({ fields: { name: "クエリ自作機" } });
    expect(await findCustom(db(), PLATFORM, stranger.userId, platformId)).toBeUndefined();
  });
});

describe("games queries", () => {
  it("loadGameRecords loads master games for anyone and a custom game for its owner only", async () => {
    const platformId = await insertCustomPlatform(owner.userId, "クエリ見える機");
    const { gameId } = ok(await owner.call("addCustomGame", { title: "クエリ見える自作", platformId })).item;
    const own = await loadGameRecords(db(), owner.userId, [KASUMI, gameId]);
    expect([...own.keys()].sort()).toEqual([KASUMI, gameId].sort());
    expect(own.get(KASUMI)).toMatchObject({ title: KASUMI_GAME.title });
    expect([...(await loadGameRecords(db(), stranger.userId, [KASUMI, gameId])).keys()]).toEqual([KASUMI]);
    expect(await usableIds(db(), "platforms", stranger.userId, [PA, platformId])).toEqual(new Set([PA]));
  });
});

describe("imports queries", () => {
  it("createJob makes a job that findJob and ownJob give its owner and no one else", async () => {
    const now = new Date();
    const job = await createJob(db(), owner.userId, "generic", "merge", now);
    expect(job).toMatchObject({ userId: owner.userId, source: "generic", mode: "merge", state: "awaiting_upload" });
    expect(await findJob(db(), owner.userId, job.id)).toEqual(job);
    expect(await findJob(db(), stranger.userId, job.id)).toBeUndefined();
    await expect(ownJob(db(), stranger.userId, job.id, now)).rejects.toMatchObject({ code: "not_found" });
    await expect(ownJob(db(), owner.userId, job.id, new Date(Date.parse(job.expiresAt) + 1))).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("library, wishlist, physical copies, play and tags queries", () => {
  it("find the owner's rows of a game and nothing of another user", async () => {
    ok(await owner.call("addToLibrary", { gameId: KASUMI, buyPrice: 1200 }));
    ok(await owner.call("addToWishlist", { gameId: IZUMI, priority: 4 }));
    const { revision } = ok(await owner.call("getPhysicalCopies", { gameId: KASUMI }));
    const { physicalId } = ok(await owner.call("addPhysicalCopy", { gameId: KASUMI, mode: "materialize", revision })).item;
    const { playId } = okDone(await owner.call("addPlayRecord", { gameId: KASUMI }));
    const { playLogId } = ok(await owner.call("addPlayLog", { playId, playTime: 30 })).item;
    const { tagId } = ok(await owner.call("addTag", { name: "クエリタグ" })).item;
    ok(await owner.call("updateTagGames", { tagId, mode: "add", gameIds: [KASUMI] }));

    expect(await findEntry(db(), owner.userId, KASUMI)).toMatchObject({ game_id: KASUMI, buy_price: 1200 });
    expect(await findEntry(db(), stranger.userId, KASUMI)).toBeUndefined();
    expect(await findWish(db(), owner.userId, IZUMI)).toMatchObject({ game_id: IZUMI, priority: 4 });
    expect(await findWish(db(), stranger.userId, IZUMI)).toBeUndefined();
    expect((await listCopies(db(), owner.userId, KASUMI)).map((copy) => copy.id)).toEqual([physicalId]);
    expect(await listCopies(db(), stranger.userId, KASUMI)).toEqual([]);
    expect(await findCopy(db(), stranger.userId, physicalId)).toBeUndefined();
    expect(await findPlayLog(db(), owner.userId, playLogId)).toMatchObject({
      id: playLogId,
      playId,
      playTime: 30,
      title: KASUMI_GAME.title,
    });
    expect(await findPlayLog(db(), stranger.userId, playLogId)).toBeUndefined();
    expect(await findTag(db(), owner.userId, tagId)).toMatchObject({ id: tagId, name: "クエリタグ" });
    expect(await findTag(db(), stranger.userId, tagId)).toBeUndefined();
    expect((await tagsOfGames(db(), owner.userId, [KASUMI])).get(KASUMI)).toEqual([{ tagId, name: "クエリタグ" }]);
    expect((await tagsOfGames(db(), stranger.userId, [KASUMI])).size).toBe(0);
  });
});
