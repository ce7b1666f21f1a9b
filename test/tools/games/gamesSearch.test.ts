// searchGames over fictional fixture games (ids 700000+, every title carries the marker ゾルバ)
// and, for text cases on real titles, 225 hand-picked real games (fixtures/master/handpicked.*, no identifiers).
import { beforeAll, describe, expect, it } from "vitest";
import handpickedCompanies from "../../fixtures/master/handpicked.companies.ndjson?raw";
import handpickedGames from "../../fixtures/master/handpicked.games.ndjson?raw";
import handpickedGenres from "../../fixtures/master/handpicked.genres.ndjson?raw";
import handpickedPlatforms from "../../fixtures/master/handpicked.platforms.ndjson?raw";
import companies from "../../fixtures/master/search.companies.ndjson?raw";
import games from "../../fixtures/master/search.games.ndjson?raw";
import genres from "../../fixtures/master/search.genres.ndjson?raw";
import platforms from "../../fixtures/master/search.platforms.ndjson?raw";
import { type Account, newAccount, send } from "../../support/harness";
import { ean13, gameIdsOf, importFixture, insertCustomGame } from "../../support/master";

const P1 = 700001;
const P2 = 700002;
const C2 = 700002;
const G_RPG = 700001; // root
const G_ACT = 700002; // root
const G_RPG_ACTION = 700003; // zolba_rpg.action
const G_RPG_ACTION_HACK = 700004; // zolba_rpg.action.hack
const G_ACT_PLATFORM = 700005; // zolba_act.platform

const QUEST3 = 700301;
const QUEST4 = 700302;
const QUEST_GAIDEN = 700303;
const JAN_QUEST3 = ean13("270030100000");
const JAN_QUEST3_LIMITED = ean13("270030100001");

/** The 15 "ゾルバ量産計画" games, release date ascending with the undated one last. */
const MASS_IN_ORDER = [
  700104, 700101, 700102, 700103, 700106, 700107, 700108, 700109, 700110, 700111, 700112, 700113, 700114, 700115, 700105,
];
const MASS_QUERY = "ゾルバ量産";

beforeAll(async () => {
  await importFixture({ platforms: handpickedPlatforms, companies: handpickedCompanies, genres: handpickedGenres, games: handpickedGames });
  await importFixture({ platforms, companies, genres, games });
});

const search = (account: Account, args: Record<string, unknown>, method: "GET" | "POST" = "POST") =>
  account.call("searchGames", args, method);

describe("searchGames: kana, width and numerals", () => {
  it("finds ドラゴンクエストIII = ドラゴンクエスト3 = どらごんくえすと3 = ﾄﾞﾗｺﾞﾝｸｴｽﾄⅢ on the seed titles", async () => {
    const account = await newAccount({ plan: "FREE" });
    const replies = await Promise.all(
      ["ドラゴンクエストIII", "ドラゴンクエスト3", "どらごんくえすと3", "ﾄﾞﾗｺﾞﾝｸｴｽﾄⅢ", "ドラゴンクエスト３"].map((query) =>
        search(account, { query }),
      ),
    );
    for (const reply of replies) expect(reply.status).toBe(200);
    const first = gameIdsOf(replies[0]!);
    expect(first).toEqual(expect.arrayContaining([28, 83]));
    expect(first.slice(0, 2)).toEqual([28, 83]); // both prefix matches, then release date (1988 before 1996)
    for (const reply of replies) expect(gameIdsOf(reply)).toEqual(first);
  });

  it("finds the fictional ゾルバ伝説III by III, Ⅲ, 3, half-width kana and its hiragana reading", async () => {
    const account = await newAccount();
    for (const query of ["ゾルバ伝説III", "ゾルバ伝説Ⅲ", "ゾルバ伝説3", "ｿﾞﾙﾊﾞ伝説３", "ぞるば伝説iii"]) {
      const reply = await search(account, { query });
      expect(reply.status, query).toBe(200);
      expect(reply.body.items[0], query).toMatchObject({ gameId: 700205, matchedBy: "title", exact: true, edition: false });
    }
    const reading = await search(account, { query: "ぞるばでんせつ3" });
    expect(reading.body.items[0]).toMatchObject({ gameId: 700205, matchedBy: "alias", exact: true });
  });

  it("treats Final Fantasy VI as final fantasy 6 and keeps ロックマンX apart from a number", async () => {
    const account = await newAccount();
    for (const query of ["Final Fantasy VI", "final fantasy 6", "FINAL FANTASY Ⅵ"]) {
      const reply = await search(account, { query });
      expect(reply.body.items[0], query).toMatchObject({ gameId: 66, matchedBy: "titleEn", exact: true });
    }
    const x = await search(account, { query: "ロックマンX" });
    expect(x.body.items[0]).toMatchObject({ gameId: 62, matchedBy: "title", exact: true });
    expect((await search(account, { query: "Mega Man X" })).body.items[0]).toMatchObject({ gameId: 62, matchedBy: "titleEn", exact: true });
  });

  it("does not report イースI・II as an exact match for イースIII (numerals across punctuation must not merge)", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: "イースIII" });
    expect(reply.status).toBe(200);
    expect(reply.body.items[0]).toMatchObject({ gameId: 111 });
    const ys12 = (reply.body.items as { gameId: number; exact: boolean }[]).find((item) => item.gameId === 106);
    expect(ys12?.exact ?? false).toBe(false);
  });
});

