import { z } from "zod";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { loadGameRecords } from "../games/queries";
import { toWishlistItem, WISHLIST_FIELD_GROUPS, wishFieldArgs, wishlistEntrySchema } from "./items";
import { findWish, insertWish } from "./queries";

export const wishlistWriteResult = z.object({ item: wishlistEntrySchema, revision: z.string() }).meta({ id: "WishlistWriteResult" });

export const addToWishlist = defineTool({
  name: "addToWishlist",
  family: "wishlist",
  title: "ほしいもの追加",
  description:
    "Puts a game on your wishlist, optionally with priority, planned date, price and place; adding it to the library later takes it off.",
  restNote: 'In REST, POST /rest/v1/addToWishlist with {"gameId": ...}.',
  scopes: ["library:write"],
  plans: ALL_PLANS,
  kind: "write",
  destructive: false,
  // A repeat is 409 already_exists.
  idempotent: true,
  nullIsOmission: true,
  input: z
    .strictObject({ gameId: positiveId, ...wishFieldArgs })
    .partial()
    .required({ gameId: true }),
  output: wishlistWriteResult,
  conflicts: ["already_exists"],
  notes: ["One already on the wishlist or in the library is 409 already_exists."],
  async handler({ db, auth, now, upgradeUrl }, args) {
    if (!(await loadGameRecords(db, auth.userId, [args.gameId])).has(args.gameId)) throw notFound(`Game ${args.gameId}`);
    const values = {
      priority: args.priority ?? null,
      wishDate: args.wishDate ?? null,
      wishPrice: args.wishPrice ?? null,
      wishPlace: args.wishPlace ?? null,
      memo: args.memo ?? null,
    };
    await insertWish(db, { ...auth, upgradeUrl }, args.gameId, values, now.toISOString());
    const row = readBack(await findWish(db, auth.userId, args.gameId), () => notFound(`Game ${args.gameId} on your wishlist`));
    return { item: toWishlistItem(row, new Set(WISHLIST_FIELD_GROUPS)), revision: row.revision };
  },
});
