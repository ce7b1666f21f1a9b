import { z } from "zod";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageOffset } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { SYSTEM_ATTRIBUTES } from "../../platform/systemAttributes";
import { defineTool } from "../../registry/defineTool";
import { attributeSchema, toOwnAttribute } from "./items";
import { userAttributePage } from "./queries";

const PAGING: Paging = { cap: 200, defaultLimit: 100 };

export const listAttributes = defineTool({
  name: "listAttributes",
  family: "attributes",
  title: "属性一覧",
  description: "Lists the attribute labels: the system ones, then yours (custom: true).",
  restNote: "In REST, call GET /rest/v1/listAttributes.",
  scopes: ["library:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ ...pageArgs(PAGING) }),
  output: pagedEnvelope(attributeSchema),
  async handler({ db, auth, pageLimit }, args) {
    const limit = pageLimit(args.limit);
    const offset = pageOffset(args.page, limit);
    const system = SYSTEM_ATTRIBUTES.slice(offset, offset + limit.effectiveLimit).map((a) => ({ ...a, custom: false }));
    const ownOffset = Math.max(0, offset - SYSTEM_ATTRIBUTES.length);
    const own = await userAttributePage(db, auth.userId, ownOffset, limit.effectiveLimit - system.length);
    const items = [...system, ...own.rows.map(toOwnAttribute)];
    return pageOf(items, args.page, SYSTEM_ATTRIBUTES.length + own.total, limit);
  },
});
