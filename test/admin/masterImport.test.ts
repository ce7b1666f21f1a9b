// The operator's master import, POST /admin/v1/master/{dataset} with an NDJSON body, over
// fictional fixture masters (ids 730000+, every title carries the marker ザンバラ).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import companies from "../fixtures/master/import.companies.ndjson?raw";
import games from "../fixtures/master/import.games.ndjson?raw";
import genres from "../fixtures/master/import.genres.ndjson?raw";
import platforms from "../fixtures/master/import.platforms.ndjson?raw";
import { WITHOUT_IDENTIFIERS } from "../support/gameRows";
import { ADMIN_TOKEN, newAccount, send } from "../support/harness";
import {
  type Dataset,
  ean13,
  gameIdsOf,
  importFixture,
  importMaster,
  importOk,
  insertCustomCompany,
  insertCustomPlatform,
  storedGeneration,
  toNdjson,
} from "../support/master";

const P1 = 730001;
const P_BULK = 730002;
const C1 = 730001;
const G_ROOT = 730001;
const G_CHILD = 730002;

beforeAll(async () => {
  await importFixture({ platforms, companies, genres, games });
});

const pad = (n: number, width: number) => String(n).padStart(width, "0");
const fixtureRows = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);

/** A complete game row of the master row format; override what a case needs. */
function gameRow(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    gameId: 730201,
    title: "ザンバラ検証用",
    titleReading: "ざんばらけんしょうよう",
    titleEn: [],
    aliases: [],
    platformId: P1,
    platformName: "ザンバラ機",
    publisherId: C1,
    publisherName: "ザンバラ出版",
    genreId: G_ROOT,
    genreName: "ザンバラRPG",
    genreSubId: null,
    genreKey: null,
    releaseDate: "1990-01-01",
    ...WITHOUT_IDENTIFIERS,
    ...overrides,
  };
}

const editionRow = (overrides: Record<string, unknown>) => ({
  gameEditionId: 730201,
  title: null,
  modelNumber: [],
  releaseDate: null,
  price: null,
  janCode: null,
  ...overrides,
});

const exists = async (table: string, id: number) =>
  (await env.DB.prepare(`SELECT id FROM ${table} WHERE id = ?`).bind(id).first()) !== null;

describe("operator authentication", () => {
  it.each([
    ["no token", null],
    ["a wrong token", "Bearer not-the-admin-token"],
    ["another scheme", "Basic dGVzdC1hZG1pbi10b2tlbg=="],
  ])("refuses %s with 401 and imports nothing", async (_label, authorization) => {
    const body = toNdjson([gameRow({ gameId: 730290, title: "ザンバラ不正投入" })]);
    const reply = await importMaster("games", body, authorization);
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe("unauthorized");
    expect(await exists("games", 730290)).toBe(false);
  });

  it("refuses a user's API key", async () => {
    const account = await newAccount();
    const reply = await importMaster("platforms", platforms, `Bearer ${account.apiKey}`);
    expect(reply.status).toBe(401);
  });

  it("checks the token before the dataset name", async () => {
    expect((await importMaster("consoles", "{}", null)).status).toBe(401);
  });
});

