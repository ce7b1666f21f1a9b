import { z } from "zod";
import { limitArg, type PageCap, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { orderedRanges } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { attributeLabelsFrom, type OwnAttributeRow, ownAttributesQuery } from "../attributes/queries";
import { PLAY_DEFAULT_SORT, PLAY_RANGES, PLAY_SORTS, playFilter, playFilterArgs, playPage, playSort } from "./queries";
import { PLAY_FIELD_GROUPS, type PlayFieldGroup, playRecordSchema, toPlayRecord } from "./record";

const CAP = 200;
const DEFAULT_LIMIT = 50;

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
  input: z
    .strictObject({
      ...playFilterArgs,
      sortBy: z.enum(Object.keys(PLAY_SORTS) as [keyof typeof PLAY_SORTS]).default(PLAY_DEFAULT_SORT.sortBy),
      sortOrder: z.enum(["asc", "desc"]).default(PLAY_DEFAULT_SORT.sortOrder),
      page: pageArg,
      limit: limitArg(CAP, DEFAULT_LIMIT),
      fields: z.array(z.enum(PLAY_FIELD_GROUPS)).optional().describe("Default: game, console, goal (FREE: game, goal)."),
    })
    .superRefine(orderedRanges(PLAY_RANGES)),
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
  async handler({ db, auth, now }, args) {
    const defaults: PlayFieldGroup[] = auth.plan === "FREE" ? ["game", "goal"] : ["game", "console", "goal"];
    const groups = new Set<PlayFieldGroup>(args.fields ?? defaults);
    const caps: PageCap[] = [{ cap: CAP, reason: `getPlayRecords returns at most ${CAP} per page` }];
    if (groups.has("game")) caps.push({ cap: 100, reason: "the game field group caps the page at 100" });
    if (groups.has("userLinks")) caps.push({ cap: 50, reason: "the userLinks field group caps the page at 50" });
    const limit = resolveLimit(args.limit, DEFAULT_LIMIT, caps);
    const filter = await playFilter(db, auth.userId, args, now);
    const page = { limit: limit.effectiveLimit, offset: pageOffset(args.page, limit) };
    const { rows, totalCount, also } = await playPage(
      db,
      auth.userId,
      filter,
      playSort(args.sortBy, args.sortOrder),
      page,
      groups.has("game"),
      [ownAttributesQuery(auth.userId)],
    );
    const labels = attributeLabelsFrom(also[0] as OwnAttributeRow[]);
    return pageOf(
      rows.map((row) => toPlayRecord(row, groups, labels)),
      args.page,
      totalCount,
      limit,
    );
  },
});
