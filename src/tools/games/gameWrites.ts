import { getTableName } from "drizzle-orm";
import { gameEditions, games } from "../../db/schema";
import { type BulkColumn, bulkDeleteWhereIn, bulkInsert, sameNamedColumns } from "../../platform/bulkWrite";
import { normalizeSearchText } from "../../platform/normalize";
import type { GameRow } from "./masterRows";
import { SEARCH_COLUMNS, searchColumnsOf } from "./searchColumns";

/** A game's titles, by schema property. */
const TITLE_KEYS = ["title", "titleReading", "titleEn", "aliases"] as const;
/** What a game is and refers to besides its titles, by schema property. */
const FACT_KEYS = ["platformId", "publisherId", "genreId", "genreSubId", "releaseDate", "janCode", "modelNumber", "price"] as const;
/** The games columns a custom game sets (customGameFields), in their stored order. */
export const CUSTOM_GAME_KEYS = [...TITLE_KEYS, ...FACT_KEYS] as const;

/**
 * How a game row (master row format) is stored: one place for the operator import and the
 * custom-game tools, so both write the same columns and search forms. Every column but the id is
 * read from the row key named as its schema property.
 */
export const GAME_COLUMNS: BulkColumn[] = [
  { column: games.id.name, key: "gameId" },
  ...sameNamedColumns(
    games,
    [...TITLE_KEYS, "sortKey", ...FACT_KEYS, "genreKey", "mediaId", "gpsId", "dbId", "dbSlug", "dbCoverId", "ownerUserId", "contentHash"],
    ["titleEn", "aliases", "modelNumber"],
  ),
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
  { column: gameEditions.id.name, key: "gameEditionId" },
  ...sameNamedColumns(gameEditions, ["gameId", "position", "title", "modelNumber", "releaseDate", "price", "janCode"], ["modelNumber"]),
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
