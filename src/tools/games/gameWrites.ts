import { type BulkColumn, bulkDeleteWhereIn, bulkInsert } from "../../platform/bulkWrite";
import { normalizeSearchText } from "../../platform/normalize";
import type { GameRow } from "./masterRows";
import { SEARCH_COLUMNS, searchColumnsOf } from "./searchColumns";

/**
 * How a game row (master row format) is stored: one place for the operator import and the
 * custom-game tools, so both write the same columns and search forms.
 */
const col = (column: string, key: string, json = false): BulkColumn => ({ column, key, json });

export const GAME_COLUMNS: BulkColumn[] = [
  col("id", "gameId"),
  col("title", "title"),
  col("title_reading", "titleReading"),
  col("title_en", "titleEn", true),
  col("aliases", "aliases", true),
  col("sort_key", "sortKey"),
  col("platform_id", "platformId"),
  col("publisher_id", "publisherId"),
  col("genre_id", "genreId"),
  col("genre_sub_id", "genreSubId"),
  col("release_date", "releaseDate"),
  col("jan_code", "janCode"),
  col("model_number", "modelNumber", true),
  col("price", "price"),
  col("media_id", "mediaId"),
  col("gps_id", "gpsId"),
  col("db_id", "dbId"),
  col("db_slug", "dbSlug"),
  col("db_cover_id", "dbCoverId"),
  col("owner_user_id", "ownerUserId"),
  col("content_hash", "contentHash"),
  ...SEARCH_COLUMNS,
];

export type StoredGameRow = Omit<GameRow, "editions"> & {
  editions: GameRow["editions"];
  ownerUserId?: string | null;
  contentHash: string;
};

/** The row plus what is derived from it: search forms and the reading-order sort key. */
export const toGameDbRow = (row: StoredGameRow) => ({
  ...row,
  ...searchColumnsOf(row),
  sortKey: normalizeSearchText(row.titleReading ?? row.title),
});

const EDITION_COLUMNS: BulkColumn[] = [
  col("id", "gameEditionId"),
  col("game_id", "gameId"),
  col("position", "position"),
  col("title", "title"),
  col("model_number", "modelNumber", true),
  col("release_date", "releaseDate"),
  col("price", "price"),
  col("jan_code", "janCode"),
];

/**
 * Writes the games and replaces their editions. `insert` refuses an id that is taken (a UNIQUE
 * violation) instead of overwriting it, for new rows whose id was just allocated.
 */
export function gameWriteStatements(d1: D1Database, rows: StoredGameRow[], mode: "upsert" | "insert" = "upsert"): D1PreparedStatement[] {
  const ids = rows.map((g) => g.gameId);
  const editions = rows.flatMap((g) => g.editions.map((e, position) => ({ ...e, gameId: g.gameId, position })));
  return [
    ...bulkInsert(d1, "games", GAME_COLUMNS, rows.map(toGameDbRow), mode === "upsert" ? "id" : undefined),
    ...bulkDeleteWhereIn(d1, "game_editions", "game_id", ids),
    ...bulkInsert(d1, "game_editions", EDITION_COLUMNS, editions),
  ];
}
