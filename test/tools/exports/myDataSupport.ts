// Shared by the exportMyData suites: a tiny fictional master (ids 830000+, marker word ヘリオス in
// every title), plus 1,200 bulk games (831001-832200) for the keyset paging test; the seeded main
// account; and the readers that check an export. The tool answers a link; the rows are read here
// through openMyDataSource (what the download face calls) with the arguments the link carries,
// against the worker's own D1, and compared with what the list tools answer.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createDb } from "../../../src/platform/db";
import type { ExportRow } from "../../../src/platform/exportSource";
import type { Plan } from "../../../src/platform/plans";
import { utcDay } from "../../../src/platform/time";
import { openMyDataSource } from "../../../src/tools/exports/myData/index";
import { accountDay } from "../../support/days";
import { type Account, ORIGIN, type Player, player } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";
import { ok, okDone } from "../../support/replies";

export const P1 = 830001;
export const P2 = 830002;
export const PUB = 830001;
export const G_RPG = 830001; // root helios_rpg
export const G_DUNGEON = 830002; // helios_rpg.dungeon
export const G_ACT = 830003; // root helios_act

// gameId: title | platform | genre / support | release
export const A = 830011; // ヘリオスの冒険 | P1 | RPG / - | 1990-01-01 | publisher PUB
export const B = 830012; // ヘリオス大作戦 | P1 | ACT / DUNGEON | 1990-01-02
export const C = 830013; // ヘリオス・パズル | P2 | ACT / RPG | undated
export const D = 830014; // ヘリオス外伝 | P2 | - / - | 1990-01-03
export const E = 830015; // ヘリオス迷宮 | P1 | ACT / - | 1989-12-31
export const F = 830016; // ヘリオス伝説 | P2 | RPG / - | 1991-05-05
export const W1 = 830021; // ヘリオス願望 | P1 | RPG / - | 1992-01-01
export const W2 = 830022; // ヘリオス憧憬 | P2 | ACT / - | undated
export const W3 = 830023; // ヘリオス夢 | P1 | - / - | 1993-03-03
export const BULK_FIRST = 831001;
export const BULK_COUNT = 1200;

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

/** Imports the master rows; `bulk` adds the 1,200 bulk games (only the keyset paging test reads them). */
export async function importMyDataMaster({ bulk = false } = {}) {
  const bulkGames = bulk
    ? Array.from({ length: BULK_COUNT }, (_, i) =>
        fictionalGame({ gameId: BULK_FIRST + i, title: `ヘリオス大全${String(i).padStart(4, "0")}`, platformId: P1, releaseDate: null }),
      )
    : [];
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
      ...bulkGames,
    ]),
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

export type Args = Record<string, unknown>;

export const daysFromToday = (days: number) => accountDay(days);
export const yearsAgo = (years: number) => {
  const now = new Date();
  return utcDay(new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate())));
};
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The arguments a download link carries (its token's payload), as the download face reads them. */
export function linkPayload(url: string): { uid: string; kind: string; dataset: string; format: string; args: Args; exp: number } {
  const token = url.slice(`${ORIGIN}/downloads/v1/`.length);
  const body = token.split(".")[0]!;
  const bytes = Uint8Array.from(atob(body.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

export interface Read {
  rows: ExportRow[];
  pageSizes: number[];
  columns: readonly string[];
}

/** Every row of the source, page by page, read from the worker's D1 as the download face would. */
export async function readSource(userId: string, plan: Plan, dataset: string, args: Args): Promise<Read> {
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

export interface Exported extends Read {
  body: any;
}

/** Calls the tool, checks its answer, then reads the rows with the arguments its link carries. */
export async function exportOf(who: { call: Account["call"]; userId: string; plan: Plan }, args: Args): Promise<Exported> {
  const body = ok(await who.call("exportMyData", args), `exportMyData ${JSON.stringify(args)}`);
  const payload = linkPayload(body.url);
  expect(payload).toMatchObject({ uid: who.userId, kind: "myData", dataset: args.dataset, format: body.format });
  const read = await readSource(who.userId, who.plan, payload.dataset, payload.args);
  expect(body.columns).toEqual([...read.columns]);
  expect(body.rowCount, `rowCount of ${JSON.stringify(args)}`).toBe(read.rows.length);
  return { body, ...read };
}

export const sorted = (values: unknown[]) => [...values].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
export const column = (rows: ExportRow[], name: string) => rows.map((row) => row[name]);

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

export const OWN = "ヘリオス限定";

export interface Main extends Player {
  userId: string;
  plan: Plan;
  consoles: { C1: string; C2: string; C3: string };
  play: { Aold: string; Anew: string; B: string; C: string; D: string };
  tags: { T1: number; T2: number };
  collections: { K1: string; K2: string; K3: string };
  custom: { X1: number; X2: number };
}

/** The seeded PREMIUM account of the file, set by seedMyData. */
export let main: Main;

/** Each file's beforeAll: the master rows, then the main account. */
export async function seedMyData() {
  await importMyDataMaster();
  main = await seedMain();
}

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
export async function listIds(tool: string, idKey: string, args: Args, limit = 200): Promise<unknown[]> {
  const body = ok(await main.call(tool, { ...args, limit }), `${tool} ${JSON.stringify(args)}`);
  expect(body.totalCount).toBe(body.items.length);
  return body.items.map((item: Record<string, unknown>) => item[idKey]);
}

/** For each filter: the export's rows and rowCount are the list tool's set, and in its order. */
export async function expectSameAsList(dataset: string, tool: string, idKey: string, cases: Args[], listExtra: Args = {}) {
  for (const filter of cases) {
    const listed = await listIds(tool, idKey, { ...filter, ...listExtra });
    const { rows } = await exportOf(main, { dataset, ...filter });
    expect(column(rows, idKey), `${dataset} ${JSON.stringify(filter)}`).toEqual(listed);
  }
}

// ---------------------------------------------------------------------------------------------
