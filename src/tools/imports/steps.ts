import { type AccountingEnv, chargeUser } from "../../platform/admission";
import type { Db } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { StreamedObjectWriter } from "../../platform/exportStorage";
import { randomBase62 } from "../../platform/ids";
import type { Plan } from "../../platform/plans";
import { userDataset } from "../datasets";
import type { UserDataset } from "../shared/datasets";
import type { ReportedRow, StagedRow } from "../shared/decisions";
import { applyBatch } from "./apply";
import { exportFileEventsOfAnyFormat } from "./exportCsv";
import { BATCH_ROWS, type JobRow, LEASE_SEC, MAX_IMPORT_BYTES, MAX_REPORTED, STEP_ROWS, stagedKey, UNITS_PER_BATCH } from "./jobs";
import { findJob, finishJob, releaseLease, type StagedFile, saveProgress, takeLease } from "./queries";
import { csvRecords, malformed, ndjsonLines } from "./readers";
import { validRow } from "./rows";
import { type TrackerSource, trackerHeader, trackerRow } from "./trackers";

export const tooLarge = () =>
  new ApiError(
    "payload_too_large",
    `An import file may hold at most ${MAX_IMPORT_BYTES} bytes (10 MiB); split it or import a narrower export.`,
  );

/** A job's user the directory no longer holds (an import charges its owner as they are now). */
const importOwnerGone = () => notFound("The import job's account");

/** A body that broke off (the client went away): the client's doing, not a failure of ours. */
const interrupted = () => malformed(null, "file", "the upload ended before the whole file arrived; upload the file again.");

