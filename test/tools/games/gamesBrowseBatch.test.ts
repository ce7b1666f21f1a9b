// browseGames and getGamesBatch over fictional fixture games (ids 710000+, every title carries
// the marker クロノピア). 120 "年代記" games sit on platform A (one per day from 1990-01-02),
// five hand-made games on platform B exercise sorting and filters.
import { beforeAll, describe, expect, it } from "vitest";
import companies from "../../fixtures/master/browse.companies.ndjson?raw";
import games from "../../fixtures/master/browse.games.ndjson?raw";
import genres from "../../fixtures/master/browse.genres.ndjson?raw";
import platforms from "../../fixtures/master/browse.platforms.ndjson?raw";
import { type Account, newAccount, send } from "../../support/harness";
import { gameIdsOf, importFixture, insertCustomGame } from "../../support/master";

const PA = 710001; // 120 chronicle games
const PB = 710002; // 5 special games
const C1 = 710001;
const C2 = 710002;
const G_RPG = 710001; // root
const G_ACT = 710002; // root
const G_DUNGEON = 710003; // kuronopia_rpg.dungeon

const AKATSUKI = 710001; // 1995-05-05, C1, main RPG, sub dungeon
const IKAZUCHI = 710002; // 1993-03-03, C2, main ACT
const UZUSHIO = 710003; // undated, C1, main ACT, sub RPG (a root as support genre)
const ENISHI = 710004; // 1994-04-04, C2, main RPG
const OBORO = 710005; // 1993-03-03, C1, main ACT

/** Chronicle game n (1..120) has id 710100 + n and is released on day n after 1990-01-01. */
const chronicle = (n: number) => 710100 + n;
const chronicles = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => chronicle(from + i));

beforeAll(async () => {
  await importFixture({ platforms, companies, genres, games });
});

const browse = (account: Account, args: Record<string, unknown>, method: "GET" | "POST" = "POST") =>
  account.call("browseGames", args, method);
const batch = (account: Account, args: Record<string, unknown>, method: "GET" | "POST" = "POST") =>
  account.call("getGamesBatch", args, method);

describe("browseGames: plans and scopes", () => {
  it.each(["FREE", "LIGHT"] as const)("refuses the %s plan with 403 plan_required and an upgradeUrl", async (plan) => {
    const account = await newAccount({ plan });
    for (const method of ["POST", "GET"] as const) {
      const reply = await browse(account, { platformIds: [PB] }, method);
      expect(reply.status, method).toBe(403);
      expect(reply.body.code).toBe("plan_required");
      expect(reply.body.upgradeUrl).toMatch(/^https?:\/\//);
      expect(reply.body).not.toHaveProperty("items");
    }
  });

  it("refuses a PREMIUM key without games:read with 403 insufficient_scope", async () => {
    const account = await newAccount({ plan: "PREMIUM", scopes: ["library:read"] });
    const reply = await browse(account, { platformIds: [PB] });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["games:read"] });
  });

  it("refuses a call without a key with 401", async () => {
    expect((await send("/rest/v1/browseGames?platformIds=710002")).status).toBe(401);
  });
});

