import { z } from "zod";
import { limitArg, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { orderedRanges } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { DEFAULT_WISHLIST_FIELDS, toWishlistItem, WISHLIST_FIELD_GROUPS, type WishlistFieldGroup, wishlistEntrySchema } from "./entry";
import { WISHLIST_DEFAULT_SORT, WISHLIST_RANGES, WISHLIST_SORTS, wishlistFilter, wishlistFilterArgs, wishlistPage } from "./queries";

const CAP = 200;
const DEFAULT_LIMIT = 50;

export const getWishlist = defineTool({
  name: "getWishlist",
  family: "wishlist",
  title: "ほしいもの取得",
  description:
    "Lists the games on your wishlist with priority and purchase plans; filter by platform, genre, title, release date, planned place, date (or overdue plans), price and priority, sort and page.",
  restNote: "In REST, GET arrays are comma-separated and fields= with no value gives core fields only.",
  scopes: ["library:read"],
  plans: ALL_PLANS,
  kind: "read",
  input: z
    .strictObject({
      ...wishlistFilterArgs,
      sortBy: z.enum(Object.keys(WISHLIST_SORTS) as [keyof typeof WISHLIST_SORTS]).default(WISHLIST_DEFAULT_SORT.sortBy),
      sortOrder: z.enum(["asc", "desc"]).default(WISHLIST_DEFAULT_SORT.sortOrder),
      page: pageArg,
      limit: limitArg(CAP, DEFAULT_LIMIT),
      fields: z.array(z.enum(WISHLIST_FIELD_GROUPS)).optional().describe("Default: game, wish. [] gives gameId, priority and revision."),
    })
    .superRefine(orderedRanges(WISHLIST_RANGES)),
  output: pagedEnvelope(wishlistEntrySchema),
  notes: ["The game field group caps the page at 100.", "Default order: priority, highest first; empty values sort last either way."],
  async handler({ db, auth, now }, args) {
    const groups = new Set<WishlistFieldGroup>(args.fields ?? DEFAULT_WISHLIST_FIELDS);
    const limit = resolveLimit(args.limit, DEFAULT_LIMIT, [
      { cap: CAP, reason: `getWishlist returns at most ${CAP} per page` },
      ...(groups.has("game") ? [{ cap: 100, reason: "the game field group caps the page at 100" }] : []),
    ]);
    const filter = await wishlistFilter(db, auth.userId, args, now);
    const { rows, totalCount } = await wishlistPage(
      db,
      auth.userId,
      filter,
      args.sortBy,
      args.sortOrder,
      { limit: limit.effectiveLimit, offset: pageOffset(args.page, limit) },
      groups.has("game"),
    );
    return pageOf(
      rows.map((row) => toWishlistItem(row, groups)),
      args.page,
      totalCount,
      limit,
    );
  },
});