describe("searchGames: terms, fields and matchedBy", () => {
  it("ANDs space-separated terms, half- or full-width spaces alike, including one-character terms", async () => {
    const account = await newAccount();
    const half = await search(account, { query: "ゾルバ 闇" });
    const full = await search(account, { query: "ゾルバ　闇" });
    expect(gameIdsOf(half)).toEqual([700203]);
    expect(gameIdsOf(full)).toEqual([700203]);
    expect(gameIdsOf(await search(account, { query: "ゾルバ 存在しない語" }))).toEqual([]);
  });

  it("reports an exact whole-query match across terms: ゾルバ 伝説 equals the title ゾルバ伝説", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: "ゾルバ　伝説" });
    expect(reply.body.items[0]).toMatchObject({ gameId: 700201, matchedBy: "title", exact: true });
  });

  it("reports matchedBy title, titleEn and alias (reading or nickname) with exact", async () => {
    const account = await newAccount();
    expect((await search(account, { query: "ゾルバ伝説" })).body.items[0]).toMatchObject({
      gameId: 700201,
      matchedBy: "title",
      exact: true,
    });
    expect((await search(account, { query: "Zolba Legend" })).body.items[0]).toMatchObject({
      gameId: 700201,
      matchedBy: "titleEn",
      exact: true,
    });
    expect((await search(account, { query: "ぞるばでんせつ" })).body.items[0]).toMatchObject({
      gameId: 700201,
      matchedBy: "alias",
      exact: true,
    });
    expect((await search(account, { query: "ゾル伝" })).body.items[0]).toMatchObject({ gameId: 700201, matchedBy: "alias", exact: true });
    const partial = await search(account, { query: "継承者" });
    expect(partial.body.items[0]).toMatchObject({ gameId: QUEST3, matchedBy: "title", exact: false, edition: false });
  });

  it("answers queries of many words: every word must match, none is too many", async () => {
    const account = await newAccount();
    const zelda = await search(account, { query: "The Legend of Zelda A Link to the Past" });
    expect(zelda.status, JSON.stringify(zelda.body)).toBe(200);
    const many = await search(account, { query: "ゾルバ 伝 説 ゾ ル バ ぞ る ば 伝説 ゾルバ伝説 ゾルバ" });
    expect(many.status, JSON.stringify(many.body)).toBe(200);
    expect(gameIdsOf(many)).toContain(700201);
    const words = Array.from({ length: 50 }, (_, i) => String.fromCharCode(0x3042 + i)).join(" ");
    expect((await search(account, { query: words })).status).toBe(200);
  });

  it("reports the weakest field of a multi-term query", async () => {
    const account = await newAccount();
    // ゾル伝2 only matches an alias, ゾルバ a title: the weakest is alias.
    const reply = await search(account, { query: "ゾル伝2 ゾルバ" });
    expect(gameIdsOf(reply)).toEqual([700203]);
    expect(reply.body.items[0]).toMatchObject({ matchedBy: "alias", exact: false });
  });

  it("orders exact title, exact alias, prefix, partial, then release date ascending with undated last", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: "ゾルバ伝説" });
    // 700201 exact title; 700202 exact alias; 700205 (1991), 700203 (1993), 700204 (undated) prefix; 700206 partial (1980).
    expect(gameIdsOf(reply)).toEqual([700201, 700202, 700205, 700203, 700204, 700206]);
    expect(reply.body.items.map((i: { matchedBy: string }) => i.matchedBy)).toEqual(["title", "alias", "title", "title", "title", "title"]);
    expect(reply.body.items.map((i: { exact: boolean }) => i.exact)).toEqual([true, true, false, false, false, false]);
  });

  it("ranks a prefix match before a partial one also for characters outside the BMP (𠮷)", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: "𠮷野ゾルバ" });
    // 700401 starts with the query (1995); 700402 only contains it (1981).
    expect(gameIdsOf(reply)).toEqual([700401, 700402]);
  });

  it("returns Game objects with the default field groups, and dbSlug/dbCoverId always", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: "ゾルバクエストIII" });
    const item = reply.body.items[0];
    expect(item).toMatchObject({
      gameId: QUEST3,
      title: "ゾルバクエストIII 星の継承者",
      titleEn: ["Zolba Quest III: Heir of the Stars"],
      platform: { platformId: P1, name: "ゾルバ機01" },
      publisher: { companyId: 700001, name: "ゾルバソフト" },
      genre: { genreId: G_RPG, name: "ゾルバRPG" },
      genreSub: { genreId: G_RPG_ACTION, name: "ゾルバアクションRPG" },
      releaseDate: "1991-02-10",
      custom: false,
      dbId: 7000301,
      dbSlug: "zolba-quest-iii-test",
      dbCoverId: "zcov301",
      specs: { modelNumber: ["TST-ZQ301"], price: 9800, janCode: JAN_QUEST3 },
    });
    expect(item.editions).toEqual([
      {
        gameEditionId: 700301,
        title: "ゾルバクエストIII 星の継承者 限定版",
        modelNumber: ["TST-ZQ391"],
        releaseDate: "1991-02-10",
        price: 12800,
        janCode: JAN_QUEST3_LIMITED,
      },
      {
        gameEditionId: 700302,
        title: "ゾルバクエストIII 星の継承者 廉価版",
        modelNumber: ["TST-ZQ392"],
        releaseDate: "1993-07-01",
        price: 4800,
        janCode: ean13("270030100002"),
      },
    ]);
    expect(item).not.toHaveProperty("externalLinks");
    // A game without those values still carries the keys, as null.
    const gaiden = (await search(account, { query: "ゾルバクエスト外伝" })).body.items[0];
    expect(gaiden).toMatchObject({
      gameId: QUEST_GAIDEN,
      dbId: null,
      dbSlug: null,
      dbCoverId: null,
      genreSub: null,
      specs: { modelNumber: [], price: null, janCode: null },
      editions: [],
    });
  });

  it("gives core fields only for `fields=` in GET, still with dbSlug and dbCoverId", async () => {
    const account = await newAccount();
    const reply = await send(`/rest/v1/searchGames?query=${encodeURIComponent("ゾルバクエストIII")}&fields=`, {
      headers: { Authorization: `Bearer ${account.apiKey}` },
    });
    expect(reply.status).toBe(200);
    const item = reply.body.items[0];
    expect(item.gameId).toBe(QUEST3);
    for (const group of ["editions", "specs", "genreSub", "externalLinks"]) expect(item).not.toHaveProperty(group);
    expect(item).toMatchObject({ dbSlug: "zolba-quest-iii-test", dbCoverId: "zcov301", matchedBy: "title" });
  });

  it("gives external ids, never URLs, with fields externalLinks", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: "ゾルバクエストIII", fields: ["externalLinks"] });
    const item = reply.body.items[0];
    expect(item.externalLinks).toEqual(
      expect.arrayContaining([
        { source: "db", id: "7000301" },
        { source: "media", id: "zmedia-301" },
        { source: "gps", id: "zgps-301" },
      ]),
    );
    expect(item).not.toHaveProperty("editions");
    expect(JSON.stringify(reply.body)).not.toMatch(/https?:\/\//);
  });

  it("accepts fields as a comma list in GET", async () => {
    const account = await newAccount();
    const reply = await account.call("searchGames", { query: "ゾルバクエストIII", fields: ["specs", "externalLinks"] }, "GET");
    expect(reply.status).toBe(200);
    expect(reply.body.items[0]).toHaveProperty("specs");
    expect(reply.body.items[0]).toHaveProperty("externalLinks");
    expect(reply.body.items[0]).not.toHaveProperty("editions");
  });
});

