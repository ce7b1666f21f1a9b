import { z } from "zod";
import { limitArg, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { tagPage, tagSchema, toTag } from "./queries";

const CAP = 200;

export const getTags = defineTool({
  name: "getTags",
  family: "tags",
  title: "タグ一覧",
  description: "Lists your tags, oldest first, with how many games each holds and the revision updateTag and updateTagGames need.",
  restNote: "In REST, call GET /rest/v1/getTags.",
  scopes: ["library:read"],
  plans: LIGHT_AND_ABOVE,
  kind: "read",
  input: z.strictObject({ page: pageArg, limit: limitArg(CAP, 100) }),
  output: pagedEnvelope(tagSchema),
  async handler({ db, auth }, args) {
    const limit = resolveLimit(args.limit, 100, [{ cap: CAP, reason: `getTags returns at most ${CAP} per page` }]);
    const { rows, totalCount } = await tagPage(db, auth.userId, { limit: limit.effectiveLimit, offset: pageOffset(args.page, limit) });
    return pageOf(rows.map(toTag), args.page, totalCount, limit);
  },
});
