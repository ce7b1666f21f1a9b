// exportMasterData over fictional fixture masters (ids 860000+, names エクスポ…): every dataset,
// row order, the master row format (a file re-imports unchanged), the shared official part per
// platform and generation, custom records merged for their owner only, and the tool's gating.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../../src/platform/db";
import { linkFileKey } from "../../../src/platform/exportStorage";
import { cleanUpExports } from "../../../src/tools/bucketCleanup";
import { DOWNLOAD_COSTS } from "../../../src/tools/exports/downloadCosts";
import { officialPartKey, readMasterState } from "../../../src/tools/exports/masterData/officialGames";
import { gameRow } from "../../../src/tools/games/masterRows";
import { usedToday } from "../../support/accounting";
import { fetchLink, ndjsonOf, tokenOf } from "../../support/downloads";
import { type Account, admin, newAccount, ORIGIN, send, textOf } from "../../support/harness";
import {
  importMaster,
  importOk,
  insertCustomCompany,
  insertCustomGame,
  insertCustomPlatform,
  storedGeneration,
  toNdjson,
} from "../../support/master";
import { EXPORTS_GAMES, importExportsMaster } from "../../support/masterSets";

const HOME = 860001; // five official games
const PORTABLE = 860002; // one official game
const EMPTY = 860003; // none until a test adds one

beforeAll(importExportsMaster);

async function exportOk(account: Account, args: Record<string, unknown>) {
  const reply = await account.call("exportMasterData", args);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as Record<string, any>;
}

async function downloadRows(url: string) {
  const response = await fetchLink(url);
  const text = await textOf(response);
  expect(response.status, text).toBe(200);
  return { response, text, rows: ndjsonOf(text) };
}

