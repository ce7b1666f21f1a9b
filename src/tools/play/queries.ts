import { and, count, desc, eq, exists, getTableColumns, notExists, type SQL, sql } from "drizzle-orm";
import { consoles, games, playLogs, playRecords } from "../../db/schema";
import { type Db, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { type Fingerprint, fingerprintsOf, keyOf } from "../../platform/fingerprints";
import { newId, newRevision } from "../../platform/ids";
import type { PageWindow } from "../../platform/paging";
import { runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { setDiffers, touchedIfChanged } from "../../platform/writes";
import { attributesKept, resolveAttributeIds } from "../attributes/queries";
import { consoleKept, findConsole } from "../consoles/queries";
import type { LogRow, PlayRow, PlayStatus } from "./items";

/*
 * Play records' writes, and play logs (read and written). The play records as a list (filters,
 * sorts, a record read with its game) are in listQueries.ts.
 */

const byUserAndId = (userId: string, playId: string) => and(eq(playRecords.userId, userId), eq(playRecords.id, playId));
const byUserAndGame = (userId: string, gameId: number) => and(eq(playRecords.userId, userId), eq(playRecords.gameId, gameId));

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
  untrackedPlayTime: number;
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
  untrackedPlayTime: row.untracked_play_time,
});

/**
 * Status and dates stay coherent: a cycle moving to PLAYING starts today (the user's day, see
 * timeZones.ts) if it has no start date; one moving to COMPLETED or DROPPED ends today if it has no
 * end date.
 */
export async function withStatusDates(values: PlayValues, previous: PlayStatus | null, today: () => Promise<string>): Promise<PlayValues> {
  if (values.status === previous) return values;
  if (values.status === "PLAYING" && values.playStartDate === null) return { ...values, playStartDate: await today() };
  if ((values.status === "COMPLETED" || values.status === "DROPPED") && values.playEndDate === null)
    return { ...values, playEndDate: await today() };
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
        .set({ ...values, ...touchedIfChanged(playRecords, setDiffers(playRecords, values), now, newRevision()) })
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

/** The references a call sets on a play record, as addPlayRecord and updatePlayRecord take them. */
export interface PlayReferences {
  consoleId?: string | null;
  attributes?: string[];
}

/**
 * Checks what a call names on a play record, the one rule of addPlayRecord and updatePlayRecord:
 * the console must be one of the user's (404 naming consoleId), attributes are resolved to ids
 * (400 naming attributes[i]). Answers the ids and the conditions the writing batch checks again,
 * so a console or attribute removed meanwhile is never stored.
 */
export async function checkedReferences(db: Db, userId: string, { consoleId, attributes }: PlayReferences) {
  const [console, attributeIds] = await Promise.all([
    consoleId ? findConsole(db, userId, consoleId) : undefined,
    attributes === undefined ? undefined : resolveAttributeIds(db, userId, attributes, "attributes"),
  ]);
  if (consoleId && !console) throw consoleNotFound(consoleId);
  const conditions: WriteCondition[] = [
    ...(consoleId ? [consoleKept(userId, consoleId, () => consoleNotFound(consoleId))] : []),
    ...attributesKept(userId, attributeIds ?? [], "attributes"),
  ];
  return { attributeIds, conditions };
}

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
export async function playLogPage(db: Db, playId: string, page: PageWindow) {
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