describe("searchGames: one- and two-character terms", () => {
  // Characters no demo or fixture title holds, so the custom game is the only possible hit.
  const rareGame = (owner: Account) =>
    insertCustomGame(owner.userId, {
      title: "龘靐ゾルバ",
      titleEn: ["Zolba QX"],
      aliases: ["ゾルバ龘", "靐ゾルバ"],
      platformId: P1,
      releaseDate: "1999-01-01",
    });

  it("finds one- and two-character terms in titles, English titles and nicknames, with the right matchedBy", async () => {
    const owner = await newAccount();
    const id = await rareGame(owner);
    expect((await search(owner, { query: "龘" })).body.items).toMatchObject([{ gameId: id, matchedBy: "title", exact: false }]);
    expect((await search(owner, { query: "龘靐" })).body.items).toMatchObject([{ gameId: id, matchedBy: "title", exact: false }]);
    expect((await search(owner, { query: "ＱＸ" })).body.items).toMatchObject([{ gameId: id, matchedBy: "titleEn", exact: false }]);
  });

  it("matches characters in order and within one form, never across two forms", async () => {
    const owner = await newAccount();
    await rareGame(owner);
    expect(gameIdsOf(await search(owner, { query: "靐龘" }))).toEqual([]);
    // The nicknames are stored side by side ("ゾルバ龘", "靐ゾルバ"): 龘靐 spans them, but only the title holds it.
    expect((await search(owner, { query: "龘靐" })).body.items[0].matchedBy).toBe("title");
    expect(gameIdsOf(await search(owner, { query: "ばq" }))).toEqual([]);
  });

  it("keeps short-term matches to the owner of a custom game", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    await rareGame(owner);
    expect(gameIdsOf(await search(other, { query: "龘" }))).toEqual([]);
    expect(gameIdsOf(await search(other, { query: "龘靐" }))).toEqual([]);
  });
});

