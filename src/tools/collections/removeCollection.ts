import { eq } from "drizzle-orm";
import { z } from "zod";
import { collections } from "../../db/schema";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { defineTool } from "../../registry/defineTool";
import { toCollection } from "./items";
import { findCollection } from "./queries";
import { collectionsRemovalSql } from "./removal";

/** What goes with the collection: its list of games (INDIVIDUAL) or of exclusions (TAG, PLATFORM). */
function listsOf({ gameIds, excludeGameIds }: { gameIds: number[]; excludeGameIds: number[] }) {
  if (gameIds.length) return ` with its list of ${counted(gameIds.length, "game")}`;
  return excludeGameIds.length ? ` with its ${counted(excludeGameIds.length, "game")} excluded` : "";
}

export const removeCollection = defineTool({
  name: "removeCollection",
  family: "collections",
  title: "コレクション削除",
  description: "Removes a collection (two-step); its games stay.",
  restNote: 'In REST, POST /rest/v1/removeCollection with {"collectionId": ...}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: PREMIUM_ONLY,
  kind: "delete",
  input: z.strictObject({ collectionId: z.string().min(1).max(40), confirmToken: confirmTokenArg }),
  output: removalResult({ collectionId: z.string() }),
  notes: [TWO_STEP_NOTE],
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const collection = await findCollection(db, auth.userId, args.collectionId);
    if (!collection) throw notFound(`Your collection ${args.collectionId}`);
    return confirmTwoStep(ctx, args, {
      targetRevision: collection.revision,
      summary: `Removes your ${collection.type} collection '${collection.name}'${listsOf(toCollection(collection))}; its games stay where they are.`,
      async execute(marker) {
        await queryBatch(db, [marker, ...collectionsRemovalSql(auth.userId, eq(collections.id, args.collectionId))]);
        return { collectionId: args.collectionId, removed: true as const };
      },
    });
  },
});
