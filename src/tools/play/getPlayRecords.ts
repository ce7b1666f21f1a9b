import { z } from "zod";
import { buildAfterLookups, buildWithoutLookups } from "../../platform/lookups";
import { type PageLimit, pagedEnvelope, pageOf } from "../../platform/paging";
import { ALL_PLANS, type Plan } from "../../platform/plans";
import { orderedRanges, SORT_NOTE } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { attributeLabelsFrom, type OwnAttributeRow } from "../attributes/items";
import { ownAttributesQuery } from "../attributes/queries";
import { listArgs, listPageOf, listPageReads, USER_LIST_PAGING } from "../shared/userLists";
import { PLAY_FIELD_GROUPS, type PlayFieldGroup, type PlayRow, playRecordSchema, toPlayRecord } from "./items";
import { PLAY_RANGES, PLAY_RECORDS, PLAY_SORTS, playFilter, playFilterArgs, playTodayAt } from "./listQueries";

const input = z
  .strictObject({
    ...playFilterArgs,
    ...listArgs(PLAY_SORTS),
    fields: z.array(z.enum(PLAY_FIELD_GROUPS)).optional().describe("Default: game, console, goal (FREE: game, goal)."),
  })
  .superRefine(orderedRanges(PLAY_RANGES));

type PlayRecordsArgs = z.output<typeof input>;

export const getPlayRecords = defineTool({
  name: "getPlayRecords",
  family: "play",
  title: "プレイ記録取得",
  description:
    "Lists the latest play record of each game, filtered, sorted and paged; earlier cycles are getGamePlayHistory's (PREMIUM), sessions getPlayLogs'.",
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
  notes: ["goal is clearTargetDate. The game field group caps the page at 100, userLinks at 50.", SORT_NOTE],
  firstReads(args, { userId, plan, now, pageLimit }) {
    if (userId === undefined || plan === undefined) return undefined;
    return buildWithoutLookups(playRecordsReads(userId, plan, args, now, pageLimit))?.queries;
  },
  async handler({ db, read, auth, now, pageLimit }, args) {
    const { limit, queries } = await buildAfterLookups(db, playRecordsReads(auth.userId, auth.plan, args, now, pageLimit));
    const { rows, totalCount, also } = listPageOf<PlayRow>(await read(queries));
    const labels = attributeLabelsFrom(also[0] as OwnAttributeRow[]);
    const groups = fieldGroupsOf(auth.plan, args);
    return pageOf(
      rows.map((row) => toPlayRecord(row, groups, labels)),
      args.page,
      totalCount,
      limit,
    );
  },
});

/** The field groups shown: those asked for, else the plan's default. */
function fieldGroupsOf(plan: Plan, args: Pick<PlayRecordsArgs, "fields">) {
  const defaults: PlayFieldGroup[] = plan === "FREE" ? ["game", "goal"] : ["game", "console", "goal"];
  return new Set<PlayFieldGroup>(args.fields ?? defaults);
}

/** What a getPlayRecords call reads in one batch (its page, the total and the caller's attribute labels), after its filter's lookups. */
function playRecordsReads(userId: string, plan: Plan, args: PlayRecordsArgs, now: Date, pageLimit: PageLimit) {
  return listPageReads({
    list: PLAY_RECORDS,
    userId,
    filter: (looked) => playFilter(userId, args, looked),
    todayAt: playTodayAt(args, now),
    sort: PLAY_SORTS.of(args.sortBy, args.sortOrder),
    groups: fieldGroupsOf(plan, args),
    args,
    pageLimit,
    also: [ownAttributesQuery(userId)],
  });
}
