import { z } from "zod";
import { buildAfterLookups, buildWithoutLookups } from "../../platform/lookups";
import { type PageLimit, pagedEnvelope, pageOf } from "../../platform/paging";
import { orderedRanges, SORT_NOTE } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { GAME_LIST_TOOL, listArgs, listPageOf, listPageReads } from "../shared/userLists";
import {
  DEFAULT_WISHLIST_FIELDS,
  toWishlistItem,
  WISHLIST_FIELD_GROUPS,
  type WishlistFieldGroup,
  type WishRow,
  wishlistEntrySchema,
} from "./items";
import { WISHLIST, WISHLIST_RANGES, WISHLIST_SORTS, wishlistFilter, wishlistFilterArgs, wishTodayAt } from "./queries";

const input = z
  .strictObject({
    ...wishlistFilterArgs,
    ...listArgs(WISHLIST_SORTS),
    fields: z.array(z.enum(WISHLIST_FIELD_GROUPS)).optional().describe("Default: game, wish. [] gives gameId, priority and revision."),
  })
  .superRefine(orderedRanges(WISHLIST_RANGES));

type WishlistArgs = z.output<typeof input>;

export const getWishlist = defineTool({
  name: "getWishlist",
  family: "wishlist",
  title: "ほしいもの取得",
  description: "Lists the games on your wishlist with priority and purchase plans, filtered, sorted and paged.",
  ...GAME_LIST_TOOL,
  input,
  output: pagedEnvelope(wishlistEntrySchema),
  notes: ["The game field group caps the page at 100. Default order: priority, highest first.", SORT_NOTE],
  firstReads: (args, { userId, now, pageLimit }) =>
    userId === undefined ? undefined : buildWithoutLookups(wishlistReads(userId, args, now, pageLimit))?.queries,
  async handler({ db, read, auth, now, pageLimit }, args) {
    const { limit, queries } = await buildAfterLookups(db, wishlistReads(auth.userId, args, now, pageLimit));
    const { rows, totalCount } = listPageOf<WishRow>(await read(queries));
    const groups = fieldGroupsOf(args);
    return pageOf(
      rows.map((row) => toWishlistItem(row, groups)),
      args.page,
      totalCount,
      limit,
    );
  },
});

const fieldGroupsOf = (args: Pick<WishlistArgs, "fields">) => new Set<WishlistFieldGroup>(args.fields ?? DEFAULT_WISHLIST_FIELDS);

/** What a getWishlist call reads in one batch (its page and the total), after its filter's lookups. */
function wishlistReads(userId: string, args: WishlistArgs, now: Date, pageLimit: PageLimit) {
  return listPageReads({
    list: WISHLIST,
    userId,
    filter: (looked) => wishlistFilter(userId, args, looked),
    todayAt: wishTodayAt(args, now),
    sort: WISHLIST_SORTS.of(args.sortBy, args.sortOrder),
    groups: fieldGroupsOf(args),
    args,
    pageLimit,
  });
}
