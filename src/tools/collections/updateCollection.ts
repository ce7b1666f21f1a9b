import { z } from "zod";
import { invalidInput, notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { REVISION_NOTE } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { collectionFieldArgs, collectionSchema, toCollection, toCollectionItem } from "./items";
import { checkCollectionFields, checkListedGames, findCollection, findCollectionItem, patchCollection, revisionConflict } from "./queries";

export const updateCollection = defineTool({
  name: "updateCollection",
  family: "collections",
  title: "コレクション更新",
  description:
    "Changes a collection's name or description, or replaces its games (INDIVIDUAL gameIds) or exclusions (TAG/PLATFORM excludeGameIds); replacing them needs the revision from getCollections.",
  restNote: "In REST, POST /rest/v1/updateCollection with collectionId, the fields to change and revision.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  idempotent: true,
  input: z
    .strictObject({ collectionId: z.string().min(1).max(40), ...collectionFieldArgs, revision: z.string().min(1) })
    .partial()
    .required({ collectionId: true }),
  output: z.object({ item: collectionSchema }),
  conflicts: ["revision_conflict"],
  notes: [REVISION_NOTE],
  async handler({ db, auth, now }, { collectionId, revision, ...changes }) {
    const current = await findCollection(db, auth.userId, collectionId);
    if (!current) throw notFound(`Your collection ${collectionId}`);
    if ((changes.gameIds ?? changes.excludeGameIds) !== undefined && revision === undefined) {
      throw invalidInput("revision", "revision: replacing games needs the revision from getCollections.");
    }
    if (revision !== undefined && revision !== current.revision) throw revisionConflict();
    const next = {
      ...changes,
      ...(changes.gameIds ? { gameIds: [...new Set(changes.gameIds)] } : {}),
      ...(changes.excludeGameIds ? { excludeGameIds: [...new Set(changes.excludeGameIds)] } : {}),
    };
    const item = toCollection(current);
    checkCollectionFields({ ...item, gameIds: next.gameIds ?? item.gameIds, excludeGameIds: next.excludeGameIds ?? item.excludeGameIds });
    // Only the lists being replaced are checked: the stored ones are the collection's, whatever became of their games.
    await checkListedGames(db, auth.userId, next);
    await patchCollection(db, auth.userId, collectionId, next, revision, now.toISOString());
    return {
      item: toCollectionItem(
        readBack(await findCollectionItem(db, auth.userId, collectionId), () => notFound(`Your collection ${collectionId}`)),
      ),
    };
  },
});
