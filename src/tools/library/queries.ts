import { and, count, eq, exists, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { games, libraryEntries } from "../../db/schema";
import { inJsonArray, visibleToUser } from "../../platform/columns";
import { columnList, type Db, isUniqueViolation, placeContains, rangeConditions, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { type SharedFilters, sharedFilterArgs } from "../../platform/filters";
import { newRevision } from "../../platform/ids";
import { sortTable } from "../../platform/keyset";
import { placeKey } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, listSizeCounter, runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { positiveId } from "../../platform/schemas";
import { differs, touchedIfChanged } from "../../platform/writes";
import { attributesKept } from "../attributes/queries";
import {
  attributeConditions,
  type ListFilter,
  type ListLookups,
  listFilter,
  readJoinedConditions,
  userList,
  userListRow,
} from "../shared/userLists";
import { taggedWithAny } from "../tags/queries";
import { ENTRY_KEYS, type EntryRow } from "./items";

/** 404 for a game the caller's library lacks (a play record or copy needs it there), naming the tool that adds it. */
export const notInLibrary = (gameId: number) =>
  new ApiError("not_found", `Game ${gameId} is not in your library: add it with addToLibrary first.`, { field: "gameId" });

/** The plan limit on library: counted here, where its rows are written. */
export const LIBRARY_COUNTER = listSizeCounter("library", "library");

/** The library as its list queries read it: aliased l, beside its games (g). */
const l = alias(libraryEntries, "l");
const byUserAndGame = (userId: string, gameId: number) => and(eq(libraryEntries.userId, userId), eq(libraryEntries.gameId, gameId));

/** The library's filters (getLibrary, exportMyData's library dataset): the shared ones and the user's tags. */
export const libraryFilterArgs = {
  ...sharedFilterArgs,
  tagIds: z.array(positiveId).max(5).optional().describe("Your tags (getTags); games holding any of them. LIGHT and above."),
};

export type LibraryFilters = SharedFilters & { tagIds?: number[] };

/** The library's filters over a user's library (l) joined with its games (g), their lookups read first. */
export const libraryConditions = (db: Db, userId: string, filters: LibraryFilters): Promise<SQL[]> =>
  readJoinedConditions(db, userId, filters, (looked) => libraryFilter(userId, filters, looked));

/** The library's filters, from what their lookups (listLookups) looked up: on the entries (l) and on their games (g). */
export function libraryFilter(userId: string, filters: LibraryFilters, looked: Partial<ListLookups>): ListFilter {
  const conditions = [eq(l.userId, userId), ...attributeConditions(l.attributeIds, looked)];
  if (filters.tagIds?.length) conditions.push(taggedWithAny(userId, filters.tagIds, l.gameId));
  if (filters.buyPlace !== undefined) conditions.push(placeContains(l.buyPlaceKey, filters.buyPlace));
  conditions.push(...rangeConditions(filters, { rating: l.rating, buyDate: l.buyDate, buyPrice: l.buyPrice }));
  return listFilter(conditions, filters, looked);
}

/** getLibrary's sorts (and the library dataset's); gameId breaks ties so pages never overlap. */
export const LIBRARY_SORTS = sortTable(
  {
    buyDate: l.buyDate,
    buyPrice: l.buyPrice,
    updatedAt: l.updatedAt,
    title: l.gameSortKey,
    rating: l.rating,
    releaseDate: l.gameReleaseDate,
    createdAt: l.createdAt,
  },
  l.gameId,
  { sortBy: "updatedAt", sortOrder: "desc" },
  { title: "asc" },
);

export const LIBRARY = userList(libraryEntries, l, columnList(l, ENTRY_KEYS), "library");

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
) =>
  statements
    .insert(libraryEntries)
    .values({ userId, gameId, ...values, buyPlaceKey: placeKey(values.buyPlace), ...times, revision: newRevision() })
    .getSQL();

/**
 * True (in SQL) while every one of these distinct games exists and the user can see it: a write
 * that names games checks it in its own batch, since a custom game can be removed meanwhile.
 */
export const gamesVisibleSql = (userId: string, gameIds: readonly number[]) =>
  sql`${statements
    .select({ n: count() })
    .from(games)
    .where(and(inJsonArray(games.id, gameIds), visibleToUser(games.ownerUserId, userId)))} = ${gameIds.length}`;

/**
 * Adds the entry in a batch that checks the plan's limit, that the game is still there for the user
 * (404) and that the own attributes it names still exist (400 naming attributes).
 */
export async function insertEntry(db: Db, limit: LimitContext, gameId: number, values: EntryValues, now: string) {
  const { userId } = limit;
  const gameThere = { holds: gamesVisibleSql(userId, [gameId]), error: () => notFound(`Game ${gameId}`) };
  const conditions = [gameThere, ...attributesKept(userId, values.attributeIds, "attributes")];
  try {
    await addWithinLimit(db, limit, LIBRARY_COUNTER, [insertEntrySql(userId, gameId, values, now)], conditions);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyInLibrary(gameId);
    throw error;
  }
}

export const revisionConflict = () =>
  new ApiError("revision_conflict", "The library entry changed since that revision; read it again and resend.", { field: "revision" });

/**
 * Writes the entry in a batch that runs only while it is still there with revision `expected` and
 * the own attributes it names still exist: otherwise nothing is written (404, 409
 * revision_conflict, 400 naming attributes). Values equal to the stored ones keep its revision and
 * updatedAt.
 */
export async function updateEntry(db: Db, userId: string, gameId: number, values: EntryValues, expected: string, now: string) {
  const t = libraryEntries;
  const changed = differs([
    [t.rating, values.rating],
    [t.buyDate, values.buyDate],
    [t.buyPrice, values.buyPrice],
    [t.buyPlace, values.buyPlace],
    [t.memo, values.memo],
    [t.userLinks, JSON.stringify(values.userLinks)],
    [t.attributeIds, JSON.stringify(values.attributeIds)],
  ]);
  const conditions: WriteCondition[] = [
    { holds: ownedSql(userId, gameId), error: () => notFound(`Game ${gameId} in your library`) },
    { holds: ownedSql(userId, gameId, expected), error: revisionConflict },
    ...attributesKept(userId, values.attributeIds, "attributes"),
  ];
  await runConditional(db, conditions, [
    statements
      .update(t)
      .set({ ...values, buyPlaceKey: placeKey(values.buyPlace), ...touchedIfChanged(t, changed, now, newRevision()) })
      .where(byUserAndGame(userId, gameId))
      .getSQL(),
  ]);
}

/**
 * True (in SQL) while the game is in the user's library (with this revision, when given): writes
 * that need the entry check it in their own batch.
 */
export const ownedSql = (userId: string, gameId: number, revision?: string) =>
  exists(
    statements
      .select({ one: sql`1` })
      .from(libraryEntries)
      .where(and(byUserAndGame(userId, gameId), revision === undefined ? undefined : eq(libraryEntries.revision, revision))),
  );
