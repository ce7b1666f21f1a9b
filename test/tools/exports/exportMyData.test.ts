// exportMyData over a tiny fictional master (ids 830000+, marker word ヘリオス in every title), plus
// 1,200 bulk games (831001-832200) for the keyset paging test. The tool answers a link; the rows are
// read here through openMyDataSource (what the download face calls) with the arguments the link
// carries, against the worker's own D1, and compared with what the list tools answer.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../../src/platform/db";
import { ApiError } from "../../../src/platform/errors";
import type { Plan } from "../../../src/platform/plans";
import { utcDay } from "../../../src/platform/time";
import { exportMyData } from "../../../src/tools/exports/exportMyData";
import type { ExportRow } from "../../../src/tools/exports/exportSource";
import { openMyDataSource } from "../../../src/tools/exports/myData/index";
import { fetchLink } from "../../support/downloads";
import { type Account, admin, callWith, newAccount, ORIGIN, type Player, player, send } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";
import { expectError, ok, okDone } from "../../support/replies";

const P1 = 830001;
const P2 = 830002;
const PUB = 830001;
const G_RPG = 830001; // root helios_rpg
const G_DUNGEON = 830002; // helios_rpg.dungeon
const G_ACT = 830003; // root helios_act

// gameId: title | platform | genre / support | release
const A = 830011; // ヘリオスの冒険 | P1 | RPG / - | 1990-01-01 | publisher PUB
const B = 830012; // ヘリオス大作戦 | P1 | ACT / DUNGEON | 1990-01-02
const C = 830013; // ヘリオス・パズル | P2 | ACT / RPG | undated
const D = 830014; // ヘリオス外伝 | P2 | - / - | 1990-01-03
const E = 830015; // ヘリオス迷宮 | P1 | ACT / - | 1989-12-31
const F = 830016; // ヘリオス伝説 | P2 | RPG / - | 1991-05-05
const W1 = 830021; // ヘリオス願望 | P1 | RPG / - | 1992-01-01
const W2 = 830022; // ヘリオス憧憬 | P2 | ACT / - | undated
const W3 = 830023; // ヘリオス夢 | P1 | - / - | 1993-03-03
const BULK_FIRST = 831001;
const BULK_COUNT = 1200;

const TITLES: Record<number, [string, string]> = {
  [A]: ["ヘリオスの冒険", "へりおすのぼうけん"],
  [B]: ["ヘリオス大作戦", "へりおすだいさくせん"],
  [C]: ["ヘリオス・パズル", "へりおすぱずる"],
  [D]: ["ヘリオス外伝", "へりおすがいでん"],
  [E]: ["ヘリオス迷宮", "へりおすめいきゅう"],
  [F]: ["ヘリオス伝説", "へりおすでんせつ"],
  [W1]: ["ヘリオス願望", "へりおすがんぼう"],
  [W2]: ["ヘリオス憧憬", "へりおすしょうけい"],
  [W3]: ["ヘリオス夢", "へりおすゆめ"],
};

const g = (
  gameId: number,
  platformId: number,
  genreId: number | null,
  genreSubId: number | null,
  releaseDate: string | null,
  publisherId: number | null = null,
) =>
  fictionalGame({
    gameId,
    title: TITLES[gameId]![0],
    titleReading: TITLES[gameId]![1],
    platformId,
    genreId,
    genreSubId,
    releaseDate,
    publisherId,
  });

