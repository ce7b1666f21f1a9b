// getLibrary over a tiny fictional master (ids 750000+, marker word ルミナ in every title).
// Each test seeds its own account with the seven entries of SEED, whose values are chosen so
// that inclusive bounds, undated games, null values (sorted last) and ties (by gameId) show.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../../src/platform/plans";
import { type Account, authHeader, callWith, newAccount, oncePer, player, type Reply, send } from "../../support/harness";
import { gameIdsOf, insertCustomGame } from "../../support/master";
import { importLibraryMaster, KASUMI_GAME } from "../../support/masterSets";
import { ok } from "../../support/replies";

const PA = 750001;
const PB = 750002;
const PC = 750003;
const G_RPG = 750001; // root
const G_DUNGEON = 750002; // lumina_rpg.dungeon
const G_DEEP = 750003; // lumina_rpg.dungeon.deep
const G_ACT = 750004; // root

// gameId: title (reading) | platform | genre / sub | release
const KASUMI = 750001; // ルミナ 霞の迷宮 (るみなかすみのめいきゅう) | PA | RPG / DUNGEON | 1991-01-10; edition "ルミナ 星屑パック"
const IZUMI = 750002; // ルミナ 泉の章 (るみないずみのしょう) | PA | ACT / - | 1991-01-11
const UMI = 750003; // ルミナ 海鳴り (るみなうみなり) | PB | ACT / RPG (a root as support) | undated
const ASAHI = 750004; // ルミナ 朝日の塔 (るみなあさひのとう) | PB | RPG / - | 1991-01-12; no publisher
const OBORO = 750005; // ルミナ 朧月夜 (るみなおぼろづきよ) | PC | ACT / DEEP | 1991-01-10
const EN = 750006; // ルミナ 縁結び (るみなえんむすび) | PC | - / - | undated; no external ids
const KIRAMEKI = 750007; // ルミナ KIRAMEKI DX (るみなきらめき) | PA | ACT / - | 1992-02-29
const YOBI = 750008; // ルミナ 予備の巻, never in the seeded library
// Genre look-alikes, never in the seeded library: "lumina9rpg.dungeon.deep" differs from
// "lumina_rpg.dungeon.deep" only where a LIKE pattern would see a wildcard; "lumina_rpg.dungeonx"
// shares the dungeon key as a plain prefix.
const G9_ROOT = 750005; // lumina9rpg
const G9_DUNGEON = 750006; // lumina9rpg.dungeon
const G_DUNGEONX = 750008; // lumina_rpg.dungeonx
const ITSUWARI = 750009; // ルミナ 偽りの迷宮 | PB | lumina9rpg / lumina9rpg.dungeon.deep
const GAIDEN = 750010; // ルミナ 迷宮外伝 | PB | RPG / lumina_rpg.dungeonx

const OWN = "ルミナ帯あり"; // the seeded account's own attribute label

/** Added in this order (so default sort, updatedAt desc, is the reverse). */
const SEED = [
  { gameId: UMI },
  { gameId: KASUMI, rating: 3, buyDate: "2020-05-01", buyPrice: 3000, buyPlace: "Akihabara Shop", attributes: ["box", "manual"] },
  { gameId: KIRAMEKI, rating: 4, buyPrice: 8000, buyPlace: "古本市" },
  { gameId: IZUMI, rating: 5, buyDate: "2020-05-01", buyPrice: 1500, buyPlace: "ルミナ書店", attributes: ["box"] },
  { gameId: EN, buyDate: "2020-01-01", buyPrice: 500, buyPlace: "Shopping Mall ルミナ" },
  { gameId: ASAHI, rating: 3, buyDate: "2019-12-31", buyPrice: 0, buyPlace: "akihabara SHOP 2号店", attributes: ["manual", OWN] },
  { gameId: OBORO, rating: 1, buyDate: "2021-01-01", buyPrice: 3000, buyPlace: "通販", attributes: ["box", "manual", OWN] },
];
const SEEDED = SEED.map((entry) => entry.gameId);

beforeAll(importLibraryMaster);

interface Seeded {
  account: Account;
  ownAttributeId: string;
}

