import { z } from "zod";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { importStatusSchema, statusOf } from "./jobs";
import { ownJob } from "./queries";
import { advanceJob } from "./steps";

export const getImportStatus = defineTool({
  name: "getImportStatus",
  family: "imports",
  title: "インポート状況",
  description:
    "Reports an import job (rows done, added, already there, failed with their row number, column and reason; finished) and, while it is " +
    "processing, writes its next rows first (up to 200 per call): call it until finished is true.",
  restNote: 'REST only: POST /rest/v1/getImportStatus {"jobId": ...}.',
  scopes: ["library:write", "play:write"],
  plans: ALL_PLANS,
  // It advances the job, so it is a write. Calling it again is safe, but not idempotent: each call
  // while the job is processing writes its next rows (which only add: destructive false).
  kind: "write",
  destructive: false,
  restOnly: true,
  input: z.strictObject({ jobId: z.string().min(1).max(40) }),
  output: importStatusSchema,
  notes: [
    "Each call writes at most 200 rows (2 batches of 100, 1 daily quota unit per batch); past the daily quota it is a 429 and the job waits.",
    "Another user's job, or an unknown one, is 404.",
  ],
  async handler({ db, env, auth, now }, args) {
    const job = await ownJob(db, auth.userId, args.jobId, now);
    if (job.state !== "processing") return statusOf(job);
    return statusOf(await advanceJob({ accounting: env, db, bucket: env.EXPORTS, userId: auth.userId, plan: auth.plan, now }, job.id));
  },
});
