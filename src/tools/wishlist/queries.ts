import { and, eq, gte, isNull, lt, not, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { wishlistEntries } from "../../db/schema";
import { columnList, type Db, isUniqueViolation, placeContains, rangeConditions, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { rating, sharedFilterArgs } from "../../platform/filters";
import { newRevision } from "../../platform/ids";
import { sortTable } from "../../platform/keyset";
import { placeKey } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, listSizeCounter, type WriteCondition } from "../../platform/registeredLimits";
import { isoDate, text } from "../../platform/schemas";
import { setDiffers, touchedIfChanged } from "../../platform/writes";
import type { GameFilters } from "../games/queries";
import { gamesVisibleSql, ownedSql } from "../library/queries";
import {
  type ListFilter,
  type ListLookups,
  listFilter,
  lookedToday,
  readJoinedConditions,
  userList,
  userListRow,
} from "../shared/userLists";
import { WISH_KEYS, type WishRow } from "./items";

/** The plan limit on wishlist: counted here, where its rows are written. */
export const WISHLIST_COUNTER = listSizeCounter("wishlist", "wishlist");

/** The wishlist as its list queries read it: aliased w, beside its games (g). */
const w = alias(wishlistEntries, "w");
const byUserAndGame = (userId: string, gameId: number) => and(eq(wishlistEntries.userId, userId), eq(wishlistEntries.gameId, gameId));

const { platformIds, genreId, title, releaseDateFrom, releaseDateTo } = sharedFilterArgs;

/** The wishlist's filters (getWishlist, exportMyData's wishlist dataset), read by wishlistConditions. */
export const wishlistFilterArgs = {
  platformIds,
  genreId,
  title,
  releaseDateFrom,
  releaseDateTo,
  wishPlace: text(30).optional().describe("Substring, case-insensitive."),
  wishDateFrom: isoDate.optional(),
  wishDateTo: isoDate.optional(),
  wishDateOverdue: z
    .enum(["overdue", "not_overdue"])
    .optional()
    .describe("overdue: a planned date before today; not_overdue: none, or today or later."),
  wishPriceFrom: z.number().int().min(0).optional(),
  wishPriceTo: z.number().int().min(0).optional(),
  priorityFrom: rating.optional(),
  priorityTo: rating.optional(),
};

/** Ranges of the wishlist's filters whose end may not come before their start. */
export const WISHLIST_RANGES: [keyof typeof wishlistFilterArgs, keyof typeof wishlistFilterArgs][] = [
  ["releaseDateFrom", "releaseDateTo"],
  ["wishDateFrom", "wishDateTo"],
  ["wishPriceFrom", "wishPriceTo"],
  ["priorityFrom", "priorityTo"],
];

export interface WishFilters extends GameFilters {
  wishPlace?: string;
  wishDateFrom?: string;
  wishDateTo?: string;
  wishDateOverdue?: "overdue" | "not_overdue";
  wishPriceFrom?: number;
  wishPriceTo?: number;
  priorityFrom?: number;
  priorityTo?: number;
}

/** overdue: a planned date before today (the user's day); not_overdue: no date, or today or later. */
function overdueCondition(which: "overdue" | "not_overdue", today: string): SQL {
  return which === "overdue" ? lt(w.wishDate, today) : sql`(${or(isNull(w.wishDate), gte(w.wishDate, today))})`;
}

/** The wishlist's filters over the entries (w) joined with their games (g), their lookups read first. */
export const wishlistConditions = (db: Db, userId: string, filters: WishFilters, now: Date): Promise<SQL[]> =>
  readJoinedConditions(db, userId, filters, (looked) => wishlistFilter(userId, filters, looked), wishTodayAt(filters, now));

/** The call's instant when the wishlist filters need the user's today (wishDateOverdue), for listLookups. */
export const wishTodayAt = (filters: WishFilters, now: Date) => (filters.wishDateOverdue === undefined ? undefined : now);

/** The wishlist's filters, from what their lookups (listLookups) looked up: on the entries (w) and on their games (g). */
export function wishlistFilter(userId: string, filters: WishFilters, looked: Partial<ListLookups>): ListFilter {
  const conditions = [eq(w.userId, userId)];
  if (filters.wishPlace !== undefined) conditions.push(placeContains(w.wishPlaceKey, filters.wishPlace));
  if (filters.wishDateOverdue !== undefined) conditions.push(overdueCondition(filters.wishDateOverdue, lookedToday(looked)));
  conditions.push(...rangeConditions(filters, { wishDate: w.wishDate, wishPrice: w.wishPrice, priority: w.priority }));
  return listFilter(conditions, filters, looked);
}

/** getWishlist's sorts (and the wishlist dataset's); gameId breaks ties. */
export const WISHLIST_SORTS = sortTable(
  {
    priority: w.priority,
    createdAt: w.createdAt,
    wishDate: w.wishDate,
    wishPrice: w.wishPrice,
    title: w.gameSortKey,
    releaseDate: w.gameReleaseDate,
  },
  w.gameId,
  { sortBy: "priority", sortOrder: "desc" },
  { title: "asc" },
);

export const WISHLIST = userList(wishlistEntries, w, columnList(w, WISH_KEYS), "wishlist");

export const findWish = (db: Db, userId: string, gameId: number) => userListRow<WishRow>(db, WISHLIST, userId, gameId);

export interface WishValues {
  priority: number | null;
  wishDate: string | null;
  wishPrice: number | null;
  wishPlace: string | null;
  memo: string | null;
}

export const wishValuesOf = (row: WishRow): WishValues => ({
  priority: row.priority,
  wishDate: row.wish_date,
  wishPrice: row.wish_price,
  wishPlace: row.wish_place,
  memo: row.memo,
});

/** The one INSERT of a wishlist entry (addToWishlist, imports); `times` keeps a restored entry's timestamps. */
export const insertWishSql = (
  userId: string,
  gameId: number,
  values: WishValues,
  now: string,
  times = { createdAt: now, updatedAt: now },
) =>
  statements
    .insert(wishlistEntries)
    .values({ userId, gameId, ...values, wishPlaceKey: placeKey(values.wishPlace), ...times, revision: newRevision() })
    .getSQL();

/**
 * A game already owned cannot be wished for: the library is where it lives now. Checked in the
 * batch that inserts, with the game itself: an addToLibrary or a removeCustomGame racing the add
 * never leaves a wish beside the entry, or a wish for a game that is gone.
 */
export async function insertWish(db: Db, limit: LimitContext, gameId: number, values: WishValues, now: string) {
  const { userId } = limit;
  const exists = (where: string) => new ApiError("already_exists", `Game ${gameId} is already in your ${where}.`, { field: "gameId" });
  const stillWishable: WriteCondition[] = [
    { holds: gamesVisibleSql(userId, [gameId]), error: () => notFound(`Game ${gameId}`) },
    { holds: not(ownedSql(userId, gameId)), error: () => exists("library") },
  ];
  try {
    await addWithinLimit(db, limit, WISHLIST_COUNTER, [insertWishSql(userId, gameId, values, now)], stillWishable);
  } catch (error) {
    if (isUniqueViolation(error)) throw exists("wishlist");
    throw error;
  }
}

/** Writes the entry only if its revision is still `expected`; false when someone changed it first. */
export async function updateWish(db: Db, userId: string, gameId: number, values: WishValues, expected: string, now: string) {
  const result = await db
    .update(wishlistEntries)
    .set({
      ...values,
      wishPlaceKey: placeKey(values.wishPlace),
      ...touchedIfChanged(wishlistEntries, setDiffers(wishlistEntries, values), now, newRevision()),
    })
    .where(and(byUserAndGame(userId, gameId), eq(wishlistEntries.revision, expected)));
  return result.meta.changes > 0;
}

export const deleteWishSql = (userId: string, gameId: number) =>
  statements.delete(wishlistEntries).where(byUserAndGame(userId, gameId)).getSQL();