describe("idempotent upsert and generations", () => {
  it("accepts the same body twice: the second call writes nothing and keeps the generation", async () => {
    const first = await importOk("games", games);
    expect(first.body).toMatchObject({ dataset: "games", upserted: expect.any(Number) });
    expect(typeof first.body.generation).toBe("string");
    const second = await importOk("games", games);
    expect(second.body).toMatchObject({ dataset: "games", upserted: 0, generation: first.body.generation });
    for (const [dataset, body] of [
      ["platforms", platforms],
      ["companies", companies],
      ["genres", genres],
    ] as const) {
      const again = await importOk(dataset, body);
      expect(again.body, dataset).toMatchObject({ dataset, upserted: 0 });
      expect(again.body.generation).toBe(await storedGeneration(dataset));
    }
  });

  it("writes a changed row, moves only that dataset's generation, and shows the change", async () => {
    const account = await newAccount();
    const before = await importOk("games", games);
    const others = {
      platforms: await storedGeneration("platforms"),
      companies: await storedGeneration("companies"),
      genres: await storedGeneration("genres"),
    };

    const marker = crypto.randomUUID().slice(0, 8);
    const rows = fixtureRows(games);
    rows[2]!.title = `ザンバラ外伝 改訂${marker}`;
    const changed = await importOk("games", toNdjson(rows));
    expect(changed.body).toMatchObject({ dataset: "games", upserted: 1 });
    expect(changed.body.generation).not.toBe(before.body.generation);
    expect(await storedGeneration("games")).toBe(changed.body.generation);
    for (const dataset of ["platforms", "companies", "genres"] as const)
      expect(await storedGeneration(dataset), dataset).toBe(others[dataset]);

    const read = await account.call("getGamesBatch", { gameIds: [730003] });
    expect(read.body.items[0].title).toBe(`ザンバラ外伝 改訂${marker}`);
    const found = await account.call("searchGames", { query: `改訂${marker}` });
    expect(gameIdsOf(found)).toEqual([730003]);
    expect(found.body.generation).toBe(changed.body.generation);

    const restored = await importOk("games", games);
    expect(restored.body.upserted).toBe(1);
    expect(restored.body.generation).not.toBe(changed.body.generation);
    expect(gameIdsOf(await account.call("searchGames", { query: `改訂${marker}` }))).toEqual([]);
    expect((await account.call("getGamesBatch", { gameIds: [730003] })).body.items[0].title).toBe("ザンバラ外伝");
  });

  it("moves the games generation when a platform, publisher or genre name or a genre key changes, since game rows carry them", async () => {
    for (const [dataset, body, field] of [
      ["platforms", platforms, "name"],
      ["companies", companies, "name"],
      ["genres", genres, "name"],
    ] as const) {
      const games0 = (await importOk("games", games)).body.generation;
      const rows = fixtureRows(body);
      rows[0]![field] = `${rows[0]![field]} ${crypto.randomUUID().slice(0, 8)}`;
      const renamed = await importOk(dataset, toNdjson(rows));
      expect(renamed.body, dataset).toMatchObject({ dataset, upserted: 1 });
      const games1 = (await importOk("games", games)).body;
      expect(games1.upserted, dataset).toBe(0);
      expect(games1.generation, dataset).not.toBe(games0);
      await importOk(dataset, body);
    }
  });

  it("ignores the derived name columns of game rows when comparing content", async () => {
    const rows = fixtureRows(games).map((row) => ({
      ...row,
      platformName: "別の名前",
      publisherName: null,
      genreName: "x",
    }));
    const reply = await importOk("games", toNdjson(rows));
    expect(reply.body.upserted).toBe(0);
  });

  it("moves the platforms generation, not the games one, when a platform changes", async () => {
    await importOk("platforms", platforms);
    const gamesGeneration = await storedGeneration("games");
    const platformsGeneration = await storedGeneration("platforms");
    const rows = fixtureRows(platforms);
    rows[0]!.maker = `ザンバラ電機 ${crypto.randomUUID().slice(0, 6)}`;
    const changed = await importOk("platforms", toNdjson(rows));
    expect(changed.body).toMatchObject({ dataset: "platforms", upserted: 1 });
    expect(changed.body.generation).not.toBe(platformsGeneration);
    expect(await storedGeneration("games")).toBe(gamesGeneration);
    expect((await importOk("platforms", platforms)).body.upserted).toBe(1);
  });

  it("shows a renamed platform in coverage at once", async () => {
    const account = await newAccount();
    const before = await account.call("searchGames", { query: "ザンバラ戦記", includeCoverage: true });
    expect(before.body.coverage.platforms).toContain("ザンバラ機");
    const renamed = `ザンバラ機 ${crypto.randomUUID().slice(0, 6)}`;
    const rows = fixtureRows(platforms);
    rows[0]!.name = renamed;
    try {
      expect((await importOk("platforms", toNdjson(rows))).body.upserted).toBe(1);
      const after = await account.call("searchGames", { query: "ザンバラ戦記", includeCoverage: true });
      expect(after.body.items[0].platform.name).toBe(renamed);
      expect(after.body.coverage.platforms).toContain(renamed);
      expect(after.body.coverage.platforms).not.toContain("ザンバラ機");
    } finally {
      await importOk("platforms", platforms);
    }
  });

  it("rewrites a game's editions and search terms when they change", async () => {
    const account = await newAccount();
    const editionJan = ean13("273000200001");
    expect(gameIdsOf(await account.call("searchGames", { janCode: editionJan }))).toEqual([730002]);
    const rows = fixtureRows(games);
    rows[1]!.editions = [];
    expect((await importOk("games", toNdjson(rows))).body.upserted).toBe(1);
    expect(gameIdsOf(await account.call("searchGames", { janCode: editionJan }))).toEqual([]);
    expect(gameIdsOf(await account.call("searchGames", { modelNumber: "TST-ZN002B" }))).toEqual([]);
    expect((await account.call("getGamesBatch", { gameIds: [730002] })).body.items[0].editions).toEqual([]);
    await importOk("games", games);
    const back = await account.call("searchGames", { janCode: editionJan });
    expect(back.body.items[0]).toMatchObject({ gameId: 730002, edition: true });
  });

  it("moves a game's platform, date and title in what search filters and ranks on", async () => {
    const account = await newAccount();
    const inP2 = async (query: string) => gameIdsOf(await account.call("searchGames", { query, platformIds: [P_BULK] }));
    expect(await inP2("ザンバラ外伝")).toEqual([]);
    const rows = fixtureRows(games);
    rows[2] = { ...rows[2], platformId: P_BULK, releaseDate: "1995-05-05", title: "ザンバラ外伝改" };
    await importOk("games", toNdjson(rows));
    expect(await inP2("ザンバラ外伝")).toEqual([730003]);
    expect(await inP2("伝改")).toEqual([730003]);
    const dated = await account.call("searchGames", { query: "ザンバラ", releaseDateFrom: "1995-01-01" });
    expect(gameIdsOf(dated)).toEqual([730003]);
    expect((await account.call("searchGames", { query: "ザンバラ外伝改" })).body.items[0]).toMatchObject({ gameId: 730003, exact: true });
    await importOk("games", games);
    expect(await inP2("ザンバラ外伝")).toEqual([]);
  });

  it("stores unknown values as null and returns them as null, never omitted", async () => {
    const row = gameRow({
      gameId: 730601,
      title: "ザンバラ無記名",
      titleReading: null,
      publisherId: null,
      publisherName: null,
      genreId: null,
      genreName: null,
      genreKey: null,
      releaseDate: null,
    });
    expect((await importMaster("games", toNdjson([row]))).status).toBe(200);
    const account = await newAccount();
    const game = (await account.call("getGamesBatch", { gameIds: [730601] })).body.items[0];
    expect(game).toMatchObject({
      gameId: 730601,
      titleEn: [],
      publisher: null,
      genre: null,
      genreSub: null,
      releaseDate: null,
      dbId: null,
      dbSlug: null,
      dbCoverId: null,
      specs: { modelNumber: [], price: null, janCode: null },
      editions: [],
    });
  });

  it("accepts a child genre whose parent comes earlier in the same body", async () => {
    const body = toNdjson([
      { genreId: 730301, name: "ザンバラパズル", parentId: null, taxonomyKey: "zanbara_puzzle" },
      { genreId: 730302, name: "ザンバラ落ち物", parentId: 730301, taxonomyKey: "zanbara_puzzle.falling" },
    ]);
    expect((await importMaster("genres", body)).status).toBe(200);
  });
});