/** A fresh account with the SEED library; `keys` of its own, called in turn (burst limits are per key). */
async function seed(options: { plan?: Plan; keys?: number } = {}): Promise<Seeded> {
  const shared = await player({ plan: options.plan ?? "PREMIUM" }, (options.keys ?? 1) - 1);
  const account: Account = { ...shared.account, call: shared.call };
  const attribute = await account.call("addAttribute", { label: OWN });
  expect(attribute.status, JSON.stringify(attribute.body)).toBe(200);
  for (const entry of SEED) {
    const reply = await account.call("addToLibrary", entry);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
  return { account, ownAttributeId: ok(attribute).item.id };
}

/** The seeded PREMIUM library that the tests which only read share, with five keys for their many calls. */
const seededForReading = oncePer((plan: "PREMIUM") => seed({ plan, keys: 5 }));

const lib = (account: Account, args: Record<string, unknown> = {}, method: "GET" | "POST" = "POST") =>
  account.call("getLibrary", args, method);

/** Sorted ids of every entry matching a filter, asked with both methods (they must agree). */
async function matching(account: Account, filter: Record<string, unknown>): Promise<number[]> {
  const results: number[][] = [];
  for (const method of ["POST", "GET"] as const) {
    const reply = await lib(account, { ...filter, fields: [], limit: 200 }, method);
    expect(reply.status, `${method} ${JSON.stringify(filter)}: ${JSON.stringify(reply.body)}`).toBe(200);
    expect(reply.body.totalCount, `${method} ${JSON.stringify(filter)}`).toBe(reply.body.items.length);
    results.push(gameIdsOf(reply).sort((a, b) => a - b));
  }
  expect(results[1], `GET and POST disagree for ${JSON.stringify(filter)}`).toEqual(results[0]);
  return results[0]!;
}

async function expectFilters(account: Account, cases: [Record<string, unknown>, number[]][]) {
  for (const [filter, expected] of cases) {
    expect(await matching(account, filter), JSON.stringify(filter)).toEqual([...expected].sort((a, b) => a - b));
  }
}

function expectInvalid(reply: Reply, field: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.code).toBe("invalid_input");
  expect(String(reply.body.field)).toMatch(new RegExp(`^${field.replace(/[[\]]/g, "\\$&")}(\\[\\d+\\])?$`));
}

const keysOf = (value: object) => Object.keys(value).sort();
const CORE = ["gameId", "rating", "revision"];

