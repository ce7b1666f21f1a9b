// getLibrary by tag: the tagIds filter (up to 5, any of them) and the tags field group
// ([{tagId, name}]), the user's own tags only, LIGHT and above; the library export's tagIds.
// A tiny fictional master (ids 885000+, marker word ベガ in every title).
import { beforeAll, describe, expect, it } from "vitest";
import { fetchLink } from "../../support/downloads";
import { type Account, callWith, newAccount, textOf } from "../../support/harness";
import { fictionalGame, gameIdsOf, importFixture, toNdjson } from "../../support/master";
import { expectError, okAny as ok } from "../../support/replies";

const PLATFORM = 885001;
const [ORION, LYRA, ALTAIR, DENEB] = [885101, 885102, 885103, 885104];

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "ベガ機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson(
      [ORION, LYRA, ALTAIR, DENEB].map((gameId, i) =>
        fictionalGame({ gameId, title: `ベガ物語${i + 1}`, titleReading: `べがものがたり${i + 1}`, platformId: PLATFORM }),
      ),
    ),
  });
});

/** A LIGHT collector owning the four games: tag RPG on ORION and LYRA, tag 積みゲー on LYRA and ALTAIR, DENEB untagged. */
async function tagged(plan: "LIGHT" | "PREMIUM" = "LIGHT") {
  const account = await newAccount({ plan });
  for (const gameId of [ORION, LYRA, ALTAIR, DENEB]) ok(await account.call("addToLibrary", { gameId }));
  const tag = async (name: string, gameIds: number[]) => {
    const tagId = ok(await account.call("addTag", { name })).item.tagId as number;
    ok(await account.call("updateTagGames", { tagId, mode: "add", gameIds }));
    return tagId;
  };
  const rpg = await tag("RPG", [ORION, LYRA]);
  const backlog = await tag("積みゲー", [LYRA, ALTAIR]);
  return { account, rpg, backlog };
}

const library = (account: Account, args: Record<string, unknown>, method: "GET" | "POST" = "POST") =>
  account.call("getLibrary", { sortBy: "title", sortOrder: "asc", ...args }, method);

describe("getLibrary by tag", () => {
  it("filters by any of the tagIds and shows each game's tags, by GET and POST alike", async () => {
    const { account, rpg, backlog } = await tagged();
    for (const method of ["GET", "POST"] as const) {
      expect(gameIdsOf(await library(account, { tagIds: [rpg] }, method))).toEqual([ORION, LYRA]);
      expect(gameIdsOf(await library(account, { tagIds: [rpg, backlog] }, method))).toEqual([ORION, LYRA, ALTAIR]);
    }
    const page = ok(await library(account, { fields: ["tags"] }));
    expect(page.totalCount).toBe(4);
    expect(page.items.map((item: { gameId: number; tags: unknown }) => [item.gameId, item.tags])).toEqual([
      [ORION, [{ tagId: rpg, name: "RPG" }]],
      [
        LYRA,
        [
          { tagId: rpg, name: "RPG" },
          { tagId: backlog, name: "積みゲー" },
        ],
      ],
      [ALTAIR, [{ tagId: backlog, name: "積みゲー" }]],
      [DENEB, []],
    ]);
    // Combined with other filters (AND), counted and paged like any filter.
    const narrowed = ok(await library(account, { tagIds: [backlog], title: "ベガ物語3", limit: 1 }));
    expect(narrowed).toMatchObject({ totalCount: 1, returnedCount: 1 });
    expect(narrowed.items[0].gameId).toBe(ALTAIR);
    // Without the group no tags are read or shown.
    expect(ok(await library(account, {})).items[0].tags).toBeUndefined();
  });

  it("a game that leaves a tag or the library leaves the answers at once", async () => {
    const { account, rpg } = await tagged();
    ok(await account.call("updateTagGames", { tagId: rpg, mode: "remove", gameIds: [ORION] }));
    expect(gameIdsOf(await library(account, { tagIds: [rpg] }))).toEqual([LYRA]);
  });

  it("refuses more than 5 tagIds, a non-positive or non-integer id, naming tagIds", async () => {
    const { account, rpg } = await tagged();
    expectError(await library(account, { tagIds: [rpg, 2, 3, 4, 5, 6] }), 400, "invalid_input", "tagIds");
    expectError(await library(account, { tagIds: [0] }), 400, "invalid_input", "tagIds[0]");
    expectError(await library(account, { tagIds: "x" }, "GET"), 400, "invalid_input");
    expectError(await library(account, { fields: ["tag"] }), 400, "invalid_input");
  });

  it("another user's tag id matches nothing and shows nothing of theirs", async () => {
    const mine = await tagged();
    const theirs = await tagged();
    const page = ok(await library(mine.account, { tagIds: [theirs.rpg] }));
    expect(page).toMatchObject({ totalCount: 0, items: [] });
    // Their tag on the same game is never listed in my tags group.
    const shown = ok(await library(mine.account, { fields: ["tags"], tagIds: [mine.rpg] }));
    for (const item of shown.items) for (const tag of item.tags) expect([mine.rpg, mine.backlog]).toContain(tag.tagId);
  });

  it("FREE: tagIds and the tags field group are 403 plan_required naming them; other groups still work", async () => {
    const free = await newAccount({ plan: "FREE" });
    ok(await free.call("addToLibrary", { gameId: ORION }));
    expectError(await library(free, { tagIds: [1] }), 403, "plan_required", "tagIds");
    expectError(await library(free, { fields: ["game", "tags"] }), 403, "plan_required", "fields");
    expect(ok(await library(free, { fields: ["game"] })).totalCount).toBe(1);
  });

  it("needs library:read", async () => {
    const { account, rpg } = await tagged();
    const key = await account.newKey(["play:read"]);
    expectError(await callWith(key.apiKey, "getLibrary", { tagIds: [rpg] }), 403, "insufficient_scope");
  });

  it("the library export takes tagIds as getLibrary does (FREE: 403)", async () => {
    const { account, backlog } = await tagged();
    const reply = ok(await account.call("exportMyData", { dataset: "library", format: "json", tagIds: [backlog] }));
    expect(reply.rowCount).toBe(2);
    const rows = JSON.parse(await textOf(await fetchLink(reply.url))).rows as { gameId: number }[];
    expect(rows.map((row) => row.gameId).sort()).toEqual([LYRA, ALTAIR]);
    const free = await newAccount({ plan: "FREE" });
    expectError(await free.call("exportMyData", { dataset: "library", tagIds: [backlog] }), 403, "plan_required", "tagIds");
  });
});