describe("large imports", () => {
  const BULK = 3000;
  const bulkId = (n: number) => 731000 + n;
  const bulkJan = (n: number) => ean13(`2731${pad(n, 8)}`);
  const bulkEditionJan = (n: number) => ean13(`2732${pad(n, 8)}`);
  const day = (n: number) => new Date(Date.UTC(1990, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

  function bulkRows() {
    return Array.from({ length: BULK }, (_, i) => {
      const n = i + 1;
      return gameRow({
        gameId: bulkId(n),
        title: `ザンバラ大量生成 第${n}号`,
        titleReading: `ざんばらたいりょうせいせいだい${n}ごう`,
        titleEn: [`Zanbara Bulk ${n}`],
        aliases: [`ザン量${n}`],
        platformId: P_BULK,
        releaseDate: day(n),
        janCode: bulkJan(n),
        modelNumber: [`TST-ZM${pad(n, 4)}`],
        price: 1000 + n,
        editions:
          n % 10 === 0
            ? [
                editionRow({
                  gameEditionId: bulkId(n),
                  title: `ザンバラ大量生成 第${n}号 限定版`,
                  modelNumber: [`TST-ZM${pad(n, 4)}L`],
                  janCode: bulkEditionJan(n),
                }),
              ]
            : [],
      });
    });
  }

  it("imports 3,000 games in one request, every one readable afterwards", { timeout: 180_000 }, async () => {
    const body = toNdjson(bulkRows());
    const reply = await importOk("games", body);
    expect(reply.body).toMatchObject({ dataset: "games" });
    expect(reply.body.upserted + (reply.body.unchanged ?? 0)).toBe(BULK);

    const reader = await newAccount();
    const ids = Array.from({ length: BULK }, (_, i) => bulkId(i + 1));
    let found = 0;
    for (let i = 0; i < BULK; i += 100) {
      const page = await reader.call("getGamesBatch", { gameIds: ids.slice(i, i + 100), fields: [] });
      expect(page.status).toBe(200);
      expect(page.body.notFoundGameIds).toEqual([]);
      expect(gameIdsOf(page)).toEqual(ids.slice(i, i + 100));
      found += page.body.totalCount;
    }
    expect(found).toBe(BULK);

    const browser = await newAccount();
    const first = await browser.call("browseGames", { platformIds: [P_BULK], fields: [], limit: 100 });
    expect(first.body).toMatchObject({ totalCount: BULK, returnedCount: 100, hasMore: true });
    expect(gameIdsOf(first)).toEqual(ids.slice(0, 100));
    const last = await browser.call("browseGames", { platformIds: [P_BULK], fields: [], limit: 100, page: 30 });
    expect(last.body).toMatchObject({ returnedCount: 100, hasMore: false });
    expect(gameIdsOf(last)).toEqual(ids.slice(2900));

    // Search terms were written for every chunk, the last one included.
    expect(gameIdsOf(await browser.call("searchGames", { janCode: bulkJan(BULK) }))).toEqual([bulkId(BULK)]);
    expect(gameIdsOf(await browser.call("searchGames", { modelNumber: "TST-ZM0001" }))).toEqual([bulkId(1)]);
    const edition = await browser.call("searchGames", { janCode: bulkEditionJan(2990) });
    expect(edition.body.items[0]).toMatchObject({ gameId: bulkId(2990), edition: true });
    expect(gameIdsOf(await browser.call("searchGames", { query: `ザン量${BULK}` }))).toEqual([bulkId(BULK)]);
    expect((await browser.call("getGamesBatch", { gameIds: [bulkId(2990)] })).body.items[0].editions).toHaveLength(1);

    const again = await importOk("games", body);
    expect(again.body.upserted).toBe(0);
    expect(again.body.generation).toBe(await storedGeneration("games"));
  });

  it("imports a game with 10 English titles, 20 aliases and 50 editions", { timeout: 60_000 }, async () => {
    const editions = Array.from({ length: 50 }, (_, i) =>
      editionRow({
        gameEditionId: 730101 + i,
        title: `ザンバラ全部入り 第${i + 1}版`,
        modelNumber: [`TST-ZX${pad(i + 1, 3)}`, `TST-ZY${pad(i + 1, 3)}`],
        releaseDate: day(1000 + i),
        price: 5000 + i,
        janCode: ean13(`27301000${pad(i + 1, 4)}`),
      }),
    );
    const row = gameRow({
      gameId: 730100,
      title: "ザンバラ全部入り",
      titleReading: "ざんばらぜんぶいり",
      titleEn: Array.from({ length: 10 }, (_, i) => `Zanbara Everything ${i + 1}`),
      aliases: Array.from({ length: 20 }, (_, i) => `ザンバラ愛称${i + 1}`),
      genreSubId: G_CHILD,
      janCode: ean13("273010000000"),
      modelNumber: Array.from({ length: 10 }, (_, i) => `TST-ZW${pad(i + 1, 3)}`),
      mediaId: "zmedia-100",
      gpsId: "zgps-100",
      dbId: 7300100,
      dbSlug: "zanbara-everything-test",
      dbCoverId: "zcov100",
      editions,
    });
    const reply = await importMaster("games", toNdjson([row]));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);

    const account = await newAccount();
    const read = await account.call("getGamesBatch", { gameIds: [730100] });
    const game = read.body.items[0];
    expect(game.titleEn).toHaveLength(10);
    expect(game.specs.modelNumber).toHaveLength(10);
    expect(game.editions).toHaveLength(50);
    expect(game.editions.map((e: { gameEditionId: number }) => e.gameEditionId)).toEqual(editions.map((e) => e.gameEditionId));
    expect(game.editions[49]).toEqual({
      gameEditionId: 730150,
      title: "ザンバラ全部入り 第50版",
      modelNumber: ["TST-ZX050", "TST-ZY050"],
      releaseDate: day(1049),
      price: 5049,
      janCode: ean13("273010000050"),
    });
    expect(game).toMatchObject({ genreSub: { genreId: G_CHILD }, dbSlug: "zanbara-everything-test", dbCoverId: "zcov100" });

    expect((await account.call("searchGames", { query: "ザンバラ愛称20" })).body.items[0]).toMatchObject({
      gameId: 730100,
      matchedBy: "alias",
      exact: true,
    });
    expect((await account.call("searchGames", { query: "Zanbara Everything 10" })).body.items[0]).toMatchObject({
      gameId: 730100,
      matchedBy: "titleEn",
      exact: true,
    });
    expect((await account.call("searchGames", { janCode: ean13("273010000050") })).body.items[0]).toMatchObject({
      gameId: 730100,
      edition: true,
    });
    expect((await account.call("searchGames", { modelNumber: "tst-zy050" })).body.items[0]).toMatchObject({
      gameId: 730100,
      edition: true,
      exact: true,
    });
    expect((await importMaster("games", toNdjson([row]))).body.upserted).toBe(0);
  });
});

describe("body size: 8 MiB of bytes per request", () => {
  const LIMIT = 8 * 1024 * 1024;

  it("counts bytes, not characters: 9 MiB of 3-byte characters (3 Mi characters) is a 413", async () => {
    const reply = await importMaster("games", "あ".repeat(3 * 1024 * 1024));
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: "payload_too_large", limitBytes: LIMIT, requestId: expect.any(String) });
  });

  it("stops reading a body sent without Content-Length at the limit", async () => {
    const total = 64 * 1024 * 1024;
    const chunk = 64 * 1024;
    let produced = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (produced >= total) return controller.close();
        produced += chunk;
        controller.enqueue(new Uint8Array(chunk).fill(0x0a));
      },
    });
    const reply = await send("/admin/v1/master/games", {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/x-ndjson" },
      body,
    });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe("payload_too_large");
    expect(produced).toBeLessThan(2 * LIMIT);
  });
});

