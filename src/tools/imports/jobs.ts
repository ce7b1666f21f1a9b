import { z } from "zod";
import type { importJobs } from "../../db/schema";
import { REPORT_CODES, type ReportedRow } from "../shared/decisions";

/**
 * Import jobs: created by importMyData, fed by one PUT to the job's signed upload link (the file
 * is validated while it arrives and staged in R2), then written a step at a time: the upload
 * request runs the first step, every getImportStatus call the next one, until the job is
 * finished. Each step writes at most STEP_ROWS rows in D1 batches of BATCH_ROWS, so no request
 * needs more than a bounded amount of time, CPU and memory, in `wrangler dev` as in production.
 */
export const MAX_IMPORT_BYTES = 10_485_760 as const;
export const BATCH_ROWS = 100;
export const STEP_ROWS = 200;
/** Daily quota units per batch of up to BATCH_ROWS rows, charged before the batch is written. */
export const UNITS_PER_BATCH = 1;
/** Reported rows kept per job (failures and conflicts); the counts stay exact beyond it. */
export const MAX_REPORTED = 1000;
export const JOB_TTL_SEC = 86_400;
/** A step holds its job this long; a crashed step's job is taken up again after it. */
export const LEASE_SEC = 60;

export const IMPORT_SOURCES = ["export", "generic", "grouvee", "yamtrack"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export const IMPORT_MODES = ["merge", "replace"] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
export type JobState = "awaiting_upload" | "awaiting_confirmation" | "processing" | "finished";

/** Where staged files live in the EXPORTS bucket (scheduled cleanup and the lifecycle rule cover this prefix). */
export const STAGED_PREFIX = "imports/";
/**
 * One key per upload attempt, so two uploads to one job never write the same object: the upload
 * that claims the job records its key (staged_key); the other one deletes its own file and is a 409.
 */
export const stagedKey = (jobId: string, uploadId: string) => `${STAGED_PREFIX}${jobId}/${uploadId}.ndjson`;
/** The job id a staged key belongs to (null for a key of another shape). */
export const jobOfStagedKey = (key: string) => /^imports\/([^/]+)\/[^/]+\.ndjson$/.exec(key)?.[1] ?? null;

/** An import_jobs row; source, mode and state hold only the values above. */
export type JobRow = Omit<typeof importJobs.$inferSelect, "source" | "mode" | "state"> & {
  source: ImportSource;
  mode: ImportMode;
  state: JobState;
};

export const reportedRowSchema = z.object({
  row: z.number().int().describe("Row number in the file: 1 is the first data row (after a CSV header)."),
  column: z.string().nullable(),
  code: z.enum(REPORT_CODES),
  message: z.string(),
  candidates: z.array(z.number().int()).optional().describe("ambiguous: the gameIds that matched."),
});

export const importStatusSchema = z
  .object({
    jobId: z.string(),
    source: z.enum(IMPORT_SOURCES),
    mode: z.enum(IMPORT_MODES),
    state: z.enum(["awaiting_upload", "awaiting_confirmation", "processing", "finished"]),
    dataset: z.string().nullable().describe("What the file restores (export) or null before the upload."),
    totalRows: z.number().int().nullable().describe("Rows in the uploaded file, known once it is uploaded."),
    rowsDone: z.number().int(),
    rowsAdded: z.number().int(),
    rowsExisting: z.number().int().describe("Rows already present (merge keeps them): reported as already_exists."),
    rowsFailed: z.number().int().describe("Rows not imported (unknown or unmatched game, plan limit, missing reference)."),
    finished: z.boolean(),
    unitsCharged: z.number().int().describe("Daily quota units this import's row batches consumed so far."),
    reported: z
      .array(reportedRowSchema)
      .describe(`Rows not added, each with its row number, column and reason (the first ${MAX_REPORTED}).`),
    reportedTruncated: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "ImportStatus" });

export function statusOf(job: JobRow) {
  const reported = JSON.parse(job.problems) as ReportedRow[];
  return {
    jobId: job.id,
    source: job.source,
    mode: job.mode,
    state: job.state,
    dataset: job.dataset,
    totalRows: job.totalRows,
    rowsDone: job.rowsDone,
    rowsAdded: job.rowsAdded,
    rowsExisting: job.rowsExisting,
    rowsFailed: job.rowsFailed,
    finished: job.state === "finished",
    unitsCharged: job.unitsCharged,
    reported,
    reportedTruncated: job.rowsExisting + job.rowsFailed > reported.length,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
