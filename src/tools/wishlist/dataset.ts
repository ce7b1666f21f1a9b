import { z } from "zod";
import { wishlistEntries } from "../../db/schema";
import { ALL_PLANS } from "../../platform/plans";
import { roomLeft } from "../../platform/registeredLimits";
import { positiveId } from "../../platform/schemas";
import { pick } from "../shared/cascade";
import { defineDataset, recordsRemoval, restoredTimes } from "../shared/datasets";
import { Decisions, type RestoreContext, type StagedRow } from "../shared/decisions";
import { GAME_COLUMNS, gameColumns, listToolArgs, rowOf, timestampsOf, userListQuery } from "../shared/exportDataset";
import { decidedWithin, limitMessage, orNull, Room, timesOf } from "../shared/restore";
import { gameRowsContext, onWishlist, unseenGame } from "../shared/restoreReads";
import { type WishRow, wishFieldArgs } from "./items";
import {
  insertWishSql,
  WISHLIST,
  WISHLIST_COUNTER,
  WISHLIST_SORTS,
  type WishFilters,
  wishlistConditions,
  wishlistFilterArgs,
} from "./queries";
import { wishesRemovalSql } from "./removal";

const columns = ["gameId", ...GAME_COLUMNS, "priority", "wishDate", "wishPrice", "wishPlace", "memo", "createdAt", "updatedAt"] as const;

const rowSchema = z.object({
  gameId: positiveId,
  priority: wishFieldArgs.priority.nullish(),
  wishDate: wishFieldArgs.wishDate.nullish(),
  wishPrice: wishFieldArgs.wishPrice.nullish(),
  wishPlace: wishFieldArgs.wishPlace.nullish(),
  memo: wishFieldArgs.memo.nullish(),
  ...restoredTimes,
});

/** Wishlist entries: a game already wished for, or in the library, is kept as it is. */
async function restoreWishlist(ctx: RestoreContext, rows: StagedRow<z.output<typeof rowSchema>>[]) {
  const { db, userId, now, gameIds, targets, visible, owned } = await gameRowsContext(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const [wished, room] = await Promise.all([onWishlist(db, userId, targets), roomLeft(db, ctx, WISHLIST_COUNTER)]);
  const d = new Decisions();
  const left = new Room(room, (r) => d.fail(r, "gameId", "plan_limit", limitMessage(ctx.plan, "wishlist")));
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    if (unseenGame(d, r, row.gameId, visible, gameId)) continue;
    if (wished.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is already on your wishlist; kept as it is.`);
    else if (owned.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is in your library, so it cannot be wished for.`);
    else if (left.take(r)) {
      wished.add(gameId);
      const values = orNull(row, ["priority", "wishDate", "wishPrice", "wishPlace", "memo"]);
      d.add(insertWishSql(userId, gameId, values, now, timesOf(row, now)));
    }
  }
  return decidedWithin(ctx, d, WISHLIST_COUNTER);
}

/** One row per wished-for game: getWishlist's filters and sorts, through getWishlist's own builders. */
export const wishlistDataset = defineDataset({
  export: {
    name: "wishlist",
    plans: ALL_PLANS,
    ...listToolArgs(wishlistFilterArgs, WISHLIST_SORTS),
    columns,
    async query({ db, userId, now }, args: WishFilters, order) {
      const where = await wishlistConditions(db, userId, args, now);
      return userListQuery<WishRow>(WISHLIST, where, order!, (rows) =>
        rows.map((row) =>
          rowOf(columns, {
            gameId: row.game_id,
            ...gameColumns(row),
            priority: row.priority,
            wishDate: row.wish_date,
            wishPrice: row.wish_price,
            wishPlace: row.wish_place,
            memo: row.memo,
            ...timestampsOf(row),
          }),
        ),
      );
    },
  },
  rowSchema,
  restore: restoreWishlist,
  removal: (userId) => recordsRemoval(wishlistEntries, userId, [wishesRemovalSql(userId, pick.all)], "wishlist entry", "wishlist entries"),
});