/** The request body a chunk at a time, refusing it (413) as soon as it passes the size limit. */
async function* limited(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let total = 0;
  const reader = body.getReader();
  try {
    while (true) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw interrupted();
      }
      const { done, value } = chunk;
      if (done) return;
      total += value.length;
      if (total > MAX_IMPORT_BYTES) throw tooLarge();
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export interface StageContext {
  db: Db;
  bucket: R2Bucket;
  plan: Plan;
  upgradeUrl: string;
  now: Date;
}

/** Writes one staged line: a validated row, or a row skipped with its reason. */
type Stage = (line: StagedRow | { r: number; s: string }) => Promise<void>;

/**
 * Reads the uploaded file as it arrives, validates every row (a malformed file is a 400 naming
 * the row and column, and nothing is kept), and stages the rows in R2 as NDJSON. Answers the
 * dataset and the number of rows.
 */
export async function stageUpload(ctx: StageContext, job: JobRow, body: ReadableStream<Uint8Array>): Promise<StagedFile> {
  const key = stagedKey(job.id, randomBase62(16));
  const out = new StreamedObjectWriter(ctx.bucket, key, {
    httpMetadata: { contentType: "application/x-ndjson" },
    customMetadata: { userId: job.userId, expiresAt: job.expiresAt },
  });
  const stage: Stage = (line) => out.write(`${JSON.stringify(line)}\n`);
  try {
    const { dataset, rows } =
      job.source === "export" ? await stageExportFile(ctx, body, stage) : await stageTrackerFile(job.source, body, stage);
    const object = await out.close();
    return { dataset, rows, bytes: object.size, key };
  } catch (error) {
    await out.abort();
    throw error;
  }
}

/** An exportMyData file (JSON or CSV): each row validated by the row schema of the dataset the file names first. */
async function stageExportFile(ctx: StageContext, body: ReadableStream<Uint8Array>, stage: Stage) {
  let dataset: UserDataset | null = null;
  let rows = 0;
  for await (const event of exportFileEventsOfAnyFormat(limited(body))) {
    if (event.kind === "header") {
      if (event.key === "dataset") dataset = checkDataset(ctx, event.value);
      continue;
    }
    if (dataset === null) throw malformed(null, "dataset", "the file must name its dataset before its rows, as exportMyData writes it.");
    rows = event.row;
    await stage({ r: event.row, d: validRow(dataset.rowSchema, event.value, event.row) });
  }
  if (dataset === null) throw malformed(null, "dataset", "the file names no dataset: upload a JSON or CSV file of exportMyData.");
  return { dataset: dataset.export.name, rows };
}

/** A tracker CSV: its header checked, then each record mapped (or skipped, with the reason) by the source's rules. */
async function stageTrackerFile(source: TrackerSource, body: ReadableStream<Uint8Array>, stage: Stage) {
  let header: string[] | null = null;
  let rows = 0;
  for await (const record of csvRecords(limited(body))) {
    if (header === null) {
      header = trackerHeader(source, record.cells);
      continue;
    }
    rows++;
    const row = trackerRow(source, header, record.cells, rows);
    await stage("skip" in row ? { r: rows, s: row.skip } : { r: rows, d: row });
  }
  if (header === null) throw malformed(null, "file", "the file is empty: a CSV needs a header row.");
  return { dataset: "tracker", rows };
}

/** The dataset the file names, which the caller's plan must have. */
function checkDataset(ctx: StageContext, value: unknown): UserDataset {
  const dataset = typeof value === "string" ? userDataset(value) : undefined;
  if (!dataset) throw malformed(null, "dataset", `'${String(value)}' is not a dataset of exportMyData.`);
  const { name, plans } = dataset.export;
  if (!plans.includes(ctx.plan)) {
    throw new ApiError("plan_required", `The ${name} dataset needs the ${plans[0]} plan or above.`, {
      field: "dataset",
      upgradeUrl: ctx.upgradeUrl,
    });
  }
  return dataset;
}

export interface StepContext {
  /** Where each batch is charged: the user's accounting object. */
  accounting: AccountingEnv;
  db: Db;
  bucket: R2Bucket;
  userId: string;
  plan: Plan;
  now: Date;
}

/**
 * Advances a processing job by at most STEP_ROWS rows, in batches of BATCH_ROWS, each batch
 * charged UNITS_PER_BATCH daily quota units before it is written (past the quota: 429, and the
 * job waits where it is). A lease in D1 keeps concurrent calls from running one job twice; a call
 * that finds the job leased just reports it. Progress (the byte offset of the next staged row,
 * the counts, the reported rows) is saved after every batch, so a step that dies mid-way resumes
 * at the first batch it did not save.
 */
export async function advanceJob(ctx: StepContext, jobId: string): Promise<JobRow> {
  const { db } = ctx;
  const leaseId = randomBase62(16);
  const nowIso = ctx.now.toISOString();
  const until = new Date(ctx.now.getTime() + LEASE_SEC * 1000).toISOString();
  if (!(await takeLease(db, ctx.userId, jobId, leaseId, nowIso, until))) return (await findJob(db, ctx.userId, jobId))!;
  try {
    let job = (await findJob(db, ctx.userId, jobId))!;
    let done = 0;
    while (job.state === "processing" && done < STEP_ROWS) {
      const batch = await readBatch(ctx.bucket, job);
      if (batch.rows.length === 0 && batch.skipped.length === 0) {
        await finishJob(db, jobId, leaseId, nowIso);
        if (job.stagedKey) await ctx.bucket.delete(job.stagedKey);
        break;
      }
      await chargeUser(ctx.accounting, ctx.userId, ctx.now, UNITS_PER_BATCH, importOwnerGone);
      const outcome = await applyBatch(ctx, job.dataset ?? "", batch.rows);
      const reported: ReportedRow[] = [...(JSON.parse(job.problems) as ReportedRow[]), ...batch.skipped, ...outcome.reported]
        .sort((a, b) => a.row - b.row)
        .slice(0, MAX_REPORTED);
      const count = batch.rows.length + batch.skipped.length;
      await saveProgress(
        db,
        jobId,
        leaseId,
        {
          nextOffset: batch.nextOffset,
          done: count,
          added: outcome.added,
          existing: outcome.existing,
          failed: outcome.failed + batch.skipped.length,
          problems: JSON.stringify(reported),
          unitsCharged: UNITS_PER_BATCH,
        },
        nowIso,
      );
      done += count;
      job = (await findJob(db, ctx.userId, jobId))!;
    }
  } finally {
    await releaseLease(db, jobId, leaseId);
  }
  return (await findJob(db, ctx.userId, jobId))!;
}

/** Staged bytes one R2 read takes: a batch's rows fit many times over; a longer row doubles it. */
const READ_WINDOW_BYTES = 256 * 1024;

/**
 * The next BATCH_ROWS staged rows from the job's byte offset, in ranged reads each read to its end
 * (earlier rows are never read again, and no read is left half-consumed).
 */
export async function readBatch(bucket: R2Bucket, job: JobRow, windowBytes = READ_WINDOW_BYTES) {
  const rows: StagedRow[] = [];
  const skipped: ReportedRow[] = [];
  let nextOffset = job.nextOffset;
  let window = windowBytes;
  while (job.stagedKey && job.byteSize !== null && nextOffset < job.byteSize && rows.length + skipped.length < BATCH_ROWS) {
    const start = nextOffset;
    const length = Math.min(window, job.byteSize - start);
    const object = await bucket.get(job.stagedKey, { range: { offset: start, length } });
    if (!object || !("body" in object)) break;
    for (const line of ndjsonLines(new Uint8Array(await object.arrayBuffer()), start)) {
      const staged = line.value as StagedRow & { s?: string };
      if (staged.s !== undefined) skipped.push({ row: staged.r, column: null, code: "skipped", message: `Skipped: ${staged.s}.` });
      else rows.push(staged);
      nextOffset = line.end;
      if (rows.length + skipped.length >= BATCH_ROWS) break;
    }
    if (nextOffset > start) continue;
    if (start + length === job.byteSize) break; // no complete line left (the staging ends every line)
    window *= 2;
  }
  return { rows, skipped, nextOffset };
}
