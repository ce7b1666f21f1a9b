import { z } from "zod";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { text } from "../../platform/schemas";
import { givenFields } from "../../platform/updates";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { playLogSchema, toPlayLog } from "./items";
import { findPlayLog, patchPlayLog } from "./queries";

export const updatePlayLog = defineTool({
  name: "updatePlayLog",
  family: "play",
  title: "プレイログ更新",
  description: "Changes a play session's minutes or memo. Only the keys sent change; the memo cannot be cleared.",
  restNote: "In REST, POST /rest/v1/updatePlayLog with playLogId and playTime and/or memo.",
  scopes: ["play:write"],
  plans: ALL_PLANS,
  kind: "write",
  // Not idempotent: every update moves updatedAt, even when the values are the ones stored.
  input: z.strictObject({
    playLogId: z.string().min(1).max(40),
    playTime: z.number().int().min(1).max(1440).optional().describe("Minutes of the session."),
    memo: text(2000).optional().describe("At least one character; it cannot be cleared."),
  }),
  output: z.object({ item: playLogSchema }),
  async handler({ db, auth, now }, args) {
    const log = await findPlayLog(db, auth.userId, args.playLogId);
    if (!log) throw notFound(`Your play log ${args.playLogId}`);
    await patchPlayLog(db, auth.userId, log.id, givenFields({ playTime: args.playTime, memo: args.memo }), now.toISOString());
    return { item: toPlayLog(readBack(await findPlayLog(db, auth.userId, log.id), () => notFound(`Your play log ${args.playLogId}`))) };
  },
});