describe("getLibrary: filters", () => {
  it("platformIds: any of the given platforms (OR)", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ platformIds: [PA] }, [KASUMI, IZUMI, KIRAMEKI]],
      [{ platformIds: [PB, PC] }, [UMI, ASAHI, OBORO, EN]],
      [{ platformIds: [PA, PB, PC] }, SEEDED],
      [{ platformIds: [759999] }, []],
    ]);
  });

  it("genreId: a root matches main or support genre; a child matches through its taxonomy key", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ genreId: G_RPG }, [KASUMI, UMI, ASAHI]],
      [{ genreId: G_ACT }, [IZUMI, UMI, OBORO, KIRAMEKI]],
      [{ genreId: G_DUNGEON }, [KASUMI, OBORO]],
      [{ genreId: G_DEEP }, [OBORO]],
      [{ genreId: 759999 }, []],
    ]);
  });

  it("genreId: a child's taxonomy key matches itself and what lies beneath it, literally", async () => {
    const account = await newAccount();
    for (const gameId of [KASUMI, OBORO, IZUMI, ITSUWARI, GAIDEN])
      expect((await account.call("addToLibrary", { gameId })).status).toBe(200);
    await expectFilters(account, [
      [{ genreId: G_DUNGEON }, [KASUMI, OBORO]],
      [{ genreId: G_DEEP }, [OBORO]],
      [{ genreId: G_DUNGEONX }, [GAIDEN]],
      [{ genreId: G_RPG }, [KASUMI, GAIDEN]],
      [{ genreId: G9_ROOT }, [ITSUWARI]],
      [{ genreId: G9_DUNGEON }, [ITSUWARI]],
    ]);
  });

  // docs/conventions.md's decision (List filters): places compare blind to case in any script and to width.
  it("buyPlace: case- and width-insensitive beyond ASCII (full-width latin, accented letters)", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: KASUMI, buyPlace: "ＬＵＭＩＮＡ ＳＨＯＰ" });
    await account.call("addToLibrary", { gameId: IZUMI, buyPlace: "CAFÉ LUMINA" });
    await expectFilters(account, [
      [{ buyPlace: "ＳＨＯＰ" }, [KASUMI]],
      [{ buyPlace: "ｓｈｏｐ" }, [KASUMI]],
      [{ buyPlace: "shop" }, [KASUMI]],
      [{ buyPlace: "CAFÉ" }, [IZUMI]],
      [{ buyPlace: "café" }, [IZUMI]],
      [{ buyPlace: "ｃａｆé" }, [IZUMI]],
    ]);
  });

  it("title: title, hiragana reading or an edition's title, normalised like search", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ title: "泉" }, [IZUMI]],
      [{ title: "かすみのめいきゅう" }, [KASUMI]],
      [{ title: "カスミ" }, [KASUMI]],
      [{ title: "イズミ" }, [IZUMI]],
      [{ title: "星屑" }, [KASUMI]],
      [{ title: "kirameki" }, [KIRAMEKI]],
      [{ title: "ＫＩＲＡＭＥＫＩ" }, [KIRAMEKI]],
      [{ title: "Kirameki DX" }, [KIRAMEKI]],
      [{ title: "ルミナ 泉" }, [IZUMI]],
      [{ title: "ﾙﾐﾅ" }, SEEDED],
      [{ title: "予備の巻" }, []],
      [{ title: "ルミナ該当なし" }, []],
      [{ title: "あ".repeat(30) }, []],
    ]);
  });

  it("releaseDateFrom/To: inclusive, undated games excluded", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ releaseDateFrom: "1991-01-11", releaseDateTo: "1991-01-12" }, [IZUMI, ASAHI]],
      [{ releaseDateTo: "1991-01-10" }, [KASUMI, OBORO]],
      [{ releaseDateFrom: "1991-01-12" }, [ASAHI, KIRAMEKI]],
      [{ releaseDateFrom: "1992-02-29", releaseDateTo: "1992-02-29" }, [KIRAMEKI]],
      [{ releaseDateFrom: "1900-01-01" }, [KASUMI, IZUMI, ASAHI, OBORO, KIRAMEKI]],
      [{ releaseDateFrom: "1992-03-01" }, []],
    ]);
  });

  it("attributes: ids or exact labels, all must be carried (AND)", async () => {
    const { account, ownAttributeId } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ attributes: ["box"] }, [KASUMI, IZUMI, OBORO]],
      [{ attributes: ["箱あり"] }, [KASUMI, IZUMI, OBORO]],
      [{ attributes: ["box", "manual"] }, [KASUMI, OBORO]],
      [{ attributes: ["箱あり", "説明書あり"] }, [KASUMI, OBORO]],
      [{ attributes: [OWN] }, [ASAHI, OBORO]],
      [{ attributes: [ownAttributeId, "box"] }, [OBORO]],
      [{ attributes: ["box", "manual", OWN, "sealed"] }, []],
      [{ attributes: ["box", "manual", OWN, "説明書あり", "箱あり"] }, [OBORO]],
    ]);
  });

  it("buyPlace: substring, case-insensitive", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ buyPlace: "shop" }, [KASUMI, ASAHI, EN]],
      [{ buyPlace: "SHOP" }, [KASUMI, ASAHI, EN]],
      [{ buyPlace: "akihabara shop" }, [KASUMI, ASAHI]],
      [{ buyPlace: "ルミナ" }, [IZUMI, EN]],
      [{ buyPlace: "2号店" }, [ASAHI]],
      [{ buyPlace: "x".repeat(30) }, []],
      // LIKE wildcards are plain characters here.
      [{ buyPlace: "%" }, []],
      [{ buyPlace: "_" }, []],
      [{ buyPlace: "Shop%" }, []],
    ]);
  });

  it("ratingFrom/To: inclusive, unrated entries excluded", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ ratingFrom: 3 }, [KASUMI, KIRAMEKI, IZUMI, ASAHI]],
      [{ ratingTo: 3 }, [KASUMI, ASAHI, OBORO]],
      [{ ratingFrom: 3, ratingTo: 3 }, [KASUMI, ASAHI]],
      [{ ratingFrom: 4, ratingTo: 5 }, [KIRAMEKI, IZUMI]],
      [{ ratingFrom: 1 }, [KASUMI, KIRAMEKI, IZUMI, ASAHI, OBORO]],
      [{ ratingTo: 5 }, [KASUMI, KIRAMEKI, IZUMI, ASAHI, OBORO]],
      [{ ratingFrom: 2, ratingTo: 2 }, []],
    ]);
  });

  it("buyDateFrom/To: inclusive, entries without a buyDate excluded", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ buyDateFrom: "2020-01-01", buyDateTo: "2020-05-01" }, [EN, KASUMI, IZUMI]],
      [{ buyDateFrom: "2020-01-02" }, [KASUMI, IZUMI, OBORO]],
      [{ buyDateTo: "2019-12-31" }, [ASAHI]],
      [{ buyDateFrom: "2020-05-01", buyDateTo: "2020-05-01" }, [KASUMI, IZUMI]],
      [{ buyDateFrom: "1970-01-01" }, [KASUMI, IZUMI, EN, ASAHI, OBORO]],
      [{ buyDateFrom: "2021-01-02" }, []],
    ]);
  });

  it("buyPriceFrom/To: inclusive (0 is a price), entries without a price excluded", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ buyPriceFrom: 500, buyPriceTo: 3000 }, [EN, IZUMI, KASUMI, OBORO]],
      [{ buyPriceFrom: 0 }, [KASUMI, KIRAMEKI, IZUMI, EN, ASAHI, OBORO]],
      [{ buyPriceTo: 0 }, [ASAHI]],
      [{ buyPriceFrom: 0, buyPriceTo: 0 }, [ASAHI]],
      [{ buyPriceFrom: 501, buyPriceTo: 2999 }, [IZUMI]],
      [{ buyPriceFrom: 8000 }, [KIRAMEKI]],
      [{ buyPriceFrom: 8001 }, []],
    ]);
  });

  it("combines filters with AND", async () => {
    const { account } = await seededForReading("PREMIUM");
    await expectFilters(account, [
      [{ platformIds: [PA], ratingFrom: 4 }, [KIRAMEKI, IZUMI]],
      [{ title: "ルミナ", buyPlace: "shop", attributes: ["manual"] }, [KASUMI, ASAHI]],
      [{ genreId: G_RPG, releaseDateFrom: "1991-01-01" }, [KASUMI, ASAHI]],
      [{ platformIds: [PC], buyDateFrom: "2020-01-01", buyPriceTo: 500 }, [EN]],
    ]);
  });

  it("coerces GET query strings: comma-separated arrays (also %2C), numbers, fields=", async () => {
    const { account } = await seededForReading("PREMIUM");
    const raw = (query: string) => send(`/rest/v1/getLibrary?${query}`, { headers: authHeader(account.apiKey) });
    const plain = await raw(`platformIds=${PB},${PC}&ratingFrom=1&fields=&limit=200`);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(gameIdsOf(plain).sort()).toEqual([ASAHI, OBORO]);
    expect(keysOf(plain.body.items[0])).toEqual(CORE);
    const encoded = await raw(`platformIds=${PB}%2C${PC}&attributes=box%2Cmanual&sortBy=rating&sortOrder=asc`);
    expect(gameIdsOf(encoded)).toEqual([OBORO]);
    const labels = await raw(`attributes=${encodeURIComponent("箱あり,説明書あり")}&fields=purchase,memo&sortBy=buyPrice&sortOrder=desc`);
    expect(gameIdsOf(labels)).toEqual([KASUMI, OBORO]);
    expect(keysOf(labels.body.items[0])).toEqual([...CORE, "buyDate", "buyPlace", "buyPrice", "memo"].sort());
    expectInvalid(await raw("ratingFrom=abc"), "ratingFrom");
    expectInvalid(await raw("platformIds=1,x"), "platformIds");
  });
});

