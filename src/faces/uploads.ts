import { and, eq } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { importJobs, users } from "../db/schema";
import type { AppEnv } from "../env";
import { createDb } from "../platform/db";
import { ApiError, methodNotAllowed } from "../platform/errors";
import { upgradeUrlOf } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { UPLOAD_PATH_PREFIX, verifyUploadToken } from "../platform/signedLinks";
import { MAX_IMPORT_BYTES, statusOf } from "../tools/imports/jobs";
import { findJob } from "../tools/imports/queries";
import { advanceJob, stageUpload, tooLarge } from "../tools/imports/steps";

/**
 * The upload face: `PUT /uploads/v1/<token>` with the file as the body. The token (signed like
 * export links, src/platform/signedLinks.ts) names the user and the import job, so the file can
 * only land in that job of that user. The body is read as a stream (413 past MAX_IMPORT_BYTES,
 * at once when Content-Length says so), validated row by row (400 naming row and column; nothing
 * is kept, the link takes a corrected file) and staged in R2; a merge job then runs its first
 * step in this request, a replace job waits for its confirmation. Answers the job's status. An
 * upload the client breaks off leaves nothing: its multipart upload is aborted at once.
 */

async function upload(c: Context<AppEnv>): Promise<Response> {
  const now = new Date();
  const link = await verifyUploadToken(c.env, c.req.param("token") ?? "", now);
  const db = createDb(c.env.DB);
  const user = await db.select({ plan: users.plan, suspended: users.suspended }).from(users).where(eq(users.id, link.userId)).get();
  if (!user) throw new ApiError("not_found", "This upload link is not valid. Call importMyData again for a new link.");
  if (user.suspended) throw new ApiError("access_suspended", "Access for this account is suspended.");
  const job = await findJob(db, link.userId, link.jobId);
  if (!job) throw new ApiError("not_found", "This upload link's import job no longer exists. Call importMyData again.");
  if (job.state !== "awaiting_upload") {
    throw new ApiError(
      "already_exists",
      `Import job ${job.id} already has its file (${job.state.replace(/_/g, " ")}); start another import for another file.`,
    );
  }
  const declared = Number(c.req.header("Content-Length") ?? "0");
  if (declared > MAX_IMPORT_BYTES) throw tooLarge();
  const body = c.req.raw.body;
  if (!body) throw new ApiError("invalid_input", "The upload is empty: PUT the file as the request body.", { field: "file" });

  const staging = stageUpload(
    { db, bucket: c.env.EXPORTS, plan: user.plan, upgradeUrl: upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url)), now },
    job,
    body,
  );
  // A client that goes away mid-upload cancels this request, and with it the staging's own clean-up;
  // kept alive, the staging sees the body fail and aborts its multipart upload at once.
  c.executionCtx.waitUntil(staging.catch(() => undefined));
  const staged = await staging;
  const next = job.mode === "replace" ? "awaiting_confirmation" : "processing";
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
    .where(and(eq(importJobs.id, job.id), eq(importJobs.state, "awaiting_upload")))
    .run();
  if (claimed.meta.changes === 0) {
    // Another upload to this job claimed it first: this one's staged file is nobody's.
    await c.env.EXPORTS.delete(staged.key);
    throw new ApiError("already_exists", `Import job ${job.id} already has its file (another upload to this link was accepted first).`);
  }
  if (next === "processing") {
    try {
      await advanceJob({ db, bucket: c.env.EXPORTS, userId: link.userId, plan: user.plan, now }, job.id);
    } catch (error) {
      // The file is accepted either way: past the daily quota the job waits for getImportStatus.
      if (!(error instanceof ApiError && error.code === "quota_exceeded")) throw error;
    }
  }
  return c.json(statusOf((await findJob(db, link.userId, job.id))!), 200);
}

/** Mounts PUT `<prefix><token>`; other methods there answer 405. */
export function mountUploadRoutes(app: Hono<AppEnv>, prefix = UPLOAD_PATH_PREFIX): void {
  app.put(`${prefix}:token`, (c) => upload(c));
  app.all(`${prefix}*`, () => {
    throw methodNotAllowed(["PUT"]);
  });
}
