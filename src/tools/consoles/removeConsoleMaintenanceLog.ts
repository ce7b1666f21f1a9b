import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { deleteLogSql, findLog } from "./queries";

export const removeConsoleMaintenanceLog = defineTool({
  name: "removeConsoleMaintenanceLog",
  family: "consoles",
  title: "メンテナンス記録削除",
  description: "Removes one maintenance log of a console (two-step).",
  restNote: "In REST, POST /rest/v1/removeConsoleMaintenanceLog with consoleId and maintenanceLogId, then again with confirmToken.",
  scopes: ["play:delete"],
  plans: LIGHT_AND_ABOVE,
  kind: "delete",
  input: z.strictObject({
    consoleId: z.string().min(1).max(40),
    maintenanceLogId: z.string().min(1).max(40),
    confirmToken: confirmTokenArg,
  }),
  output: removalResult({ maintenanceLogId: z.string() }),
  notes: [TWO_STEP_NOTE],
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const log = await findLog(db, auth.userId, args.maintenanceLogId);
    if (!log || log.consoleId !== args.consoleId) throw notFound(`Maintenance log ${args.maintenanceLogId} of console ${args.consoleId}`);
    return confirmTwoStep(ctx, args, {
      targetRevision: log.updatedAt,
      summary: `Removes the maintenance log '${log.title}' (${log.status}${log.completedDate ? `, ${log.completedDate}` : ""}).`,
      async execute(marker) {
        await queryBatch(db, [marker, deleteLogSql(auth.userId, log.id)]);
        return { maintenanceLogId: log.id, removed: true as const };
      },
    });
  },
});