describe("genreKey: the game's most specific classification, a stored fact", () => {
  const storedGenreKey = (gameId: number) =>
    env.DB.prepare("SELECT genre_key FROM games WHERE id = ?").bind(gameId).first<string | null>("genre_key");
  const foundByGenre = async (genreId: number) => {
    const reply = await (await newAccount()).call("searchGames", { query: "ザンバラ分類", genreId, limit: 20 });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.items.map((game: { gameId: number }) => game.gameId);
  };

  it("keeps a key deeper than the main genre's, and a non-root genre finds the game through it", async () => {
    await importOk("games", toNdjson([gameRow({ gameId: 730601, title: "ザンバラ分類深", genreKey: "zanbara_rpg.action" })]));
    expect(await storedGenreKey(730601)).toBe("zanbara_rpg.action");
    expect(await foundByGenre(G_CHILD)).toContain(730601);
    expect(await foundByGenre(G_ROOT)).toContain(730601);
  });

  it("classifies a row without one by its main genre alone", async () => {
    await importOk("games", toNdjson([gameRow({ gameId: 730602, title: "ザンバラ分類浅" })]));
    expect(await storedGenreKey(730602)).toBe("zanbara_rpg");
    expect(await foundByGenre(G_CHILD)).not.toContain(730602);
    expect(await foundByGenre(G_ROOT)).toContain(730602);
  });

  it("moves the games generation when only a game's genreKey changes", async () => {
    await importOk("games", toNdjson([gameRow({ gameId: 730603, title: "ザンバラ分類替" })]));
    const before = await storedGeneration("games");
    const reply = await importOk("games", toNdjson([gameRow({ gameId: 730603, title: "ザンバラ分類替", genreKey: "zanbara_rpg.action" })]));
    expect(reply.body.upserted).toBe(1);
    expect(await storedGeneration("games")).not.toBe(before);
  });

  it.each([
    ["outside the main genre's key", { genreKey: "zanbara_other.action" }, "does not lie within the main genre's key 'zanbara_rpg'"],
    ["a sibling key sharing the main key's letters", { genreKey: "zanbara_rpgx" }, "does not lie within"],
    ["without a main genre", { genreId: null, genreKey: "zanbara_rpg" }, "needs a main genre"],
  ])("refuses a genreKey %s: 400 naming the line, nothing written", async (_, overrides, message) => {
    const body = toNdjson([gameRow({ gameId: 730611, title: "ザンバラ分類可" }), gameRow({ gameId: 730612, ...overrides })]);
    const reply = await importMaster("games", body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field: "genreKey", line: 2 });
    expect(reply.body.message).toContain(message);
    expect(await storedGenreKey(730611)).toBeNull();
  });
});

