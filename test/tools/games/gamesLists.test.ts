// listPlatforms, listGenres, listPublishers and listAttributes over fictional fixture masters
// (ids 720000+, every name carries the marker ミルフェア). Other files may add masters to the same
// database, so these tests look at their own rows inside the full lists.
import { beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ATTRIBUTES } from "../../../src/platform/systemAttributes";
import companies from "../../fixtures/master/lists.companies.ndjson?raw";
import games from "../../fixtures/master/lists.games.ndjson?raw";
import genres from "../../fixtures/master/lists.genres.ndjson?raw";
import platforms from "../../fixtures/master/lists.platforms.ndjson?raw";
import { type Account, newAccount, type Reply, send } from "../../support/harness";
import {
  importFixture,
  importOk,
  insertAttribute,
  insertCustomCompany,
  insertCustomGame,
  insertCustomPlatform,
  toNdjson,
} from "../../support/master";

const HOME = 720001; // 3 official games
const PORTABLE = 720002; // no games

beforeAll(async () => {
  await importFixture({ platforms, companies, genres, games });
});

/** Every item of a paged list tool, page by page. */
async function allItems<T>(account: Account, tool: string, args: Record<string, unknown> = {}): Promise<{ items: T[]; pages: Reply[] }> {
  const pages: Reply[] = [];
  for (let page = 1; page <= 50; page++) {
    const reply = await account.call(tool, { ...args, page, limit: 100 });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    pages.push(reply);
    if (!reply.body.hasMore) break;
  }
  return { items: pages.flatMap((p) => p.body.items as T[]), pages };
}

interface PlatformItem {
  platformId: number;
  name: string;
  nameEn: string | null;
  shortName: string | null;
  maker: string | null;
  releaseDate: string | null;
  custom: boolean;
  gameCount: number;
}

