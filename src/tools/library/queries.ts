import { type SQL, sql } from "drizzle-orm";
import { libraryEntries } from "../../db/schema";
import { type Db, isUniqueViolation, placeContains, rangeConditions } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import type { SharedFilters } from "../../platform/filters";
import { newRevision } from "../../platform/ids";
import { nullsLastSort, orderOf } from "../../platform/keyset";
import { placeKey } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, planCounter } from "../../platform/registeredLimits";
import { differs, touchIfChanged } from "../../platform/writes";
import { resolveAttributeIds } from "../attributes/queries";
import { listGameConditions, listGameConditionsNow } from "../games/queries";
import { joinedConditions, type ListFilter, type UserList, userListRow } from "../games/userLists";
import type { EntryRow } from "./entry";

/** The plan limit on library: counted here, where its rows are written. */
export const LIBRARY_COUNTER = planCounter("library", libraryEntries, libraryEntries.userId);

const ENTRY_COLUMNS = sql.raw(
  "l.game_id, l.rating, l.buy_date, l.buy_price, l.buy_place, l.memo, l.user_links, l.attribute_ids, l.created_at, l.updated_at, l.revision",
);

/** The shared filters over a user's library (l) joined with its games (g). */
export async function libraryConditions(db: Db, userId: string, filters: SharedFilters): Promise<SQL[]> {
  return joinedConditions(userId, await libraryFilter(db, userId, filters));
}

/** The shared filters of a user's library: on the entries (l) and on their games (g). */
export async function libraryFilter(db: Db, userId: string, filters: SharedFilters): Promise<ListFilter> {
  const attributeIds = await resolveAttributeIds(db, userId, filters.attributes ?? [], "attributes");
  return libraryFilterWith(userId, filters, attributeIds, await listGameConditions(db, filters));
}

/** libraryFilter when nothing needs reading first (no attributes, no genre to look up); undefined otherwise. */
export function libraryFilterNow(userId: string, filters: SharedFilters): ListFilter | undefined {
  const games = listGameConditionsNow(filters);
  return games && !filters.attributes?.length ? libraryFilterWith(userId, filters, [], games) : undefined;
}

function libraryFilterWith(userId: string, filters: SharedFilters, attributeIds: readonly string[], games: SQL[]): ListFilter {
  const conditions = [sql`l.user_id = ${userId}`];
  for (const id of attributeIds) conditions.push(sql`EXISTS (SELECT 1 FROM json_each(l.attribute_ids) WHERE value = ${id})`);
  if (filters.buyPlace !== undefined) conditions.push(placeContains("l.buy_place_key", filters.buyPlace));
  conditions.push(
    ...rangeConditions(filters, [
      ["ratingFrom", "l.rating", "from"],
      ["ratingTo", "l.rating", "to"],
      ["buyDateFrom", "l.buy_date", "from"],
      ["buyDateTo", "l.buy_date", "to"],
      ["buyPriceFrom", "l.buy_price", "from"],
      ["buyPriceTo", "l.buy_price", "to"],
    ]),
  );
  return { own: conditions, games };
}

export const LIBRARY_SORTS = {
  buyDate: "l.buy_date",
  buyPrice: "l.buy_price",
  updatedAt: "l.updated_at",
  title: "l.game_sort_key",
  rating: "l.rating",
  releaseDate: "l.game_release_date",
} as const;

export type LibrarySort = keyof typeof LIBRARY_SORTS;
export const LIBRARY_DEFAULT_SORT = { sortBy: "updatedAt", sortOrder: "desc" } as const;

/** Nulls last in either direction; gameId breaks ties so pages never overlap. */
export const librarySort = (sortBy: LibrarySort, sortOrder: "asc" | "desc") => nullsLastSort(LIBRARY_SORTS[sortBy], sortOrder, "l.game_id");
export const libraryOrder = (sortBy: LibrarySort, sortOrder: "asc" | "desc") => orderOf(librarySort(sortBy, sortOrder));

