import { and, eq, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { games, genres, importIdMap, importJobs, libraryEntries, platforms, playRecords, tags, wishlistEntries } from "../../db/schema";
import { inJsonArray, visibleToUser } from "../../platform/columns";
import { type Db, statements } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { type ImportMode, type ImportSource, JOB_TTL_SEC, type JobRow } from "./jobs";

// ---- Jobs

export async function createJob(db: Db, userId: string, source: ImportSource, mode: ImportMode, now: Date): Promise<JobRow> {
  const id = newId("imp");
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + JOB_TTL_SEC * 1000).toISOString();
  await db.insert(importJobs).values({ id, userId, source, mode, state: "awaiting_upload", createdAt: at, updatedAt: at, expiresAt });
  return (await findJob(db, userId, id))!;
}

const ownedJob = (userId: string, jobId: string) => and(eq(importJobs.id, jobId), eq(importJobs.userId, userId));

export async function findJob(db: Db, userId: string, jobId: string): Promise<JobRow | undefined> {
  return (await db.select().from(importJobs).where(ownedJob(userId, jobId)).get()) as JobRow | undefined;
}

/** Another user's job, an unknown or an expired one: all simply not found. */
export async function ownJob(db: Db, userId: string, jobId: string, now: Date): Promise<JobRow> {
  const job = await findJob(db, userId, jobId);
  if (!job || (job.state !== "finished" && Date.parse(job.expiresAt) <= now.getTime())) throw notFound(`Import job ${jobId}`);
  return job;
}

/** The jobs among `jobIds`, whoever's they are: their state and the staged file they read. */
export const jobsAmong = (db: Db, jobIds: readonly string[]) =>
  db
    .select({ id: importJobs.id, state: importJobs.state, stagedKey: importJobs.stagedKey })
    .from(importJobs)
    .where(inJsonArray(importJobs.id, jobIds));

/** The statement that starts a confirmed replace job (in the batch that removes the records it replaces). */
export const startReplaceSql = (jobId: string, now: Date) =>
  statements
    .update(importJobs)
    .set({ state: "processing", updatedAt: now.toISOString() })
    .where(and(eq(importJobs.id, jobId), eq(importJobs.state, "awaiting_confirmation")))
    .getSQL();

/** Holds the processing job for a step until `until`, unless another step holds it; answers whether it did. */
export async function takeLease(db: Db, userId: string, jobId: string, leaseId: string, now: string, until: string) {
  const taken = await db
    .update(importJobs)
    .set({ leaseId, leaseUntil: until })
    .where(
      and(ownedJob(userId, jobId), eq(importJobs.state, "processing"), or(isNull(importJobs.leaseUntil), lte(importJobs.leaseUntil, now))),
    )
    .run();
  return taken.meta.changes > 0;
}

const leased = (jobId: string, leaseId: string) => and(eq(importJobs.id, jobId), eq(importJobs.leaseId, leaseId));

export const releaseLease = (db: Db, jobId: string, leaseId: string) =>
  db.update(importJobs).set({ leaseId: null, leaseUntil: null }).where(leased(jobId, leaseId)).run();

export const finishJob = (db: Db, jobId: string, leaseId: string, now: string) =>
  db.update(importJobs).set({ state: "finished", updatedAt: now }).where(leased(jobId, leaseId)).run();

/** What one written batch adds to a job's progress. */
export interface BatchProgress {
  nextOffset: number;
  done: number;
  added: number;
  existing: number;
  failed: number;
  /** Every reported row so far (capped), as stored. */
  problems: string;
  unitsCharged: number;
}

const plus = (column: SQLiteColumn, amount: number) => sql`${column} + ${amount}`;

export const saveProgress = (db: Db, jobId: string, leaseId: string, progress: BatchProgress, now: string) =>
  db
    .update(importJobs)
    .set({
      nextOffset: progress.nextOffset,
      rowsDone: plus(importJobs.rowsDone, progress.done),
      rowsAdded: plus(importJobs.rowsAdded, progress.added),
      rowsExisting: plus(importJobs.rowsExisting, progress.existing),
      rowsFailed: plus(importJobs.rowsFailed, progress.failed),
      problems: progress.problems,
      unitsCharged: plus(importJobs.unitsCharged, progress.unitsCharged),
      updatedAt: now,
    })
    .where(leased(jobId, leaseId))
    .run();

// ---- What a batch reads before it decides its rows