describe("listPlatforms", () => {
  it("lists official platforms with their fields and game counts", async () => {
    const account = await newAccount({ plan: "FREE" });
    const { items, pages } = await allItems<PlatformItem>(account, "listPlatforms");
    expect(items.find((p) => p.platformId === HOME)).toEqual({
      platformId: HOME,
      name: "ミルフェア据置機",
      nameEn: "Mirufea Home",
      shortName: "MFH",
      maker: "ミルフェア電機",
      releaseDate: "1986-04-01",
      custom: false,
      gameCount: 3,
    });
    expect(items.find((p) => p.platformId === PORTABLE)).toMatchObject({ gameCount: 0, releaseDate: null, custom: false });
    expect(pages[0]!.body).toMatchObject({ page: 1, effectiveLimit: 100 });
    expect(pages.at(-1)!.body.totalCount).toBe(items.length);
    expect(new Set(items.map((p) => p.platformId)).size).toBe(items.length);
  });

  it("shows a custom platform, and custom games in the counts, to their owner only", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const customPlatform = await insertCustomPlatform(owner.userId, "ミルフェア自作機");
    await insertCustomGame(owner.userId, { title: "ミルフェア自作ソフト", platformId: customPlatform });
    await insertCustomGame(owner.userId, { title: "ミルフェア追加ソフト", platformId: HOME });

    const mine = (await allItems<PlatformItem>(owner, "listPlatforms")).items;
    expect(mine.find((p) => p.platformId === customPlatform)).toMatchObject({ name: "ミルフェア自作機", custom: true, gameCount: 1 });
    expect(mine.find((p) => p.platformId === HOME)).toMatchObject({ gameCount: 4 });
    // official platforms first, then the caller's custom ones
    const firstCustom = mine.findIndex((p) => p.custom);
    expect(mine.slice(firstCustom).every((p) => p.custom)).toBe(true);

    const theirs = (await allItems<PlatformItem>(other, "listPlatforms")).items;
    expect(theirs.find((p) => p.platformId === customPlatform)).toBeUndefined();
    expect(theirs.some((p) => p.custom)).toBe(false);
    expect(theirs.find((p) => p.platformId === HOME)).toMatchObject({ gameCount: 3 });
  });

  it("counts the official games of the current import: a new game moves the count", async () => {
    const account = await newAccount();
    const homeCount = async () =>
      (await allItems<PlatformItem>(account, "listPlatforms")).items.find((p) => p.platformId === HOME)?.gameCount;
    expect(await homeCount()).toBe(3);
    const [first] = games
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    await importOk("games", toNdjson([{ ...first, gameId: 720099, title: "ミルフェア物語 追加" }]));
    expect(await homeCount()).toBe(4);
  });

  it("pages with limit, reporting the cap of 100", async () => {
    const account = await newAccount();
    const first = await account.call("listPlatforms", { limit: 1 });
    expect(first.body).toMatchObject({ returnedCount: 1, effectiveLimit: 1, hasMore: true });
    const second = await account.call("listPlatforms", { limit: 1, page: 2 }, "GET");
    expect(second.body.items[0].platformId).not.toBe(first.body.items[0].platformId);
    const capped = await account.call("listPlatforms", { limit: 5000 });
    expect(capped.body).toMatchObject({ effectiveLimit: 100, limitReduced: true });
  });

  it.each([
    ["limit", { limit: 0 }],
    ["page", { page: 0 }],
    ["query", { query: "ミルフェア" }],
  ])("refuses a bad %s with 400", async (field, args) => {
    const account = await newAccount();
    const reply = await account.call("listPlatforms", args);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("needs games:read and a key", async () => {
    const account = await newAccount({ scopes: ["library:read"] });
    expect((await account.call("listPlatforms")).body.code).toBe("insufficient_scope");
    expect((await send("/rest/v1/listPlatforms")).status).toBe(401);
  });
});

interface GenreItem {
  genreId: number;
  name: string;
  taxonomyKey: string;
  children: { genreId: number; name: string; taxonomyKey: string; parentId: number }[];
}

describe("listGenres", () => {
  it("lists main genres with every genre beneath them", async () => {
    const account = await newAccount({ plan: "FREE" });
    const { items } = await allItems<GenreItem>(account, "listGenres");
    expect(items.find((g) => g.genreId === 720001)).toEqual({
      genreId: 720001,
      name: "ミルフェアRPG",
      taxonomyKey: "mirufea_rpg",
      children: [
        { genreId: 720002, name: "ミルフェアアクションRPG", taxonomyKey: "mirufea_rpg.action", parentId: 720001 },
        { genreId: 720003, name: "ミルフェアハクスラ", taxonomyKey: "mirufea_rpg.action.hack", parentId: 720002 },
      ],
    });
    expect(items.find((g) => g.genreId === 720004)?.children).toEqual([
      { genreId: 720005, name: "ミルフェア横スクロール", taxonomyKey: "mirufea_act.side", parentId: 720004 },
    ]);
    expect(items.find((g) => g.genreId === 720006)).toMatchObject({ taxonomyKey: "mirufea_puzzle", children: [] });
    // only roots at the top level
    for (const id of [720002, 720003, 720005]) expect(items.find((g) => g.genreId === id)).toBeUndefined();
    for (const root of items) {
      expect(root.taxonomyKey).not.toContain(".");
      for (const child of root.children) expect(child.taxonomyKey.startsWith(`${root.taxonomyKey}.`)).toBe(true);
    }
  });

  it("pages over main genres", async () => {
    const account = await newAccount();
    const first = await account.call("listGenres", { limit: 1 });
    expect(first.body).toMatchObject({ page: 1, returnedCount: 1, hasMore: true, effectiveLimit: 1 });
    expect(first.body.totalCount).toBeGreaterThanOrEqual(3);
    const second = await account.call("listGenres", { limit: 1, page: 2 });
    expect(second.body.items[0].genreId).not.toBe(first.body.items[0].genreId);
  });

  it("refuses a bad limit and a key without games:read", async () => {
    const account = await newAccount();
    expect((await account.call("listGenres", { limit: 2.5 })).body).toMatchObject({ code: "invalid_input", field: "limit" });
    const noScope = await newAccount({ scopes: ["play:read"] });
    expect((await noScope.call("listGenres")).status).toBe(403);
  });
});

describe("listPublishers", () => {
  const idsOf = (reply: Reply) => (reply.body.items as { companyId: number }[]).map((c) => c.companyId);

  it("finds publishers by name, kana reading or English name, ignoring width, kana type and case", async () => {
    const account = await newAccount({ plan: "FREE" });
    for (const query of ["ミルフェア", "みるふぇあ", "ﾐﾙﾌｪｱ", "MIRUFEA", "mirufea", "ｍｉｒｕｆｅａ"]) {
      const reply = await account.call("listPublishers", { query });
      expect(idsOf(reply), query).toEqual([720001, 720002, 720003]);
    }
    expect(idsOf(await account.call("listPublishers", { query: "みるふぇあこうぼう" }))).toEqual([720001]);
    expect(idsOf(await account.call("listPublishers", { query: "みるふぇあでんき" }))).toEqual([720002]);
    expect(idsOf(await account.call("listPublishers", { query: "Mirufea Electric" }))).toEqual([720002]);
    expect(idsOf(await account.call("listPublishers", { query: "mirufea works" }))).toEqual([720001]);
    expect(idsOf(await account.call("listPublishers", { query: "ミルフェアソフト" }))).toEqual([720003]);
    expect(idsOf(await account.call("listPublishers", { query: "ミルフェア・ソフト" }, "GET"))).toEqual([720003]);
  });

  it("returns the publisher fields", async () => {
    const account = await newAccount();
    const reply = await account.call("listPublishers", { query: "ミルフェア工房" });
    expect(reply.body.items).toEqual([
      { companyId: 720001, name: "ミルフェア工房", nameKana: "ミルフェアコウボウ", nameEn: "Mirufea Works", custom: false },
    ]);
    expect(reply.body).toMatchObject({ page: 1, returnedCount: 1, totalCount: 1, hasMore: false });
  });

  it("pages the matches", async () => {
    const account = await newAccount();
    const first = await account.call("listPublishers", { query: "ミルフェア", limit: 2 });
    expect(first.body).toMatchObject({ returnedCount: 2, totalCount: 3, hasMore: true, effectiveLimit: 2 });
    expect(idsOf(first)).toEqual([720001, 720002]);
    const second = await account.call("listPublishers", { query: "ミルフェア", limit: 2, page: 2 });
    expect(second.body).toMatchObject({ returnedCount: 1, totalCount: 3, hasMore: false });
    expect(idsOf(second)).toEqual([720003]);
    const all = await account.call("listPublishers", {});
    expect(all.body).toMatchObject({ effectiveLimit: 50 });
    expect(all.body.totalCount).toBeGreaterThanOrEqual(3);
  });

  it("shows a custom publisher to its owner only", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const id = await insertCustomCompany(owner.userId, { name: "ミルフェア同人会", nameKana: "ミルフェアドウジンカイ", nameEn: null });
    const mine = await owner.call("listPublishers", { query: "ミルフェア" });
    expect(idsOf(mine)).toEqual([720001, 720002, 720003, id]);
    expect(mine.body.items[3]).toMatchObject({ name: "ミルフェア同人会", custom: true });
    expect(idsOf(await other.call("listPublishers", { query: "ミルフェア" }))).toEqual([720001, 720002, 720003]);
    expect(idsOf(await other.call("listPublishers", { query: "どうじんかい" }))).toEqual([]);
  });

  it("treats wildcards, quotes and SQL in the query as plain text", async () => {
    const account = await newAccount();
    // % and _ are dropped like any punctuation, never read as LIKE wildcards.
    for (const query of ["ミルフェア%", "ミルフェア_", "%ミルフェア%", "'ミルフェア'"]) {
      const reply = await account.call("listPublishers", { query });
      expect(reply.status, query).toBe(200);
      expect(idsOf(reply), query).toEqual([720001, 720002, 720003]);
    }
    expect(idsOf(await account.call("listPublishers", { query: "ミル_ェア" }))).toEqual([]);
    const injected = await account.call("listPublishers", { query: "ミルフェア'; DROP TABLE companies; --" });
    expect(injected.status).toBe(200);
    expect(idsOf(injected)).toEqual([]);
    expect(idsOf(await account.call("listPublishers", { query: "ミルフェア工房" }))).toEqual([720001]);
  });

  it.each([
    ["query", { query: "" }],
    ["query", { query: "ミ".repeat(51) }],
    ["limit", { limit: 0 }],
    ["page", { page: -1 }],
    ["name", { name: "ミルフェア" }],
  ])("refuses a bad %s with 400", async (field, args) => {
    const account = await newAccount();
    const reply = await account.call("listPublishers", args);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("needs games:read", async () => {
    const account = await newAccount({ scopes: ["library:read"] });
    const reply = await account.call("listPublishers", { query: "ミルフェア" });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["games:read"] });
  });
});

