// Sorts by a game's title or release date, and by total play time, read copies kept in the list rows
// by triggers (migrations/0001_triggers_and_search.sql), so they have an index that starts with the
// user. These tests change what the copies come from (a master import, a custom game's edit, play
// logs) and check every sort follows.
// A tiny fictional master (ids 746000+, marker word セレネ in every title).
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, newAccount } from "../support/harness";
import { fictionalGame, importFixture, importOk, toNdjson } from "../support/master";

const PLATFORM = 746001;
const [A, B, C] = [746101, 746102, 746103];
const game = (gameId: number, reading: string, releaseDate: string | null) =>
  fictionalGame({ gameId, title: `セレネ${reading}`, titleReading: `せれね${reading}`, platformId: PLATFORM, releaseDate });

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "セレネ機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson([game(A, "あ", "1990-01-01"), game(B, "い", "1991-01-01"), game(C, "う", null)]),
  });
});

type Args = Record<string, unknown>;

const ok = (reply: { status: number; body: any }, what: string) => {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
};

/** A two-step tool: the first call shows a confirmToken, the second confirms with it. */
async function confirmed(account: Account, tool: string, args: Args) {
  const shown = ok(await account.call(tool, args), tool);
  return ok(await account.call(tool, { ...args, confirmToken: shown.confirmToken }), tool);
}

async function idsOf(account: Account, tool: string, args: Args): Promise<number[]> {
  const body = ok(await account.call(tool, { fields: [], ...args }), tool);
  return body.items.map((item: { gameId: number }) => item.gameId);
}

describe("list sorts by a game's columns", () => {
  it("library, wishlist and play records follow a master import that renames and redates a game", async () => {
    const account = await newAccount();
    for (const gameId of [A, B]) ok(await account.call("addToLibrary", { gameId }), "addToLibrary");
    for (const gameId of [A, B]) ok(await account.call("addPlayRecord", { gameId }), "addPlayRecord");
    ok(await account.call("addToWishlist", { gameId: C }), "addToWishlist");
    expect(await idsOf(account, "getLibrary", { sortBy: "title", sortOrder: "asc" })).toEqual([A, B]);
    expect(await idsOf(account, "getLibrary", { sortBy: "releaseDate", sortOrder: "asc" })).toEqual([A, B]);
    expect(await idsOf(account, "getPlayRecords", { sortBy: "title", sortOrder: "asc" })).toEqual([A, B]);

    await importOk("games", toNdjson([game(A, "え", "1999-01-01"), game(C, "お", "1980-01-01")]));
    expect(await idsOf(account, "getLibrary", { sortBy: "title", sortOrder: "asc" })).toEqual([B, A]);
    expect(await idsOf(account, "getLibrary", { sortBy: "releaseDate", sortOrder: "asc" })).toEqual([B, A]);
    expect(await idsOf(account, "getLibrary", { sortBy: "releaseDate", sortOrder: "desc" })).toEqual([A, B]);
    expect(await idsOf(account, "getPlayRecords", { sortBy: "title", sortOrder: "desc" })).toEqual([A, B]);

    // C had no release date when it was wished for; it sorts by the date the import gave it.
    await confirmed(account, "removeFromLibrary", { gameId: B });
    ok(await account.call("addToWishlist", { gameId: B }), "addToWishlist");
    expect(await idsOf(account, "getWishlist", { sortBy: "releaseDate", sortOrder: "asc" })).toEqual([C, B]);
    expect(await idsOf(account, "getWishlist", { sortBy: "title", sortOrder: "desc" })).toEqual([C, B]);
  });

  it("a custom game's new reading moves it in its owner's title order", async () => {
    const account = await newAccount();
    const custom = ok(
      await account.call("addCustomGame", { title: "セレネ外伝", titleReading: "せれねああ", platformId: PLATFORM }),
      "addCustomGame",
    );
    const customId = custom.item.gameId as number;
    for (const gameId of [customId, B]) ok(await account.call("addToLibrary", { gameId }), "addToLibrary");
    expect(await idsOf(account, "getLibrary", { sortBy: "title", sortOrder: "asc" })).toEqual([customId, B]);
    ok(await account.call("updateCustomGame", { gameId: customId, titleReading: "せれねん" }), "updateCustomGame");
    expect(await idsOf(account, "getLibrary", { sortBy: "title", sortOrder: "asc" })).toEqual([B, customId]);
  });
});

describe("play records by total play time", () => {
  it("is the sum of the record's logs through every add, update and removal, and sorts by it", async () => {
    const account = await newAccount();
    const playIds: Record<number, string> = {};
    for (const gameId of [A, B]) {
      ok(await account.call("addToLibrary", { gameId }), "addToLibrary");
      playIds[gameId] = ok(await account.call("addPlayRecord", { gameId }), "addPlayRecord").playId;
    }
    const log = async (gameId: number, playTime: number) =>
      ok(await account.call("addPlayLog", { playId: playIds[gameId], playTime }), "addPlayLog").item.playLogId as string;
    await log(A, 30);
    const shortened = await log(A, 20);
    const removed = await log(B, 40);
    const totals = async () => {
      const body = ok(await account.call("getPlayRecords", { sortBy: "totalPlayTime", sortOrder: "desc", fields: [] }), "getPlayRecords");
      return body.items.map((item: { gameId: number; totalPlayTime: number }) => [item.gameId, item.totalPlayTime]);
    };
    expect(await totals()).toEqual([
      [A, 50],
      [B, 40],
    ]);
    ok(await account.call("updatePlayLog", { playLogId: shortened, playTime: 5 }), "updatePlayLog");
    expect(await totals()).toEqual([
      [B, 40],
      [A, 35],
    ]);
    await confirmed(account, "removePlayLog", { playLogId: removed });
    expect(await totals()).toEqual([
      [A, 35],
      [B, 0],
    ]);
    const within = ok(await account.call("getPlayRecords", { totalPlayTimeFrom: 1, fields: [] }), "getPlayRecords");
    expect(within.items.map((item: { gameId: number }) => item.gameId)).toEqual([A]);
  });
});