beforeAll(async () => {
  const bulk = Array.from({ length: BULK_COUNT }, (_, i) =>
    fictionalGame({ gameId: BULK_FIRST + i, title: `ヘリオス大全${String(i).padStart(4, "0")}`, platformId: P1, releaseDate: null }),
  );
  await importFixture({
    platforms: toNdjson([
      { platformId: P1, name: "ヘリオス機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P2, name: "ヘリオス携帯機", nameEn: null, shortName: null, maker: null, releaseDate: null },
    ]),
    companies: toNdjson([{ companyId: PUB, name: "ヘリオス社", nameKana: null, nameEn: null }]),
    genres: toNdjson([
      { genreId: G_RPG, name: "ヘリオスRPG", parentId: null, taxonomyKey: "helios_rpg" },
      { genreId: G_DUNGEON, name: "ヘリオスダンジョン", parentId: G_RPG, taxonomyKey: "helios_rpg.dungeon" },
      { genreId: G_ACT, name: "ヘリオスACT", parentId: null, taxonomyKey: "helios_act" },
    ]),
    games: toNdjson([
      g(A, P1, G_RPG, null, "1990-01-01", PUB),
      g(B, P1, G_ACT, G_DUNGEON, "1990-01-02"),
      g(C, P2, G_ACT, G_RPG, null),
      g(D, P2, null, null, "1990-01-03"),
      g(E, P1, G_ACT, null, "1989-12-31"),
      g(F, P2, G_RPG, null, "1991-05-05"),
      g(W1, P1, G_RPG, null, "1992-01-01"),
      g(W2, P2, G_ACT, null, null),
      g(W3, P1, null, null, "1993-03-03"),
      ...bulk,
    ]),
  });
  main = await seedMain();
}, 120_000);

// ---------------------------------------------------------------------------------------------
// Helpers

type Args = Record<string, unknown>;

const daysFromToday = (days: number) => utcDay(new Date(Date.now() + days * 86_400_000));
const yearsAgo = (years: number) => {
  const now = new Date();
  return utcDay(new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate())));
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The arguments a download link carries (its token's payload), as the download face reads them. */
function linkPayload(url: string): { uid: string; kind: string; dataset: string; format: string; args: Args; exp: number } {
  const token = url.slice(`${ORIGIN}/downloads/v1/`.length);
  const body = token.split(".")[0]!;
  const bytes = Uint8Array.from(atob(body.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

interface Read {
  rows: ExportRow[];
  pageSizes: number[];
  columns: readonly string[];
}

/** Every row of the source, page by page, read from the worker's D1 as the download face would. */
async function readSource(userId: string, plan: Plan, dataset: string, args: Args): Promise<Read> {
  const source = await openMyDataSource({ db: createDb(env.DB), userId, plan, now: new Date() }, dataset, args);
  const rows: ExportRow[] = [];
  const pageSizes: number[] = [];
  for await (const page of source.pages()) {
    pageSizes.push(page.length);
    for (const row of page) {
      expect(Object.keys(row), "every row has exactly the columns, in order").toEqual([...source.columns]);
      rows.push(row);
    }
  }
  return { rows, pageSizes, columns: source.columns };
}

interface Exported extends Read {
  body: any;
}

/** Calls the tool, checks its answer, then reads the rows with the arguments its link carries. */
async function exportOf(who: { call: Account["call"]; userId: string; plan: Plan }, args: Args): Promise<Exported> {
  const body = ok(await who.call("exportMyData", args), `exportMyData ${JSON.stringify(args)}`);
  const payload = linkPayload(body.url);
  expect(payload).toMatchObject({ uid: who.userId, kind: "myData", dataset: args.dataset, format: body.format });
  const read = await readSource(who.userId, who.plan, payload.dataset, payload.args);
  expect(body.columns).toEqual([...read.columns]);
  expect(body.rowCount, `rowCount of ${JSON.stringify(args)}`).toBe(read.rows.length);
  return { body, ...read };
}

const sorted = (values: unknown[]) => [...values].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
const column = (rows: ExportRow[], name: string) => rows.map((row) => row[name]);

// ---------------------------------------------------------------------------------------------
// The seeded PREMIUM account, shared by the read-only tests (an export changes nothing).
//
// library | rating | buyDate    | buyPrice | buyPlace              | attributes | memo / links
// A       | 5      | 2024-05-01 | 3000     | ヘリオス書店          | box, OWN   | 最高 / 1 link
// B       | 3      | 2023-01-15 | 1500     | Akihabara Shop        | manual     |
// C       | -      | -          | -        | -                     | -          |
// D       | 3      | 2015-06-01 | 60000    | 通販                  | box, manual|
// E       | 1      | -          | 0        | akihabara SHOP 2号店  | -          |
// F       | 4      | 2024-05-01 | 3000     | -                     | OWN        |
// Added in the order A..F; F is updated last.
//
// play    | status    | start      | end        | clear target | rating | console | attributes | logs
// A (old) | COMPLETED | 2024-01-10 | 2024-02-10 | -            | 5      | C1      | box        | 60, 40
// A (new) | PLAYING   | today      | -          | -            | -      | C1      | -          | 15
// B       | PLAYING   | 2024-01-11 | -          | today-1      | 3      | C2      | manual     | 30
// C       | PLANNED   | -          | -          | -            | -      | -       | -          | -
// D       | PAUSED    | 2024-01-09 | -          | today+10     | 4      | -       | OWN        | 120

const OWN = "ヘリオス限定";

interface Main extends Player {
  userId: string;
  plan: Plan;
  consoles: { C1: string; C2: string; C3: string };
  play: { Aold: string; Anew: string; B: string; C: string; D: string };
  tags: { T1: number; T2: number };
  collections: { K1: string; K2: string; K3: string };
  custom: { X1: number; X2: number };
}

let main: Main;

async function seedMain(): Promise<Main> {
  const p = await player({ plan: "PREMIUM" }, 4);
  const call = p.call;
  ok(await call("addAttribute", { label: OWN }));
  const library: Args[] = [
    {
      gameId: A,
      rating: 5,
      buyDate: "2024-05-01",
      buyPrice: 3000,
      buyPlace: "ヘリオス書店",
      attributes: ["box", OWN],
      memo: "最高",
      userLinks: [{ name: "攻略", url: "https://example.com/a" }],
    },
    { gameId: B, rating: 3, buyDate: "2023-01-15", buyPrice: 1500, buyPlace: "Akihabara Shop", attributes: ["manual"] },
    { gameId: C },
    { gameId: D, rating: 3, buyDate: "2015-06-01", buyPrice: 60000, buyPlace: "通販", attributes: ["box", "manual"] },
    { gameId: E, rating: 1, buyPrice: 0, buyPlace: "akihabara SHOP 2号店" },
    { gameId: F, rating: 4, buyDate: "2024-05-01", buyPrice: 3000, attributes: [OWN] },
  ];
  for (const entry of library) {
    ok(await call("addToLibrary", entry), `addToLibrary ${entry.gameId}`);
    await tick();
  }
  ok(await call("addToWishlist", { gameId: W1, priority: 5, wishDate: "2020-01-01", wishPrice: 5000, wishPlace: "ヘリオス書店" }));
  ok(await call("addToWishlist", { gameId: W2, priority: 2, wishPrice: 800 }));
  ok(await call("addToWishlist", { gameId: W3, wishDate: daysFromToday(30), wishPrice: 12000, wishPlace: "通販", memo: "誕生日に" }));

  const consoleId = async (args: Args) => ok(await call("addConsole", args), "addConsole").item.consoleId as string;
  const C1 = await consoleId({
    name: "ヘリオス本体一号",
    publisherName: "ヘリオス電機",
    rating: 5,
    buyDate: "2020-01-01",
    buyPrice: 20000,
    platformPriorities: [
      { platformId: P1, priority: 5 },
      { platformId: P2, priority: 3 },
    ],
  });
  const C2 = await consoleId({ name: "ヘリオスミニ", buyPrice: 9000, buyPlace: "通販" });
  const C3 = await consoleId({ name: "Other Box", rating: 2, buyDate: "2010-10-10", memo: "予備" });

  const start = async (gameId: number, changes: Args, logs: number[]) => {
    const { playId } = okDone(await call("addPlayRecord", { gameId }), `addPlayRecord ${gameId}`);
    if (Object.keys(changes).length) ok(await call("updatePlayRecord", { playId, ...changes }), `updatePlayRecord ${gameId}`);
    for (const [i, playTime] of logs.entries())
      ok(await call("addPlayLog", { playId, playTime, playDate: `2024-03-0${i + 1}`, memo: `ログ${i + 1}` }));
    await tick();
    return playId as string;
  };
  const Aold = await start(
    A,
    { status: "COMPLETED", playStartDate: "2024-01-10", playEndDate: "2024-02-10", rating: 5, consoleId: C1, attributes: ["box"] },
    [60, 40],
  );
  const B_ = await start(
    B,
    {
      status: "PLAYING",
      playStartDate: "2024-01-11",
      clearTargetDate: daysFromToday(-1),
      rating: 3,
      consoleId: C2,
      attributes: ["manual"],
    },
    [30],
  );
  const C_ = await start(C, {}, []);
  const D_ = await start(
    D,
    { status: "PAUSED", playStartDate: "2024-01-09", clearTargetDate: daysFromToday(10), rating: 4, attributes: [OWN] },
    [120],
  );
  const replay = okDone(await call("addPlayRecord", { gameId: A, replay: true }), "replay A");
  const Anew = replay.playId as string;
  ok(await call("addPlayLog", { playId: Anew, playTime: 15, playDate: "2024-04-01" }));

  const tagId = async (name: string, gameIds: number[]) => {
    const { item } = ok(await call("addTag", { name }), "addTag");
    ok(await call("updateTagGames", { tagId: item.tagId, mode: "add", gameIds }), "updateTagGames");
    return item.tagId as number;
  };
  const T1 = await tagId("名作", [A, B]);
  const T2 = await tagId("積みゲー", [C]);

  const collectionId = async (args: Args) => ok(await call("addCollection", args), "addCollection").item.collectionId as string;
  const K1 = await collectionId({ name: "ヘリオス全集", type: "INDIVIDUAL", purpose: "LIBRARY", gameIds: [A, B, W1] });
  await tick();
  const K2 = await collectionId({ name: "携帯機コンプ", type: "PLATFORM", purpose: "PLAY", platformId: P2 });
  await tick();
  const K3 = await collectionId({ name: "Other list", type: "TAG", purpose: "PLAY", tagId: T1 });

  const customId = async (args: Args) => ok(await call("addCustomGame", args), "addCustomGame").item.gameId as number;
  const X1 = await customId({
    title: "ヘリオス自作RPG",
    titleReading: "へりおすじさくあーるぴーじー",
    platformId: P1,
    genreId: G_RPG,
    releaseDate: "2000-01-01",
    publisherId: PUB,
  });
  const X2 = await customId({ title: "ヘリオス同人", platformId: P2 });

  // F is updated last, so it leads the default order (updatedAt desc).
  await tick();
  ok(await call("updateLibraryEntry", { gameId: F, memo: "最後に更新" }));
  return {
    ...p,
    userId: p.account.userId,
    plan: "PREMIUM",
    consoles: { C1, C2, C3 },
    play: { Aold, Anew, B: B_, C: C_, D: D_ },
    tags: { T1, T2 },
    collections: { K1, K2, K3 },
    custom: { X1, X2 },
  };
}

/** The ids a list tool answers for a filter (one page of up to `limit`), in its order. */
async function listIds(tool: string, idKey: string, args: Args, limit = 200): Promise<unknown[]> {
  const body = ok(await main.call(tool, { ...args, limit }), `${tool} ${JSON.stringify(args)}`);
  expect(body.totalCount).toBe(body.items.length);
  return body.items.map((item: Record<string, unknown>) => item[idKey]);
}

/** For each filter: the export's rows and rowCount are the list tool's set, and in its order. */
async function expectSameAsList(dataset: string, tool: string, idKey: string, cases: Args[], listExtra: Args = {}) {
  for (const filter of cases) {
    const listed = await listIds(tool, idKey, { ...filter, ...listExtra });
    const { rows } = await exportOf(main, { dataset, ...filter });
    expect(column(rows, idKey), `${dataset} ${JSON.stringify(filter)}`).toEqual(listed);
  }
}

// ---------------------------------------------------------------------------------------------

describe("exportMyData: the answer", () => {
  it("is a link and a description of the file, never the rows", async () => {
    const before = Date.now();
    const { body, rows } = await exportOf(main, { dataset: "library" });
    expect(Object.keys(body).sort()).toEqual(["columns", "dataset", "expiresAt", "expiresInSec", "format", "note", "rowCount", "url"]);
    expect(exportMyData.output.safeParse(body).success, "the published output schema fits the answer").toBe(true);
    expect(body.url.startsWith(`${ORIGIN}/downloads/v1/`)).toBe(true);
    expect(body.expiresInSec).toBe(900);
    const expiresAt = Date.parse(body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 899_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 901_000);
    expect(body).toMatchObject({ dataset: "library", format: "json", rowCount: 6 });
    expect(typeof body.note).toBe("string");
    expect(rows).toHaveLength(6);
  });

  it("stores the validated filters in the link (not dataset or format), to be reapplied at download", async () => {
    const { body } = await exportOf(main, {
      dataset: "library",
      format: "csv",
      platformIds: [P1],
      title: "ヘリオス",
      sortBy: "buyPrice",
      ratingFrom: 1,
    });
    expect(body.format).toBe("csv");
    expect(linkPayload(body.url).args).toEqual({ platformIds: [P1], title: "ヘリオス", sortBy: "buyPrice", ratingFrom: 1 });
  });

  it("is POST only: GET is 405", async () => {
    expectError(await main.call("exportMyData", { dataset: "library" }, "GET"), 405, "method_not_allowed");
  });

  it("has fixed columns per dataset", async () => {
    const expected: Record<string, string[]> = {
      library: [
        "gameId",
        "gameTitle",
        "platformId",
        "platformName",
        "publisherId",
        "publisherName",
        "genreId",
        "genreName",
        "releaseDate",
        "custom",
        "rating",
        "buyDate",
        "buyPrice",
        "buyPlace",
        "attributes",
        "userLinks",
        "memo",
        "latestPlayId",
        "latestPlayStatus",
        "createdAt",
        "updatedAt",
      ],
      wishlist: [
        "gameId",
        "gameTitle",
        "platformId",
        "platformName",
        "publisherId",
        "publisherName",
        "genreId",
        "genreName",
        "releaseDate",
        "custom",
        "priority",
        "wishDate",
        "wishPrice",
        "wishPlace",
        "memo",
        "createdAt",
        "updatedAt",
      ],
      playRecords: [
        "playId",
        "gameId",
        "gameTitle",
        "platformId",
        "platformName",
        "publisherId",
        "publisherName",
        "genreId",
        "genreName",
        "releaseDate",
        "custom",
        "status",
        "playStartDate",
        "playEndDate",
        "clearTargetDate",
        "totalPlayTime",
        "rating",
        "consoleId",
        "consoleName",
        "attributes",
        "userLinks",
        "memo",
        "isLatest",
        "hasHistory",
        "createdAt",
        "updatedAt",
      ],
      playLogs: [
        "playLogId",
        "playId",
        "gameId",
        "gameTitle",
        "platformId",
        "platformName",
        "publisherId",
        "publisherName",
        "genreId",
        "genreName",
        "releaseDate",
        "custom",
        "playDate",
        "playTime",
        "memo",
        "createdAt",
        "updatedAt",
      ],
      tags: ["tagId", "name", "nameKana", "color", "description", "gameCount", "gameIds", "createdAt", "updatedAt"],
      collections: [
        "collectionId",
        "name",
        "description",
        "type",
        "purpose",
        "tagId",
        "platformId",
        "genreId",
        "releaseDateFrom",
        "releaseDateTo",
        "gameIds",
        "excludeGameIds",
        "createdAt",
        "updatedAt",
      ],
      consoles: [
        "consoleId",
        "name",
        "nameKana",
        "publisherName",
        "rating",
        "buyDate",
        "buyPrice",
        "buyPlace",
        "memo",
        "platforms",
        "createdAt",
        "updatedAt",
      ],
      customGames: [
        "gameId",
        "title",
        "titleReading",
        "titleEn",
        "aliases",
        "platformId",
        "platformName",
        "publisherId",
        "publisherName",
        "genreId",
        "genreName",
        "genreSubId",
        "genreSubName",
        "releaseDate",
        "janCode",
        "modelNumber",
        "price",
      ],
    };
    for (const [dataset, columns] of Object.entries(expected)) {
      const { body } = await exportOf(main, { dataset });
      expect(body.columns, dataset).toEqual(columns);
    }
  });
});

describe("exportMyData: library", () => {
  it("one row per owned game, the game flattened into columns, empty values null", async () => {
    const { rows } = await exportOf(main, { dataset: "library" });
    expect(column(rows, "gameId")).toEqual(await listIds("getLibrary", "gameId", { fields: [] }));
    const a = rows.find((row) => row.gameId === A)!;
    expect(a).toMatchObject({
      gameTitle: "ヘリオスの冒険",
      platformId: P1,
      platformName: "ヘリオス機",
      publisherId: PUB,
      publisherName: "ヘリオス社",
      genreId: G_RPG,
      genreName: "ヘリオスRPG",
      releaseDate: "1990-01-01",
      custom: false,
      rating: 5,
      buyDate: "2024-05-01",
      buyPrice: 3000,
      buyPlace: "ヘリオス書店",
      attributes: ["箱あり", OWN],
      userLinks: [{ name: "攻略", url: "https://example.com/a" }],
      memo: "最高",
      latestPlayId: main.play.Anew,
      latestPlayStatus: "PLAYING",
    });
    expect(typeof a.createdAt).toBe("string");
    const c = rows.find((row) => row.gameId === C)!;
    expect(c).toMatchObject({
      publisherId: null,
      publisherName: null,
      releaseDate: null,
      rating: null,
      buyDate: null,
      buyPrice: null,
      buyPlace: null,
      attributes: [],
      userLinks: [],
      memo: null,
      latestPlayStatus: "PLANNED",
    });
    const e = rows.find((row) => row.gameId === E)!;
    expect(e).toMatchObject({ latestPlayId: null, latestPlayStatus: null });
  });

  it("the attribute labels are the same as getLibrary's", async () => {
    const listed = ok(await main.call("getLibrary", { fields: ["attributes"], limit: 200 })).items as {
      gameId: number;
      attributes: { label: string }[];
    }[];
    const { rows } = await exportOf(main, { dataset: "library" });
    for (const item of listed) {
      expect(rows.find((row) => row.gameId === item.gameId)!.attributes).toEqual(item.attributes.map((a) => a.label));
    }
  });

  it("every getLibrary filter gives getLibrary's set", async () => {
    await expectSameAsList(
      "library",
      "getLibrary",
      "gameId",
      [
        {},
        { platformIds: [P1] },
        { platformIds: [P2, 839999] },
        { genreId: G_RPG },
        { genreId: G_DUNGEON },
        { title: "へりおすの" },
        { title: "迷宮" },
        { releaseDateFrom: "1990-01-02" },
        { releaseDateFrom: "1990-01-01", releaseDateTo: "1990-01-02" },
        { attributes: ["box"] },
        { attributes: ["box", "manual"] },
        { attributes: [OWN] },
        { buyPlace: "AKIHABARA" },
        { buyPlace: "書店" },
        { ratingFrom: 3 },
        { ratingFrom: 3, ratingTo: 4 },
        { buyDateFrom: "2023-01-15", buyDateTo: "2024-05-01" },
        { buyPriceFrom: 1500, buyPriceTo: 3000 },
        { buyPriceTo: 0 },
        { platformIds: [P1], ratingFrom: 4, attributes: ["box"] },
      ],
      { fields: [] },
    );
  });

  it("every getLibrary sort, both orders, gives getLibrary's order", async () => {
    for (const sortBy of ["buyDate", "buyPrice", "updatedAt", "title", "rating", "releaseDate"]) {
      for (const sortOrder of ["asc", "desc"]) {
        await expectSameAsList("library", "getLibrary", "gameId", [{ sortBy, sortOrder }], { fields: [] });
      }
      await expectSameAsList("library", "getLibrary", "gameId", [{ sortBy }], { fields: [] });
    }
    await expectSameAsList("library", "getLibrary", "gameId", [{ sortOrder: "asc" }], { fields: [] });
  });

  it("an unknown attribute is a 400 naming it, as in getLibrary", async () => {
    expectError(
      await main.call("exportMyData", { dataset: "library", attributes: ["box", "ない"] }),
      400,
      "invalid_input",
      "attributes[1]",
    );
  });
});

describe("exportMyData: wishlist", () => {
  it("one row per wished-for game, with getWishlist's filters and sorts", async () => {
    const { rows } = await exportOf(main, { dataset: "wishlist" });
    expect(column(rows, "gameId")).toEqual([W1, W2, W3]);
    expect(rows[0]).toMatchObject({
      gameTitle: "ヘリオス願望",
      platformName: "ヘリオス機",
      priority: 5,
      wishDate: "2020-01-01",
      wishPrice: 5000,
      wishPlace: "ヘリオス書店",
      memo: null,
    });
    expect(rows[2]).toMatchObject({ priority: null, memo: "誕生日に" });
    await expectSameAsList(
      "wishlist",
      "getWishlist",
      "gameId",
      [
        { platformIds: [P1] },
        { genreId: G_RPG },
        { title: "憧憬" },
        { releaseDateFrom: "1992-06-01" },
        { wishPlace: "ヘリオス" },
        { wishDateFrom: "2019-01-01", wishDateTo: "2021-01-01" },
        { wishDateOverdue: "overdue" },
        { wishDateOverdue: "not_overdue" },
        { wishPriceFrom: 800, wishPriceTo: 5000 },
        { priorityFrom: 2 },
        { priorityTo: 2 },
      ],
      { fields: [] },
    );
    for (const sortBy of ["priority", "createdAt", "wishDate", "wishPrice", "title", "releaseDate"]) {
      for (const sortOrder of ["asc", "desc"])
        await expectSameAsList("wishlist", "getWishlist", "gameId", [{ sortBy, sortOrder }], { fields: [] });
    }
  });
});

describe("exportMyData: playRecords and playLogs", () => {
  it("the latest record per game, with getPlayRecords' values", async () => {
    const { rows } = await exportOf(main, { dataset: "playRecords" });
    expect(column(rows, "playId")).toEqual(await listIds("getPlayRecords", "playId", { fields: [] }));
    expect(sorted(column(rows, "gameId"))).toEqual(sorted([A, B, C, D]));
    const b = rows.find((row) => row.gameId === B)!;
    expect(b).toMatchObject({
      playId: main.play.B,
      gameTitle: "ヘリオス大作戦",
      status: "PLAYING",
      playStartDate: "2024-01-11",
      playEndDate: null,
      clearTargetDate: daysFromToday(-1),
      totalPlayTime: 30,
      rating: 3,
      consoleId: main.consoles.C2,
      consoleName: "ヘリオスミニ",
      attributes: ["説明書あり"],
      userLinks: [],
      isLatest: true,
      hasHistory: false,
    });
    expect(rows.find((row) => row.gameId === A)).toMatchObject({
      playId: main.play.Anew,
      hasHistory: true,
      isLatest: true,
      totalPlayTime: 15,
    });
    expect(rows.find((row) => row.gameId === D)).toMatchObject({ attributes: [OWN], consoleId: null, consoleName: null });
  });

  it("every getPlayRecords filter gives getPlayRecords' set", async () => {
    await expectSameAsList(
      "playRecords",
      "getPlayRecords",
      "playId",
      [
        { statuses: ["PLAYING"] },
        { statuses: ["PLANNED", "PAUSED"] },
        { platformIds: [P2] },
        { genreId: G_RPG },
        { title: "外伝" },
        { releaseDateTo: "1990-01-01" },
        { attributes: [OWN] },
        { consoleIds: [main.consoles.C1] },
        { consoleIds: [main.consoles.C1, main.consoles.C2] },
        { playStartDateFrom: "2024-01-10" },
        { playStartDateTo: "2024-01-10" },
        { playEndDateFrom: "2024-01-01" },
        { clearTargetDateFrom: daysFromToday(0) },
        { clearTargetOverdue: "overdue" },
        { clearTargetOverdue: "not_overdue" },
        { totalPlayTimeFrom: 20, totalPlayTimeTo: 120 },
        { ratingFrom: 4 },
      ],
      { fields: [] },
    );
  });

  it("every getPlayRecords sort, both orders, gives getPlayRecords' order", async () => {
    for (const sortBy of ["playStartDate", "playEndDate", "clearTargetDate", "title", "totalPlayTime", "rating", "updatedAt"]) {
      for (const sortOrder of ["asc", "desc"])
        await expectSameAsList("playRecords", "getPlayRecords", "playId", [{ sortBy, sortOrder }], { fields: [] });
    }
  });

  it("includeHistory (PREMIUM): one row per record, every cycle, filters applied to each cycle", async () => {
    const { rows } = await exportOf(main, { dataset: "playRecords", includeHistory: true, sortBy: "title", sortOrder: "asc" });
    expect(rows).toHaveLength(5);
    const cycles = rows.filter((row) => row.gameId === A);
    expect(column(cycles, "playId")).toEqual([main.play.Aold, main.play.Anew]);
    expect(cycles[0]).toMatchObject({
      status: "COMPLETED",
      isLatest: false,
      hasHistory: true,
      totalPlayTime: 100,
      consoleName: "ヘリオス本体一号",
      attributes: ["箱あり"],
    });
    const history = ok(await main.call("getGamePlayHistory", { gameId: A })).items as { playId: string }[];
    expect(sorted(column(cycles, "playId"))).toEqual(sorted(history.map((item) => item.playId)));
    const completed = await exportOf(main, { dataset: "playRecords", includeHistory: true, statuses: ["COMPLETED"] });
    expect(column(completed.rows, "playId")).toEqual([main.play.Aold]);
    const latest = await exportOf(main, { dataset: "playRecords", includeHistory: false, statuses: ["COMPLETED"] });
    expect(latest.rows).toEqual([]);
  });

  it("playLogs: every session of every cycle, oldest first; the play record filters pick the records", async () => {
    const { rows } = await exportOf(main, { dataset: "playLogs" });
    expect(rows.map((row) => [row.gameId, row.playTime])).toEqual([
      [A, 60],
      [B, 30],
      [D, 120],
      [A, 40],
      [A, 15],
    ]);
    expect(rows[0]).toMatchObject({
      playId: main.play.Aold,
      gameTitle: "ヘリオスの冒険",
      platformName: "ヘリオス機",
      playDate: "2024-03-01",
      memo: "ログ1",
    });
    expect(rows[4]).toMatchObject({ playId: main.play.Anew, memo: null });
    const logs = ok(await main.call("getPlayLogs", { playId: main.play.Aold })).items as { playLogId: string }[];
    expect(
      sorted(
        column(
          rows.filter((row) => row.playId === main.play.Aold),
          "playLogId",
        ),
      ),
    ).toEqual(sorted(logs.map((l) => l.playLogId)));
    const playing = await exportOf(main, { dataset: "playLogs", statuses: ["PLAYING"] });
    expect(playing.rows.map((row) => [row.gameId, row.playTime])).toEqual([
      [B, 30],
      [A, 15],
    ]);
    const onP2 = await exportOf(main, { dataset: "playLogs", platformIds: [P2] });
    expect(column(onP2.rows, "gameId")).toEqual([D]);
  });
});

describe("exportMyData: tags, collections, consoles, customGames", () => {
  it("tags: one row per tag with its games, oldest first", async () => {
    const { rows } = await exportOf(main, { dataset: "tags" });
    expect(rows).toMatchObject([
      { tagId: main.tags.T1, name: "名作", gameCount: 2, gameIds: [A, B], nameKana: null, description: null },
      { tagId: main.tags.T2, name: "積みゲー", gameCount: 1, gameIds: [C] },
    ]);
    expect(column(rows, "tagId")).toEqual(await listIds("getTags", "tagId", {}));
  });

  it("collections: one row per collection; name, purposeTypes and collectionTypes as getCollections filters them", async () => {
    const { rows } = await exportOf(main, { dataset: "collections" });
    expect(rows).toMatchObject([
      {
        collectionId: main.collections.K1,
        name: "ヘリオス全集",
        type: "INDIVIDUAL",
        purpose: "LIBRARY",
        gameIds: [A, B, W1],
        excludeGameIds: [],
        tagId: null,
      },
      { collectionId: main.collections.K2, type: "PLATFORM", purpose: "PLAY", platformId: P2, gameIds: [] },
      { collectionId: main.collections.K3, type: "TAG", tagId: main.tags.T1 },
    ]);
    const cases: [Args, Args][] = [
      [{}, {}],
      [{ name: "ヘリオス" }, { name: "ヘリオス" }],
      [{ name: "OTHER" }, { name: "OTHER" }],
      [{ purposeTypes: ["PLAY"] }, { purposeTypes: ["PLAY"] }],
      [{ collectionTypes: ["INDIVIDUAL", "TAG"] }, { types: ["INDIVIDUAL", "TAG"] }],
      [
        { collectionTypes: ["TAG"], purposeTypes: ["LIBRARY"] },
        { types: ["TAG"], purposeTypes: ["LIBRARY"] },
      ],
    ];
    for (const [filter, listFilter] of cases) {
      const listed = await listIds("getCollections", "collectionId", listFilter, 100);
      expect(column((await exportOf(main, { dataset: "collections", ...filter })).rows, "collectionId"), JSON.stringify(filter)).toEqual(
        listed,
      );
    }
  });

  it("consoles: one row per console with its platforms; getConsoles' filters and sorts", async () => {
    const { rows } = await exportOf(main, { dataset: "consoles" });
    expect(rows[0]).toMatchObject({
      consoleId: main.consoles.C1,
      name: "ヘリオス本体一号",
      publisherName: "ヘリオス電機",
      rating: 5,
      buyDate: "2020-01-01",
      buyPrice: 20000,
      buyPlace: null,
      platforms: [
        { platformId: P1, name: "ヘリオス機", priority: 5 },
        { platformId: P2, name: "ヘリオス携帯機", priority: 3 },
      ],
    });
    expect(rows.find((row) => row.consoleId === main.consoles.C3)).toMatchObject({ memo: "予備", platforms: [] });
    await expectSameAsList(
      "consoles",
      "getConsoles",
      "consoleId",
      [
        {},
        { name: "ヘリオス" },
        { name: "電機" },
        { ratingFrom: 2 },
        { ratingTo: 2 },
        { unrated: true },
        { unrated: false },
        { buyDateFrom: "2015-01-01" },
        { buyPriceFrom: 10000 },
      ],
      { fields: [] },
    );
    for (const sortBy of ["name", "rating", "buyDate", "buyPrice", "createdAt", "updatedAt"]) {
      for (const sortOrder of ["asc", "desc"])
        await expectSameAsList("consoles", "getConsoles", "consoleId", [{ sortBy, sortOrder }], { fields: [] });
    }
  });

  it("customGames: the account's custom games in the master row format, by gameId; the game filters apply", async () => {
    const { rows } = await exportOf(main, { dataset: "customGames" });
    expect(sorted(column(rows, "gameId"))).toEqual(sorted([main.custom.X1, main.custom.X2]));
    expect(column(rows, "gameId")).toEqual([...column(rows, "gameId")].sort((a, b) => (a as number) - (b as number)));
    expect(rows.find((row) => row.gameId === main.custom.X1)).toMatchObject({
      title: "ヘリオス自作RPG",
      titleReading: "へりおすじさくあーるぴーじー",
      titleEn: [],
      aliases: [],
      platformId: P1,
      platformName: "ヘリオス機",
      publisherName: "ヘリオス社",
      genreId: G_RPG,
      genreName: "ヘリオスRPG",
      genreSubId: null,
      releaseDate: "2000-01-01",
      janCode: null,
      modelNumber: [],
      price: null,
    });
    expect(column((await exportOf(main, { dataset: "customGames", platformIds: [P2] })).rows, "gameId")).toEqual([main.custom.X2]);
    expect(column((await exportOf(main, { dataset: "customGames", title: "じさく" })).rows, "gameId")).toEqual([main.custom.X1]);
    expect(
      column((await exportOf(main, { dataset: "customGames", genreId: G_RPG, releaseDateFrom: "1999-01-01" })).rows, "gameId"),
    ).toEqual([main.custom.X1]);
  });
});

describe("exportMyData: arguments that do not apply", () => {
  it("a filter, sort or option of another dataset is a 400 naming it", async () => {
    const cases: [Args, string][] = [
      [{ dataset: "library", wishPlace: "x" }, "wishPlace"],
      [{ dataset: "library", includeHistory: false }, "includeHistory"],
      [{ dataset: "library", statuses: ["PLAYING"] }, "statuses"],
      [{ dataset: "library", name: "x" }, "name"],
      [{ dataset: "wishlist", attributes: ["box"] }, "attributes"],
      [{ dataset: "wishlist", buyPlace: "x" }, "buyPlace"],
      [{ dataset: "playRecords", buyDateFrom: "2024-01-01" }, "buyDateFrom"],
      [{ dataset: "playLogs", includeHistory: true }, "includeHistory"],
      [{ dataset: "playLogs", sortBy: "title" }, "sortBy"],
      [{ dataset: "tags", title: "x" }, "title"],
      [{ dataset: "tags", sortOrder: "asc" }, "sortOrder"],
      [{ dataset: "collections", platformIds: [P1] }, "platformIds"],
      [{ dataset: "consoles", title: "x" }, "title"],
      [{ dataset: "consoles", collectionTypes: ["TAG"] }, "collectionTypes"],
      [{ dataset: "customGames", ratingFrom: 1 }, "ratingFrom"],
      [{ dataset: "library", sortBy: "wishDate" }, "sortBy"],
      [{ dataset: "wishlist", sortBy: "buyDate" }, "sortBy"],
      [{ dataset: "consoles", sortBy: "title" }, "sortBy"],
      [{ dataset: "playRecords", sortBy: "name" }, "sortBy"],
    ];
    for (const [args, field] of cases) {
      expectError(await main.call("exportMyData", args), 400, "invalid_input", field);
    }
  });

  it("unknown arguments, bad values and reversed ranges are 400 as in the list tools", async () => {
    expectError(await main.call("exportMyData", {}), 400, "invalid_input", "dataset");
    expectError(await main.call("exportMyData", { dataset: "games" }), 400, "invalid_input", "dataset");
    expectError(await main.call("exportMyData", { dataset: "library", format: "ndjson" }), 400, "invalid_input", "format");
    expectError(await main.call("exportMyData", { dataset: "library", fields: [] }), 400, "invalid_input", "fields");
    expectError(
      await main.call("exportMyData", { dataset: "library", buyDateFrom: "2024-02-01", buyDateTo: "2024-01-01" }),
      400,
      "invalid_input",
      "buyDateTo",
    );
    expectError(
      await main.call("exportMyData", { dataset: "wishlist", priorityFrom: 4, priorityTo: 2 }),
      400,
      "invalid_input",
      "priorityTo",
    );
    expectError(await main.call("exportMyData", { dataset: "library", title: "x".repeat(31) }), 400, "invalid_input", "title");
  });
});

describe("exportMyData: plans and scopes", () => {
  it("FREE: library, wishlist, playRecords and playLogs; other datasets are 403 plan_required naming dataset", async () => {
    const free = await newAccount({ plan: "FREE" });
    for (const dataset of ["library", "wishlist", "playRecords", "playLogs"]) ok(await free.call("exportMyData", { dataset }), dataset);
    for (const dataset of ["tags", "consoles", "collections", "customGames"]) {
      const reply = await free.call("exportMyData", { dataset });
      expectError(reply, 403, "plan_required", "dataset");
      expect(reply.body.upgradeUrl).toBeTruthy();
    }
  });

  it("LIGHT: adds tags and consoles; collections and customGames are 403 naming dataset", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    for (const dataset of ["library", "wishlist", "playRecords", "playLogs", "tags", "consoles"])
      ok(await light.call("exportMyData", { dataset }), dataset);
    for (const dataset of ["collections", "customGames"])
      expectError(await light.call("exportMyData", { dataset }), 403, "plan_required", "dataset");
  });

  it("FREE: removed arguments are 403 naming them; narrowed purchase dates and prices too", async () => {
    const free = await newAccount({ plan: "FREE" });
    const removed: [Args, string][] = [
      [{ dataset: "playRecords", includeHistory: true }, "includeHistory"],
      [{ dataset: "playRecords", includeHistory: false }, "includeHistory"],
      [{ dataset: "playRecords", consoleIds: ["con_x"] }, "consoleIds"],
      [{ dataset: "library", name: "x" }, "name"],
      [{ dataset: "library", unrated: true }, "unrated"],
      [{ dataset: "library", purposeTypes: ["PLAY"] }, "purposeTypes"],
      [{ dataset: "library", collectionTypes: ["TAG"] }, "collectionTypes"],
      [{ dataset: "library", buyDateFrom: yearsAgo(6) }, "buyDateFrom"],
      [{ dataset: "library", buyDateTo: "2015-01-01" }, "buyDateTo"],
      [{ dataset: "library", buyPriceFrom: 50_001 }, "buyPriceFrom"],
      [{ dataset: "library", buyPriceTo: 100_000 }, "buyPriceTo"],
    ];
    for (const [args, field] of removed) expectError(await free.call("exportMyData", args), 403, "plan_required", field);
    ok(
      await free.call("exportMyData", {
        dataset: "library",
        buyDateFrom: yearsAgo(4),
        buyDateTo: daysFromToday(0),
        buyPriceFrom: 0,
        buyPriceTo: 50_000,
      }),
    );
    ok(await free.call("exportMyData", { dataset: "playRecords", statuses: ["PLAYING"] }));
  });

  it("LIGHT: includeHistory, purposeTypes and collectionTypes are 403; name is up to 10 characters", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    expectError(await light.call("exportMyData", { dataset: "playRecords", includeHistory: true }), 403, "plan_required", "includeHistory");
    expectError(await light.call("exportMyData", { dataset: "consoles", purposeTypes: ["PLAY"] }), 403, "plan_required", "purposeTypes");
    expectError(
      await light.call("exportMyData", { dataset: "consoles", collectionTypes: ["TAG"] }),
      403,
      "plan_required",
      "collectionTypes",
    );
    expectError(await light.call("exportMyData", { dataset: "consoles", name: "12345678901" }), 403, "plan_required", "name");
    ok(await light.call("exportMyData", { dataset: "consoles", name: "1234567890", unrated: true }));
    ok(await light.call("exportMyData", { dataset: "playRecords", consoleIds: ["con_x"] }));
    ok(await light.call("exportMyData", { dataset: "library", buyDateFrom: "2000-01-01", buyPriceTo: 100_000 }));
  });

  it("the catalog publishes the plan differences that are enforced", async () => {
    const { tools } = ok(await send("/rest/v1/tools"));
    const tool = tools.find((t: { name: string }) => t.name === "exportMyData");
    expect(tool).toMatchObject({
      methods: ["POST"],
      restOnly: true,
      scopes: ["library:read", "play:read", "games:read"],
      plans: ["FREE", "LIGHT", "PREMIUM"],
    });
    expect(tool.planDifferences.FREE.removedProperties).toEqual([
      "includeHistory",
      "consoleIds",
      "name",
      "unrated",
      "purposeTypes",
      "collectionTypes",
    ]);
    expect(Object.keys(tool.planDifferences.FREE.changedProperties)).toEqual([
      "dataset",
      "buyDateFrom",
      "buyDateTo",
      "buyPriceFrom",
      "buyPriceTo",
    ]);
    expect(tool.planDifferences.FREE.changedProperties.buyPriceTo.maximum).toBe(50_000);
    expect(tool.planDifferences.FREE.changedProperties.buyDateFrom.description).toMatch(/5 years/);
    expect(tool.planDifferences.LIGHT.removedProperties).toEqual(["includeHistory", "purposeTypes", "collectionTypes"]);
    expect(tool.planDifferences.LIGHT.changedProperties.name.maxLength).toBe(10);
    expect(tool.planDifferences.LIGHT.changedProperties.dataset.enum).toEqual([
      "library",
      "wishlist",
      "playRecords",
      "playLogs",
      "tags",
      "consoles",
    ]);
  });

  it("at download, the plan held then decides: a lowered plan refuses what it no longer allows", async () => {
    const expectPlanRequired = async (plan: Plan, dataset: string, args: Args, field: string) => {
      const error = await openMyDataSource({ db: createDb(env.DB), userId: main.userId, plan, now: new Date() }, dataset, args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("plan_required");
      expect((error as ApiError).details.field).toBe(field);
    };
    await expectPlanRequired("LIGHT", "playRecords", { includeHistory: true }, "includeHistory");
    await expectPlanRequired("FREE", "tags", {}, "dataset");
    await expectPlanRequired("LIGHT", "collections", {}, "dataset");
    await expectPlanRequired("FREE", "library", { buyPriceTo: 60_000 }, "buyPriceTo");
  });

  it("needs library:read, play:read and games:read", async () => {
    const account = await newAccount();
    for (const missing of ["library:read", "play:read", "games:read"] as const) {
      const scopes = (["library:read", "play:read", "games:read"] as const).filter((s) => s !== missing);
      const { apiKey } = await account.newKey([...scopes]);
      const reply = await callWith(apiKey, "exportMyData", { dataset: "library" });
      expectError(reply, 403, "insufficient_scope");
    }
    const { apiKey } = await account.newKey(["library:read", "play:read", "games:read"]);
    ok(await callWith(apiKey, "exportMyData", { dataset: "library" }));
  });
});

describe("exportMyData: isolation", () => {
  it("another user's rows never appear, in any dataset", async () => {
    const other = await player({ plan: "PREMIUM" }, 1);
    ok(await other.call("addToLibrary", { gameId: A, memo: "他人のメモ" }));
    ok(await other.call("addToWishlist", { gameId: W2 }));
    const { playId } = okDone(await other.call("addPlayRecord", { gameId: A }));
    ok(await other.call("addPlayLog", { playId, playTime: 5 }));
    const consoleId = ok(await other.call("addConsole", { name: "ヘリオス本体一号" })).item.consoleId;
    const tagId = ok(await other.call("addTag", { name: "名作" })).item.tagId;
    const collectionId = ok(await other.call("addCollection", { name: "ヘリオス全集", type: "INDIVIDUAL", gameIds: [A] })).item
      .collectionId;
    const customId = ok(await other.call("addCustomGame", { title: "ヘリオス他人作", platformId: P1 })).item.gameId;
    const otherWho = { call: other.call, userId: other.account.userId, plan: "PREMIUM" as Plan };

    const theirs: Record<string, [string, unknown[]]> = {
      library: ["gameId", [A]],
      wishlist: ["gameId", [W2]],
      playRecords: ["playId", [playId]],
      playLogs: ["playId", [playId]],
      consoles: ["consoleId", [consoleId]],
      tags: ["tagId", [tagId]],
      collections: ["collectionId", [collectionId]],
      customGames: ["gameId", [customId]],
    };
    for (const [dataset, [idKey, ids]] of Object.entries(theirs)) {
      const mine = await exportOf(main, { dataset });
      const own = await exportOf(otherWho, { dataset });
      expect(column(own.rows, idKey), dataset).toEqual(ids);
      if (dataset !== "library" && dataset !== "wishlist") {
        for (const id of ids) expect(column(mine.rows, idKey), dataset).not.toContain(id);
      }
    }
    const mineA = (await exportOf(main, { dataset: "library" })).rows.find((row) => row.gameId === A)!;
    expect(mineA.memo).toBe("最高");
    const ownW2 = (await exportOf(otherWho, { dataset: "wishlist" })).rows[0]!;
    expect(ownW2.priority).toBeNull();
    const mineW2 = (await exportOf(main, { dataset: "wishlist" })).rows.find((row) => row.gameId === W2)!;
    expect(mineW2.priority).toBe(2);
    expect(column((await exportOf(main, { dataset: "customGames" })).rows, "gameId")).not.toContain(customId);
  });
});

describe("exportMyData: a large library in keyset pages", () => {
  it("reads 1,200 entries in pages of 500, in getLibrary's order, without duplicates or gaps", async () => {
    const big = await player({ plan: "PREMIUM" }, 1);
    const userId = big.account.userId;
    // Few distinct sort values (and empty ones) so ties straddle page boundaries.
    const entries = Array.from({ length: BULK_COUNT }, (_, i) => ({
      g: BULK_FIRST + i,
      price: i % 7 === 0 ? null : (i % 13) * 100,
      updated: `2024-01-0${(i % 5) + 1}T00:00:00.000Z`,
    }));
    await env.DB.prepare(
      `INSERT INTO library_entries (user_id, game_id, rating, buy_date, buy_price, buy_place, buy_place_key, memo, user_links, attribute_ids, created_at, updated_at, revision)
       SELECT ?, j.value ->> '$.g', NULL, NULL, j.value ->> '$.price', NULL, NULL, 'メモ' || (j.value ->> '$.g'), '[]', '["box"]', j.value ->> '$.updated', j.value ->> '$.updated', 'rev'
       FROM json_each(?) j`,
    )
      .bind(userId, JSON.stringify(entries))
      .run();

    const byPrice = (a: (typeof entries)[number], b: (typeof entries)[number]) =>
      a.price === b.price ? a.g - b.g : a.price === null ? 1 : b.price === null ? -1 : a.price - b.price;
    const byUpdatedDesc = (a: (typeof entries)[number], b: (typeof entries)[number]) =>
      a.updated === b.updated ? a.g - b.g : a.updated < b.updated ? 1 : -1;

    const cases: [Args, number[]][] = [
      [{ sortBy: "buyPrice", sortOrder: "asc" }, [...entries].sort(byPrice).map((e) => e.g)],
      [{}, [...entries].sort(byUpdatedDesc).map((e) => e.g)],
      [{ sortBy: "title", sortOrder: "desc" }, [...entries].map((e) => e.g).sort((a, b) => b - a)],
    ];
    const who = { call: big.call, userId, plan: "PREMIUM" as Plan };
    for (const [args, expected] of cases) {
      const { rows, pageSizes, body } = await exportOf(who, { dataset: "library", ...args });
      expect(body.rowCount).toBe(BULK_COUNT);
      expect(pageSizes).toEqual([500, 500, 200]);
      const ids = column(rows, "gameId") as number[];
      expect(new Set(ids).size).toBe(BULK_COUNT);
      expect(ids, JSON.stringify(args)).toEqual(expected);
      const listed: number[] = [];
      for (let page = 1; page <= 6; page++) {
        listed.push(
          ...ok(await big.call("getLibrary", { ...args, fields: [], limit: 200, page })).items.map(
            (item: { gameId: number }) => item.gameId,
          ),
        );
      }
      expect(ids, `same order as getLibrary ${JSON.stringify(args)}`).toEqual(listed);
    }
    const { rows } = await exportOf(who, { dataset: "library", buyPriceFrom: 1200 });
    expect(rows).toHaveLength(entries.filter((e) => e.price !== null && e.price >= 1200).length);
    expect(rows[0]).toMatchObject({
      gameTitle: expect.stringMatching(/^ヘリオス大全\d{4}$/),
      attributes: ["箱あり"],
      memo: expect.stringMatching(/^メモ/),
    });
  }, 120_000);
});

describe("exportMyData: downloading the file (end to end)", () => {
  const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());
  const utf8 = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true, fatal: true }).decode(bytes);

  it("csv: BOM, a header row equal to columns, one line per row, Japanese text intact", async () => {
    const { body, rows } = await exportOf(main, { dataset: "library", format: "csv", sortBy: "title", sortOrder: "asc" });
    const response = await fetchLink(body.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const bytes = await bytesOf(response);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = utf8(bytes)
      .slice(1)
      .split("\r\n")
      .filter((line) => line !== "");
    expect(lines[0]).toBe(body.columns.join(","));
    expect(lines).toHaveLength(1 + body.rowCount);
    const titleAt = body.columns.indexOf("gameTitle");
    expect(lines.slice(1).map((line) => line.split(",")[titleAt])).toEqual(column(rows, "gameTitle"));
    const a = lines.find((line) => line.startsWith(`${A},`))!;
    expect(a).toContain("ヘリオスの冒険");
    expect(a).toContain("ヘリオス書店");
    expect(a).toContain(`箱あり | ${OWN}`);
  });

  it("json: the columns and exactly the rows openMyDataSource gives, Japanese text intact", async () => {
    const { body, rows } = await exportOf(main, { dataset: "playRecords", includeHistory: true });
    const response = await fetchLink(body.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const file = JSON.parse(utf8(await bytesOf(response)));
    expect(file).toMatchObject({ dataset: "playRecords", format: "json", columns: body.columns });
    expect(file.rows).toEqual(rows);
    expect(file.rows.find((row: ExportRow) => row.playId === main.play.Aold)).toMatchObject({
      gameTitle: "ヘリオスの冒険",
      consoleName: "ヘリオス本体一号",
    });
  });

  it("a link of a lowered plan's dataset is refused at download (403 plan_required naming dataset)", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    ok(await light.call("addConsole", { name: "ヘリオス互換機" }));
    const { url } = ok(await light.call("exportMyData", { dataset: "consoles", format: "csv" }));
    ok(await admin("PATCH", `/users/${light.userId}`, { plan: "FREE" }));
    const response = await fetchLink(url);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "plan_required", field: "dataset" });
  });
});