describe("searchGames: identifiers", () => {
  it("finds by JAN code: the base JAN is not an edition match, an edition's JAN is", async () => {
    const account = await newAccount();
    const base = await search(account, { janCode: JAN_QUEST3 });
    expect(gameIdsOf(base)).toEqual([QUEST3]);
    expect(base.body.items[0]).toMatchObject({ matchedBy: "janCode", exact: true, edition: false });
    const limited = await search(account, { janCode: JAN_QUEST3_LIMITED }, "GET");
    expect(gameIdsOf(limited)).toEqual([QUEST3]);
    expect(limited.body.items[0]).toMatchObject({ matchedBy: "janCode", edition: true });
    expect(gameIdsOf(await search(account, { janCode: ean13("270099999999") }))).toEqual([]);
  });

  it("finds by model number, partially, ignoring hyphens, spaces and case", async () => {
    const account = await newAccount();
    for (const modelNumber of ["TST-ZQ301", "tstzq301", "tst zq301", "ＴＳＴ－ＺＱ３０１"]) {
      const reply = await search(account, { modelNumber });
      expect(gameIdsOf(reply), modelNumber).toEqual([QUEST3]);
      expect(reply.body.items[0]).toMatchObject({ matchedBy: "modelNumber", exact: true, edition: false });
    }
    const partial = await search(account, { modelNumber: "ZQ-30" });
    expect(gameIdsOf(partial)).toEqual([QUEST3, QUEST4]);
    expect(partial.body.items.every((i: { exact: boolean; edition: boolean }) => !i.exact && !i.edition)).toBe(true);
  });

  it("finds one- and two-character model-number fragments, and never by a title", async () => {
    const owner = await newAccount();
    const id = await insertCustomGame(owner.userId, { title: "ゾルバ型番短", platformId: P1, modelNumber: ["ZZ-Q7"] });
    expect((await search(owner, { modelNumber: "q7" })).body.items).toMatchObject([{ gameId: id, matchedBy: "modelNumber", exact: false }]);
    expect(gameIdsOf(await search(owner, { modelNumber: "7q" }))).toEqual([]);
    expect(gameIdsOf(await search(owner, { modelNumber: "Q", query: "ゾルバ型番" }))).toEqual([id]);
    // "短" is in the title only: model-number search must not look at titles.
    expect(gameIdsOf(await search(owner, { modelNumber: "短" }))).toEqual([]);
    expect(gameIdsOf(await search(await newAccount(), { modelNumber: "q7" }))).toEqual([]);
  });

  it("sets edition only when nothing but an edition's model number matched", async () => {
    const account = await newAccount();
    const edition = await search(account, { modelNumber: "zq391" });
    expect(gameIdsOf(edition)).toEqual([QUEST3]);
    expect(edition.body.items[0]).toMatchObject({ matchedBy: "modelNumber", edition: true, exact: false });
    expect((await search(account, { modelNumber: "TST-ZQ392" })).body.items[0]).toMatchObject({ edition: true, exact: true });
    // "zq3" hits the base model number too: not an edition-only match.
    const both = await search(account, { modelNumber: "ZQ3" });
    expect(both.body.items.find((i: { gameId: number }) => i.gameId === QUEST3)).toMatchObject({ edition: false });
  });

  it("finds by externalId {dbId} and {dbSlug} in POST", async () => {
    const account = await newAccount();
    const byId = await search(account, { externalId: { dbId: 7000301 } });
    expect(gameIdsOf(byId)).toEqual([QUEST3]);
    expect(byId.body.items[0]).toMatchObject({ matchedBy: "externalId", exact: true, edition: false });
    const bySlug = await search(account, { externalId: { dbSlug: "zolba-quest-iv-test" } });
    expect(gameIdsOf(bySlug)).toEqual([QUEST4]);
    expect(bySlug.body.items[0].matchedBy).toBe("externalId");
    expect(gameIdsOf(await search(account, { externalId: { dbSlug: "no-such-slug-zolba" } }))).toEqual([]);
  });

  it("requires every identifying term to match (AND), reporting the identifier", async () => {
    const account = await newAccount();
    const both = await search(account, { query: "ゾルバクエスト", externalId: { dbId: 7000302 } });
    expect(gameIdsOf(both)).toEqual([QUEST4]);
    expect(both.body.items[0].matchedBy).toBe("externalId");
    expect(gameIdsOf(await search(account, { query: "ゾルバ伝説", janCode: JAN_QUEST3 }))).toEqual([]);
    const janAndModel = await search(account, { janCode: JAN_QUEST3, modelNumber: "zq391" });
    expect(gameIdsOf(janAndModel)).toEqual([QUEST3]);
  });

  it("ranks identifier matches first", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: "ゾルバクエスト", modelNumber: "TST-ZQ30" });
    expect(gameIdsOf(reply)).toEqual([QUEST3, QUEST4]);
    expect(reply.body.items.every((i: { matchedBy: string }) => i.matchedBy === "modelNumber")).toBe(true);
  });
});