/** Ids re-issued by earlier restores of this user: old id (as in the file) -> new id. */
export async function idMap(db: Db, userId: string, kind: string, oldIds: readonly string[]): Promise<Map<string, string>> {
  if (oldIds.length === 0) return new Map();
  const rows = await db
    .select({ oldId: importIdMap.oldId, newId: importIdMap.newId })
    .from(importIdMap)
    .where(and(eq(importIdMap.userId, userId), eq(importIdMap.kind, kind), inJsonArray(importIdMap.oldId, oldIds)));
  return new Map(rows.map((r) => [r.oldId, r.newId]));
}

/** Records a re-issued id; `newIdValue` may be SQL (a tag's id is known only once it is inserted). */
export const mapSql = (userId: string, kind: string, oldId: string, newIdValue: string | SQL) =>
  statements
    .insert(importIdMap)
    .values({ userId, kind, oldId, newId: newIdValue })
    .onConflictDoUpdate({
      target: [importIdMap.userId, importIdMap.kind, importIdMap.oldId],
      set: { newId: sql`excluded.${sql.identifier(importIdMap.newId.name)}` },
    })
    .getSQL();

/** The ids among `ids` the user can see (official games and their own custom games). */
export async function visibleGames(db: Db, userId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: games.id })
    .from(games)
    .where(and(inJsonArray(games.id, ids), visibleToUser(games.ownerUserId, userId)));
  return new Set(rows.map((r) => r.id));
}

/** Which of `values` stand in `column` of the user's rows (whose owner column is `owner`; `also` narrows them). */
export async function held<T extends string | number>(
  db: Db,
  owner: SQLiteColumn,
  userId: string,
  column: SQLiteColumn,
  values: readonly T[],
  also?: SQL,
): Promise<Set<T>> {
  const rows = await db
    .select({ value: column })
    .from(column.table)
    .where(and(eq(owner, userId), inJsonArray(column, values), also));
  return new Set(rows.map((row) => row.value as T));
}

/** Which of the games are in the user's library. */
export const inLibrary = (db: Db, userId: string, gameIds: readonly number[]) =>
  held(db, libraryEntries.userId, userId, libraryEntries.gameId, gameIds);

/** Which of the games are on the user's wishlist. */
export const onWishlist = (db: Db, userId: string, gameIds: readonly number[]) =>
  held(db, wishlistEntries.userId, userId, wishlistEntries.gameId, gameIds);

/** Which of the games have a current (latest) play record of the user. */
export const withLatestPlay = (db: Db, userId: string, gameIds: readonly number[]) =>
  held(db, playRecords.userId, userId, playRecords.gameId, gameIds, eq(playRecords.isLatest, true));

export async function playRecordExists(db: Db, userId: string, playId: string) {
  const row = await db
    .select({ id: playRecords.id })
    .from(playRecords)
    .where(and(eq(playRecords.userId, userId), eq(playRecords.id, playId)))
    .get();
  return row !== undefined;
}

/** True (in SQL) while every one of the play records is still the user's (a guarded batch's condition). */
export const allPlayRecordsKept = (userId: string, playIds: readonly string[]) =>
  // raw SQL: a guard condition over json_each's rows, which the builder cannot say
  sql`NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify(playIds)}) j
    WHERE NOT EXISTS (SELECT 1 FROM ${playRecords} WHERE ${playRecords.userId} = ${userId} AND ${playRecords.id} = j.value))`;

/** Each of the genres that exist, with its parent (null for a main genre). */
export async function genreParents(db: Db, genreIds: readonly number[]): Promise<Map<number, number | null>> {
  const rows = await db.select({ id: genres.id, parentId: genres.parentId }).from(genres).where(inJsonArray(genres.id, genreIds));
  return new Map(rows.map((genre) => [genre.id, genre.parentId]));
}

/** The user's tags that have one of these names. */
export const tagsNamed = (db: Db, userId: string, names: readonly string[]) =>
  db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(and(eq(tags.userId, userId), inJsonArray(tags.name, names)));

/** Ids, names, short and English names of the platforms the user can see: official first, then by id. */
export const visiblePlatformNames = (db: Db, userId: string) =>
  db
    .select({ id: platforms.id, name: platforms.name, nameEn: platforms.nameEn, shortName: platforms.shortName })
    .from(platforms)
    .where(visibleToUser(platforms.ownerUserId, userId))
    .orderBy(sql`${platforms.ownerUserId} IS NOT NULL`, platforms.id);
