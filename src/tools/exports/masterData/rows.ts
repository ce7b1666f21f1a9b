import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db";
import { companyRow, gameRow, genreRow, platformRow } from "../../games/masterRows";
import type { ExportRow } from "../exportSource";

/**
 * Master data rows in the master row format (src/tools/games/masterRows.ts): the columns are the
 * import schema's own keys, so an exported file is what the operator import reads. Rows are read
 * from D1 one keyset page at a time.
 */
export const MASTER_COLUMNS = {
  platforms: Object.keys(platformRow.shape),
  companies: Object.keys(companyRow.shape),
  genres: Object.keys(genreRow.shape),
  games: Object.keys(gameRow.shape),
} as const;

export const MASTER_PAGE_ROWS = 1_000;
export const GAME_PAGE_ROWS = 500;

/** Official rows plus the user's own custom ones, never another user's. */
const ownedBy = (userId: string) => sql`ifnull(owner_user_id, ${userId}) = ${userId}`;

/** Pages of rows ordered by their integer id, read `pageRows` at a time after the last id seen. */
async function* pagesById<R extends { id: number }>(db: Db, query: (afterId: number) => SQL, toRow: (row: R) => ExportRow) {
  let afterId = 0;
  for (;;) {
    const rows = await db.all<R>(query(afterId));
    if (rows.length > 0) yield rows.map(toRow);
    if (rows.length < MASTER_PAGE_ROWS) return;
    afterId = rows.at(-1)!.id;
  }
}

/**
 * Every row of a master table the user may see, by id: the official ones, then (their ids being
 * higher) the user's own, flagged custom.
 */
const visiblePages = (db: Db, userId: string, table: "platforms" | "companies", idKey: string, columns: string) =>
  pagesById<{ id: number; custom: number }>(
    db,
    (afterId) => sql`
      SELECT id, ${sql.raw(columns)}, owner_user_id IS NOT NULL AS custom
      FROM ${sql.raw(table)} WHERE id > ${afterId} AND ${ownedBy(userId)} ORDER BY id LIMIT ${MASTER_PAGE_ROWS}`,
    ({ id, custom, ...rest }) => ({ [idKey]: id, ...rest, custom: custom === 1 }),
  );

export const platformPages = (db: Db, userId: string) =>
  visiblePages(
    db,
    userId,
    "platforms",
    "platformId",
    "name, name_en AS nameEn, short_name AS shortName, maker, release_date AS releaseDate",
  );

export const companyPages = (db: Db, userId: string) =>
  visiblePages(db, userId, "companies", "companyId", "name, name_kana AS nameKana, name_en AS nameEn");

interface GenreDbRow {
  id: number;
  name: string;
  parentId: number | null;
  taxonomyKey: string;
}

/** Main (root) genres only. */
export const mainGenrePages = (db: Db) =>
  pagesById<GenreDbRow>(
    db,
    (afterId) => sql`
      SELECT id, name, parent_id AS parentId, taxonomy_key AS taxonomyKey
      FROM genres WHERE id > ${afterId} AND parent_id IS NULL ORDER BY id LIMIT ${MASTER_PAGE_ROWS}`,
    ({ id, ...rest }) => ({ genreId: id, ...rest }),
  );

export const countQueries = {
  platforms: (userId: string) => sql`SELECT COUNT(*) AS n FROM platforms WHERE ${ownedBy(userId)}`,
  companies: (userId: string) => sql`SELECT COUNT(*) AS n FROM companies WHERE ${ownedBy(userId)}`,
  genres: () => sql`SELECT COUNT(*) AS n FROM genres WHERE parent_id IS NULL`,
  games: (userId: string, platformId: number) =>
    sql`SELECT COUNT(*) AS n FROM games WHERE platform_id = ${platformId} AND ifnull(owner_user_id, ${userId}) = ${userId}`,
};

