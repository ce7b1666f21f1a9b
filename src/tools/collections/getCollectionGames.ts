import { z } from "zod";
import { notFound } from "../../platform/errors";
import { sharedFilterArgs } from "../../platform/filters";
import { sortArgs } from "../../platform/keyset";
import { type Paging, pageArgs, pageEnvelopeFields, pageOf, pageWindow } from "../../platform/paging";
import { PREMIUM_ONLY } from "../../platform/plans";
import { orderedRanges } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { COLLECTION_GAME_SORTS, collectionGamesQuery } from "./collectionGames";
import {
  type CollectionGameRow,
  type CollectionRow,
  collectionGameSchema,
  collectionSummary,
  collectionSummarySchema,
  toCollectionGames,
} from "./items";
import { collectionQuery } from "./queries";

const PAGING: Paging = { cap: 100, defaultLimit: 50, capReason: "game is always included, which caps the page at 100" };
const { platformIds, genreId, title, releaseDateFrom, releaseDateTo } = sharedFilterArgs;

export const getCollectionGames = defineTool({
  name: "getCollectionGames",
  family: "collections",
  title: "コレクション達成状況",
  description:
    "Lists the games of one collection, each achieved or not (and when), with a summary of the whole collection whatever the filters.",
  restNote: "In REST, GET /rest/v1/getCollectionGames?collectionId=...",
  scopes: ["library:read"],
  plans: PREMIUM_ONLY,
  kind: "read",
  paging: PAGING,
  input: z
    .strictObject({
      collectionId: z.string().min(1).max(40),
      achieved: z.boolean().optional().describe("true: achieved only; false: not yet achieved."),
      platformIds,
      genreId,
      title,
      releaseDateFrom,
      releaseDateTo,
      ...sortArgs(COLLECTION_GAME_SORTS),
      ...pageArgs(PAGING),
    })
    .superRefine(orderedRanges([["releaseDateFrom", "releaseDateTo"]])),
  output: z.object({
    items: z.array(collectionGameSchema),
    ...pageEnvelopeFields,
    summary: collectionSummarySchema,
  }),
  notes: ["game is always included; the page is capped at 100."],
  firstReads: (args, { userId }) => (userId === undefined ? undefined : [collectionQuery(userId, args.collectionId)]),
  async handler({ db, read, auth, pageLimit }, args) {
    const [[collection]] = await read<[CollectionRow[]]>([collectionQuery(auth.userId, args.collectionId)]);
    if (!collection) throw notFound(`Your collection ${args.collectionId}`);
    const limit = pageLimit(args.limit);
    const page = pageWindow(args.page, limit);
    const [rows] = await read<[CollectionGameRow[]]>([await collectionGamesQuery(db, auth.userId, collection, args, page)]);
    // Every row, an empty page's one row too, brings the counts.
    const counts = rows[0];
    return {
      ...pageOf(toCollectionGames(rows), args.page, counts?.matched_count ?? 0, limit),
      summary: collectionSummary(counts),
    };
  },
});