export const LIBRARY: UserList = { table: "library_entries", alias: "l", columns: ENTRY_COLUMNS };

/** One entry with its game, as write results show it; undefined when not the caller's. */
export const findEntry = (db: Db, userId: string, gameId: number) => userListRow<EntryRow>(db, LIBRARY, userId, gameId);

export interface EntryValues {
  rating: number | null;
  buyDate: string | null;
  buyPrice: number | null;
  buyPlace: string | null;
  memo: string | null;
  userLinks: { name: string; url: string }[];
  attributeIds: string[];
}

export const entryValuesOf = (row: EntryRow): EntryValues => ({
  rating: row.rating,
  buyDate: row.buy_date,
  buyPrice: row.buy_price,
  buyPlace: row.buy_place,
  memo: row.memo,
  userLinks: JSON.parse(row.user_links),
  attributeIds: JSON.parse(row.attribute_ids),
});

const alreadyInLibrary = (gameId: number) =>
  new ApiError("already_exists", `Game ${gameId} is already in your library; use updateLibraryEntry.`, { field: "gameId" });

/** The one INSERT of a library entry (addToLibrary, imports); `times` keeps a restored entry's timestamps. */
export const insertEntrySql = (
  userId: string,
  gameId: number,
  values: EntryValues,
  now: string,
  times = { createdAt: now, updatedAt: now },
) => sql`
  INSERT INTO library_entries (user_id, game_id, rating, buy_date, buy_price, buy_place, buy_place_key, memo, user_links, attribute_ids, created_at, updated_at, revision)
  VALUES (${userId}, ${gameId}, ${values.rating}, ${values.buyDate}, ${values.buyPrice}, ${values.buyPlace}, ${placeKey(values.buyPlace)}, ${values.memo},
    ${JSON.stringify(values.userLinks)}, ${JSON.stringify(values.attributeIds)}, ${times.createdAt}, ${times.updatedAt}, ${newRevision()})`;

export async function insertEntry(db: Db, limit: LimitContext, gameId: number, values: EntryValues, now: string) {
  const { userId } = limit;
  try {
    await addWithinLimit(db, limit, LIBRARY_COUNTER, [insertEntrySql(userId, gameId, values, now)]);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyInLibrary(gameId);
    throw error;
  }
}

/**
 * Writes the entry only if its revision is still `expected`; false when someone changed or removed
 * it first. Values equal to the stored ones keep its revision and updatedAt.
 */
export async function updateEntry(db: Db, userId: string, gameId: number, values: EntryValues, expected: string, now: string) {
  const columns = [
    ["rating", values.rating],
    ["buy_date", values.buyDate],
    ["buy_price", values.buyPrice],
    ["buy_place", values.buyPlace],
    ["memo", values.memo],
    ["user_links", JSON.stringify(values.userLinks)],
    ["attribute_ids", JSON.stringify(values.attributeIds)],
  ] as const;
  const result = await db.run(sql`
    UPDATE library_entries SET ${sql.join(
      [
        ...columns.map(([column, value]) => sql`${sql.raw(column)} = ${value}`),
        sql`buy_place_key = ${placeKey(values.buyPlace)}`,
        ...touchIfChanged(differs(columns), now, newRevision()),
      ],
      sql`, `,
    )}
    WHERE user_id = ${userId} AND game_id = ${gameId} AND revision = ${expected}`);
  return result.meta.changes > 0;
}

/** True (in SQL) while the game is in the user's library: writes that need the entry check it in their own batch. */
export const ownedSql = (userId: string, gameId: number) =>
  sql`EXISTS (SELECT 1 FROM library_entries WHERE user_id = ${userId} AND game_id = ${gameId})`;

export const deleteEntrySql = (userId: string, gameId: number) =>
  sql`DELETE FROM library_entries WHERE user_id = ${userId} AND game_id = ${gameId}`;
