import { z } from "zod";
import { confirmPreviewSchema, confirmTokenArg, confirmTwoStep } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { invalidInput } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { issueUploadLink, UPLOAD_LINK_TTL_SEC } from "../../platform/signedLinks";
import { defineTool } from "../../registry/defineTool";
import { IMPORT_MODES, IMPORT_SOURCES, importStatusSchema, MAX_IMPORT_BYTES, statusOf } from "./jobs";
import { createJob, ownJob, startReplaceSql } from "./queries";
import { removalPreview, replaceRemoval } from "./replace";
import { advanceJob } from "./steps";

const created = z.object({
  jobId: z.string(),
  uploadUrl: z.url().describe("PUT the file here (no Authorization header needed), within uploadExpiresInSec."),
  uploadMethod: z.literal("PUT"),
  uploadExpiresInSec: z.literal(UPLOAD_LINK_TTL_SEC),
  uploadExpiresAt: z.string(),
  maxBytes: z.literal(MAX_IMPORT_BYTES),
  status: importStatusSchema,
});

export const importMyData = defineTool({
  name: "importMyData",
  family: "imports",
  title: "マイデータのインポート",
  description:
    "Starts an import: a restore of an exportMyData JSON or CSV file (any dataset; to restore a whole account, one job per file in this order: " +
    "customGames, consoles, library, wishlist, playRecords, playLogs, tags, collections, so later files find the ids earlier ones re-issued), or a CSV from another tracker " +
    "(generic, grouvee, yamtrack) into your library, play records and wishlist. It answers a job and a signed upload URL; PUT the file there " +
    "(at most 10 MiB), then call getImportStatus until finished. mode merge keeps what you have and adds what is missing; mode replace " +
    "(export files only) removes the dataset's records first, after a two-step confirmation: once the file is uploaded, call importMyData " +
    "with jobId for the preview, then again with jobId and confirmToken.",
  restNote: "REST only: POST /rest/v1/importMyData, PUT the file to uploadUrl, then POST /rest/v1/getImportStatus {jobId}.",
  scopes: ["library:write", "play:write"],
  plans: ALL_PLANS,
  kind: "write",
  restOnly: true,
  input: z.strictObject({
    source: z
      .enum(IMPORT_SOURCES)
      .optional()
      .describe("export (default): an exportMyData JSON or CSV file; generic, grouvee, yamtrack: a tracker CSV."),
    mode: z.enum(IMPORT_MODES).optional().describe("merge (default) or replace (export files only; two-step)."),
    jobId: z.string().min(1).max(40).optional().describe("A replace job whose file is uploaded: asks for (or confirms) the removal."),
    confirmToken: confirmTokenArg,
  }),
  output: z.union([created, confirmPreviewSchema, importStatusSchema]),
  notes: [
    "The upload URL is valid for an hour and works once; whoever holds it can upload into this job only (the job is yours, its rows land in your account).",
    "Files over 10 MiB are refused with 413. A malformed file is a 400 naming the row and column; nothing of it is kept, and the same link takes a corrected file.",
    "Each batch of up to 100 rows consumes 1 daily quota unit, charged when it is written (by the upload and by getImportStatus).",
    "Plan limits apply: rows past a limit are reported (plan_limit), not dropped silently; so are earlier play cycles (history) below PREMIUM.",
    "Two uploads to one link at once: the first to finish is taken, the other is 409.",
    "replace: the preview says what is removed and how many rows the file adds; confirming removes and starts writing.",
  ],
  async handler(ctx, args) {
    const { db, env, auth, now, origin } = ctx;
    const source = args.source ?? "export";
    const mode = args.mode ?? "merge";
    if (args.jobId === undefined) {
      if (args.confirmToken !== undefined)
        throw invalidInput("confirmToken", "confirmToken: send it with the jobId of the replace job it confirms.");
      if (mode === "replace" && source !== "export")
        throw invalidInput("mode", "mode: replace restores an export file; tracker imports always merge.");
      const job = await createJob(db, auth.userId, source, mode, now);
      const link = await issueUploadLink({ env, now, origin, userId: auth.userId }, job.id);
      return { jobId: job.id, ...link, uploadMethod: "PUT" as const, maxBytes: MAX_IMPORT_BYTES, status: statusOf(job) };
    }
    if (args.source !== undefined || args.mode !== undefined)
      throw invalidInput(args.source !== undefined ? "source" : "mode", "With jobId, send only jobId and confirmToken.");
    const job = await ownJob(db, auth.userId, args.jobId, now);
    if (job.mode !== "replace" || job.state !== "awaiting_confirmation") {
      throw invalidInput(
        "jobId",
        `jobId: job ${job.id} is ${job.mode === "replace" ? `${job.state.replace("_", " ")}` : "a merge job"}; only a replace job whose file is uploaded awaits confirmation.`,
      );
    }
    const removal = replaceRemoval(auth.userId, job.dataset!, now.toISOString());
    const preview = await removalPreview(db, removal);
    return confirmTwoStep(ctx, args, {
      targetRevision: `${preview.revision}|${job.id}|${job.totalRows}`,
      summary: `Removes your ${preview.description}, then adds the ${job.totalRows} ${job.dataset} rows of the uploaded file.`,
      async execute(marker) {
        await queryBatch(db, [marker, ...removal.statements, startReplaceSql(job.id, now)]);
        return statusOf(await advanceJob({ accounting: env, db, bucket: env.EXPORTS, userId: auth.userId, plan: auth.plan, now }, job.id));
      },
    });
  },
});
