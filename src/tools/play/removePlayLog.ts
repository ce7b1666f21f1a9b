import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { deletePlayLogSql, findPlayLog } from "./queries";

export const removePlayLog = defineTool({
  name: "removePlayLog",
  family: "play",
  title: "プレイログ削除",
  description: "Removes one play session (two-step). The record's totalPlayTime drops by its minutes.",
  restNote: 'In REST, POST /rest/v1/removePlayLog with {"playLogId": ...}, then again with confirmToken.',
  scopes: ["play:delete"],
  plans: ALL_PLANS,
  kind: "delete",
  input: z.strictObject({ playLogId: z.string().min(1).max(40), confirmToken: confirmTokenArg }),
  output: removalResult({ playLogId: z.string() }),
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const log = await findPlayLog(db, auth.userId, args.playLogId);
    if (!log) throw notFound(`Your play log ${args.playLogId}`);
    return confirmTwoStep(ctx, args, {
      targetRevision: log.updatedAt,
      summary:
        `Removes the ${log.playTime}-minute session of '${log.title}'${log.playDate ? ` on ${log.playDate}` : ""}; ` +
        `its play record's totalPlayTime drops by ${log.playTime} minutes.`,
      async execute(marker) {
        await queryBatch(db, [marker, deletePlayLogSql(auth.userId, log.id)]);
        return { playLogId: log.id, removed: true as const };
      },
    });
  },
});
