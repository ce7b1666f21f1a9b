import { and, count, desc, eq, exists, getTableColumns, ne, notExists, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { consoles, games, playLogs, playRecords } from "../../db/schema";
import { inJsonArray, jsonArrayHolds } from "../../platform/columns";
import { columnList, type Db, queryBatch, rangeConditions, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { rating, sharedFilterArgs } from "../../platform/filters";
import { newId, newRevision } from "../../platform/ids";
import { nullsLastSort, orderOf, type SortKey } from "../../platform/keyset";
import { runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { isoDate } from "../../platform/schemas";
import { utcDay } from "../../platform/time";
import { readBack } from "../../platform/writes";
import { attributeLabels, resolveAttributeIds } from "../attributes/queries";
import type { GameRecord } from "../games/gameObject";
import { GAME_JOINS, GAME_SELECT, type GameFilters, listGameConditions, listGameConditionsNow } from "../games/queries";
import { joinedConditions, type ListFilter, listPageOf, listPageQueries, type UserList, userListFrom } from "../games/userLists";
import { hasHistory, playCycle } from "../shared/dependentRecords";
import { type Fingerprint, fingerprintsOf, keyOf } from "../shared/fingerprints";
import { EVERY_PLAY_GROUP, type LogRow, PLAY_KEYS, PLAY_STATUSES, type PlayRow, type PlayStatus, toPlayRecord, UNFINISHED } from "./items";

const r = playCycle;

/** A record's item columns, its console's name and whether other cycles of its game are kept. */
// raw SQL: computed columns (subqueries) beside the list's own, read by the shared list page machinery.
const PLAY_COLUMNS = sql`${r.id} AS play_id, ${columnList(r, PLAY_KEYS)},
  (SELECT ${consoles.name} FROM ${consoles} WHERE ${consoles.id} = ${r.consoleId}) AS console_name, ${hasHistory} AS has_history`;

export const PLAY_RECORDS: UserList = { table: "play_records", alias: "r", columns: PLAY_COLUMNS, counted: "play" };

const byUserAndId = (userId: string, playId: string) => and(eq(playRecords.userId, userId), eq(playRecords.id, playId));
const byUserAndGame = (userId: string, gameId: number) => and(eq(playRecords.userId, userId), eq(playRecords.gameId, gameId));

const { platformIds, genreId, title, releaseDateFrom, releaseDateTo, attributes } = sharedFilterArgs;

/** The play records' filters (getPlayRecords, exportMyData's playRecords and playLogs), read by playConditions. */
export const playFilterArgs = {
  statuses: z.array(z.enum(PLAY_STATUSES)).max(5).optional().describe("Any of them."),
  platformIds,
  genreId,
  title,
  releaseDateFrom,
  releaseDateTo,
  attributes,
  consoleIds: z.array(z.string().min(1).max(40)).max(5).optional().describe("Up to 5; any of them (LIGHT and above)."),
  playStartDateFrom: isoDate.optional(),
  playStartDateTo: isoDate.optional(),
  playEndDateFrom: isoDate.optional(),
  playEndDateTo: isoDate.optional(),
  clearTargetDateFrom: isoDate.optional(),
  clearTargetDateTo: isoDate.optional(),
  clearTargetOverdue: z
    .enum(["overdue", "not_overdue"])
    .optional()
    .describe("overdue: unfinished with a clear target before today (UTC); COMPLETED and DROPPED are never overdue."),
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

export interface PlayFilters extends GameFilters {
  title?: string;
  statuses?: PlayStatus[];
  attributes?: string[];
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

/** Overdue: an unfinished cycle whose clear target is before today (UTC); COMPLETED and DROPPED never are. */
function overdue(now: Date): SQL {
  // IS NOT NULL keeps the test two-valued, so NOT(overdue) also takes records with no target.
  return sql`(${inJsonArray(r.status, UNFINISHED)} AND ${r.clearTargetDate} IS NOT NULL AND ${r.clearTargetDate} < ${utcDay(now)})`;
}

/** The latest cycle of each game (or, with cycles "all", every kept cycle), filtered. */
export async function playConditions(
  db: Db,
  userId: string,
  filters: PlayFilters,
  now: Date,
  cycles: "latest" | "all" = "latest",
): Promise<SQL[]> {
  return joinedConditions(userId, await playFilter(db, userId, filters, now, cycles));
}

/** playConditions in two parts: on the records (r) and on their games (g). */
export async function playFilter(
  db: Db,
  userId: string,
  filters: PlayFilters,
  now: Date,
  cycles: "latest" | "all" = "latest",
): Promise<ListFilter> {
  const attributeIds = await resolveAttributeIds(db, userId, filters.attributes ?? [], "attributes");
  return playFilterWith(userId, filters, now, cycles, attributeIds, await listGameConditions(db, filters));
}

/** playFilter of the latest cycles when nothing needs reading first (no attributes, no genre); undefined otherwise. */
export function playFilterNow(userId: string, filters: PlayFilters, now: Date): ListFilter | undefined {
  const games = listGameConditionsNow(filters);
  return games && !filters.attributes?.length ? playFilterWith(userId, filters, now, "latest", [], games) : undefined;
}

function playFilterWith(
  userId: string,
  filters: PlayFilters,
  now: Date,
  cycles: "latest" | "all",
  attributeIds: readonly string[],
  games: SQL[],
): ListFilter {
  // r.is_latest = 1 as written here, not eq(): the partial sort indexes say exactly this.
  const conditions = [eq(r.userId, userId), ...(cycles === "latest" ? [sql`${r.isLatest} = 1`] : [])];
  if (filters.statuses?.length) conditions.push(inJsonArray(r.status, filters.statuses));
  if (filters.consoleIds?.length) conditions.push(inJsonArray(r.consoleId, filters.consoleIds));
  for (const id of attributeIds) conditions.push(jsonArrayHolds(r.attributeIds, id));
  if (filters.clearTargetOverdue === "overdue") conditions.push(overdue(now));
  if (filters.clearTargetOverdue === "not_overdue") conditions.push(sql`NOT ${overdue(now)}`);
  conditions.push(
    ...rangeConditions(filters, [
      ["playStartDateFrom", r.playStartDate, "from"],
      ["playStartDateTo", r.playStartDate, "to"],
      ["playEndDateFrom", r.playEndDate, "from"],
      ["playEndDateTo", r.playEndDate, "to"],
      ["clearTargetDateFrom", r.clearTargetDate, "from"],
      ["clearTargetDateTo", r.clearTargetDate, "to"],
      ["totalPlayTimeFrom", r.totalPlayTime, "from"],
      ["totalPlayTimeTo", r.totalPlayTime, "to"],
      ["ratingFrom", r.rating, "from"],
      ["ratingTo", r.rating, "to"],
    ]),
  );
  // The user's and the latest-cycle conditions alone are the whole list that list_counts keeps.
  const whole = cycles === "latest" && conditions.length === 2 && games.length === 0;
  return { own: conditions, games, narrowed: !whole };
}

export const PLAY_SORTS = {
  playStartDate: r.playStartDate,
  playEndDate: r.playEndDate,
  clearTargetDate: r.clearTargetDate,
  title: r.gameSortKey,
  totalPlayTime: r.totalPlayTime,
  rating: r.rating,
  updatedAt: r.updatedAt,
} as const;

export type PlaySort = keyof typeof PLAY_SORTS;
export const PLAY_DEFAULT_SORT = { sortBy: "updatedAt", sortOrder: "desc" } as const;

export const playSort = (sortBy: PlaySort, sortOrder: "asc" | "desc") => nullsLastSort(PLAY_SORTS[sortBy], sortOrder, r.gameId);
export const playOrder = (sortBy: PlaySort, sortOrder: "asc" | "desc") => orderOf(playSort(sortBy, sortOrder));

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
export async function historyPage(db: Db, userId: string, gameId: number, page: { limit: number; offset: number }) {
  const newestFirst: SortKey[] = [
    { column: r.createdAt, direction: "desc" },
    { column: sql`${r}.rowid`, direction: "desc" },
  ];
  const filter = { own: [eq(r.userId, userId), eq(r.gameId, gameId)], games: [], narrowed: true };
  return listPageOf<PlayRow>(
    await queryBatch(db, listPageQueries({ list: PLAY_RECORDS, userId, filter, sort: newestFirst, page, withGame: true })),
  );
}

export interface PlayValues {
  status: PlayStatus;
  playStartDate: string | null;
  playEndDate: string | null;
  clearTargetDate: string | null;
  rating: number | null;
  memo: string | null;
  userLinks: { name: string; url: string }[];
  attributeIds: string[];
  consoleId: string | null;
}

export const playValuesOf = (row: PlayRow): PlayValues => ({
  status: row.status,
  playStartDate: row.play_start_date,
  playEndDate: row.play_end_date,
  clearTargetDate: row.clear_target_date,
  rating: row.rating,
  memo: row.memo,
  userLinks: JSON.parse(row.user_links),
  attributeIds: JSON.parse(row.attribute_ids),
  consoleId: row.console_id,
});

/**
 * Status and dates stay coherent: a cycle moving to PLAYING starts today if it has no start date;
 * one moving to COMPLETED or DROPPED ends today if it has no end date.
 */
export function withStatusDates(values: PlayValues, previous: PlayStatus | null, now: Date): PlayValues {
  if (values.status === previous) return values;
  const today = utcDay(now);
  if (values.status === "PLAYING" && values.playStartDate === null) return { ...values, playStartDate: today };
  if ((values.status === "COMPLETED" || values.status === "DROPPED") && values.playEndDate === null)
    return { ...values, playEndDate: today };
  return values;
}

/** The one INSERT of a play record; `restored` (imports) keeps a backup's timestamps and latest flag. */
export const insertPlaySql = (
  userId: string,
  gameId: number,
  id: string,
  values: PlayValues,
  now: string,
  restored: { createdAt: string; updatedAt: string; isLatest: boolean } = { createdAt: now, updatedAt: now, isLatest: true },
) =>
  statements
    .insert(playRecords)
    .values({ id, userId, gameId, ...values, ...restored, revision: newRevision() })
    .getSQL();

export const newPlayId = () => newId("play");

export const playRevisionConflict = () =>
  new ApiError("revision_conflict", "The play record changed since that revision; read it again and resend.", { field: "revision" });

/** The record must still exist when the batch that refers to it runs (a removal racing the write leaves nothing behind). */
const recordKept = (userId: string, playId: string): WriteCondition => ({
  holds: exists(statements.select({ one: sql`1` }).from(playRecords).where(byUserAndId(userId, playId))),
  error: () => notFound(`Your play record ${playId}`),
});

/**
 * Writes the record while it still has revision `expected` and every condition (the console and
 * attributes it names) holds, all checked in the batch that writes: 404 when it was removed
 * meanwhile, 409 when it changed, the condition's error otherwise.
 */
export async function updatePlay(
  db: Db,
  target: { userId: string; playId: string; expected: string },
  values: PlayValues,
  now: string,
  conditions: WriteCondition[],
) {
  const { userId, playId, expected } = target;
  const unchanged: WriteCondition = {
    holds: exists(
      statements
        .select({ one: sql`1` })
        .from(playRecords)
        .where(and(byUserAndId(userId, playId), eq(playRecords.revision, expected))),
    ),
    error: playRevisionConflict,
  };
  await runConditional(
    db,
    [recordKept(userId, playId), unchanged, ...conditions],
    [
      statements
        .update(playRecords)
        .set({ ...values, updatedAt: now, revision: newRevision() })
        .where(byUserAndId(userId, playId))
        .getSQL(),
    ],
  );
}

/**
 * A replay inherits the previous cycle's console; if removeConsole took it meanwhile, the new cycle
 * has none, as removeConsole would have left it (run after the insert, in its batch).
 */
export const forgetRemovedConsoleSql = (userId: string, playId: string) =>
  statements
    .update(playRecords)
    .set({ consoleId: null })
    .where(
      and(
        byUserAndId(userId, playId),
        notExists(
          statements
            .select({ one: sql`1` })
            .from(consoles)
            .where(and(eq(consoles.id, playRecords.consoleId), eq(consoles.userId, userId))),
        ),
      ),
    )
    .getSQL();

/** The game's other cycles, newest first: the first is the one that becomes latest when the latest goes. */
const otherCycles = (userId: string, gameId: number, except: string) => and(byUserAndGame(userId, gameId), ne(playRecords.id, except));
const NEWEST_FIRST = [desc(playRecords.createdAt), desc(sql`rowid`)];

/** The cycle that becomes latest when this latest one is removed (removePlayRecord's preview names it). */
export const heirOf = (db: Db, userId: string, gameId: number, playId: string) =>
  db
    .select({ id: playRecords.id, playStartDate: playRecords.playStartDate, createdAt: playRecords.createdAt })
    .from(playRecords)
    .where(otherCycles(userId, gameId, playId))
    .orderBy(...NEWEST_FIRST)
    .get();

/** Deletes one cycle with its logs; if it was the latest, the newest remaining cycle becomes latest. */
export const deletePlaySql = (userId: string, gameId: number, playId: string): SQL[] => {
  const newest = statements
    .select({ id: playRecords.id })
    .from(playRecords)
    .where(otherCycles(userId, gameId, playId))
    .orderBy(...NEWEST_FIRST)
    .limit(1);
  return [
    statements
      .delete(playLogs)
      .where(and(eq(playLogs.playId, playId), eq(playLogs.userId, userId)))
      .getSQL(),
    statements.delete(playRecords).where(byUserAndId(userId, playId)).getSQL(),
    statements
      .update(playRecords)
      .set({ isLatest: true })
      .where(and(eq(playRecords.id, newest), notExists(latestCycle(userId, gameId))))
      .getSQL(),
  ];
};

/** The latest cycle of a game, as a subquery (addPlayRecord checks inside its batch that none exists yet). */
export const latestCycle = (userId: string, gameId: number) =>
  statements
    .select({ one: sql`1` })
    .from(playRecords)
    .where(and(byUserAndGame(userId, gameId), eq(playRecords.isLatest, true)));

export const endLatestSql = (userId: string, gameId: number) =>
  statements
    .update(playRecords)
    .set({ isLatest: false })
    .where(and(byUserAndGame(userId, gameId), eq(playRecords.isLatest, true)))
    .getSQL();

/** How many logs a cycle has, and a fingerprint that changes whenever any of them does. */
export async function logsOf(db: Db, playId: string): Promise<Fingerprint> {
  const [logs] = await fingerprintsOf(db, [
    statements
      .select({ k: keyOf(playLogs.id, playLogs.updatedAt) })
      .from(playLogs)
      .where(eq(playLogs.playId, playId))
      .getSQL(),
  ]);
  return logs!;
}

export const consoleNotFound = (consoleId: string) =>
  new ApiError("not_found", `consoleId: ${consoleId} is not one of your consoles.`, { field: "consoleId" });

/** The caller's log, with its game's title for previews. */
export async function findPlayLog(db: Db, userId: string, playLogId: string): Promise<(LogRow & { title: string }) | undefined> {
  return db
    .select({ ...getTableColumns(playLogs), title: games.title })
    .from(playLogs)
    .innerJoin(playRecords, eq(playRecords.id, playLogs.playId))
    .innerJoin(games, eq(games.id, playRecords.gameId))
    .where(and(eq(playLogs.id, playLogId), eq(playLogs.userId, userId)))
    .get();
}

/** Adds a log while its record still exists (checked in the same batch: a removal racing it leaves no orphan log). */
export async function insertPlayLog(
  db: Db,
  userId: string,
  playId: string,
  values: { playDate: string | null; playTime: number; memo: string | null },
  now: string,
) {
  const id = newId("plog");
  await runConditional(db, [recordKept(userId, playId)], [insertPlayLogSql(userId, playId, id, values, now)]);
  return id;
}

/** The one INSERT of a play log (addPlayLog, imports); `times` keeps a restored log's timestamps. */
export const insertPlayLogSql = (
  userId: string,
  playId: string,
  id: string,
  values: { playDate: string | null; playTime: number; memo: string | null },
  now: string,
  times = { createdAt: now, updatedAt: now },
) =>
  statements
    .insert(playLogs)
    .values({ id, userId, playId, ...values, ...times })
    .getSQL();

/** Writes only the fields sent, so two patches of different fields never undo each other. */
export async function patchPlayLog(db: Db, userId: string, playLogId: string, changes: { playTime?: number; memo?: string }, now: string) {
  await db
    .update(playLogs)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(playLogs.id, playLogId), eq(playLogs.userId, userId)));
}

export const deletePlayLogSql = (userId: string, playLogId: string): SQL =>
  statements
    .delete(playLogs)
    .where(and(eq(playLogs.id, playLogId), eq(playLogs.userId, userId)))
    .getSQL();

/** Newest session first. */
export async function playLogPage(db: Db, playId: string, page: { limit: number; offset: number }) {
  const ofRecord = eq(playLogs.playId, playId);
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(playLogs)
      .where(ofRecord)
      .orderBy(sql`${playLogs.playDate} IS NULL`, desc(playLogs.playDate), desc(playLogs.createdAt), desc(sql`rowid`))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(playLogs).where(ofRecord),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}