describe("browseGames: paging and caps", () => {
  it("returns 20 by default in release date order with the paged envelope, generation and coverage", async () => {
    const account = await newAccount();
    const reply = await browse(account, { platformIds: [PA] });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      page: 1,
      returnedCount: 20,
      totalCount: 120,
      hasMore: true,
      effectiveLimit: 20,
      limitReduced: false,
      limitReason: null,
    });
    expect(gameIdsOf(reply)).toEqual(chronicles(1, 20));
    expect(typeof reply.body.generation).toBe("string");
    expect(reply.body.generation).not.toBe("empty");
    expect(Number.isInteger(reply.body.coverage.totalGames)).toBe(true);
    expect(reply.body.coverage.totalGames).toBeGreaterThanOrEqual(125);
    expect(reply.body.coverage.platforms).toEqual(expect.arrayContaining(["クロノピア機A", "クロノピア機B"]));
    expect(reply.body.coverage.note).toContain("Source: GameDataBase by PigSaint (CC BY 4.0");
  });

  it("carries the default field groups (editions, specs, supportGenre) and dbSlug/dbCoverId", async () => {
    const account = await newAccount();
    const reply = await browse(account, { platformIds: [PB], sortBy: "title" });
    const item = reply.body.items[0];
    expect(item).toMatchObject({
      gameId: AKATSUKI,
      title: "クロノピア あかつき",
      titleEn: ["Kuronopia Akatsuki"],
      platform: { platformId: PB, name: "クロノピア機B" },
      publisher: { companyId: C1, name: "クロノピア堂" },
      genre: { genreId: G_RPG, name: "クロノピアRPG" },
      genreSub: { genreId: G_DUNGEON, name: "クロノピアダンジョン" },
      releaseDate: "1995-05-05",
      custom: false,
      dbId: 7100001,
      dbSlug: "kuronopia-akatsuki-test",
      dbCoverId: "kcov1",
      specs: { modelNumber: ["TST-KB1"], price: null, janCode: null },
    });
    expect(item.editions).toHaveLength(1);
    expect(item.editions[0]).toMatchObject({ gameEditionId: AKATSUKI, modelNumber: ["TST-KB1F"], price: 5800 });
    expect(item).not.toHaveProperty("externalLinks");
    expect(reply.body.items[1]).toMatchObject({ gameId: IKAZUCHI, genreSub: null });
  });

  it.each([
    ["default fields", {}, 50],
    ["editions", { fields: ["editions"] }, 50],
    ["specs", { fields: ["specs"] }, 50],
    ["supportGenre", { fields: ["supportGenre"] }, 50],
    ["externalLinks", { fields: ["externalLinks"] }, 25],
    ["externalLinks with editions", { fields: ["externalLinks", "editions"] }, 25],
  ])("caps the page for %s", async (_label, fields, cap) => {
    const account = await newAccount();
    const reply = await browse(account, { platformIds: [PA], limit: 100, ...fields });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ effectiveLimit: cap, limitReduced: true, returnedCount: cap, totalCount: 120, hasMore: true });
    expect(reply.body.limitReason).toContain(String(cap));
    expect(gameIdsOf(reply)).toEqual(chronicles(1, cap));
  });

  it("gives up to 100 core rows with fields []", async () => {
    const account = await newAccount();
    const reply = await browse(account, { platformIds: [PA], limit: 100, fields: [] });
    expect(reply.body).toMatchObject({ effectiveLimit: 100, limitReduced: false, returnedCount: 100 });
    for (const group of ["editions", "specs", "genreSub", "externalLinks"]) expect(reply.body.items[0]).not.toHaveProperty(group);
    expect(reply.body.items[0]).toHaveProperty("dbSlug");
    expect(reply.body.items[0]).toHaveProperty("dbCoverId");
  });

  it("reduces limit 5000 to 100 (and to the field caps) and reports it", async () => {
    const account = await newAccount();
    const core = await browse(account, { platformIds: [PA], limit: 5000, fields: [] });
    expect(core.body).toMatchObject({ effectiveLimit: 100, limitReduced: true, returnedCount: 100 });
    expect(typeof core.body.limitReason).toBe("string");
    const detailed = await browse(account, { platformIds: [PA], limit: 5000 });
    expect(detailed.body).toMatchObject({ effectiveLimit: 50, limitReduced: true });
  });

  it("reads `fields=` in GET as core rows", async () => {
    const account = await newAccount();
    const reply = await send(`/rest/v1/browseGames?platformIds=${PA}&limit=100&fields=`, {
      headers: { Authorization: `Bearer ${account.apiKey}` },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ effectiveLimit: 100, returnedCount: 100 });
    expect(reply.body.items[0]).not.toHaveProperty("editions");
  });

  it("pages through every game exactly once", async () => {
    const account = await newAccount();
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await browse(account, { platformIds: [PA], limit: 50, fields: [], page }));
    expect(pages.map((p) => p.body.page)).toEqual([1, 2, 3]);
    expect(pages.map((p) => p.body.returnedCount)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p.body.hasMore)).toEqual([true, true, false]);
    expect(pages.every((p) => p.body.totalCount === 120)).toBe(true);
    expect(gameIdsOf(pages[1]!)).toEqual(chronicles(51, 100));
    expect(pages.flatMap(gameIdsOf)).toEqual(chronicles(1, 120));
    const beyond = await browse(account, { platformIds: [PA], limit: 50, page: 4 });
    expect(beyond.body).toMatchObject({ items: [], returnedCount: 0, totalCount: 120, hasMore: false });
  });

  it.each([
    ["limit", { limit: 0 }],
    ["limit", { limit: 2.5 }],
    ["page", { page: 0 }],
    ["page", { page: 1.5 }],
    ["sortBy", { sortBy: "rating" }],
    ["sortOrder", { sortOrder: "up" }],
    ["platformIds", { platformIds: Array.from({ length: 11 }, (_, i) => i + 1) }],
    ["genreId", { genreId: 0 }],
    ["publisherId", { publisherId: "x" }],
    ["releaseDateFrom", { releaseDateFrom: "2024-02-30" }],
    ["releaseDateTo", { releaseDateFrom: "1995-01-01", releaseDateTo: "1994-01-01" }],
    ["fields[0]", { fields: ["game"] }],
    ["externalId", { externalId: { dbId: 1 } }],
  ])("refuses a bad %s with 400 naming it", async (field, args) => {
    const account = await newAccount();
    const reply = await browse(account, { platformIds: [PB], ...args });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });
});

