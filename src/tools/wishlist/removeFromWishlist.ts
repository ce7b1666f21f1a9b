import { confirmTwoStep, gameRemoval } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { pick } from "../shared/cascade";
import { findWish } from "./queries";
import { wishesRemovalSql } from "./removal";

export const removeFromWishlist = defineTool({
  name: "removeFromWishlist",
  family: "wishlist",
  title: "ほしいもの削除",
  description: "Takes a game off your wishlist (two-step).",
  restNote: 'In REST, POST /rest/v1/removeFromWishlist with {"gameId": ...}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: ALL_PLANS,
  ...gameRemoval(),
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const wish = await findWish(db, auth.userId, args.gameId);
    if (!wish) throw notFound(`Game ${args.gameId} on your wishlist`);
    return confirmTwoStep(ctx, args, {
      targetRevision: wish.revision,
      summary: `Takes '${wish.title}' off your wishlist, with its planned date, price, place and memo.`,
      async execute(marker) {
        await queryBatch(db, [marker, wishesRemovalSql(auth.userId, pick.one(args.gameId))]);
        return { gameId: args.gameId, removed: true as const };
      },
    });
  },
});