describe("searchGames: filters", () => {
  it.each([
    ["platformIds one", { platformIds: [P2] }, [700104, 700105]],
    ["platformIds two", { platformIds: [P1, P2] }, [700104, 700101, 700102, 700103, 700105]],
    ["publisherId", { publisherId: C2 }, [700104, 700103]],
    ["root genre: main or support", { genreId: G_ACT }, [700104, 700102, 700105]],
    ["non-root genre through its taxonomy key", { genreId: G_RPG_ACTION }, [700104, 700103]],
    ["leaf genre", { genreId: G_RPG_ACTION_HACK }, [700104]],
    ["other non-root genre", { genreId: G_ACT_PLATFORM }, [700105]],
    ["unknown genre", { genreId: 709999 }, []],
    ["inclusive date range", { releaseDateFrom: "1990-01-01", releaseDateTo: "1990-06-15" }, [700101, 700102]],
    ["upper bound only, excluding undated", { releaseDateTo: "1989-12-31" }, [700104]],
    ["lower bound only, excluding undated", { releaseDateFrom: "1991-01-10" }, [700115]],
  ])("filters by %s", async (_label, filter, expected) => {
    const account = await newAccount();
    const reply = await search(account, { query: MASS_QUERY, limit: 20, ...filter });
    expect(reply.status).toBe(200);
    expect(gameIdsOf(reply)).toEqual(expected);
    expect(reply.body.totalCount).toBe(expected.length);
  });

  it("matches a root genre as main or support genre", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: MASS_QUERY, limit: 20, genreId: G_RPG });
    expect(gameIdsOf(reply)).toHaveLength(13);
    expect(gameIdsOf(reply)).toContain(700102); // support genre only
    expect(gameIdsOf(reply)).not.toContain(700104);
  });

  it("reads filters from a GET query string", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: MASS_QUERY, platformIds: [P1, P2], releaseDateFrom: "1990-01-01" }, "GET");
    expect(reply.status).toBe(200);
    expect(gameIdsOf(reply)).toEqual([700101, 700102, 700103]);
  });
});

