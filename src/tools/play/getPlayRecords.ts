import { z } from "zod";
import { type PageLimit, pagedEnvelope, pageOf, USER_LIST_PAGING } from "../../platform/paging";
import { ALL_PLANS, type Plan } from "../../platform/plans";
import { orderedRanges } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { attributeLabelsFrom, type OwnAttributeRow } from "../attributes/items";
import { ownAttributesQuery } from "../attributes/queries";
import { type ListFilter, listArgs, listPageOf, listPageReads } from "../games/userLists";
import { PLAY_FIELD_GROUPS, type PlayFieldGroup, type PlayRow, playRecordSchema, toPlayRecord } from "./items";
import { PLAY_DEFAULT_SORT, PLAY_RANGES, PLAY_RECORDS, PLAY_SORTS, playFilter, playFilterArgs, playFilterNow, playSort } from "./queries";

const input = z
  .strictObject({
    ...playFilterArgs,
    ...listArgs(PLAY_SORTS, PLAY_DEFAULT_SORT),
    fields: z.array(z.enum(PLAY_FIELD_GROUPS)).optional().describe("Default: game, console, goal (FREE: game, goal)."),
  })
  .superRefine(orderedRanges(PLAY_RANGES));

type PlayRecordsArgs = z.output<typeof input>;

export const getPlayRecords = defineTool({
  name: "getPlayRecords",
  family: "play",
  title: "プレイ記録取得",
  description:
    "Lists the latest play record of each game: filter by status, platform, genre, title, release date, attributes, console, play dates, clear target (or overdue targets), total play time and rating; sort and page. Earlier cycles come from getGamePlayHistory (PREMIUM); logs from getPlayLogs.",
  restNote: "In REST, GET arrays are comma-separated and fields= with no value gives the core fields.",
  scopes: ["play:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: USER_LIST_PAGING,
  input,
  output: pagedEnvelope(playRecordSchema),
  planDifferences: {
    FREE: {
      removedProperties: ["consoleIds"],
      changedProperties: {
        fields: z.array(z.enum(PLAY_FIELD_GROUPS)).describe("FREE: the same groups; omitted gives game and goal (no console)."),
      },
    },
  },
  notes: [
    "One latest record per game. goal is clearTargetDate.",
    "The game field group caps the page at 100, userLinks at 50. Empty values sort last in either order.",
  ],
  firstReads(args, { userId, plan, now, pageLimit }) {
    if (userId === undefined || plan === undefined) return undefined;
    const filter = playFilterNow(userId, args, now);
    return filter && playRecordsReads(userId, plan, args, filter, pageLimit).queries;
  },
  async handler({ db, read, auth, now, pageLimit }, args) {
    const filter = await playFilter(db, auth.userId, args, now);
    const { groups, limit, queries } = playRecordsReads(auth.userId, auth.plan, args, filter, pageLimit);
    const { rows, totalCount, also } = listPageOf<PlayRow>(await read(queries));
    const labels = attributeLabelsFrom(also[0] as OwnAttributeRow[]);
    return pageOf(
      rows.map((row) => toPlayRecord(row, groups, labels)),
      args.page,
      totalCount,
      limit,
    );
  },
});

/** What a getPlayRecords call reads in one batch: its page, the total and the caller's attribute labels. */
function playRecordsReads(userId: string, plan: Plan, args: PlayRecordsArgs, filter: ListFilter, pageLimit: PageLimit) {
  const defaults: PlayFieldGroup[] = plan === "FREE" ? ["game", "goal"] : ["game", "console", "goal"];
  const groups = new Set<PlayFieldGroup>(args.fields ?? defaults);
  const sort = playSort(args.sortBy, args.sortOrder);
  return {
    groups,
    ...listPageReads({ list: PLAY_RECORDS, userId, filter, sort, groups, args, pageLimit, also: [ownAttributesQuery(userId)] }),
  };
}
