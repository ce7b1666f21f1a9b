import { z } from "zod";
import { notFound } from "../../platform/errors";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { playLogSchema, toPlayLog } from "./items";
import { findPlay } from "./listQueries";
import { playLogPage } from "./queries";

const PAGING: Paging = { cap: 200, defaultLimit: 50 };

export const getPlayLogs = defineTool({
  name: "getPlayLogs",
  family: "play",
  title: "プレイログ取得",
  description: "Lists the play sessions of one play record, newest first.",
  restNote: "In REST, GET /rest/v1/getPlayLogs?playId=...",
  scopes: ["play:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ playId: z.string().min(1).max(40), ...pageArgs(PAGING) }),
  output: pagedEnvelope(playLogSchema),
  async handler({ db, auth, pageLimit }, args) {
    if (!(await findPlay(db, auth.userId, args.playId))) throw notFound(`Your play record ${args.playId}`);
    const limit = pageLimit(args.limit);
    const { rows, totalCount } = await playLogPage(db, args.playId, pageWindow(args.page, limit));
    return pageOf(rows.map(toPlayLog), args.page, totalCount, limit);
  },
});