describe("getLibrary: sorting and paging", () => {
  it.each([
    ["title", "asc", [ASAHI, IZUMI, UMI, EN, OBORO, KASUMI, KIRAMEKI]],
    ["title", "desc", [KIRAMEKI, KASUMI, OBORO, EN, UMI, IZUMI, ASAHI]],
    ["releaseDate", "asc", [KASUMI, OBORO, IZUMI, ASAHI, KIRAMEKI, UMI, EN]],
    ["releaseDate", "desc", [KIRAMEKI, ASAHI, IZUMI, KASUMI, OBORO, UMI, EN]],
    ["rating", "asc", [OBORO, KASUMI, ASAHI, KIRAMEKI, IZUMI, UMI, EN]],
    ["rating", "desc", [IZUMI, KIRAMEKI, KASUMI, ASAHI, OBORO, UMI, EN]],
    ["buyDate", "asc", [ASAHI, EN, KASUMI, IZUMI, OBORO, UMI, KIRAMEKI]],
    ["buyDate", "desc", [OBORO, KASUMI, IZUMI, EN, ASAHI, UMI, KIRAMEKI]],
    ["buyPrice", "asc", [ASAHI, EN, IZUMI, KASUMI, OBORO, KIRAMEKI, UMI]],
    ["buyPrice", "desc", [KIRAMEKI, KASUMI, OBORO, IZUMI, EN, ASAHI, UMI]],
    ["updatedAt", "asc", [...SEEDED]],
    ["updatedAt", "desc", [...SEEDED].reverse()],
    ["createdAt", "asc", [...SEEDED]],
    ["createdAt", "desc", [...SEEDED].reverse()],
  ] as const)("sortBy %s %s: nulls last, ties by gameId, pages add up to the whole list", async (sortBy, sortOrder, expected) => {
    const { account } = await seededForReading("PREMIUM");
    const whole = await lib(account, { sortBy, sortOrder, fields: [], limit: 200 });
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(gameIdsOf(whole)).toEqual(expected);
    expect(
      (await lib(account, { sortBy, sortOrder, fields: [], limit: 200 }, "GET")).body.items.map((i: { gameId: number }) => i.gameId),
    ).toEqual(expected);

    const pages: Reply[] = [];
    for (const page of [1, 2, 3]) pages.push(await lib(account, { sortBy, sortOrder, fields: ["game"], limit: 3, page }));
    expect(pages.map((p) => p.body.hasMore)).toEqual([true, true, false]);
    expect(pages.map((p) => p.body.returnedCount)).toEqual([3, 3, 1]);
    expect(pages.every((p) => p.body.totalCount === 7 && p.body.effectiveLimit === 3)).toBe(true);
    expect(pages.flatMap(gameIdsOf)).toEqual(expected);
  });

  it("defaults to updatedAt descending, and an update moves an entry to the top", async () => {
    const { account } = await seed();
    const first = await lib(account, { fields: ["timestamps"], limit: 200 });
    expect(gameIdsOf(first)).toEqual([...SEEDED].reverse());
    const stamps = ok(first).items.map((i) => Date.parse(i.updatedAt!));
    expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);

    expect((await account.call("updateLibraryEntry", { gameId: KASUMI, memo: "更新" })).status).toBe(200);
    expect(gameIdsOf(await lib(account, { fields: [] }))).toEqual([KASUMI, ...[...SEEDED].reverse().filter((id) => id !== KASUMI)]);
    expect(gameIdsOf(await lib(account, { fields: [], sortOrder: "asc" })).at(-1)).toBe(KASUMI);
  });

  it("sorts by createdAt (recently added first without sortOrder), which an update does not move", async () => {
    const { account } = await seed();
    expect((await account.call("updateLibraryEntry", { gameId: UMI, memo: "更新" })).status).toBe(200);
    const added = await lib(account, { sortBy: "createdAt", fields: ["timestamps"], limit: 200 });
    expect(gameIdsOf(added)).toEqual([...SEEDED].reverse());
    const stamps = ok(added).items.map((i) => Date.parse(i.createdAt!));
    expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);
    expect(gameIdsOf(await lib(account, { fields: [] }))[0]).toBe(UMI);
  });

  it("sorts entries added at the same instant by gameId, in either order and across pages", async () => {
    const { account } = await seed();
    await env.DB.prepare("UPDATE library_entries SET created_at = '2026-01-01T00:00:00.000Z' WHERE user_id = ?").bind(account.userId).run();
    const byId = [...SEEDED].sort((a, b) => a - b);
    for (const sortOrder of ["asc", "desc"] as const) {
      const pages: Reply[] = [];
      for (const page of [1, 2, 3]) pages.push(await lib(account, { sortBy: "createdAt", sortOrder, fields: [], limit: 3, page }));
      expect(pages.flatMap(gameIdsOf)).toEqual(byId);
      expect(pages.map((p) => p.body.hasMore)).toEqual([true, true, false]);
    }
  });

  it.each([
    ["title", [ASAHI, IZUMI, UMI, EN, OBORO, KASUMI, KIRAMEKI]],
    ["rating", [IZUMI, KIRAMEKI, KASUMI, ASAHI, OBORO, UMI, EN]],
    ["buyDate", [OBORO, KASUMI, IZUMI, EN, ASAHI, UMI, KIRAMEKI]],
    ["createdAt", [...SEEDED].reverse()],
  ] as const)(
    "without sortOrder, %s takes its own default order (title A to Z, the others highest or newest first)",
    async (sortBy, expected) => {
      const { account } = await seededForReading("PREMIUM");
      expect(gameIdsOf(await lib(account, { sortBy, fields: [], limit: 200 }))).toEqual(expected);
      const pages: Reply[] = [];
      for (const page of [1, 2, 3]) pages.push(await lib(account, { sortBy, fields: [], limit: 3, page }, "GET"));
      expect(pages.flatMap(gameIdsOf)).toEqual(expected);
    },
  );

  it("sorts a filtered list and pages it without duplicates", async () => {
    const { account } = await seededForReading("PREMIUM");
    const filter = { ratingFrom: 1, sortBy: "rating", sortOrder: "desc", fields: [] };
    const p1 = await lib(account, { ...filter, limit: 2, page: 1 });
    const p2 = await lib(account, { ...filter, limit: 2, page: 2 });
    const p3 = await lib(account, { ...filter, limit: 2, page: 3 });
    expect([...gameIdsOf(p1), ...gameIdsOf(p2), ...gameIdsOf(p3)]).toEqual([IZUMI, KIRAMEKI, KASUMI, ASAHI, OBORO]);
    expect(p1.body).toMatchObject({ page: 1, returnedCount: 2, totalCount: 5, hasMore: true });
    expect(p3.body).toMatchObject({ page: 3, returnedCount: 1, totalCount: 5, hasMore: false });
  });

  it("answers a page past the end with no items", async () => {
    const { account } = await seededForReading("PREMIUM");
    const reply = await lib(account, { limit: 3, page: 4 });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ items: [], page: 4, returnedCount: 0, totalCount: 7, hasMore: false, effectiveLimit: 3 });
  });
});

