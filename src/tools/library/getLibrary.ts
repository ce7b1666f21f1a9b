import { z } from "zod";
import { ApiError } from "../../platform/errors";
import { sharedFilterArgs, sharedRangeCheck } from "../../platform/filters";
import { limitArg, type PageCap, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { attributeLabelsFrom, type OwnAttributeRow, ownAttributesQuery } from "../attributes/queries";
import { latestPlays } from "../play/queries";
import { DEFAULT_LIBRARY_FIELDS, LIBRARY_FIELD_GROUPS, type LibraryFieldGroup, libraryEntrySchema, toLibraryItem } from "./entry";
import { LIBRARY_DEFAULT_SORT, LIBRARY_SORTS, libraryFilter, libraryPage } from "./queries";

const CAP = 200;
const DEFAULT_LIMIT = 50;

function fieldCaps(groups: ReadonlySet<LibraryFieldGroup>): PageCap[] {
  const caps: PageCap[] = [];
  if (groups.has("game")) caps.push({ cap: 100, reason: "the game field group caps the page at 100" });
  if (groups.has("userLinks")) caps.push({ cap: 50, reason: "the userLinks field group caps the page at 50" });
  return caps;
}

export const getLibrary = defineTool({
  name: "getLibrary",
  family: "library",
  title: "ライブラリ取得",
  description:
    "Lists the games you own, with purchase data, attributes and the game itself by default; filter by platform, genre, title, release date, attributes, purchase place, rating, purchase date and price, sort and page. latestPlay.hasPlayRecord false only means no play record was created, not that the game is unplayed.",
  restNote: "In REST, GET arrays are comma-separated and fields= with no value gives core fields only.",
  scopes: ["library:read"],
  plans: ALL_PLANS,
  kind: "read",
  input: z
    .strictObject({
      ...sharedFilterArgs,
      sortBy: z.enum(Object.keys(LIBRARY_SORTS) as [keyof typeof LIBRARY_SORTS]).default(LIBRARY_DEFAULT_SORT.sortBy),
      sortOrder: z.enum(["asc", "desc"]).default(LIBRARY_DEFAULT_SORT.sortOrder),
      page: pageArg,
      limit: limitArg(CAP, DEFAULT_LIMIT),
      fields: z
        .array(z.enum(LIBRARY_FIELD_GROUPS))
        .optional()
        .describe("Default: game, purchase, attributes. [] gives gameId, rating and revision."),
    })
    .superRefine(sharedRangeCheck),
  output: pagedEnvelope(libraryEntrySchema),
  notes: [
    "The game field group caps the page at 100, userLinks at 50.",
    "latestPlay needs the play:read scope too.",
    "Empty values sort last in either order; ties are ordered by gameId, so pages never overlap.",
    "Keep filters, sort, fields and limit fixed while paging.",
  ],
  async handler({ db, auth }, args) {
    const groups = new Set<LibraryFieldGroup>(args.fields ?? DEFAULT_LIBRARY_FIELDS);
    if (groups.has("latestPlay") && !auth.scopes.has("play:read")) {
      throw new ApiError("insufficient_scope", "The latestPlay field group needs the play:read scope.", {
        scopes: ["library:read", "play:read"],
      });
    }
    const limit = resolveLimit(args.limit, DEFAULT_LIMIT, [
      { cap: CAP, reason: `getLibrary returns at most ${CAP} per page` },
      ...fieldCaps(groups),
    ]);
    const filter = await libraryFilter(db, auth.userId, args);
    const page = { limit: limit.effectiveLimit, offset: pageOffset(args.page, limit) };
    const { rows, totalCount, also } = await libraryPage(db, auth.userId, filter, args.sortBy, args.sortOrder, page, groups.has("game"), [
      ownAttributesQuery(auth.userId),
    ]);
    const labels = attributeLabelsFrom(also[0] as OwnAttributeRow[]);
    const plays = groups.has("latestPlay")
      ? await latestPlays(
          db,
          auth.userId,
          rows.map((row) => row.game_id),
        )
      : undefined;
    return pageOf(
      rows.map((row) => toLibraryItem(row, groups, labels, plays)),
      args.page,
      totalCount,
      limit,
    );
  },
});
