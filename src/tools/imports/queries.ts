import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { importJobs, platforms } from "../../db/schema";
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

// ---- What tracker rows are matched with

/** Ids, names, short and English names of the platforms the user can see: official first, then by id. */
export const visiblePlatformNames = (db: Db, userId: string) =>
  db
    .select({ id: platforms.id, name: platforms.name, nameEn: platforms.nameEn, shortName: platforms.shortName })
    .from(platforms)
    .where(visibleToUser(platforms.ownerUserId, userId))
    .orderBy(sql`${platforms.ownerUserId} IS NOT NULL`, platforms.id);

/** What staging an upload found: the file's dataset, size, rows and where it is kept. */
export interface StagedFile {
  dataset: string;
  bytes: number;
  rows: number;
  key: string;
}

/** Records the staged file in the job and moves it on, unless another upload got there first (false). */
export async function claimStagedFile(db: Db, jobId: string, next: JobRow["state"], staged: StagedFile, now: Date): Promise<boolean> {
  const claimed = await db
    .update(importJobs)
    .set({
      state: next,
      dataset: staged.dataset,
      byteSize: staged.bytes,
      totalRows: staged.rows,
      stagedKey: staged.key,
      nextOffset: 0,
      updatedAt: now.toISOString(),
    })
    .where(and(eq(importJobs.id, jobId), eq(importJobs.state, "awaiting_upload")))
    .run();
  return claimed.meta.changes > 0;
}
