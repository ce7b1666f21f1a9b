import { isUniqueViolation, runGuarded } from "../../platform/db";
import { userDataset } from "../datasets";
import type { BatchOutcome, Decided, RestoreContext, StagedRow } from "../shared/decisions";
import type { TrackerRow } from "./rows";
import { restoreTrackerRows } from "./trackerRestore";

/** What decides a batch of the job's rows: the dataset's own restore, or the tracker rows'. */
function deciderOf(dataset: string): (ctx: RestoreContext, rows: StagedRow[]) => Promise<Decided> {
  if (dataset === "tracker") return (ctx, rows) => restoreTrackerRows(ctx, rows as StagedRow<TrackerRow>[]);
  const restoring = userDataset(dataset);
  if (!restoring) throw new Error(`no importer for ${dataset}`);
  // The rows were staged through this dataset's rowSchema (stageUpload).
  return (ctx, rows) => restoring.restore(ctx, rows as StagedRow<Record<string, unknown>>[]);
}

/**
 * Writes one batch of staged rows: the dataset decides every row (see shared/restore.ts), then the
 * rows to add go to D1 as one guarded batch. A batch broken by a concurrent writer (a guard of the
 * batch, or a unique key) is decided and written again once.
 */
export async function applyBatch(ctx: RestoreContext, dataset: string, rows: StagedRow[]): Promise<BatchOutcome> {
  const decide = deciderOf(dataset);
  for (let attempt = 0; ; attempt++) {
    const { statements, outcome } = await decide(ctx, rows);
    if (statements.length === 0) return outcome;
    const guardBroken = new Error("a guard of the batch broke");
    try {
      await runGuarded(ctx.db, statements, () => guardBroken);
      return outcome;
    } catch (error) {
      const raced = error === guardBroken || isUniqueViolation(error);
      if (!raced || attempt >= 1) throw error;
    }
  }
}