describe("searchGames: limit, totals and narrowing hints", () => {
  it("returns 10 by default, ordered by release date with undated last, with platformCounts and hint when there is more", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: MASS_QUERY });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      page: 1,
      returnedCount: 10,
      totalCount: 15,
      hasMore: true,
      effectiveLimit: 10,
      limitReduced: false,
    });
    expect(gameIdsOf(reply)).toEqual(MASS_IN_ORDER.slice(0, 10));
    const counts = reply.body.platformCounts as { platformId: number; name: string; count: number }[];
    expect(counts).toHaveLength(10); // 12 platforms match; at most 10 are listed
    expect(counts[0]).toEqual({ platformId: P1, name: "ゾルバ機01", count: 3 });
    expect(counts[1]).toEqual({ platformId: P2, name: "ゾルバ機02", count: 2 });
    for (let i = 1; i < counts.length; i++) expect(counts[i]!.count).toBeLessThanOrEqual(counts[i - 1]!.count);
    expect(typeof reply.body.hint).toBe("string");
    expect(reply.body.hint.length).toBeGreaterThan(0);
  });

  it("omits platformCounts and hint when everything fits", async () => {
    const account = await newAccount();
    const reply = await search(account, { query: MASS_QUERY, limit: 20 });
    expect(reply.body).toMatchObject({ returnedCount: 15, totalCount: 15, hasMore: false, effectiveLimit: 20, limitReduced: false });
    expect(gameIdsOf(reply)).toEqual(MASS_IN_ORDER);
    expect(reply.body).not.toHaveProperty("platformCounts");
    expect(reply.body).not.toHaveProperty("hint");
  });

  it("caps limit at 20 and reports the reduction", async () => {
    const account = await newAccount();
    for (const limit of [21, 100, 5000]) {
      const reply = await search(account, { query: MASS_QUERY, limit });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ effectiveLimit: 20, limitReduced: true });
      expect(typeof reply.body.limitReason).toBe("string");
    }
    const small = await search(account, { query: MASS_QUERY, limit: 3 });
    expect(small.body).toMatchObject({ returnedCount: 3, effectiveLimit: 3, limitReduced: false, hasMore: true });
  });

  it.each([0, -1, 2.5, "x"])("refuses limit %j with 400 naming limit", async (limit) => {
    const account = await newAccount();
    for (const method of ["POST", "GET"] as const) {
      const reply = await search(account, { query: MASS_QUERY, limit }, method);
      expect(reply.status, method).toBe(400);
      expect(reply.body).toMatchObject({ code: "invalid_input", field: "limit" });
    }
  });

  it("carries generation, and coverage only when nothing was found or when asked", async () => {
    const account = await newAccount();
    const found = await search(account, { query: "ゾルバ伝説" });
    expect(found.body.totalCount).toBeGreaterThan(0);
    expect(found.body).not.toHaveProperty("coverage");
    const nothing = await search(account, { query: "存在しないゲームの題名" });
    expect(nothing.body).toMatchObject({ totalCount: 0, coverage: { totalGames: expect.any(Number), note: expect.any(String) } });
    const asked = await search(account, { query: "ゾルバ伝説", includeCoverage: false }, "GET");
    expect(asked.body).not.toHaveProperty("coverage");
    const reply = await search(account, { query: "ゾルバ伝説", includeCoverage: true });
    expect(typeof reply.body.generation).toBe("string");
    expect(reply.body.generation.length).toBeGreaterThan(0);
    expect(reply.body.generation).not.toBe("empty");
    expect(Number.isInteger(reply.body.coverage.totalGames)).toBe(true);
    expect(reply.body.coverage.totalGames).toBeGreaterThanOrEqual(225 + 26);
    expect(reply.body.coverage.platforms).toEqual(expect.arrayContaining(["ゾルバ機01", "ファミリーコンピュータ"]));
    // The licences of the master data ask for credit: the note names its source (MASTER_DATA_CREDIT).
    expect(reply.body.coverage.note).toContain("Source: GameDataBase by PigSaint (CC BY 4.0");
  });
});

