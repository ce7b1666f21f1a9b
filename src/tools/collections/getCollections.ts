import { z } from "zod";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { PREMIUM_ONLY } from "../../platform/plans";
import { text } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { collectionPage } from "./collectionGames";
import { COLLECTION_TYPES, collectionSchema, PURPOSES, toCollectionItem } from "./items";

const PAGING: Paging = { cap: 100, defaultLimit: 50 };

export const getCollections = defineTool({
  name: "getCollections",
  family: "collections",
  title: "コレクション一覧",
  description: "Lists your collections, oldest first, with their definitions, achievement summary and the revision updateCollection needs.",
  restNote: "In REST, call GET /rest/v1/getCollections.",
  scopes: ["library:read"],
  plans: PREMIUM_ONLY,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({
    name: text(30).optional().describe("Part of the name; width and case are ignored."),
    types: z.array(z.enum(COLLECTION_TYPES)).max(3).optional(),
    purposeTypes: z.array(z.enum(PURPOSES)).max(2).optional(),
    ...pageArgs(PAGING),
  }),
  output: pagedEnvelope(collectionSchema),
  async handler({ db, auth, pageLimit }, args) {
    const limit = pageLimit(args.limit);
    const { rows, totalCount } = await collectionPage(db, auth.userId, args, pageWindow(args.page, limit));
    return pageOf(rows.map(toCollectionItem), args.page, totalCount, limit);
  },
});
