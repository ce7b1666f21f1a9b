// A whole list's total and its plan limit read list_counts (migrations/0002_list_counts.sql), which
// triggers keep: these tests change lists every way the tools can (parallel adds, removals, play
// cycles that stop and become latest again, a custom game's removal) and compare each total with
// the rows a filter that counts them finds. A tiny fictional master (ids 748000+, marker word ポラリス).
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, newAccount } from "../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../support/master";

const PLATFORM = 748001;
const GAMES = Array.from({ length: 12 }, (_, i) => 748101 + i);

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "ポラリス機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson(GAMES.map((gameId, i) => fictionalGame({ gameId, title: `ポラリス${i}`, platformId: PLATFORM }))),
  });
});

const ok = (reply: { status: number; body: any }, what: string) => {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
};

async function confirmed(account: Account, tool: string, args: Record<string, unknown>) {
  const shown = ok(await account.call(tool, args), tool);
  return ok(await account.call(tool, { ...args, confirmToken: shown.confirmToken }), tool);
}

/** A list's total as the whole list (list_counts) and as a filter that counts its rows (platformIds). */
async function totals(account: Account, tool: string) {
  const whole = ok(await account.call(tool, { fields: [] }), tool).totalCount;
  const counted = ok(await account.call(tool, { fields: [], platformIds: [PLATFORM] }), tool).totalCount;
  return { whole, counted };
}

describe("list totals kept by triggers", () => {
  it("library and wishlist totals follow parallel adds and removals", async () => {
    const account = await newAccount();
    const adds = await Promise.all(GAMES.slice(0, 8).map((gameId) => account.call("addToLibrary", { gameId })));
    expect(adds.map((reply) => reply.status)).toEqual(Array(8).fill(200));
    await Promise.all(GAMES.slice(8).map((gameId) => account.call("addToWishlist", { gameId })));
    expect(await totals(account, "getLibrary")).toEqual({ whole: 8, counted: 8 });
    expect(await totals(account, "getWishlist")).toEqual({ whole: 4, counted: 4 });
    await confirmed(account, "removeFromLibrary", { gameId: GAMES[0] });
    await confirmed(account, "removeFromWishlist", { gameId: GAMES[8] });
    // A wished game added to the library leaves the wishlist.
    ok(await account.call("addToLibrary", { gameId: GAMES[9] }), "addToLibrary");
    expect(await totals(account, "getLibrary")).toEqual({ whole: 8, counted: 8 });
    expect(await totals(account, "getWishlist")).toEqual({ whole: 2, counted: 2 });
  });

  it("play record totals count latest cycles through replays and removals", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    for (const gameId of GAMES.slice(0, 3)) {
      ok(await account.call("addToLibrary", { gameId }), "addToLibrary");
      ok(await account.call("addPlayRecord", { gameId }), "addPlayRecord");
    }
    const replay = ok(await account.call("addPlayRecord", { gameId: GAMES[0], replay: true }), "replay");
    expect(await totals(account, "getPlayRecords")).toEqual({ whole: 3, counted: 3 });
    // Removing the latest cycle makes the earlier one latest again: still one record for that game.
    await confirmed(account, "removePlayRecord", { playId: replay.playId });
    expect(await totals(account, "getPlayRecords")).toEqual({ whole: 3, counted: 3 });
    await confirmed(account, "removeFromLibrary", { gameId: GAMES[1] });
    expect(await totals(account, "getPlayRecords")).toEqual({ whole: 2, counted: 2 });
  });

  it("a removed custom game leaves its owner's totals, and the plan limit reads the same total", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    const custom = ok(await account.call("addCustomGame", { title: "ポラリス外伝", platformId: PLATFORM }), "addCustomGame").item.gameId;
    ok(await account.call("addToLibrary", { gameId: custom }), "addToLibrary");
    ok(await account.call("addToLibrary", { gameId: GAMES[0] }), "addToLibrary");
    expect(ok(await account.call("getAccount"), "getAccount").registered.library.count).toBe(2);
    await confirmed(account, "removeCustomGame", { gameId: custom });
    expect(await totals(account, "getLibrary")).toEqual({ whole: 1, counted: 1 });
    expect(ok(await account.call("getAccount"), "getAccount").registered.library.count).toBe(1);
  });
});