describe("searchGames: invalid input", () => {
  it.each([
    ["no arguments", {}],
    ["only filters", { platformIds: [P1], releaseDateFrom: "1990-01-01" }],
    ["a query of only punctuation", { query: "!!! ・・・ ー" }],
    ["a query of only spaces", { query: "　 " }],
    ["a model number of only punctuation", { modelNumber: "- -" }],
    ["a model number of only punctuation, with filters", { modelNumber: "---", platformIds: [P1] }],
  ])("refuses %s with 400 invalid_input", async (_label, args) => {
    const account = await newAccount();
    const reply = await search(account, args);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
    expect(typeof reply.body.message).toBe("string");
  });

  it("refuses externalId in a GET query string, naming it", async () => {
    const account = await newAccount();
    const reply = await send(`/rest/v1/searchGames?externalId=7000301`, { headers: { Authorization: `Bearer ${account.apiKey}` } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field: "externalId" });
    const dotted = await send(`/rest/v1/searchGames?externalId.dbId=7000301`, { headers: { Authorization: `Bearer ${account.apiKey}` } });
    expect(dotted.status).toBe(400);
  });

  it.each([
    ["both dbId and dbSlug", { dbId: 7000301, dbSlug: "zolba-quest-iii-test" }],
    ["neither", {}],
    ["an unknown key", { dbId: 7000301, igdb: 1 }],
    ["a non-integer dbId", { dbId: "7000301" }],
    ["dbId 0", { dbId: 0 }],
  ])("refuses externalId with %s", async (_label, externalId) => {
    const account = await newAccount();
    const reply = await search(account, { externalId });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
    expect(reply.body.field).toMatch(/^externalId/);
  });

  it.each([
    ["janCode", { janCode: "12345" }],
    ["janCode", { janCode: "abcdefghijklm" }],
    ["releaseDateFrom", { query: MASS_QUERY, releaseDateFrom: "2024-02-30" }],
    ["releaseDateTo", { query: MASS_QUERY, releaseDateTo: "1990/01/01" }],
    ["releaseDateTo", { query: MASS_QUERY, releaseDateFrom: "1991-01-01", releaseDateTo: "1990-01-01" }],
    ["platformIds", { query: MASS_QUERY, platformIds: Array.from({ length: 11 }, (_, i) => P1 + i) }],
    ["genreId", { query: MASS_QUERY, genreId: 0 }],
    ["fields[0]", { query: MASS_QUERY, fields: ["userLinks"] }],
    ["query", { query: "ゾ".repeat(101) }],
    ["unknownArg", { query: MASS_QUERY, unknownArg: 1 }],
  ])("refuses a bad %s", async (field, args) => {
    const account = await newAccount();
    const reply = await search(account, args);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("treats full-text operators and SQL fragments in a query as plain text", async () => {
    const account = await newAccount();
    for (const query of ['"ゾルバ" OR *', "ゾルバ' OR 1=1 --", "ゾルバ NEAR(伝説)", "ゾルバ伝説*", "ゾルバ%"]) {
      const reply = await search(account, { query });
      expect(reply.status, query).toBe(200);
      expect(Array.isArray(reply.body.items)).toBe(true);
    }
    // "ゾルバ伝説*" is the plain term ぞるば伝説: the same games as without the star.
    const star = await search(account, { query: "ゾルバ伝説*" });
    expect(gameIdsOf(star)).toEqual(gameIdsOf(await search(account, { query: "ゾルバ伝説" })));
  });
});

describe("searchGames: access", () => {
  it("refuses a key without games:read with 403 insufficient_scope", async () => {
    const account = await newAccount({ scopes: ["library:read", "play:read"] });
    const reply = await search(account, { query: "ゾルバ伝説" });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["games:read"] });
  });

  it("refuses a call without a key with 401", async () => {
    const reply = await send(`/rest/v1/searchGames?query=${encodeURIComponent("ゾルバ伝説")}`);
    expect(reply.status).toBe(401);
  });

  it.each(["FREE", "LIGHT", "PREMIUM"] as const)("serves the %s plan", async (plan) => {
    const account = await newAccount({ plan });
    expect((await search(account, { query: "ゾルバ伝説" })).status).toBe(200);
  });

  it("shows a custom game to its owner only, with custom: true and dbSlug null", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const id = await insertCustomGame(owner.userId, {
      title: "ゾルバ秘密基地",
      titleReading: "ぞるばひみつきち",
      platformId: P1,
      releaseDate: "1999-09-09",
      modelNumber: ["TST-ZC001"],
      dbId: 7000999,
      dbSlug: "zolba-secret-base-custom",
      dbCoverId: "zcov999",
    });
    const mine = await search(owner, { query: "ゾルバ秘密基地" });
    expect(gameIdsOf(mine)).toEqual([id]);
    expect(mine.body.items[0]).toMatchObject({ custom: true, dbSlug: null, matchedBy: "title", exact: true });
    expect(mine.body.items[0]).toHaveProperty("dbCoverId");
    expect(gameIdsOf(await search(owner, { modelNumber: "TST-ZC001" }))).toEqual([id]);

    expect(gameIdsOf(await search(other, { query: "ゾルバ秘密基地" }))).toEqual([]);
    expect(gameIdsOf(await search(other, { query: "ぞるばひみつきち" }))).toEqual([]);
    expect(gameIdsOf(await search(other, { modelNumber: "TST-ZC001" }))).toEqual([]);
    expect(gameIdsOf(await search(other, { externalId: { dbId: 7000999 } }))).toEqual([]);
    expect(gameIdsOf(await search(other, { externalId: { dbSlug: "zolba-secret-base-custom" } }))).toEqual([]);
    const counts = await search(other, { query: "ゾルバ", limit: 1 });
    expect(JSON.stringify(counts.body)).not.toContain("ゾルバ秘密基地");
  });
});