describe("getLibrary: envelope, limits and field groups", () => {
  it("answers the paged envelope with default limit 50 and the default field groups", async () => {
    const account = await newAccount({ plan: "FREE" });
    await account.call("addToLibrary", {
      gameId: KASUMI,
      rating: 4,
      buyDate: "2020-05-01",
      buyPrice: 3000,
      buyPlace: "Akihabara Shop",
      memo: "m",
      attributes: ["box"],
      userLinks: [{ name: "n", url: "https://example.com" }],
    });
    const reply = await lib(account);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      page: 1,
      returnedCount: 1,
      totalCount: 1,
      hasMore: false,
      effectiveLimit: 50,
      limitReduced: false,
      limitReason: null,
    });
    const [item] = reply.body.items;
    expect(keysOf(item)).toEqual([...CORE, "attributes", "buyDate", "buyPlace", "buyPrice", "game"].sort());
    expect(item).toMatchObject({
      gameId: KASUMI,
      rating: 4,
      buyDate: "2020-05-01",
      buyPrice: 3000,
      buyPlace: "Akihabara Shop",
      attributes: [{ id: "box", label: "箱あり", custom: false }],
    });
    expect(typeof item.revision).toBe("string");
    expect(item.game).toMatchObject(KASUMI_GAME);
    expect((await lib(account, {}, "GET")).body).toEqual(reply.body);
  });

  it.each([
    [[], []],
    [["memo"], ["memo"]],
    [["purchase"], ["buyDate", "buyPlace", "buyPrice"]],
    [["attributes"], ["attributes"]],
    [["userLinks"], ["userLinks"]],
    [["timestamps"], ["createdAt", "updatedAt"]],
    [["game"], ["game"]],
    [
      ["memo", "userLinks", "timestamps"],
      ["createdAt", "memo", "updatedAt", "userLinks"],
    ],
  ])("fields %j gives the core fields plus exactly %j, by POST and GET", async (fields, extra) => {
    const account = await newAccount({ plan: "FREE" });
    await account.call("addToLibrary", { gameId: KASUMI, rating: 2, memo: "メモ" });
    for (const method of ["POST", "GET"] as const) {
      const reply = await lib(account, { fields }, method);
      expect(reply.status, `${method} ${JSON.stringify(reply.body)}`).toBe(200);
      expect(keysOf(reply.body.items[0]), method).toEqual([...CORE, ...extra].sort());
    }
  });

  it("gives null (or an empty list) for empty values inside requested groups, and nulls in the game object", async () => {
    const account = await newAccount({ plan: "FREE" });
    await account.call("addToLibrary", { gameId: EN });
    await account.call("addToLibrary", { gameId: ASAHI });
    const reply = await lib(account, {
      fields: ["game", "purchase", "attributes", "userLinks", "memo", "timestamps"],
      sortBy: "title",
      sortOrder: "asc",
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const [asahi, en] = reply.body.items;
    for (const item of [asahi, en]) {
      expect(item).toMatchObject({
        rating: null,
        buyDate: null,
        buyPrice: null,
        buyPlace: null,
        memo: null,
        attributes: [],
        userLinks: [],
      });
      expect(typeof item.createdAt).toBe("string");
      expect(typeof item.updatedAt).toBe("string");
    }
    expect(asahi.game).toMatchObject({ gameId: ASAHI, publisher: null, genre: { genreId: G_RPG } });
    expect(en.game).toMatchObject({ gameId: EN, genre: null, releaseDate: null, dbId: null, dbSlug: null, dbCoverId: null, custom: false });
    expect(keysOf(en.game)).toEqual(
      expect.arrayContaining([
        "custom",
        "dbCoverId",
        "dbId",
        "dbSlug",
        "gameId",
        "genre",
        "platform",
        "publisher",
        "releaseDate",
        "title",
        "titleEn",
      ]),
    );
  });

  it("latestPlay needs play:read too; with it, hasPlayRecord is false", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: KASUMI });
    const reply = await lib(account, { fields: ["latestPlay"] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(keysOf(reply.body.items[0])).toEqual([...CORE, "latestPlay"].sort());
    expect(reply.body.items[0].latestPlay).toMatchObject({ hasPlayRecord: false });
    expect((await lib(account, { fields: ["latestPlay"] }, "GET")).body.items[0].latestPlay).toMatchObject({ hasPlayRecord: false });

    const readerOnly = await account.newKey(["library:read"]);
    const refused = await callWith(readerOnly.apiKey, "getLibrary", { fields: ["game", "latestPlay"] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    expect(refused.body.scopes).toContain("play:read");
    expect(refused.body).not.toHaveProperty("items");
    const refusedGet = await callWith(readerOnly.apiKey, "getLibrary", { fields: ["latestPlay"] }, "GET");
    expect(refusedGet.status).toBe(403);
    expect((await callWith(readerOnly.apiKey, "getLibrary", {})).status).toBe(200);
  });

  it.each([
    [{ limit: 200, fields: [] }, 200, false],
    [{ limit: 200, fields: ["purchase", "memo", "timestamps", "attributes"] }, 200, false],
    [{ limit: 200 }, 100, true],
    [{ limit: 100 }, 100, false],
    [{ limit: 101, fields: ["game"] }, 100, true],
    [{ limit: 200, fields: ["userLinks"] }, 50, true],
    [{ limit: 51, fields: ["game", "userLinks"] }, 50, true],
    [{ limit: 50, fields: ["userLinks"] }, 50, false],
    [{ limit: 201, fields: [] }, 200, true],
    [{ limit: 5000, fields: [] }, 200, true],
    [{ limit: 5000 }, 100, true],
    [{ limit: 1 }, 1, false],
  ])("%j gives effectiveLimit %i (reduced: %s)", async (args, effectiveLimit, limitReduced) => {
    const account = await newAccount({ plan: "FREE" });
    for (const method of ["POST", "GET"] as const) {
      const reply = await lib(account, args, method);
      expect(reply.status, `${method} ${JSON.stringify(reply.body)}`).toBe(200);
      expect(reply.body, method).toMatchObject({ effectiveLimit, limitReduced, items: [], totalCount: 0, hasMore: false });
      if (limitReduced) expect(typeof reply.body.limitReason, method).toBe("string");
      else expect(reply.body.limitReason, method).toBeNull();
    }
  });

  it("caps by the field group even with a full library page", async () => {
    const { account } = await seededForReading("PREMIUM");
    const reply = await lib(account, { limit: 1000, fields: ["userLinks"] });
    expect(reply.body).toMatchObject({ effectiveLimit: 50, limitReduced: true, returnedCount: 7, totalCount: 7, hasMore: false });
  });
});

describe("getLibrary: invalid arguments", () => {
  it.each([
    [{ platformIds: Array.from({ length: 11 }, (_, i) => PA + i) }, "platformIds"],
    [{ platformIds: ["x"] }, "platformIds"],
    [{ attributes: ["box", "manual", "sealed", "used", "limited", "loose"] }, "attributes"],
    [{ title: "あ".repeat(31) }, "title"],
    [{ buyPlace: "x".repeat(31) }, "buyPlace"],
    [{ ratingFrom: 0 }, "ratingFrom"],
    [{ ratingTo: 6 }, "ratingTo"],
    [{ ratingFrom: 2.5 }, "ratingFrom"],
    [{ releaseDateFrom: "1991-02-30" }, "releaseDateFrom"],
    [{ releaseDateTo: "1991/01/01" }, "releaseDateTo"],
    [{ buyDateFrom: "2021-02-29" }, "buyDateFrom"],
    [{ buyDateTo: "2020-13-01" }, "buyDateTo"],
    [{ buyPriceFrom: 1.5 }, "buyPriceFrom"],
    [{ buyPriceTo: "cheap" }, "buyPriceTo"],
    [{ genreId: 0 }, "genreId"],
    [{ sortBy: "name" }, "sortBy"],
    [{ sortOrder: "up" }, "sortOrder"],
    [{ page: 0 }, "page"],
    [{ limit: 0 }, "limit"],
    [{ limit: 1.5 }, "limit"],
    [{ fields: ["editions"] }, "fields"],
    [{ unknownArgument: 1 }, "unknownArgument"],
    [{ releaseDateFrom: "1991-01-11", releaseDateTo: "1991-01-10" }, "releaseDateTo"],
    [{ buyDateFrom: "2020-05-02", buyDateTo: "2020-05-01" }, "buyDateTo"],
    [{ ratingFrom: 4, ratingTo: 3 }, "ratingTo"],
    [{ buyPriceFrom: 1001, buyPriceTo: 1000 }, "buyPriceTo"],
  ])("refuses %j with 400 naming %s (POST and GET)", async (args, field) => {
    const account = await newAccount({ plan: "FREE" });
    expectInvalid(await lib(account, args), field);
    expectInvalid(await lib(account, args, "GET"), field);
  });

  it("accepts the largest allowed lists and lengths", async () => {
    const { account } = await seed({ plan: "FREE" });
    const tenPlatforms = [PA, PB, PC, ...Array.from({ length: 7 }, (_, i) => 759990 + i)];
    expect(await matching(account, { platformIds: tenPlatforms })).toEqual([...SEEDED].sort((a, b) => a - b));
    expect(await matching(account, { attributes: ["box", "manual", OWN, "箱あり", "説明書あり"] })).toEqual([OBORO]);
    expect(await matching(account, { title: "る".repeat(30), buyPlace: "x".repeat(30) })).toEqual([]);
  });
});

describe("getLibrary: isolation and access", () => {
  it("lists only the caller's entries, whatever the filter", async () => {
    const { account: a } = await seededForReading("PREMIUM");
    const b = await newAccount();
    const bCustom = await insertCustomGame(b.userId, { title: "ルミナ 秘密の自作", titleReading: "るみなひみつのじさく", platformId: PA });
    expect((await b.call("addToLibrary", { gameId: KASUMI, rating: 5, buyPlace: "Bの店" })).status).toBe(200);
    expect((await b.call("addToLibrary", { gameId: YOBI })).status).toBe(200);
    expect((await b.call("addToLibrary", { gameId: bCustom })).status).toBe(200);

    const all = await lib(a, { limit: 200 });
    expect(all.body.totalCount).toBe(7);
    expect(gameIdsOf(all).sort()).toEqual([...SEEDED].sort());
    expect((all.body.items as { gameId: number; rating: number }[]).find((i) => i.gameId === KASUMI)!.rating).toBe(3);
    expect(await matching(a, { title: "秘密" })).toEqual([]);
    expect(await matching(a, { title: "予備" })).toEqual([]);
    expect(await matching(a, { buyPlace: "Bの店" })).toEqual([]);
    expect(await matching(a, { ratingFrom: 5 })).toEqual([IZUMI]);

    const theirs = await lib(b, { fields: ["game"], sortBy: "title" });
    expect(theirs.body.totalCount).toBe(3);
    expect(gameIdsOf(theirs).sort((x, y) => x - y)).toEqual([KASUMI, YOBI, bCustom]);
    const custom = ok(theirs).items.find((i) => i.gameId === bCustom)!;
    expect(custom.game).toMatchObject({ custom: true, title: "ルミナ 秘密の自作", dbSlug: null });
    expect(await matching(b, { title: "秘密", platformIds: [PA] })).toEqual([bCustom]);
  });

  it("never lists another user's entries through their attribute", async () => {
    const { account: a } = await seededForReading("PREMIUM");
    const b = await newAccount();
    const theirs = ok(await b.call("addAttribute", { label: "ルミナB専用" })).item;
    expect((await b.call("addToLibrary", { gameId: YOBI, attributes: [theirs.id] })).status).toBe(200);
    for (const attribute of [theirs.id, theirs.label]) {
      const reply = await lib(a, { attributes: [attribute], fields: [] });
      // Unknown to the caller: an empty list or a 400, never B's entry.
      expect([200, 400], JSON.stringify(reply.body)).toContain(reply.status);
      if (reply.status === 200) expect(reply.body.items).toEqual([]);
    }
  });

  it("a view-only key reads; a key without library:read or without a key is refused", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: KASUMI });
    const viewer = await account.newKey(["library:read", "play:read", "games:read"]);
    const read = await callWith(viewer.apiKey, "getLibrary", {}, "GET");
    expect(read.status).toBe(200);
    expect(gameIdsOf(read)).toEqual([KASUMI]);

    const gamesOnly = await account.newKey(["games:read", "play:read"]);
    const refused = await callWith(gamesOnly.apiKey, "getLibrary", {});
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "insufficient_scope" });
    expect(refused.body.scopes).toContain("library:read");
    expect((await send("/rest/v1/getLibrary")).status).toBe(401);
  });

  it("works on every plan", async () => {
    for (const plan of ["FREE", "LIGHT", "PREMIUM"] as const) {
      const account = await newAccount({ plan });
      await account.call("addToLibrary", { gameId: IZUMI });
      const reply = await lib(account, {}, "GET");
      expect(reply.status, plan).toBe(200);
      expect(gameIdsOf(reply), plan).toEqual([IZUMI]);
    }
  });
});
