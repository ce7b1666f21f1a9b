import { and, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { consoles, playRecords } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import { columnList, type Db, queryBatch, rangeConditions } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { rating, sharedFilterArgs } from "../../platform/filters";
import { type SortKey, sortTable } from "../../platform/keyset";
import type { PageWindow } from "../../platform/paging";
import { isoDate } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { attributeLabels } from "../attributes/queries";
import type { GameRecord } from "../games/gameObject";
import { GAME_JOINS, GAME_SELECT } from "../games/queries";
import { hasHistory, playCycle } from "../shared/dependentRecords";
import {
  attributeConditions,
  type ListFilter,
  type ListFilters,
  type ListLookups,
  listFilter,
  listPageOf,
  listPageQueries,
  lookedToday,
  readJoinedConditions,
  userList,
  userListFrom,
} from "../shared/userLists";
import { EVERY_PLAY_GROUP, PLAY_KEYS, PLAY_STATUSES, type PlayRow, type PlayStatus, toPlayRecord, UNFINISHED } from "./items";

/*
 * The play records as a user list (getPlayRecords, getGamePlayHistory, exportMyData's playRecords and
 * playLogs): their columns, filters, sorts, and a record read with its game.
 */

const r = playCycle;

/** A record's item columns, its console's name and whether other cycles of its game are kept. */
// raw SQL: computed columns (subqueries) beside the list's own, read by the shared list page machinery.
const PLAY_COLUMNS = sql`${r.id} AS play_id, ${columnList(r, PLAY_KEYS)},
  (SELECT ${consoles.name} FROM ${consoles} WHERE ${consoles.id} = ${r.consoleId}) AS console_name, ${hasHistory} AS has_history`;

export const PLAY_RECORDS = userList(playRecords, r, PLAY_COLUMNS, "play");

const { platformIds, genreId, title, releaseDateFrom, releaseDateTo, attributes } = sharedFilterArgs;

/** The play records' filters (getPlayRecords, exportMyData's playRecords and playLogs), read by playConditions. */
export const playFilterArgs = {
  statuses: z.array(z.enum(PLAY_STATUSES)).max(5).optional(),
  platformIds,
  genreId,
  title,
  releaseDateFrom,
  releaseDateTo,
  attributes,
  consoleIds: z.array(z.string().min(1).max(40)).max(5).optional().describe("Any of them (LIGHT and above)."),
  playStartDateFrom: isoDate.optional(),
  playStartDateTo: isoDate.optional(),
  playEndDateFrom: isoDate.optional(),
  playEndDateTo: isoDate.optional(),
  clearTargetDateFrom: isoDate.optional(),
  clearTargetDateTo: isoDate.optional(),
  clearTargetOverdue: z
    .enum(["overdue", "not_overdue"])
    .optional()
    .describe("overdue: unfinished with a clear target before today (COMPLETED and DROPPED never are)."),
  totalPlayTimeFrom: z.number().int().min(0).optional(),
  totalPlayTimeTo: z.number().int().min(0).optional(),
  ratingFrom: rating.optional(),
  ratingTo: rating.optional(),
};

/** Ranges of the play filters whose end may not come before their start. */
export const PLAY_RANGES: [keyof typeof playFilterArgs, keyof typeof playFilterArgs][] = [
  ["releaseDateFrom", "releaseDateTo"],
  ["playStartDateFrom", "playStartDateTo"],
  ["playEndDateFrom", "playEndDateTo"],
  ["clearTargetDateFrom", "clearTargetDateTo"],
  ["totalPlayTimeFrom", "totalPlayTimeTo"],
  ["ratingFrom", "ratingTo"],
];

export interface PlayFilters extends ListFilters {
  statuses?: PlayStatus[];
  consoleIds?: string[];
  playStartDateFrom?: string;
  playStartDateTo?: string;
  playEndDateFrom?: string;
  playEndDateTo?: string;
  clearTargetDateFrom?: string;
  clearTargetDateTo?: string;
  clearTargetOverdue?: "overdue" | "not_overdue";
  totalPlayTimeFrom?: number;
  totalPlayTimeTo?: number;
  ratingFrom?: number;
  ratingTo?: number;
}

/** Overdue: an unfinished cycle whose clear target is before today (the user's day); COMPLETED and DROPPED never are. */
function overdue(today: string): SQL {
  // IS NOT NULL keeps the test two-valued, so NOT(overdue) also takes records with no target.
  return sql`(${inJsonArray(r.status, UNFINISHED)} AND ${r.clearTargetDate} IS NOT NULL AND ${r.clearTargetDate} < ${today})`;
}

/** The call's instant when the play filters need the user's today (clearTargetOverdue), for listLookups. */
export const playTodayAt = (filters: PlayFilters, now: Date) => (filters.clearTargetOverdue === undefined ? undefined : now);

/** The latest cycle of each game (or, with cycles "all", every kept cycle), filtered: joinedConditions, lookups read first. */
export const playConditions = (
  db: Db,
  userId: string,
  filters: PlayFilters,
  now: Date,
  cycles: "latest" | "all" = "latest",
): Promise<SQL[]> =>
  readJoinedConditions(db, userId, filters, (looked) => playFilter(userId, filters, looked, cycles), playTodayAt(filters, now));

/** The play filters, from what their lookups (listLookups) looked up: on the records (r) and on their games (g). */
export function playFilter(
  userId: string,
  filters: PlayFilters,
  looked: Partial<ListLookups>,
  cycles: "latest" | "all" = "latest",
): ListFilter {
  // r.is_latest = 1 as written here, not eq(): the partial sort indexes say exactly this.
  const conditions = [eq(r.userId, userId), ...(cycles === "latest" ? [sql`${r.isLatest} = 1`] : [])];
  if (filters.statuses?.length) conditions.push(inJsonArray(r.status, filters.statuses));
  if (filters.consoleIds?.length) conditions.push(inJsonArray(r.consoleId, filters.consoleIds));
  conditions.push(...attributeConditions(r.attributeIds, looked));
  if (filters.clearTargetOverdue === "overdue") conditions.push(overdue(lookedToday(looked)));
  if (filters.clearTargetOverdue === "not_overdue") conditions.push(sql`NOT ${overdue(lookedToday(looked))}`);
  conditions.push(
    ...rangeConditions(filters, {
      playStartDate: r.playStartDate,
      playEndDate: r.playEndDate,
      clearTargetDate: r.clearTargetDate,
      totalPlayTime: r.totalPlayTime,
      rating: r.rating,
    }),
  );
  // The user's and the latest-cycle conditions alone are the whole list that list_counts keeps.
  return listFilter(conditions, filters, looked, cycles === "latest" && 2);
}

/** getPlayRecords' sorts (and the playRecords dataset's); gameId breaks ties among latest records. */
export const PLAY_SORTS = sortTable(
  {
    playStartDate: r.playStartDate,
    playEndDate: r.playEndDate,
    clearTargetDate: r.clearTargetDate,
    title: r.gameSortKey,
    totalPlayTime: r.totalPlayTime,
    rating: r.rating,
    updatedAt: r.updatedAt,
  },
  r.gameId,
  { sortBy: "updatedAt", sortOrder: "desc" },
  { title: "asc" },
);

/** One record with its game, as write results show it. */
async function playWithGame(db: Db, where: SQL): Promise<(PlayRow & GameRecord) | undefined> {
  // raw SQL: the list's computed columns beside the game's joined columns.
  const [row] = await db.all<PlayRow & GameRecord>(sql`
    SELECT ${PLAY_COLUMNS}, ${GAME_SELECT} FROM ${userListFrom(PLAY_RECORDS)} ${GAME_JOINS} WHERE ${where}`);
  return row;
}

export const findPlay = (db: Db, userId: string, playId: string) => playWithGame(db, and(eq(r.userId, userId), eq(r.id, playId))!);

export const latestPlay = (db: Db, userId: string, gameId: number) =>
  playWithGame(db, and(eq(r.userId, userId), eq(r.gameId, gameId), eq(r.isLatest, true))!);

/** A stored play record as a write result: every field group; `gone()` when a removal took it meanwhile. */
export async function renderPlay(db: Db, userId: string, playId: string, gone = () => notFound(`Your play record ${playId}`)) {
  const [row, labels] = await Promise.all([findPlay(db, userId, playId), attributeLabels(db, userId)]);
  return toPlayRecord(readBack(row, gone), EVERY_PLAY_GROUP, labels);
}

/** Every cycle of one game with its game, newest first. */
export async function historyPage(db: Db, userId: string, gameId: number, page: PageWindow) {
  const newestFirst: SortKey[] = [
    { column: r.createdAt, direction: "desc" },
    { column: sql`${r}.rowid`, direction: "desc" },
  ];
  const filter = { own: [eq(r.userId, userId), eq(r.gameId, gameId)], games: [], narrowed: true };
  return listPageOf<PlayRow>(
    await queryBatch(db, listPageQueries({ list: PLAY_RECORDS, userId, filter, sort: newestFirst, page, withGame: true })),
  );
}