describe("browseGames: sorting and filters", () => {
  it.each([
    ["releaseDate", "asc", [IKAZUCHI, OBORO, ENISHI, AKATSUKI, UZUSHIO]],
    ["releaseDate", "desc", [AKATSUKI, ENISHI, OBORO, IKAZUCHI, UZUSHIO]],
    ["title", "asc", [AKATSUKI, IKAZUCHI, UZUSHIO, ENISHI, OBORO]],
    ["title", "desc", [OBORO, ENISHI, UZUSHIO, IKAZUCHI, AKATSUKI]],
  ])("sorts by %s %s (undated last for dates, reading order for titles)", async (sortBy, sortOrder, expected) => {
    const account = await newAccount();
    const reply = await browse(account, { platformIds: [PB], sortBy, sortOrder });
    expect(gameIdsOf(reply)).toEqual(expected);
  });

  it("sorts by release date ascending when no sort is given, and descending pages from the newest", async () => {
    const account = await newAccount();
    expect(gameIdsOf(await browse(account, { platformIds: [PB] }))).toEqual([IKAZUCHI, OBORO, ENISHI, AKATSUKI, UZUSHIO]);
    const newest = await browse(account, { platformIds: [PA], sortOrder: "desc", limit: 3, fields: [] });
    expect(gameIdsOf(newest)).toEqual([chronicle(120), chronicle(119), chronicle(118)]);
    // Undated games come last in either direction.
    expect(gameIdsOf(await browse(account, { platformIds: [PB], sortOrder: "desc" }))).toEqual([
      AKATSUKI,
      ENISHI,
      OBORO,
      IKAZUCHI,
      UZUSHIO,
    ]);
  });

  it.each([
    ["publisherId", { publisherId: C2 }, [IKAZUCHI, ENISHI]],
    ["a root genre as main or support genre", { genreId: G_RPG }, [ENISHI, AKATSUKI, UZUSHIO]],
    ["another root genre", { genreId: G_ACT }, [IKAZUCHI, OBORO, UZUSHIO]],
    ["a support genre through its taxonomy key", { genreId: G_DUNGEON }, [AKATSUKI]],
    [
      "an inclusive release date range, dropping undated",
      { releaseDateFrom: "1993-03-03", releaseDateTo: "1994-04-04" },
      [IKAZUCHI, OBORO, ENISHI],
    ],
    ["a lower bound only", { releaseDateFrom: "1995-05-05" }, [AKATSUKI]],
    ["a query on the reading", { query: "いかずち" }, [IKAZUCHI]],
    ["a query of two terms", { query: "クロノピア　おぼろ" }, [OBORO]],
    ["a query on the English title", { query: "kuronopia enishi" }, [ENISHI]],
    ["a query matching nothing", { query: "ゾルバ" }, []],
  ])("filters by %s", async (_label, filter, expected) => {
    const account = await newAccount();
    const reply = await browse(account, { platformIds: [PB], ...filter });
    expect(reply.status).toBe(200);
    expect(gameIdsOf(reply)).toEqual(expected);
    expect(reply.body.totalCount).toBe(expected.length);
  });

  it("narrows by query without platformIds, across platforms", async () => {
    const account = await newAccount();
    const reply = await browse(account, { query: "クロノピア年代記", limit: 100, fields: [] });
    expect(reply.body.totalCount).toBe(120);
    const both = await browse(account, { query: "くろのぴあ", platformIds: [PA, PB], fields: [], limit: 100 });
    expect(both.body.totalCount).toBe(125);
  });

  it("combines filters (AND) and reads them from GET", async () => {
    const account = await newAccount();
    const reply = await browse(
      account,
      { platformIds: [PA, PB], publisherId: C1, genreId: G_ACT, sortBy: "title", sortOrder: "desc" },
      "GET",
    );
    expect(reply.status).toBe(200);
    expect(gameIdsOf(reply)).toEqual([OBORO, UZUSHIO]);
  });

  it("shows the caller's own custom games, and nobody else's", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const id = await insertCustomGame(owner.userId, {
      title: "クロノピア 自作ゲーム",
      titleReading: "くろのぴあじさくげーむ",
      platformId: PB,
      releaseDate: "1996-06-06",
      dbSlug: "leak",
    });
    const mine = await browse(owner, { platformIds: [PB] });
    expect(gameIdsOf(mine)).toEqual([IKAZUCHI, OBORO, ENISHI, AKATSUKI, id, UZUSHIO]);
    expect(mine.body.items[4]).toMatchObject({ custom: true, dbSlug: null });
    const theirs = await browse(other, { platformIds: [PB] });
    expect(gameIdsOf(theirs)).toEqual([IKAZUCHI, OBORO, ENISHI, AKATSUKI, UZUSHIO]);
    expect(theirs.body.totalCount).toBe(5);
    // Totals count the caller's own games too, with or without filters beyond platforms.
    expect(mine.body.totalCount).toBe(6);
    const everything = async (account: Account) => (await browse(account, { fields: [] })).body.totalCount;
    expect(await everything(owner)).toBe((await everything(other)) + 1);
    expect((await browse(owner, { platformIds: [PB], releaseDateFrom: "1996-01-01" })).body.totalCount).toBe(1);
    expect((await browse(other, { platformIds: [PB], releaseDateFrom: "1996-01-01" })).body.totalCount).toBe(0);
  });
});

