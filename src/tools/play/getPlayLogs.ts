import { z } from "zod";
import { notFound } from "../../platform/errors";
import { limitArg, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { playLogPage, playLogSchema, toPlayLog } from "./logs";
import { findPlay } from "./queries";

const CAP = 200;

export const getPlayLogs = defineTool({
  name: "getPlayLogs",
  family: "play",
  title: "プレイログ取得",
  description: "Lists the play sessions of one play record, newest first.",
  restNote: "In REST, GET /rest/v1/getPlayLogs?playId=...",
  scopes: ["play:read"],
  plans: ALL_PLANS,
  kind: "read",
  input: z.strictObject({ playId: z.string().min(1).max(40), page: pageArg, limit: limitArg(CAP, 50) }),
  output: pagedEnvelope(playLogSchema),
  async handler({ db, auth }, args) {
    if (!(await findPlay(db, auth.userId, args.playId))) throw notFound(`Your play record ${args.playId}`);
    const limit = resolveLimit(args.limit, 50, [{ cap: CAP, reason: `getPlayLogs returns at most ${CAP} per page` }]);
    const { rows, totalCount } = await playLogPage(db, args.playId, { limit: limit.effectiveLimit, offset: pageOffset(args.page, limit) });
    return pageOf(rows.map(toPlayLog), args.page, totalCount, limit);
  },
});
