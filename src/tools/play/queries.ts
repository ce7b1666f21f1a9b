import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, queryBatch, rangeConditions } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { rating, sharedFilterArgs } from "../../platform/filters";
import { newId, newRevision } from "../../platform/ids";
import { nullsLastSort, orderOf, type SortKey } from "../../platform/keyset";
import { utcDay } from "../../platform/quota";
import { isoDate } from "../../platform/schemas";
import { resolveAttributeIds } from "../attributes/queries";
import type { GameRecord } from "../games/gameObject";
import { GAME_JOINS, GAME_SELECT, type GameFilters, listGameConditions, listGameConditionsNow } from "../games/queries";
import { joinedConditions, type ListFilter, listPageOf, listPageQueries, type UserList } from "../games/userLists";
import { PLAY_STATUSES, type PlayRow, type PlayStatus, UNFINISHED } from "./record";

/** Minutes played in a cycle: always the sum of its logs, never stored apart from them. */
/** Kept equal to the sum of the record's play logs by triggers (migration 0033), so it sorts through an index. */
const TOTAL_PLAY_TIME = "r.total_play_time";
const PLAY_COLUMNS = sql.raw(`
  r.id AS play_id, r.game_id, r.status, r.play_start_date, r.play_end_date, r.clear_target_date, r.rating, r.memo,
  r.user_links, r.attribute_ids, r.console_id, r.is_latest, r.created_at, r.updated_at, r.revision,
  (SELECT name FROM consoles WHERE id = r.console_id) AS console_name,
  EXISTS (SELECT 1 FROM play_records h WHERE h.user_id = r.user_id AND h.game_id = r.game_id AND h.id <> r.id) AS has_history,
  ${TOTAL_PLAY_TIME} AS total_play_time`);

export const PLAY_RECORDS: UserList = { table: "play_records", alias: "r", columns: PLAY_COLUMNS };

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

