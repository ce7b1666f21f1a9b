import { z } from "zod";
import { ALL_PLANS } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { defineTool, type Face } from "../../registry/defineTool";
import { GAME_FIELD_GROUPS, gameFieldsArg, gameSchema, toGame } from "./gameObject";
import { groupsOf, loadGameRecords } from "./queries";

/**
 * Ids fetched per call on each face: the only rule that differs between REST and MCP. Ids past
 * the limit are reported in omittedGameIds, not fetched.
 */
export const BATCH_LIMIT: Record<Face, number> = { rest: 100, mcp: 20, pages: 100 };

export const getGamesBatch = defineTool({
  name: "getGamesBatch",
  family: "games",
  title: "ゲーム一括取得",
  description: `Fetches several games by gameId, in the order asked: unknown ids go to notFoundGameIds, ids past the per-call limit (${BATCH_LIMIT.mcp} over MCP) to omittedGameIds.`,
  restNote: `In REST, up to ${BATCH_LIMIT.rest} gameIds are fetched per call.`,
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  input: z.strictObject({
    gameIds: z.array(positiveId).min(1).describe("Game ids; distinct ids past the per-call limit go to omittedGameIds."),
    fields: gameFieldsArg.describe("Default: every group; [] gives core fields only."),
  }),
  output: z.object({
    items: z.array(gameSchema),
    totalCount: z.number().int().describe("Number of games returned."),
    limitReduced: z.boolean(),
    limitReason: z.string().nullable(),
    notFoundGameIds: z.array(z.number().int()),
    omittedGameIds: z.array(z.number().int()),
  }),
  async handler({ db, auth, face }, args) {
    const limit = BATCH_LIMIT[face];
    const distinct = [...new Set(args.gameIds)];
    const fetched = distinct.slice(0, limit);
    const omittedGameIds = distinct.slice(limit);
    const records = await loadGameRecords(db, auth.userId, fetched);
    const groups = groupsOf(args.fields, GAME_FIELD_GROUPS);
    const items = fetched.flatMap((id) => {
      const record = records.get(id);
      return record ? [toGame(record, groups)] : [];
    });
    const limitReduced = omittedGameIds.length > 0;
    return {
      items,
      totalCount: items.length,
      limitReduced,
      limitReason: limitReduced ? `getGamesBatch fetches at most ${limit} gameIds per ${face === "mcp" ? "MCP" : "REST"} call` : null,
      notFoundGameIds: fetched.filter((id) => !records.has(id)),
      omittedGameIds,
    };
  },
});