describe("getGamesBatch", () => {
  it("returns games in the order asked, with the detailed fields by default", async () => {
    const account = await newAccount({ plan: "FREE" });
    const reply = await batch(account, { gameIds: [UZUSHIO, AKATSUKI, chronicle(7), IKAZUCHI] });
    expect(reply.status).toBe(200);
    expect(gameIdsOf(reply)).toEqual([UZUSHIO, AKATSUKI, chronicle(7), IKAZUCHI]);
    expect(reply.body).toMatchObject({ totalCount: 4, limitReduced: false, notFoundGameIds: [], omittedGameIds: [] });
    const item = reply.body.items[1];
    expect(item).toMatchObject({
      gameId: AKATSUKI,
      dbSlug: "kuronopia-akatsuki-test",
      dbCoverId: "kcov1",
      genreSub: { genreId: G_DUNGEON },
    });
    expect(item.editions).toHaveLength(1);
    expect(item.specs).toEqual({ modelNumber: ["TST-KB1"], price: null, janCode: null });
  });

  it("fetches duplicates once", async () => {
    const account = await newAccount();
    const reply = await batch(account, { gameIds: [AKATSUKI, AKATSUKI, IKAZUCHI, AKATSUKI] });
    expect(gameIdsOf(reply)).toEqual([AKATSUKI, IKAZUCHI]);
    expect(reply.body.totalCount).toBe(2);
  });

  it("lists unknown ids and other users' custom games in notFoundGameIds; shows the caller's own", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const custom = await insertCustomGame(owner.userId, { title: "クロノピア 秘蔵版", platformId: PB });
    const asOther = await batch(other, { gameIds: [AKATSUKI, 710999, custom, ENISHI] });
    expect(gameIdsOf(asOther)).toEqual([AKATSUKI, ENISHI]);
    expect(asOther.body.notFoundGameIds).toEqual([710999, custom]);
    expect(JSON.stringify(asOther.body)).not.toContain("秘蔵版");
    const asOwner = await batch(owner, { gameIds: [custom, 710999] });
    expect(gameIdsOf(asOwner)).toEqual([custom]);
    expect(asOwner.body.items[0]).toMatchObject({ custom: true, dbSlug: null, title: "クロノピア 秘蔵版" });
    expect(asOwner.body.notFoundGameIds).toEqual([710999]);
  });

  it("fetches the first 100 of 150 ids and lists the other 50 as omitted", async () => {
    const account = await newAccount();
    const unknown = Array.from({ length: 25 }, (_, i) => 710901 + i);
    const ids = [...chronicles(1, 120), AKATSUKI, IKAZUCHI, UZUSHIO, ENISHI, OBORO, ...unknown];
    expect(ids).toHaveLength(150);
    const reply = await batch(account, { gameIds: ids, fields: [] });
    expect(reply.status).toBe(200);
    expect(reply.body.limitReduced).toBe(true);
    expect(typeof reply.body.limitReason).toBe("string");
    expect(gameIdsOf(reply)).toEqual(ids.slice(0, 100));
    expect(reply.body.totalCount).toBe(100);
    expect(reply.body.omittedGameIds).toEqual(ids.slice(100));
    expect(reply.body.notFoundGameIds).toEqual([]);
  });

  it("gives core fields for fields [] (and `fields=` in GET) and only the asked groups otherwise", async () => {
    const account = await newAccount();
    const core = await send(`/rest/v1/getGamesBatch?gameIds=${AKATSUKI},${IKAZUCHI}&fields=`, {
      headers: { Authorization: `Bearer ${account.apiKey}` },
    });
    expect(core.status).toBe(200);
    expect(gameIdsOf(core)).toEqual([AKATSUKI, IKAZUCHI]);
    for (const group of ["editions", "specs", "genreSub", "externalLinks"]) expect(core.body.items[0]).not.toHaveProperty(group);
    expect(core.body.items[0]).toMatchObject({ dbSlug: "kuronopia-akatsuki-test", dbCoverId: "kcov1" });
    const links = await batch(account, { gameIds: [AKATSUKI], fields: ["externalLinks"] });
    expect(links.body.items[0].externalLinks).toEqual(
      expect.arrayContaining([
        { source: "db", id: "7100001" },
        { source: "media", id: "kmedia-1" },
      ]),
    );
    expect(links.body.items[0]).not.toHaveProperty("editions");
    expect(JSON.stringify(links.body)).not.toMatch(/https?:\/\//);
  });

  it.each([
    ["gameIds", { gameIds: [] }],
    ["gameIds", {}],
    ["gameIds[0]", { gameIds: ["abc"] }],
    ["gameIds[1]", { gameIds: [AKATSUKI, 1.5] }],
    ["gameIds[0]", { gameIds: [0] }],
    ["gameIds[0]", { gameIds: [-3] }],
    ["gameIds", { gameIds: "710001" }],
    ["fields[0]", { gameIds: [AKATSUKI], fields: ["all"] }],
    ["limit", { gameIds: [AKATSUKI], limit: 5 }],
  ])("refuses a bad %s with 400 naming it", async (field, args) => {
    const account = await newAccount();
    const reply = await batch(account, args);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("names a non-integer id in a GET list", async () => {
    const account = await newAccount();
    const reply = await send(`/rest/v1/getGamesBatch?gameIds=${AKATSUKI},x`, { headers: { Authorization: `Bearer ${account.apiKey}` } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field: "gameIds[1]" });
  });

  it("refuses a key without games:read, and a call without a key", async () => {
    const account = await newAccount({ scopes: ["play:read"] });
    const reply = await batch(account, { gameIds: [AKATSUKI] });
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("insufficient_scope");
    expect((await send(`/rest/v1/getGamesBatch?gameIds=${AKATSUKI}`)).status).toBe(401);
  });
});

describe("one genre rule in every tool", () => {
  it("matches a non-root genre as the main or the support genre, in browse, search and the library", async () => {
    const account = await newAccount();
    const asMain = await insertCustomGame(account.userId, { title: "クロノピア 迷宮主", platformId: PB, genreId: G_DUNGEON });
    const asSupport = await insertCustomGame(account.userId, {
      title: "クロノピア 迷宮副",
      platformId: PB,
      genreId: G_RPG,
      genreSubId: G_DUNGEON,
    });
    const elsewhere = await insertCustomGame(account.userId, { title: "クロノピア 迷宮外", platformId: PB, genreId: G_ACT });
    const browsed = await browse(account, { platformIds: [PB], genreId: G_DUNGEON, fields: [] });
    expect(gameIdsOf(browsed)).toEqual(expect.arrayContaining([AKATSUKI, asMain, asSupport]));
    expect(gameIdsOf(browsed)).not.toContain(elsewhere);
    const searched = await account.call("searchGames", { query: "クロノピア 迷宮", genreId: G_DUNGEON, fields: [] });
    expect(gameIdsOf(searched).sort()).toEqual([asMain, asSupport].sort());
    for (const gameId of [asMain, asSupport, elsewhere]) await account.call("addToLibrary", { gameId });
    const library = await account.call("getLibrary", { genreId: G_DUNGEON, fields: [] });
    expect(library.body.items.map((entry: any) => entry.gameId).sort()).toEqual([asMain, asSupport].sort());
  });
});
