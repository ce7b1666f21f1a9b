import { and, eq } from "drizzle-orm";
import { wishlistEntries } from "../../db/schema";
import { statements } from "../../platform/db";
import type { Picked } from "../shared/cascade";

/** The user's wishlist entries of the picked games (removeFromWishlist, a replace import, removeCustomGame); nothing hangs off them. */
export const wishesRemovalSql = (userId: string, games: Picked) =>
  statements
    .delete(wishlistEntries)
    .where(and(eq(wishlistEntries.userId, userId), games(wishlistEntries.gameId)))
    .getSQL();
