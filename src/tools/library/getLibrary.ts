import { z } from "zod";
import { ApiError } from "../../platform/errors";
import { sharedRangeCheck } from "../../platform/filters";
import { buildAfterLookups, buildWithoutLookups } from "../../platform/lookups";
import { type PageLimit, pagedEnvelope, pageOf } from "../../platform/paging";
import { SORT_NOTE } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { attributeLabelsFrom, type OwnAttributeRow } from "../attributes/items";
import { ownAttributesQuery } from "../attributes/queries";
import { latestPlays } from "../shared/dependentRecords";
import { GAME_LIST_TOOL, listArgs, listPageOf, listPageReads } from "../shared/userLists";
import { tagsOfGames } from "../tags/queries";
import {
  DEFAULT_LIBRARY_FIELDS,
  type EntryRow,
  LIBRARY_FIELD_GROUPS,
  type LibraryFieldGroup,
  libraryEntrySchema,
  toLibraryItem,
} from "./items";
import { LIBRARY, LIBRARY_SORTS, libraryFilter, libraryFilterArgs } from "./queries";

/** FREE keeps no tags (LIGHT and above): every field group but tags. */
const FREE_FIELD_GROUPS = LIBRARY_FIELD_GROUPS.filter((group) => group !== "tags");

const input = z
  .strictObject({
    ...libraryFilterArgs,
    ...listArgs(LIBRARY_SORTS),
    fields: z
      .array(z.enum(LIBRARY_FIELD_GROUPS))
      .optional()
      .describe("Default: game, purchase, attributes; [] gives gameId, rating and revision; tags is LIGHT and above."),
  })
  .superRefine(sharedRangeCheck);

type LibraryArgs = z.output<typeof input>;

export const getLibrary = defineTool({
  name: "getLibrary",
  family: "library",
  title: "ライブラリ取得",
  description:
    "Lists the games you own (purchase data, attributes and the game by default), filtered, sorted and paged; the tags field group shows each game's tags.",
  ...GAME_LIST_TOOL,
  input,
  output: pagedEnvelope(libraryEntrySchema),
  planDifferences: {
    FREE: {
      removedProperties: ["tagIds"],
      changedProperties: {
        fields: z.array(z.enum(FREE_FIELD_GROUPS)).describe("FREE: every group but tags (tags are LIGHT and above)."),
      },
    },
  },
  notes: ["The game field group caps the page at 100, userLinks at 50; latestPlay needs play:read too.", SORT_NOTE],
  firstReads: (args, { userId, pageLimit }) =>
    userId === undefined ? undefined : buildWithoutLookups(libraryReads(userId, args, pageLimit))?.queries,
  async handler({ db, read, auth, pageLimit }, args) {
    const groups = fieldGroupsOf(args);
    if (groups.has("latestPlay") && !auth.scopes.has("play:read")) {
      throw new ApiError("insufficient_scope", "The latestPlay field group needs the play:read scope.", {
        scopes: ["library:read", "play:read"],
      });
    }
    const { limit, queries } = await buildAfterLookups(db, libraryReads(auth.userId, args, pageLimit));
    const { rows, totalCount, also } = listPageOf<EntryRow>(await read(queries));
    const labels = attributeLabelsFrom(also[0] as OwnAttributeRow[]);
    const gameIds = rows.map((row) => row.game_id);
    const [plays, tags] = await Promise.all([
      groups.has("latestPlay") ? latestPlays(db, auth.userId, gameIds) : undefined,
      groups.has("tags") ? tagsOfGames(db, auth.userId, gameIds) : undefined,
    ]);
    return pageOf(
      rows.map((row) => toLibraryItem(row, groups, labels, plays, tags)),
      args.page,
      totalCount,
      limit,
    );
  },
});

const fieldGroupsOf = (args: Pick<LibraryArgs, "fields">) => new Set<LibraryFieldGroup>(args.fields ?? DEFAULT_LIBRARY_FIELDS);

/** What a getLibrary call reads in one batch (its page, the total and the caller's attribute labels), after its filter's lookups. */
function libraryReads(userId: string, args: LibraryArgs, pageLimit: PageLimit) {
  return listPageReads({
    list: LIBRARY,
    userId,
    filter: (looked) => libraryFilter(userId, args, looked),
    sort: LIBRARY_SORTS.of(args.sortBy, args.sortOrder),
    groups: fieldGroupsOf(args),
    args,
    pageLimit,
    also: [ownAttributesQuery(userId)],
  });
}
