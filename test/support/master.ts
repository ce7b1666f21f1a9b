// Game master helpers: NDJSON imports through the operator API (raw text bodies, which the
// harness's JSON-encoding admin() cannot send) and custom records written straight into D1,
// since the tools that create them (addCustomGame, ...) do not exist yet.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { normalizeSearchText } from "../../src/platform/normalize";
import { CUSTOM_ID_BASE } from "../../src/platform/schemas";
import type { GameRow } from "../../src/tools/games/masterRows";
import { searchColumnsOf } from "../../src/tools/games/searchColumns";
import { WITHOUT_IDENTIFIERS } from "./gameRows";
import { ADMIN_TOKEN, type Reply, send } from "./harness";

export type Dataset = "platforms" | "companies" | "genres" | "games";

/** Rows as NDJSON text, one JSON object a line. */
export const toNdjson = (rows: readonly object[]) => `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;

/** POST /admin/v1/master/{dataset} with a raw NDJSON body (token overridable for 401 cases). */
export function importMaster(dataset: string, body: string, authorization: string | null = `Bearer ${ADMIN_TOKEN}`): Promise<Reply> {
  const headers: Record<string, string> = { "Content-Type": "application/x-ndjson" };
  if (authorization !== null) headers.Authorization = authorization;
  return send(`/admin/v1/master/${dataset}`, { method: "POST", headers, body });
}

/** Imports a body and fails the test unless the operator API accepted it. */
export async function importOk(dataset: Dataset, body: string): Promise<Reply> {
  const reply = await importMaster(dataset, body);
  expect(reply.status, `import ${dataset}: ${JSON.stringify(reply.body)}`).toBe(200);
  return reply;
}

export interface MasterFixture {
  platforms?: string;
  companies?: string;
  genres?: string;
  games?: string;
}

/** Imports a fixture set in dependency order (games last). Imports are idempotent. */
export async function importFixture(fixture: MasterFixture): Promise<void> {
  for (const dataset of ["platforms", "companies", "genres", "games"] as const) {
    const body = fixture[dataset];
    if (body !== undefined) await importOk(dataset, body);
  }
}

/** The stored generation of a dataset, read from D1 (what tools and imports report). */
export async function storedGeneration(dataset: Dataset): Promise<string | null> {
  return env.DB.prepare("SELECT value FROM master_meta WHERE key = ?").bind(`generation:${dataset}`).first<string>("value");
}

/** EAN-13 with its check digit computed from the first 12 digits. Use the in-store prefix "2". */
export function ean13(first12: string): string {
  if (!/^\d{12}$/.test(first12)) throw new Error(`12 digits expected: ${first12}`);
  const sum = [...first12]
    .map(Number)
    .reverse()
    .reduce((acc, digit, i) => acc + digit * (i % 2 === 0 ? 3 : 1), 0);
  return `${first12}${(10 - (sum % 10)) % 10}`;
}

/** A fresh id in the custom range (>= 1_000_000_000), random so parallel files never collide. */
export const newCustomId = () => CUSTOM_ID_BASE + 1 + Math.floor(Math.random() * 900_000_000);

export interface CustomGameInput {
  id?: number;
  title: string;
  titleReading?: string | null;
  titleEn?: string[];
  aliases?: string[];
  platformId: number;
  publisherId?: number | null;
  genreId?: number | null;
  genreSubId?: number | null;
  releaseDate?: string | null;
  janCode?: string | null;
  modelNumber?: string[];
  price?: number | null;
  dbId?: number | null;
  dbSlug?: string | null;
  dbCoverId?: string | null;
}

/** A user's custom game (owner_user_id = userId) with its search columns, as addCustomGame would store it. */
export async function insertCustomGame(userId: string, game: CustomGameInput): Promise<number> {
  const id = game.id ?? newCustomId();
  const titleEn = game.titleEn ?? [];
  const aliases = game.aliases ?? [];
  const modelNumber = game.modelNumber ?? [];
  const titleReading = game.titleReading ?? null;
  const janCode = game.janCode ?? null;
  const search = searchColumnsOf({ title: game.title, titleReading, titleEn, aliases, janCode, modelNumber, editions: [] });
  await env.DB.prepare(
    `INSERT INTO games (id, title, title_reading, title_en, aliases, sort_key, platform_id, publisher_id, genre_id, genre_sub_id,
        release_date, jan_code, model_number, price, media_id, gps_id, db_id, db_slug, db_cover_id, owner_user_id, content_hash,
        search_title, search_title_en, search_alias, search_model, search_edition_model,
        search_edition_title)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, 'custom', ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      id,
      game.title,
      titleReading,
      JSON.stringify(titleEn),
      JSON.stringify(aliases),
      normalizeSearchText(titleReading ?? game.title),
      game.platformId,
      game.publisherId ?? null,
      game.genreId ?? null,
      game.genreSubId ?? null,
      game.releaseDate ?? null,
      janCode,
      JSON.stringify(modelNumber),
      game.price ?? null,
      game.dbId ?? null,
      game.dbSlug ?? null,
      game.dbCoverId ?? null,
      userId,
      ...Object.values(search),
    )
    .run();
  return id;
}

/** A user's custom platform. */
export async function insertCustomPlatform(userId: string, name: string, id = newCustomId()): Promise<number> {
  await env.DB.prepare(
    "INSERT INTO platforms (id, name, name_en, short_name, maker, release_date, owner_user_id, content_hash) VALUES (?, ?, NULL, NULL, NULL, NULL, ?, 'custom')",
  )
    .bind(id, name, userId)
    .run();
  return id;
}

/** A user's custom publisher, with the search text listPublishers reads. */
export async function insertCustomCompany(
  userId: string,
  company: { name: string; nameKana?: string | null; nameEn?: string | null },
  id = newCustomId(),
): Promise<number> {
  const searchText = [company.name, company.nameKana, company.nameEn]
    .filter((v): v is string => Boolean(v))
    .map(normalizeSearchText)
    .join("|");
  await env.DB.prepare(
    "INSERT INTO companies (id, name, name_kana, name_en, search_text, owner_user_id, content_hash) VALUES (?, ?, ?, ?, ?, ?, 'custom')",
  )
    .bind(id, company.name, company.nameKana ?? null, company.nameEn ?? null, searchText, userId)
    .run();
  return id;
}

/** A user's own attribute label (addAttribute does not exist yet). */
export async function insertAttribute(userId: string, label: string, createdAt: string): Promise<string> {
  const id = `attr_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
  await env.DB.prepare("INSERT INTO attributes (id, user_id, label, created_at) VALUES (?, ?, ?, ?)")
    .bind(id, userId, label, createdAt)
    .run();
  return id;
}

/** Ids of a reply's items, in order. */
export const gameIdsOf = (reply: Reply) => (reply.body.items as { gameId: number }[]).map((item) => item.gameId);

/** A fictional game in the master row format: every identifier null, only the given fields set. */
export const fictionalGame = (fields: Pick<GameRow, "gameId" | "title" | "platformId"> & Partial<GameRow>): GameRow => ({
  titleReading: null,
  titleEn: [],
  aliases: [],
  publisherId: null,
  genreId: null,
  genreSubId: null,
  releaseDate: null,
  ...WITHOUT_IDENTIFIERS,
  ...fields,
});