const ids = (rows: Record<string, any>[], key: string) => rows.map((row) => row[key] as number);
const nonceOf = (url: string) => JSON.parse(atob(tokenOf(url).split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/"))).nonce as string;

describe("exportMasterData: games", () => {
  it("issues a link with the dataset's generation, count, columns and cost", async () => {
    const account = await newAccount();
    const body = await exportOk(account, { dataset: "games", platformId: HOME });
    expect(body).toMatchObject({
      dataset: "games",
      format: "ndjson",
      platformId: HOME,
      totalCount: 5,
      expiresInSec: 900,
      columns: [...Object.keys(gameRow.shape), "custom"],
      downloadCost: DOWNLOAD_COSTS.masterData.games,
    });
    expect(body.generation).toBe(await storedGeneration("games"));
    expect(body.url.startsWith(`${ORIGIN}/downloads/v1/`)).toBe(true);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("downloads the platform's games in release date order (undated last, then gameId) as master rows with names", async () => {
    const account = await newAccount();
    const body = await exportOk(account, { dataset: "games", platformId: HOME });
    const before = await usedToday(account.userId);
    const { response, rows } = await downloadRows(body.url);
    expect(response.headers.get("Content-Type")).toBe("application/x-ndjson");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="games-platform-${HOME}-${body.generation}.ndjson"`);
    expect(await usedToday(account.userId)).toBe(before + DOWNLOAD_COSTS.masterData.games);

    expect(ids(rows, "gameId")).toEqual([860002, 860001, 860003, 860004, 860005]);
    // Official rows are the import format as it is: every column but `custom`, which only custom games carry.
    expect(Object.keys(rows[0]!)).toEqual(body.columns.filter((column: string) => column !== "custom"));
    expect(rows[1]).toEqual({
      gameId: 860001,
      title: "エクスポ クエスト",
      titleReading: "えくすぽくえすと",
      titleEn: ["Expo Quest", "Expo Quest (JP)"],
      aliases: ["エククエ"],
      platformId: HOME,
      platformName: "エクスポ据置機",
      publisherId: 860001,
      publisherName: "エクスポソフト",
      genreId: 860001,
      genreName: "エクスポRPG",
      genreSubId: 860002,
      genreKey: "expo_rpg.action",
      releaseDate: "1990-03-01",
      janCode: "2860001000014",
      modelNumber: ["EXP-001"],
      price: 5800,
      mediaId: "m860001",
      gpsId: "g860001",
      dbId: 8600001,
      dbSlug: "expo-quest",
      dbCoverId: "ecov1",
      editions: [
        {
          gameEditionId: 860001,
          title: "エクスポ クエスト 限定版",
          modelNumber: ["EXP-001L"],
          releaseDate: "1990-03-01",
          price: 9800,
          janCode: "2860001000021",
        },
      ],
    });
    expect(rows[0]).toMatchObject({ publisherName: '"引用",カンマ社', genreKey: "expo_puzzle", genreSubId: null, editions: [] });
    expect(rows[2]).toMatchObject({ price: 6200.5, genreKey: "expo_rpg", publisherId: null, publisherName: null });
    expect(rows[4]).toMatchObject({ titleReading: null, releaseDate: null, titleEn: ["Unreleased B"] });
    expect(rows.every((row) => !("custom" in row))).toBe(true);
  });

  it("re-imports through the operator import unchanged: nothing upserted, the generation kept", async () => {
    const account = await newAccount();
    const body = await exportOk(account, { dataset: "games", platformId: HOME });
    const { text } = await downloadRows(body.url);
    const generation = await storedGeneration("games");
    const reply = await importOk("games", text);
    expect(reply.body).toMatchObject({ received: 5, upserted: 0, unchanged: 5, generation });
  });

  it("merges the caller's custom games on the platform in order, flagged custom, for the caller only", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const dated = await insertCustomGame(owner.userId, {
      title: "自作 エクスポ",
      platformId: HOME,
      releaseDate: "1990-01-15",
      publisherId: 860001,
    });
    const undated = await insertCustomGame(owner.userId, { title: "自作 日付なし", platformId: HOME });
    await insertCustomGame(owner.userId, { title: "自作 別機種", platformId: PORTABLE, releaseDate: "1990-01-15" });

    const mine = await exportOk(owner, { dataset: "games", platformId: HOME });
    expect(mine.totalCount).toBe(7);
    const { rows } = await downloadRows(mine.url);
    expect(ids(rows, "gameId")).toEqual([860002, dated, 860001, 860003, 860004, 860005, undated]);
    expect(rows[1]).toMatchObject({
      gameId: dated,
      custom: true,
      platformName: "エクスポ据置機",
      publisherName: "エクスポソフト",
      dbSlug: null,
    });
    expect(rows.filter((row) => row.custom === true)).toHaveLength(2);
    expect(Object.keys(rows[1]!)).toEqual(mine.columns);

    const theirs = await exportOk(other, { dataset: "games", platformId: HOME });
    expect(theirs.totalCount).toBe(5);
    expect(ids((await downloadRows(theirs.url)).rows, "gameId")).toEqual([860002, 860001, 860003, 860004, 860005]);
  });

  it("builds the official part once per generation and reuses it for every user", async () => {
    const state = await readMasterState(createDb(env.DB));
    const key = officialPartKey(PORTABLE, state);
    await env.EXPORTS.delete(key);
    const first = await newAccount();
    const second = await newAccount();
    await downloadRows((await exportOk(first, { dataset: "games", platformId: PORTABLE })).url);
    const part = await env.EXPORTS.head(key);
    expect(part?.customMetadata).toMatchObject({ tag: state.tag });

    // What the second user gets comes from the stored part, not from D1: mark the part and see the mark.
    const marked = { ...ndjsonOf(await (await env.EXPORTS.get(key))!.text())[0]!, title: "保存済みパートから" };
    await env.EXPORTS.put(key, toNdjson([marked]), { customMetadata: { tag: state.tag } });
    const { rows } = await downloadRows((await exportOk(second, { dataset: "games", platformId: PORTABLE })).url);
    expect(rows.map((row) => row.title)).toEqual(["保存済みパートから"]);
    await env.EXPORTS.delete(key);
  });

  it("builds a new part when the master generation changes, and the cleanup removes the old one", async () => {
    const account = await newAccount();
    const before = await readMasterState(createDb(env.DB));
    await downloadRows((await exportOk(account, { dataset: "games", platformId: EMPTY })).url);
    expect(await env.EXPORTS.head(officialPartKey(EMPTY, before))).not.toBeNull();

    const added = {
      ...ndjsonOf(EXPORTS_GAMES)[0]!,
      gameId: 860010,
      title: "エクスポ 空機ソフト",
      platformId: EMPTY,
      janCode: null,
      editions: [],
    };
    await importOk("games", toNdjson([added]));
    const after = await readMasterState(createDb(env.DB));
    expect(after.tag).not.toBe(before.tag);
    const body = await exportOk(account, { dataset: "games", platformId: EMPTY });
    expect(body.generation).toBe(after.gamesGeneration);
    expect(ids((await downloadRows(body.url)).rows, "gameId")).toEqual([860010]);
    expect(await env.EXPORTS.head(officialPartKey(EMPTY, after))).not.toBeNull();

    const removed = await cleanUpExports(env, new Date());
    expect(removed.officialParts).toBeGreaterThanOrEqual(1);
    expect(await env.EXPORTS.head(officialPartKey(EMPTY, before))).toBeNull();
    expect(await env.EXPORTS.head(officialPartKey(EMPTY, after))).not.toBeNull();
  });

  it("serves two users who download a platform at the same time, before any part exists, the same official rows", async () => {
    const state = await readMasterState(createDb(env.DB));
    await env.EXPORTS.delete(officialPartKey(HOME, state));
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const [linkA, linkB] = await Promise.all([
      exportOk(a, { dataset: "games", platformId: HOME }),
      exportOk(b, { dataset: "games", platformId: HOME }),
    ]);
    const [rowsA, rowsB] = await Promise.all([downloadRows(linkA.url), downloadRows(linkB.url)]);
    expect(rowsA.text).toBe(rowsB.text);
    expect(ids(rowsA.rows, "gameId")).toEqual([860002, 860001, 860003, 860004, 860005]);
  });
});

describe("exportMasterData: platforms, companies, genres", () => {
  it("exports every platform by platformId, the caller's custom ones flagged custom, nobody else's", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const mine = await insertCustomPlatform(owner.userId, "エクスポ自作機");
    const theirs = await insertCustomPlatform(other.userId, "よその自作機");
    const body = await exportOk(owner, { dataset: "platforms" });
    expect(body).toMatchObject({
      dataset: "platforms",
      columns: ["platformId", "name", "nameEn", "shortName", "maker", "releaseDate", "custom"],
    });
    expect(body).not.toHaveProperty("platformId");
    expect(body.generation).toBe(await storedGeneration("platforms"));
    const { response, rows } = await downloadRows(body.url);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="platforms-${body.generation}.ndjson"`);
    const platformIds = ids(rows, "platformId");
    expect(platformIds).toEqual([...platformIds].sort((a, b) => a - b));
    expect(rows.find((row) => row.platformId === HOME)).toEqual({
      platformId: HOME,
      name: "エクスポ据置機",
      nameEn: "Expo Home",
      shortName: "EXH",
      maker: "エクスポ電機",
      releaseDate: "1988-10-01",
      custom: false,
    });
    expect(rows.find((row) => row.platformId === mine)).toMatchObject({ name: "エクスポ自作機", custom: true });
    expect(platformIds).not.toContain(theirs);
    expect(rows.filter((row) => row.custom).map((row) => row.platformId)).toEqual([mine]);
  });

  it("exports every publisher by companyId, the caller's custom ones flagged custom", async () => {
    const owner = await newAccount();
    const mine = await insertCustomCompany(owner.userId, { name: "自作パブリッシャー", nameKana: "じさく" });
    const body = await exportOk(owner, { dataset: "companies" });
    expect(body.columns).toEqual(["companyId", "name", "nameKana", "nameEn", "custom"]);
    const { rows } = await downloadRows(body.url);
    const companyIds = ids(rows, "companyId");
    expect(companyIds).toEqual([...companyIds].sort((a, b) => a - b));
    expect(rows.find((row) => row.companyId === 860002)).toEqual({
      companyId: 860002,
      name: '"引用",カンマ社',
      nameKana: null,
      nameEn: null,
      custom: false,
    });
    expect(rows.find((row) => row.companyId === mine)).toMatchObject({ name: "自作パブリッシャー", nameKana: "じさく", custom: true });
  });

  it("exports main genres only, by genreId", async () => {
    const body = await exportOk(await newAccount(), { dataset: "genres" });
    expect(body.columns).toEqual(["genreId", "name", "parentId", "taxonomyKey"]);
    const { rows } = await downloadRows(body.url);
    expect(rows.every((row) => row.parentId === null)).toBe(true);
    expect(rows.find((row) => row.genreId === 860001)).toEqual({
      genreId: 860001,
      name: "エクスポRPG",
      parentId: null,
      taxonomyKey: "expo_rpg",
    });
    expect(ids(rows, "genreId")).not.toContain(860002);
    expect(ids(rows, "genreId")).toEqual([...ids(rows, "genreId")].sort((a, b) => a - b));
    expect(body.totalCount).toBe(rows.length);
  });

  it.each(["platforms", "companies", "genres"] as const)(
    "%s files re-import unchanged when the caller has no custom records",
    async (dataset) => {
      const body = await exportOk(await newAccount(), { dataset });
      const { text, rows } = await downloadRows(body.url);
      const reply = await importMaster(dataset, text);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body).toMatchObject({ received: rows.length, upserted: 0 });
    },
  );
});

describe("exportMasterData: arguments and access", () => {
  it.each([
    [{ dataset: "games" }, "platformId", 400],
    [{ dataset: "platforms", platformId: HOME }, "platformId", 400],
    [{ dataset: "genres", platformId: HOME }, "platformId", 400],
    [{ dataset: "games", platformId: HOME, format: "csv" }, "format", 400],
    [{ dataset: "consoles" }, "dataset", 400],
    [{ dataset: "games", platformId: 869999 }, "platformId", 404],
  ])("refuses %j naming %s", async (args, field, status) => {
    const reply = await (await newAccount()).call("exportMasterData", args);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ code: status === 404 ? "not_found" : "invalid_input", field });
  });

  it("refuses a custom platform, even the caller's own, with 404 not_found", async () => {
    const owner = await newAccount();
    const custom = await insertCustomPlatform(owner.userId, "エクスポ自作機2");
    const reply = await owner.call("exportMasterData", { dataset: "games", platformId: custom });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: "not_found", field: "platformId" });
  });

  it("is PREMIUM only, needs games:read, and is POST only", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    expect((await light.call("exportMasterData", { dataset: "platforms" })).body).toMatchObject({ code: "plan_required" });
    const noGames = await newAccount({ scopes: ["library:read", "play:read"] });
    const scoped = await noGames.call("exportMasterData", { dataset: "platforms" });
    expect(scoped.status).toBe(403);
    expect(scoped.body).toMatchObject({ code: "insufficient_scope" });
    const get = await (await newAccount()).call("exportMasterData", { dataset: "platforms" }, "GET");
    expect(get.status).toBe(405);
  });

  it("is published as REST only", async () => {
    const tools = (await send("/rest/v1/tools")).body.tools as { name: string; restOnly?: boolean; methods: string[] }[];
    expect(tools.find((tool) => tool.name === "exportMasterData")).toMatchObject({ restOnly: true, methods: ["POST"] });
  });

  it("refuses the download (403, nothing charged) when the user left PREMIUM after the link was issued", async () => {
    const account = await newAccount();
    const body = await exportOk(account, { dataset: "games", platformId: HOME });
    await admin("PATCH", `/users/${account.userId}`, { plan: "LIGHT" });
    const before = await usedToday(account.userId);
    const response = await fetchLink(body.url);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "plan_required" });
    expect(await usedToday(account.userId)).toBe(before);
    expect(await env.EXPORTS.head(linkFileKey(nonceOf(body.url)))).toBeNull();
  });
});