describe("validation: 400 naming the line and the field, nothing written", () => {
  let customPlatform = 0;
  let customCompany = 0;

  beforeAll(async () => {
    const owner = await newAccount();
    customPlatform = await insertCustomPlatform(owner.userId, "ザンバラ私物機");
    customCompany = await insertCustomCompany(owner.userId, { name: "ザンバラ私家版" });
  });

  const validFirst: Record<Dataset, Record<string, unknown>> = {
    games: gameRow(),
    platforms: { platformId: 730201, name: "ザンバラ検証機", nameEn: null, shortName: null, maker: null, releaseDate: null, custom: false },
    companies: { companyId: 730201, name: "ザンバラ検証社", nameKana: null, nameEn: null, custom: false },
    genres: { genreId: 730201, name: "ザンバラ検証", parentId: null, taxonomyKey: "zanbara_valid" },
  };
  const table: Record<Dataset, string> = { games: "games", platforms: "platforms", companies: "companies", genres: "genres" };
  const badJan = (() => {
    const jan = ean13("273020200000");
    return `${jan.slice(0, 12)}${(Number(jan[12]) + 1) % 10}`;
  })();

  type Case = [label: string, dataset: Dataset, line2: () => unknown, field: string];
  const cases: Case[] = [
    ["a line that is not JSON", "games", () => '{"gameId": 730202, "title": ', "(row)"],
    ["a JSON array", "games", () => "[1, 2]", "(row)"],
    ["an unknown key", "games", () => gameRow({ gameId: 730202, rating: 5 }), "rating"],
    ["a wrong type", "games", () => gameRow({ gameId: 730202, title: 123 }), "title"],
    ["a string for an array", "games", () => gameRow({ gameId: 730202, titleEn: "Zanbara" }), "titleEn"],
    [
      "a missing key",
      "games",
      () => {
        const row = gameRow({ gameId: 730202 });
        delete row.aliases;
        return row;
      },
      "aliases",
    ],
    ["a calendar-invalid date", "games", () => gameRow({ gameId: 730202, releaseDate: "2024-02-30" }), "releaseDate"],
    ["a date in another format", "games", () => gameRow({ gameId: 730202, releaseDate: "1990/01/01" }), "releaseDate"],
    ["a JAN with a bad check digit", "games", () => gameRow({ gameId: 730202, janCode: badJan }), "janCode"],
    ["a JAN of the wrong length", "games", () => gameRow({ gameId: 730202, janCode: "27302020" + "00000" + "1" }), "janCode"],
    [
      "an edition JAN with a bad check digit",
      "games",
      () => gameRow({ gameId: 730202, editions: [editionRow({ gameEditionId: 730202, janCode: badJan })] }),
      "editions.0.janCode",
    ],
    [
      "an edition with a bad date",
      "games",
      () => gameRow({ gameId: 730202, editions: [editionRow({ gameEditionId: 730202, releaseDate: "2023-13-01" })] }),
      "editions.0.releaseDate",
    ],
    ["custom: true on a game", "games", () => gameRow({ gameId: 730202, custom: true }), "custom"],
    ["a game id in the custom range", "games", () => gameRow({ gameId: 1_000_000_001 }), "gameId"],
    ["a game id of 0", "games", () => gameRow({ gameId: 0 }), "gameId"],
    ["a negative price", "games", () => gameRow({ gameId: 730202, price: -1 }), "price"],
    ["a katakana reading", "games", () => gameRow({ gameId: 730202, titleReading: "ザンバラ" }), "titleReading"],
    ["11 English titles", "games", () => gameRow({ gameId: 730202, titleEn: Array.from({ length: 11 }, (_, i) => `T${i}`) }), "titleEn"],
    ["21 aliases", "games", () => gameRow({ gameId: 730202, aliases: Array.from({ length: 21 }, (_, i) => `A${i}`) }), "aliases"],
    [
      "51 editions",
      "games",
      () => gameRow({ gameId: 730202, editions: Array.from({ length: 51 }, (_, i) => editionRow({ gameEditionId: 730400 + i })) }),
      "editions",
    ],
    ["a lone surrogate in a title", "games", () => gameRow({ gameId: 730202, title: "ザンバラ\ud800" }), "title"],
    [
      "a lone surrogate in an edition's title",
      "games",
      () => gameRow({ gameId: 730202, editions: [editionRow({ gameEditionId: 730202, title: "\udc00ザンバラ限定版" })] }),
      "editions.0.title",
    ],
    ["a lone surrogate in a platform name", "platforms", () => ({ ...validFirst.platforms, platformId: 730202, name: "機\udbff" }), "name"],
    ["a duplicate id in one body", "games", () => gameRow({ title: "ザンバラ重複" }), "gameId"],
    ["a missing platform", "games", () => gameRow({ gameId: 730202, platformId: 739999 }), "platformId"],
    ["a missing publisher", "games", () => gameRow({ gameId: 730202, publisherId: 739999 }), "publisherId"],
    ["a missing genre", "games", () => gameRow({ gameId: 730202, genreId: 739999 }), "genreId"],
    ["a missing support genre", "games", () => gameRow({ gameId: 730202, genreSubId: 739999 }), "genreSubId"],
    ["a genreId that is not a root", "games", () => gameRow({ gameId: 730202, genreId: G_CHILD }), "genreId"],
    ["a custom platform", "games", () => gameRow({ gameId: 730202, platformId: customPlatform }), "platformId"],
    ["a custom publisher", "games", () => gameRow({ gameId: 730202, publisherId: customCompany }), "publisherId"],
    [
      "an edition id of another game",
      "games",
      () => gameRow({ gameId: 730202, editions: [editionRow({ gameEditionId: 730001 })] }),
      "editions.gameEditionId",
    ],
    ["custom: true on a platform", "platforms", () => ({ ...validFirst.platforms, platformId: 730202, custom: true }), "custom"],
    ["an empty platform name", "platforms", () => ({ ...validFirst.platforms, platformId: 730202, name: "" }), "name"],
    [
      "a calendar-invalid platform date",
      "platforms",
      () => ({ ...validFirst.platforms, platformId: 730202, releaseDate: "2024-02-30" }),
      "releaseDate",
    ],
    ["a duplicate platform id", "platforms", () => ({ ...validFirst.platforms, name: "ザンバラ重複機" }), "platformId"],
    ["custom: true on a company", "companies", () => ({ ...validFirst.companies, companyId: 730202, custom: true }), "custom"],
    ["a company with an unknown key", "companies", () => ({ ...validFirst.companies, companyId: 730202, url: "x" }), "url"],
    [
      "a child key that does not extend its parent's",
      "genres",
      () => ({ genreId: 730202, name: "x", parentId: G_ROOT, taxonomyKey: "zanbara_act.side" }),
      "taxonomyKey",
    ],
    [
      "a child key two parts below its parent",
      "genres",
      () => ({ genreId: 730202, name: "x", parentId: G_ROOT, taxonomyKey: "zanbara_rpg.a.b" }),
      "taxonomyKey",
    ],
    ["a root key with a dot", "genres", () => ({ genreId: 730202, name: "x", parentId: null, taxonomyKey: "zanbara_x.y" }), "taxonomyKey"],
    ["a key in upper case", "genres", () => ({ genreId: 730202, name: "x", parentId: null, taxonomyKey: "Zanbara" }), "taxonomyKey"],
    [
      "a key another genre uses",
      "genres",
      () => ({ genreId: 730202, name: "x", parentId: null, taxonomyKey: "zanbara_rpg" }),
      "taxonomyKey",
    ],
    ["a missing parent", "genres", () => ({ genreId: 730202, name: "x", parentId: 739999, taxonomyKey: "zanbara_orphan" }), "parentId"],
    [
      "a genre that is its own parent",
      "genres",
      () => ({ genreId: 730202, name: "x", parentId: 730202, taxonomyKey: "zanbara_self" }),
      "parentId",
    ],
  ];

  it.each(cases)("refuses %s (%s)", async (_label, dataset, line2, field) => {
    const second = line2();
    const body = `${JSON.stringify(validFirst[dataset])}\n${typeof second === "string" ? second : JSON.stringify(second)}\n`;
    const reply = await importMaster(dataset, body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
    expect(reply.body.message).toContain("line 2");
    expect(reply.body.field).toBe(field);
    if (field !== "(row)") expect(reply.body.message).toContain(field);
    expect(await exists(table[dataset], 730201)).toBe(false);
  });

  it("refuses to change a parent's key so that a stored child no longer extends it", async () => {
    await importOk(
      "genres",
      toNdjson([
        { genreId: 730501, name: "ザンバラ仮", parentId: null, taxonomyKey: "zanbara_tmp" },
        { genreId: 730502, name: "ザンバラ仮子", parentId: 730501, taxonomyKey: "zanbara_tmp.sub" },
      ]),
    );
    const reply = await importMaster(
      "genres",
      toNdjson([{ genreId: 730501, name: "ザンバラ仮", parentId: null, taxonomyKey: "zanbara_tmq" }]),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.field).toBe("taxonomyKey");
    const stored = await env.DB.prepare("SELECT taxonomy_key FROM genres WHERE id = 730501").first<string>("taxonomy_key");
    expect(stored).toBe("zanbara_tmp");
  });

  it("refuses to turn a main genre that games use as genreId into a child genre", async () => {
    await importOk(
      "genres",
      toNdjson([
        { genreId: 730511, name: "ザンバラ仮2", parentId: null, taxonomyKey: "zanbara_tmp2" },
        { genreId: 730512, name: "ザンバラ仮親", parentId: null, taxonomyKey: "zanbara_tmpparent" },
      ]),
    );
    await importOk("games", toNdjson([gameRow({ gameId: 730511, title: "ザンバラ仮ゲーム", genreId: 730511 })]));
    const reply = await importMaster(
      "genres",
      toNdjson([{ genreId: 730511, name: "ザンバラ仮2", parentId: 730512, taxonomyKey: "zanbara_tmpparent.tmp2" }]),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.field).toBe("parentId");
    const stored = await env.DB.prepare("SELECT parent_id FROM genres WHERE id = 730511").first<number | null>("parent_id");
    expect(stored).toBeNull();
  });

  it("refuses an edition id used twice in one body", async () => {
    const body = toNdjson([
      gameRow({ editions: [editionRow({ gameEditionId: 730250 })] }),
      gameRow({ gameId: 730202, editions: [editionRow({ gameEditionId: 730250 })] }),
    ]);
    const reply = await importMaster("games", body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("line 2");
    expect(reply.body.field).toBe("editions.gameEditionId");
    expect(await exists("games", 730201)).toBe(false);
  });

  it("counts blank lines and CRLF line ends when naming the line", async () => {
    const body = `${JSON.stringify(gameRow())}\r\n\r\n${JSON.stringify(gameRow({ gameId: 730202, releaseDate: "2024-02-30" }))}\r\n`;
    const reply = await importMaster("games", body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("line 3");
    expect(reply.body.field).toBe("releaseDate");
  });

  it("names line 1 when the first row is bad", async () => {
    const reply = await importMaster("platforms", `${JSON.stringify({ ...validFirst.platforms, custom: true })}\n`);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("line 1");
    expect(reply.body.field).toBe("custom");
  });

  it.each(["users", "consoles", "games.ndjson", "GAMES"])("refuses the unknown dataset %s with 400", async (dataset) => {
    const reply = await importMaster(dataset, platforms);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
  });

  it.each([
    ["an empty body", ""],
    ["only blank lines", "\n\n  \n"],
  ])("refuses %s with 400", async (_label, body) => {
    const reply = await importMaster("games", body);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
  });

  it("refuses a row that is JSON but not an object", async () => {
    for (const line of ["null", "42", '"ザンバラ"']) {
      const reply = await importMaster("companies", `${line}\n`);
      expect(reply.status, line).toBe(400);
      expect(reply.body.message).toContain("line 1");
    }
  });
});
