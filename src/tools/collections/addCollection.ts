import { z } from "zod";
import { notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { isoDate, orderedRanges, positiveId } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { COLLECTION_TYPES, collectionFieldArgs, collectionSchema, PURPOSES, toCollectionItem } from "./items";
import { checkCollectionShape, findCollectionItem, insertCollection } from "./queries";

export const addCollection = defineTool({
  name: "addCollection",
  family: "collections",
  title: "コレクション追加",
  description:
    "Creates a goal to complete: INDIVIDUAL (listed games), TAG (games with one of your tags) or PLATFORM (a platform's games, optionally by genre and release dates); a game is achieved once in your library (purpose LIBRARY) or once its latest play record is COMPLETED (PLAY).",
  restNote: "In REST, POST /rest/v1/addCollection.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  destructive: false,
  nullIsOmission: true,
  input: z
    .strictObject({
      ...collectionFieldArgs,
      type: z.enum(COLLECTION_TYPES),
      purpose: z.enum(PURPOSES).default("LIBRARY"),
      tagId: positiveId.optional().describe("TAG: the tag."),
      platformId: positiveId.optional().describe("PLATFORM: the platform."),
      genreId: positiveId.optional().describe("PLATFORM: only this genre (main or support, as the genre filter)."),
      releaseDateFrom: isoDate.optional().describe("PLATFORM: released on or after."),
      releaseDateTo: isoDate.optional().describe("PLATFORM: released on or before."),
    })
    .partial({ description: true, gameIds: true, excludeGameIds: true })
    .superRefine(orderedRanges([["releaseDateFrom", "releaseDateTo"]])),
  output: z.object({ item: collectionSchema }),
  async handler({ db, auth, now, upgradeUrl }, args) {
    const collection = {
      name: args.name,
      description: args.description ?? null,
      type: args.type,
      purpose: args.purpose,
      tagId: args.tagId ?? null,
      platformId: args.platformId ?? null,
      genreId: args.genreId ?? null,
      releaseDateFrom: args.releaseDateFrom ?? null,
      releaseDateTo: args.releaseDateTo ?? null,
      gameIds: [...new Set(args.gameIds ?? [])],
      excludeGameIds: [...new Set(args.excludeGameIds ?? [])],
    };
    await checkCollectionShape(db, auth.userId, collection);
    const id = await insertCollection(db, { ...auth, upgradeUrl }, collection, now.toISOString());
    return { item: toCollectionItem(readBack(await findCollectionItem(db, auth.userId, id), () => notFound(`Your collection ${id}`))) };
  },
});