describe("listAttributes", () => {
  const system = SYSTEM_ATTRIBUTES.map((a) => ({ id: a.id, label: a.label, custom: false }));

  it("lists the system labels to a user without labels of their own", async () => {
    const account = await newAccount({ plan: "FREE" });
    const reply = await account.call("listAttributes");
    expect(reply.status).toBe(200);
    expect(reply.body.items).toEqual(system);
    expect(reply.body).toMatchObject({ totalCount: system.length, hasMore: false });
  });

  it("lists the system labels first, then the caller's own, and nobody else's", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const first = await insertAttribute(owner.userId, "ミルフェア特典付き", "2024-01-01T00:00:00.000Z");
    const second = await insertAttribute(owner.userId, "サイン入り", "2024-01-02T00:00:00.000Z");
    const third = await insertAttribute(owner.userId, "帯あり", "2024-01-03T00:00:00.000Z");
    await insertAttribute(other.userId, "他人のラベル", "2024-01-01T00:00:00.000Z");

    const mine = await owner.call("listAttributes", {}, "GET");
    expect(mine.body.items).toEqual([
      ...system,
      { id: first, label: "ミルフェア特典付き", custom: true },
      { id: second, label: "サイン入り", custom: true },
      { id: third, label: "帯あり", custom: true },
    ]);
    expect(mine.body.totalCount).toBe(system.length + 3);
    expect(JSON.stringify(mine.body)).not.toContain("他人のラベル");

    // Pages run across the system labels into the own ones.
    const page2 = await owner.call("listAttributes", { limit: 5, page: 2 });
    expect(page2.body.items).toEqual([
      ...system.slice(5, 8),
      { id: first, label: "ミルフェア特典付き", custom: true },
      { id: second, label: "サイン入り", custom: true },
    ]);
    expect(page2.body.hasMore).toBe(true);
    const page3 = await owner.call("listAttributes", { limit: 5, page: 3 });
    expect(page3.body.items).toEqual([{ id: third, label: "帯あり", custom: true }]);
    expect(page3.body).toMatchObject({ hasMore: false, totalCount: 11 });

    const theirs = await other.call("listAttributes");
    expect(theirs.body.items.filter((a: { custom: boolean }) => a.custom).map((a: { label: string }) => a.label)).toEqual(["他人のラベル"]);
  });

  it("needs library:read, not games:read", async () => {
    const gamesOnly = await newAccount({ scopes: ["games:read"] });
    const reply = await gamesOnly.call("listAttributes");
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["library:read"] });
    const libraryOnly = await newAccount({ scopes: ["library:read"] });
    expect((await libraryOnly.call("listAttributes")).status).toBe(200);
    expect((await send("/rest/v1/listAttributes")).status).toBe(401);
  });

  it("refuses a bad limit", async () => {
    const account = await newAccount();
    expect((await account.call("listAttributes", { limit: 0 })).body).toMatchObject({ code: "invalid_input", field: "limit" });
    expect((await account.call("listAttributes", { limit: 500 })).body).toMatchObject({ effectiveLimit: 200, limitReduced: true });
  });
});
