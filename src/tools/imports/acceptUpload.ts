import type { Bindings } from "../../bindings";
import { chargeUser, type LinkAdmission } from "../../platform/admission";
import type { Db } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { invalidUploadLink, verifyUploadToken } from "../../platform/signedLinks";
import { type JobRow, MAX_IMPORT_BYTES, statusOf } from "./jobs";
import { claimStagedFile, findJob } from "./queries";
import { advanceJob, stageUpload, tooLarge } from "./steps";

/**
 * Accepting the file PUT to an import job's signed upload link (src/faces/uploads.ts is its HTTP
 * side). The token (signed like export links, src/platform/signedLinks.ts) names the user and the
 * import job, so the file can only land in that job of that user. The body is read as a stream
 * (413 past MAX_IMPORT_BYTES, at once when Content-Length says so), validated row by row (400
 * naming row and column; nothing is kept, the link takes a corrected file) and staged in R2; a
 * merge job then runs its first step in this request, a replace job waits for its confirmation.
 * An upload the client breaks off leaves nothing: its multipart upload is aborted at once.
 */

/** An upload admitted: its user as they are now (no charge: each step of the job charges its own batches) and the job. */
export interface UploadAdmission extends LinkAdmission {
  jobId: string;
}

/** Checks the link (signature, then expiry) and its user's standing. */
export async function admitUpload(ctx: { env: Bindings; db: Db; now: Date }, token: string): Promise<UploadAdmission> {
  const link = await verifyUploadToken(ctx.env, token, ctx.now);
  const admitted = await chargeUser(ctx.env, link.userId, ctx.now, 0, invalidUploadLink);
  return { ...admitted, jobId: link.jobId };
}

/** The request's file: its body as it arrives, and the size its Content-Length declares (0 when absent). */
export interface UploadedFile {
  body: ReadableStream<Uint8Array> | null;
  declaredBytes: number;
}

export interface UploadContext {
  env: Bindings;
  db: Db;
  bucket: R2Bucket;
  now: Date;
  /** Where a plan_required raised by the file's dataset points. */
  upgradeUrl: string;
  /** Keeps work going after the answer (the request's waitUntil). */
  waitUntil(work: Promise<unknown>): void;
}

/** Stages the file in the job, moves the job on and answers its status. */
export async function acceptUpload(
  ctx: UploadContext,
  uploader: UploadAdmission,
  file: UploadedFile,
): Promise<ReturnType<typeof statusOf>> {
  const job = await jobAwaitingUpload(ctx.db, uploader);
  if (file.declaredBytes > MAX_IMPORT_BYTES) throw tooLarge();
  if (!file.body) throw new ApiError("invalid_input", "The upload is empty: PUT the file as the request body.", { field: "file" });
  const staging = stageUpload(
    { db: ctx.db, bucket: ctx.bucket, plan: uploader.plan, upgradeUrl: ctx.upgradeUrl, now: ctx.now },
    job,
    file.body,
  );
  // A client that goes away mid-upload cancels this request, and with it the staging's own clean-up;
  // kept alive, the staging sees the body fail and aborts its multipart upload at once.
  ctx.waitUntil(staging.catch(() => undefined));
  const staged = await staging;
  const next = job.mode === "replace" ? "awaiting_confirmation" : "processing";
  if (!(await claimStagedFile(ctx.db, job.id, next, staged, ctx.now))) {
    // Another upload to this job claimed it first: this one's staged file is nobody's.
    await ctx.bucket.delete(staged.key);
    throw new ApiError("already_exists", `Import job ${job.id} already has its file (another upload to this link was accepted first).`);
  }
  if (next === "processing") await firstStep(ctx, uploader, job.id);
  return statusOf((await findJob(ctx.db, uploader.userId, job.id))!);
}

async function jobAwaitingUpload(db: Db, uploader: UploadAdmission): Promise<JobRow> {
  const job = await findJob(db, uploader.userId, uploader.jobId);
  if (!job) throw new ApiError("not_found", "This upload link's import job no longer exists. Call importMyData again.");
  if (job.state !== "awaiting_upload") {
    throw new ApiError(
      "already_exists",
      `Import job ${job.id} already has its file (${job.state.replace(/_/g, " ")}); start another import for another file.`,
    );
  }
  return job;
}

/** A merge job's first step, in the upload's request. */
async function firstStep(ctx: UploadContext, uploader: UploadAdmission, jobId: string): Promise<void> {
  try {
    await advanceJob(
      { accounting: ctx.env, db: ctx.db, bucket: ctx.bucket, userId: uploader.userId, plan: uploader.plan, now: ctx.now },
      jobId,
    );
  } catch (error) {
    // The file is accepted either way: past the daily quota the job waits for getImportStatus.
    if (!(error instanceof ApiError && error.code === "quota_exceeded")) throw error;
  }
}