const inList = (column: string, values: readonly (string | number)[]) =>
  sql`${sql.raw(column)} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** Overdue: an unfinished cycle whose clear target is before today (UTC); COMPLETED and DROPPED never are. */
function overdue(now: Date): SQL {
  // IS NOT NULL keeps the test two-valued, so NOT(overdue) also takes records with no target.
  return sql`(${inList("r.status", UNFINISHED)} AND r.clear_target_date IS NOT NULL AND r.clear_target_date < ${utcDay(now)})`;
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
  const conditions = [sql`r.user_id = ${userId}`, ...(cycles === "latest" ? [sql`r.is_latest = 1`] : [])];
  if (filters.statuses?.length) conditions.push(inList("r.status", filters.statuses));
  if (filters.consoleIds?.length) conditions.push(inList("r.console_id", filters.consoleIds));
  for (const id of attributeIds) conditions.push(sql`EXISTS (SELECT 1 FROM json_each(r.attribute_ids) WHERE value = ${id})`);
  if (filters.clearTargetOverdue === "overdue") conditions.push(overdue(now));
  if (filters.clearTargetOverdue === "not_overdue") conditions.push(sql`NOT ${overdue(now)}`);
  conditions.push(
    ...rangeConditions(filters, [
      ["playStartDateFrom", "r.play_start_date", "from"],
      ["playStartDateTo", "r.play_start_date", "to"],
      ["playEndDateFrom", "r.play_end_date", "from"],
      ["playEndDateTo", "r.play_end_date", "to"],
      ["clearTargetDateFrom", "r.clear_target_date", "from"],
      ["clearTargetDateTo", "r.clear_target_date", "to"],
      ["totalPlayTimeFrom", TOTAL_PLAY_TIME, "from"],
      ["totalPlayTimeTo", TOTAL_PLAY_TIME, "to"],
      ["ratingFrom", "r.rating", "from"],
      ["ratingTo", "r.rating", "to"],
    ]),
  );
  return { own: conditions, games };
}

export const PLAY_SORTS = {
  playStartDate: "r.play_start_date",
  playEndDate: "r.play_end_date",
  clearTargetDate: "r.clear_target_date",
  title: "r.game_sort_key",
  totalPlayTime: TOTAL_PLAY_TIME,
  rating: "r.rating",
  updatedAt: "r.updated_at",
} as const;

export type PlaySort = keyof typeof PLAY_SORTS;
export const PLAY_DEFAULT_SORT = { sortBy: "updatedAt", sortOrder: "desc" } as const;

export const playSort = (sortBy: PlaySort, sortOrder: "asc" | "desc") => nullsLastSort(PLAY_SORTS[sortBy], sortOrder, "r.game_id");
export const playOrder = (sortBy: PlaySort, sortOrder: "asc" | "desc") => orderOf(playSort(sortBy, sortOrder));

export async function findPlay(db: Db, userId: string, playId: string): Promise<(PlayRow & GameRecord) | undefined> {
  const [row] = await db.all<PlayRow & GameRecord>(sql`
    SELECT ${PLAY_COLUMNS}, ${GAME_SELECT} FROM play_records r JOIN games g ON g.id = r.game_id ${GAME_JOINS}
    WHERE r.user_id = ${userId} AND r.id = ${playId}`);
  return row;
}

export async function latestPlay(db: Db, userId: string, gameId: number): Promise<(PlayRow & GameRecord) | undefined> {
  const [row] = await db.all<PlayRow & GameRecord>(sql`
    SELECT ${PLAY_COLUMNS}, ${GAME_SELECT} FROM play_records r JOIN games g ON g.id = r.game_id ${GAME_JOINS}
    WHERE r.user_id = ${userId} AND r.game_id = ${gameId} AND r.is_latest = 1`);
  return row;
}

/** Every cycle of one game, newest first. */
export async function historyPage(db: Db, userId: string, gameId: number, page: { limit: number; offset: number }) {
  const newestFirst: SortKey[] = [
    { column: "r.created_at", direction: "desc" },
    { column: "r.rowid", direction: "desc" },
  ];
  const filter = { own: [sql`r.user_id = ${userId}`, sql`r.game_id = ${gameId}`], games: [] };
  return listPageOf<PlayRow>(
    await queryBatch(db, listPageQueries({ list: PLAY_RECORDS, userId, filter, sort: newestFirst, page, withGame: false })),
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
) => sql`
  INSERT INTO play_records (id, user_id, game_id, status, play_start_date, play_end_date, clear_target_date, rating, memo, user_links,
    attribute_ids, console_id, is_latest, created_at, updated_at, revision)
  VALUES (${id}, ${userId}, ${gameId}, ${values.status}, ${values.playStartDate}, ${values.playEndDate}, ${values.clearTargetDate},
    ${values.rating}, ${values.memo}, ${JSON.stringify(values.userLinks)}, ${JSON.stringify(values.attributeIds)}, ${values.consoleId}, ${restored.isLatest ? 1 : 0},
    ${restored.createdAt}, ${restored.updatedAt}, ${newRevision()})`;

export const newPlayId = () => newId("play");

export async function updatePlay(db: Db, userId: string, playId: string, values: PlayValues, expected: string, now: string) {
  const result = await db.run(sql`
    UPDATE play_records SET status = ${values.status}, play_start_date = ${values.playStartDate}, play_end_date = ${values.playEndDate},
      clear_target_date = ${values.clearTargetDate}, rating = ${values.rating}, memo = ${values.memo},
      user_links = ${JSON.stringify(values.userLinks)}, attribute_ids = ${JSON.stringify(values.attributeIds)},
      console_id = ${values.consoleId}, updated_at = ${now}, revision = ${newRevision()}
    WHERE user_id = ${userId} AND id = ${playId} AND revision = ${expected}`);
  return result.meta.changes > 0;
}

/** Deletes one cycle with its logs; if it was the latest, the newest remaining cycle becomes latest. */
export const deletePlaySql = (userId: string, gameId: number, playId: string): SQL[] => [
  sql`DELETE FROM play_logs WHERE play_id = ${playId} AND user_id = ${userId}`,
  sql`DELETE FROM play_records WHERE id = ${playId} AND user_id = ${userId}`,
  sql`UPDATE play_records SET is_latest = 1 WHERE id = (
      SELECT id FROM play_records WHERE user_id = ${userId} AND game_id = ${gameId} ORDER BY created_at DESC, rowid DESC LIMIT 1)
    AND NOT EXISTS (SELECT 1 FROM play_records WHERE user_id = ${userId} AND game_id = ${gameId} AND is_latest = 1)`,
];

/** The latest cycle of a game, as a subquery (addPlayRecord checks inside its batch that none exists yet). */
export const latestSql = (userId: string, gameId: number) =>
  sql`SELECT 1 FROM play_records WHERE user_id = ${userId} AND game_id = ${gameId} AND is_latest = 1`;

export const endLatestSql = (userId: string, gameId: number) =>
  sql`UPDATE play_records SET is_latest = 0 WHERE user_id = ${userId} AND game_id = ${gameId} AND is_latest = 1`;

/** How many logs a cycle has, and a fingerprint that changes whenever any of them does. */
export async function logsOf(db: Db, playId: string): Promise<{ count: number; fingerprint: string }> {
  const [row] = await db.all<{ n: number; f: string | null }>(sql`
    SELECT COUNT(*) AS n, group_concat(id || '@' || updated_at) AS f FROM (SELECT id, updated_at FROM play_logs WHERE play_id = ${playId} ORDER BY id)`);
  return { count: row?.n ?? 0, fingerprint: row?.f ?? "" };
}

export const consoleNotFound = (consoleId: string) =>
  new ApiError("not_found", `consoleId: ${consoleId} is not one of your consoles.`, { field: "consoleId" });

/** The latest cycle of each of these games (for the library's latestPlay group). */
export async function latestPlays(db: Db, userId: string, gameIds: readonly number[]) {
  if (gameIds.length === 0) return new Map<number, { playId: string; status: PlayStatus; hasHistory: boolean }>();
  const rows = await db.all<{ game_id: number; id: string; status: PlayStatus; has_history: number }>(sql`
    SELECT r.game_id, r.id, r.status,
      EXISTS (SELECT 1 FROM play_records h WHERE h.user_id = r.user_id AND h.game_id = r.game_id AND h.id <> r.id) AS has_history
    FROM play_records r WHERE r.user_id = ${userId} AND r.is_latest = 1
      AND r.game_id IN (SELECT value FROM json_each(${JSON.stringify(gameIds)}))`);
  return new Map(rows.map((r) => [r.game_id, { playId: r.id, status: r.status, hasHistory: r.has_history === 1 }]));
}

/** Every cycle of a game and their logs (removing the game from the library or the game itself). */
export const deleteGamePlaysSql = (userId: string, gameId: number): SQL[] => [
  sql`DELETE FROM play_logs WHERE user_id = ${userId} AND play_id IN (SELECT id FROM play_records WHERE user_id = ${userId} AND game_id = ${gameId})`,
  sql`DELETE FROM play_records WHERE user_id = ${userId} AND game_id = ${gameId}`,
];

/** How many play cycles a game has, and a fingerprint that changes whenever any cycle or log does. */
export async function gamePlaysOf(db: Db, userId: string, gameId: number): Promise<{ count: number; fingerprint: string }> {
  const [row] = await db.all<{ n: number; f: string | null; l: string | null }>(sql`
    SELECT COUNT(*) AS n, group_concat(r.id || '@' || r.revision) AS f,
      (SELECT group_concat(pl.id || '@' || pl.updated_at) FROM play_logs pl WHERE pl.user_id = ${userId}
         AND pl.play_id IN (SELECT id FROM play_records WHERE user_id = ${userId} AND game_id = ${gameId})) AS l
    FROM (SELECT id, revision FROM play_records WHERE user_id = ${userId} AND game_id = ${gameId} ORDER BY id) r`);
  return { count: row?.n ?? 0, fingerprint: `${row?.f ?? ""}|${row?.l ?? ""}` };
}

export async function playsOnConsole(db: Db, userId: string, consoleId: string): Promise<{ title: string }[]> {
  return db.all<{ title: string }>(sql`
    SELECT g.title FROM play_records r JOIN games g ON g.id = r.game_id WHERE r.user_id = ${userId} AND r.console_id = ${consoleId} ORDER BY g.sort_key`);
}

export const detachConsoleSql = (userId: string, consoleId: string) =>
  sql`UPDATE play_records SET console_id = NULL, revision = ${newRevision()} WHERE user_id = ${userId} AND console_id = ${consoleId}`;
