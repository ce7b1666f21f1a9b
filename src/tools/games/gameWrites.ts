import { getTableName } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { gameEditions, games } from "../../db/schema";
import { type BulkColumn, bulkDeleteWhereIn, bulkInsert } from "../../platform/bulkWrite";
import { normalizeSearchText } from "../../platform/normalize";
import type { GameRow } from "./masterRows";
import { SEARCH_COLUMNS, searchColumnsOf } from "./searchColumns";

/**
 * How a game row (master row format) is stored: one place for the operator import and the
 * custom-game tools, so both write the same columns and search forms.
 */
const col = (column: SQLiteColumn, key: string, json = false): BulkColumn => ({ column: column.name, key, json });

export const GAME_COLUMNS: BulkColumn[] = [
  col(games.id, "gameId"),
  col(games.title, "title"),
  col(games.titleReading, "titleReading"),
  col(games.titleEn, "titleEn", true),
  col(games.aliases, "aliases", true),
  col(games.sortKey, "sortKey"),
  col(games.platformId, "platformId"),
  col(games.publisherId, "publisherId"),
  col(games.genreId, "genreId"),
  col(games.genreSubId, "genreSubId"),
  col(games.releaseDate, "releaseDate"),
  col(games.janCode, "janCode"),
  col(games.modelNumber, "modelNumber", true),
  col(games.price, "price"),
  col(games.mediaId, "mediaId"),
  col(games.gpsId, "gpsId"),
  col(games.dbId, "dbId"),
  col(games.dbSlug, "dbSlug"),
  col(games.dbCoverId, "dbCoverId"),
  col(games.ownerUserId, "ownerUserId"),
  col(games.contentHash, "contentHash"),
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
  col(gameEditions.id, "gameEditionId"),
  col(gameEditions.gameId, "gameId"),
  col(gameEditions.position, "position"),
  col(gameEditions.title, "title"),
  col(gameEditions.modelNumber, "modelNumber", true),
  col(gameEditions.releaseDate, "releaseDate"),
  col(gameEditions.price, "price"),
  col(gameEditions.janCode, "janCode"),
];

/**
 * Writes the games and replaces their editions. `insert` refuses an id that is taken (a UNIQUE
 * violation) instead of overwriting it, for new rows whose id was just allocated.
 */
export function gameWriteStatements(d1: D1Database, rows: StoredGameRow[], mode: "upsert" | "insert" = "upsert"): D1PreparedStatement[] {
  const ids = rows.map((g) => g.gameId);
  const editions = rows.flatMap((g) => g.editions.map((e, position) => ({ ...e, gameId: g.gameId, position })));
  // raw SQL: bulk writes of any number of rows, one JSON parameter per chunk (platform/bulkWrite.ts).
  return [
    ...bulkInsert(d1, getTableName(games), GAME_COLUMNS, rows.map(toGameDbRow), mode === "upsert" ? games.id.name : undefined),
    ...bulkDeleteWhereIn(d1, getTableName(gameEditions), gameEditions.gameId.name, ids),
    ...bulkInsert(d1, getTableName(gameEditions), EDITION_COLUMNS, editions),
  ];
}
