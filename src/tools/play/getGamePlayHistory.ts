import { z } from "zod";
import { notFound } from "../../platform/errors";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { PREMIUM_ONLY } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { attributeLabels } from "../attributes/queries";
import { findEntry } from "../library/queries";
import { EVERY_PLAY_GROUP, playRecordSchema, toPlayRecord } from "./items";
import { historyPage } from "./listQueries";

const PAGING: Paging = { cap: 100, defaultLimit: 50 };

export const getGamePlayHistory = defineTool({
  name: "getGamePlayHistory",
  family: "play",
  title: "プレイ履歴",
  description:
    "Lists every play cycle of one game in your library, newest first (the latest and the earlier ones a replay kept), with every field group.",
  restNote: "In REST, GET /rest/v1/getGamePlayHistory?gameId=...",
  scopes: ["play:read"],
  plans: PREMIUM_ONLY,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ gameId: positiveId, ...pageArgs(PAGING) }),
  output: pagedEnvelope(playRecordSchema),
  async handler({ db, auth, pageLimit }, args) {
    if (!(await findEntry(db, auth.userId, args.gameId))) throw notFound(`Game ${args.gameId} in your library`);
    const limit = pageLimit(args.limit);
    const [{ rows, totalCount }, labels] = await Promise.all([
      historyPage(db, auth.userId, args.gameId, pageWindow(args.page, limit)),
      attributeLabels(db, auth.userId),
    ]);
    return pageOf(
      rows.map((row) => toPlayRecord(row, EVERY_PLAY_GROUP, labels)),
      args.page,
      totalCount,
      limit,
    );
  },
});
