import { z } from "zod";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { isoDate, text } from "../../platform/schemas";
import { todayOf } from "../../platform/timeZones";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { playLogSchema, toPlayLog } from "./items";
import { findPlay } from "./listQueries";
import { findPlayLog, insertPlayLog } from "./queries";

export const addPlayLog = defineTool({
  name: "addPlayLog",
  family: "play",
  title: "プレイログ追加",
  description:
    'Records one play session of a play record. For a total told afterwards ("42 hours in all"), set the record\'s untrackedPlayTime instead of inventing sessions.',
  restNote: 'In REST, POST /rest/v1/addPlayLog with {"playId": ..., "playTime": minutes}.',
  scopes: ["play:write"],
  plans: ALL_PLANS,
  kind: "write",
  destructive: false,
  input: z.strictObject({
    playId: z.string().min(1).max(40),
    playDate: isoDate.optional().describe("Default today (in the account's time zone)."),
    playTime: z.number().int().min(1).max(1440).describe("Minutes of the session."),
    memo: text(2000).optional(),
  }),
  output: z.object({ item: playLogSchema }),
  async handler({ db, auth, now }, args) {
    if (!(await findPlay(db, auth.userId, args.playId))) throw notFound(`Your play record ${args.playId}`);
    const id = await insertPlayLog(
      db,
      auth.userId,
      args.playId,
      { playDate: args.playDate ?? (await todayOf(db, auth.userId, now)), playTime: args.playTime, memo: args.memo ?? null },
      now.toISOString(),
    );
    return { item: toPlayLog(readBack(await findPlayLog(db, auth.userId, id), () => notFound(`Your play record ${args.playId}`))) };
  },
});
