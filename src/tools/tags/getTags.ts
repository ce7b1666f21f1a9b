import { z } from "zod";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { tagSchema, toTag } from "./items";
import { tagPage } from "./queries";

const PAGING: Paging = { cap: 200, defaultLimit: 100 };

export const getTags = defineTool({
  name: "getTags",
  family: "tags",
  title: "タグ一覧",
  description: "Lists your tags, oldest first, with how many games each holds and the revision updateTag and updateTagGames need.",
  restNote: "In REST, call GET /rest/v1/getTags.",
  scopes: ["library:read"],
  plans: LIGHT_AND_ABOVE,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ ...pageArgs(PAGING) }),
  output: pagedEnvelope(tagSchema),
  async handler({ db, auth, pageLimit }, args) {
    const limit = pageLimit(args.limit);
    const { rows, totalCount } = await tagPage(db, auth.userId, pageWindow(args.page, limit));
    return pageOf(rows.map(toTag), args.page, totalCount, limit);
  },
});
