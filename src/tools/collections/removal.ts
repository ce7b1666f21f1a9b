import { and, eq, inArray, type SQL } from "drizzle-orm";
import { collectionGames, collections } from "../../db/schema";
import { statements } from "../../platform/db";
import { newRevision } from "../../platform/ids";
import type { Picked } from "../shared/cascade";

/**
 * What goes with a collection: its list of games and of exclusions; and what a game's removal
 * changes in the collections that list it. Written once, for removeCollection, removeTag (the TAG
 * collections built on the tag), replace imports of collections and tags, and removeCustomGame.
 */

/** The ids of the user's collections (that meet `which`, when given). */
const userCollectionIds = (userId: string, which?: SQL) =>
  statements
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.userId, userId), which));

/** The games and exclusions of the user's collections. */
const ofUserCollections = (userId: string) => inArray(collectionGames.collectionId, userCollectionIds(userId));

/** The user's TAG collections built on the picked tags. */
export const tagCollectionsOn = (tags: Picked) => and(eq(collections.type, "TAG"), tags(collections.tagId));

/** The user's collections that meet `which` (a condition on collections; undefined: all of them), with their games and exclusions. */
export const collectionsRemovalSql = (userId: string, which: SQL | undefined): SQL[] => [
  statements
    .delete(collectionGames)
    .where(inArray(collectionGames.collectionId, userCollectionIds(userId, which)))
    .getSQL(),
  statements
    .delete(collections)
    .where(and(eq(collections.userId, userId), which))
    .getSQL(),
];

/**
 * The picked games (removed altogether) leave the user's collections that list them, as a game or an
 * exclusion. That changes their content (gameIds, excludeGameIds), so their revision and updatedAt
 * move first.
 */
export const gamesLeaveCollectionsSql = (userId: string, games: Picked, now: string): SQL[] => {
  const listing = and(games(collectionGames.gameId), ofUserCollections(userId));
  const listed = statements.select({ id: collectionGames.collectionId }).from(collectionGames).where(listing);
  return [
    statements
      .update(collections)
      .set({ revision: newRevision(), updatedAt: now })
      .where(and(eq(collections.userId, userId), inArray(collections.id, listed)))
      .getSQL(),
    statements.delete(collectionGames).where(listing).getSQL(),
  ];
};