/** A game as a master row; names and genreKey (the support genre's key, else the main genre's) derive from the ids. */
const GAME_ROW_SELECT = sql.raw(`
  g.id AS gameId, g.title, g.title_reading AS titleReading, g.title_en AS titleEn, g.aliases,
  g.platform_id AS platformId, p.name AS platformName, g.publisher_id AS publisherId, c.name AS publisherName,
  g.genre_id AS genreId, gm.name AS genreName, g.genre_sub_id AS genreSubId, coalesce(gs.taxonomy_key, gm.taxonomy_key) AS genreKey,
  g.release_date AS releaseDate, g.jan_code AS janCode, g.model_number AS modelNumber, g.price,
  g.media_id AS mediaId, g.gps_id AS gpsId, g.db_id AS dbId, g.db_slug AS dbSlug, g.db_cover_id AS dbCoverId,
  (SELECT json_group_array(json_object('gameEditionId', e.id, 'title', e.title, 'modelNumber', json(e.model_number),
     'releaseDate', e.release_date, 'price', e.price, 'janCode', e.jan_code))
   FROM (SELECT * FROM game_editions WHERE game_id = g.id ORDER BY position) e) AS editions
  FROM games g
  JOIN platforms p ON p.id = g.platform_id
  LEFT JOIN companies c ON c.id = g.publisher_id
  LEFT JOIN genres gm ON gm.id = g.genre_id
  LEFT JOIN genres gs ON gs.id = g.genre_sub_id`);

const JSON_GAME_FIELDS = ["titleEn", "aliases", "modelNumber", "editions"] as const;

/** Key order is the column order; JSON columns become arrays. */
function toGameRow(row: Record<string, unknown>): ExportRow {
  for (const field of JSON_GAME_FIELDS) row[field] = JSON.parse(row[field] as string);
  return Object.fromEntries(MASTER_COLUMNS.games.map((column) => [column, row[column] ?? null]));
}

/** Who a game page is read for: official games, or one user's own custom games. */
export type GameOwner = { official: true } | { userId: string };
const ownerCondition = (owner: GameOwner) => ("userId" in owner ? sql`g.owner_user_id = ${owner.userId}` : sql`g.owner_user_id IS NULL`);

/**
 * The games of one platform in release date order (undated last), then gameId: the dated games by
 * (release_date, id) keyset, then the undated ones by id. Each page reads on from the last row.
 */
export async function* platformGamePages(db: Db, platformId: number, owner: GameOwner): AsyncIterable<ExportRow[]> {
  const base = sql`g.platform_id = ${platformId} AND ${ownerCondition(owner)}`;
  let after: { releaseDate: string; gameId: number } | null = null;
  for (;;) {
    const keyset: SQL = after ? sql`AND (g.release_date, g.id) > (${after.releaseDate}, ${after.gameId})` : sql``;
    const rows: Record<string, unknown>[] = await db.all<Record<string, unknown>>(
      sql`SELECT ${GAME_ROW_SELECT} WHERE ${base} AND g.release_date IS NOT NULL ${keyset} ORDER BY g.release_date, g.id LIMIT ${GAME_PAGE_ROWS}`,
    );
    if (rows.length > 0) yield rows.map(toGameRow);
    if (rows.length < GAME_PAGE_ROWS) break;
    const last: Record<string, unknown> = rows.at(-1)!;
    after = { releaseDate: last.releaseDate as string, gameId: last.gameId as number };
  }
  let afterId = 0;
  for (;;) {
    const rows = await db.all<Record<string, unknown>>(
      sql`SELECT ${GAME_ROW_SELECT} WHERE ${base} AND g.release_date IS NULL AND g.id > ${afterId} ORDER BY g.id LIMIT ${GAME_PAGE_ROWS}`,
    );
    if (rows.length > 0) yield rows.map(toGameRow);
    if (rows.length < GAME_PAGE_ROWS) return;
    afterId = rows.at(-1)!.gameId as number;
  }
}

/** The games file's order: release date ascending with undated games last, then gameId. */
export function compareGameRows(a: ExportRow, b: ExportRow): number {
  const dateA = a.releaseDate as string | null;
  const dateB = b.releaseDate as string | null;
  if (dateA !== dateB) {
    if (dateA === null) return 1;
    if (dateB === null) return -1;
    return dateA < dateB ? -1 : 1;
  }
  return (a.gameId as number) - (b.gameId as number);
}
