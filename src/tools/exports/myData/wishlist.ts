import type { WishRow } from "../../wishlist/items";
import {
  WISHLIST,
  WISHLIST_DEFAULT_SORT,
  WISHLIST_SORTS,
  type WishlistSort,
  wishlistConditions,
  wishlistFilterArgs,
  wishlistSort,
} from "../../wishlist/queries";
import { MY_DATASET_PLANS } from "./args";
import { GAME_COLUMNS, gameColumns, type MyDataset, rowOf, SORT_ARGS, userListQuery } from "./dataset";

const columns = ["gameId", ...GAME_COLUMNS, "priority", "wishDate", "wishPrice", "wishPlace", "memo", "createdAt", "updatedAt"] as const;

/** One row per wished-for game: getWishlist's filters and sorts, through getWishlist's own builders. */
export const wishlistDataset: MyDataset = {
  name: "wishlist",
  plans: MY_DATASET_PLANS.wishlist,
  accepts: [...(Object.keys(wishlistFilterArgs) as (keyof typeof wishlistFilterArgs)[]), ...SORT_ARGS],
  sorts: { values: Object.keys(WISHLIST_SORTS), default: WISHLIST_DEFAULT_SORT },
  columns,
  async query({ db, userId, now }, args, sort) {
    const where = await wishlistConditions(db, userId, args, now);
    return userListQuery<WishRow>(WISHLIST, where, wishlistSort(sort!.sortBy as WishlistSort, sort!.sortOrder), (rows) =>
      rows.map((row) =>
        rowOf(columns, {
          gameId: row.game_id,
          ...gameColumns(row),
          priority: row.priority,
          wishDate: row.wish_date,
          wishPrice: row.wish_price,
          wishPlace: row.wish_place,
          memo: row.memo,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
        }),
      ),
    );
  },
};
