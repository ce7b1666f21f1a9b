import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { defineTool } from "../../registry/defineTool";
import { findPlay } from "./listQueries";
import { logsOf } from "./queries";
import { heirOf, playRecordRemovalSql } from "./removal";

export const removePlayRecord = defineTool({
  name: "removePlayRecord",
  family: "play",
  title: "プレイ記録削除",
  description:
    "Removes one play record (cycle) with its play logs (two-step). If it was the latest cycle, the newest remaining one becomes latest.",
  restNote: 'In REST, POST /rest/v1/removePlayRecord with {"playId": ...}, then again with confirmToken.',
  scopes: ["play:delete"],
  plans: ALL_PLANS,
  kind: "delete",
  input: z.strictObject({ playId: z.string().min(1).max(40), confirmToken: confirmTokenArg }),
  output: removalResult({ playId: z.string() }),
  notes: [TWO_STEP_NOTE],
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const play = await findPlay(db, auth.userId, args.playId);
    if (!play) throw notFound(`Your play record ${args.playId}`);
    const [logs, heir] = await Promise.all([
      logsOf(db, play.play_id),
      play.is_latest ? heirOf(db, auth.userId, play.game_id, play.play_id) : undefined,
    ]);
    const promoted = heir
      ? `; the cycle ${heir.playStartDate ? `started ${heir.playStartDate}` : `recorded ${heir.createdAt}`} becomes the latest`
      : "";
    return confirmTwoStep(ctx, args, {
      targetRevision: [play.revision, play.is_latest, heir?.id ?? "-", logs.fingerprint].join(":"),
      summary: `Removes the play record of '${play.title}' (${play.status}) and its ${counted(logs.count, "play log")}${promoted}.`,
      async execute(marker) {
        await queryBatch(db, [marker, ...playRecordRemovalSql(auth.userId, play.game_id, play.play_id)]);
        return { playId: play.play_id, removed: true as const };
      },
    });
  },
});
