import type { Db } from "../../platform/db";
import { listObjects } from "../../platform/exportStorage";
import { DAY_MS } from "../../platform/time";
import { jobOfStagedKey, STAGED_PREFIX } from "./jobs";
import { jobsAmong } from "./queries";

/** A staged file with no readable expiry (should not happen) is kept this long after its upload. */
const FALLBACK_LIFETIME_MS = DAY_MS;

/**
 * Deletes the staged files (imports/) no job will read again: those past their job's expiry (the
 * `expiresAt` custom metadata; an abandoned job, never finished, ends there), those whose job is
 * finished or gone, and those of an upload that lost the race for its job to another upload.
 * A file of a job still awaiting its upload is kept (its upload may be about to claim the job).
 * Run by the scheduled cleanup (src/tools/bucketCleanup.ts); the bucket's lifecycle rule on
 * imports/ is the backstop.
 */
export async function removeStaleImportFiles(db: Db, bucket: R2Bucket, now: Date): Promise<number> {
  let removed = 0;
  for await (const objects of listObjects(bucket, STAGED_PREFIX)) {
    const jobIds = [...new Set(objects.flatMap((object) => jobOfStagedKey(object.key) ?? []))];
    const jobs = new Map((await jobsAmong(db, jobIds)).map((job) => [job.id, job]));
    const stale = objects
      .filter((object) => {
        const expiresAt = Date.parse(object.customMetadata?.expiresAt ?? "");
        const deadline = Number.isNaN(expiresAt) ? object.uploaded.getTime() + FALLBACK_LIFETIME_MS : expiresAt;
        if (deadline <= now.getTime()) return true;
        const jobId = jobOfStagedKey(object.key);
        if (jobId === null) return false;
        const job = jobs.get(jobId);
        if (!job || job.state === "finished") return true;
        return job.state !== "awaiting_upload" && job.stagedKey !== object.key;
      })
      .map((object) => object.key);
    if (stale.length > 0) await bucket.delete(stale);
    removed += stale.length;
  }
  return removed;
}
