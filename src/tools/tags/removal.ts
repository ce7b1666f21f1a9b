import { and, eq, inArray, type SQL } from "drizzle-orm";
import { tagGames, tags } from "../../db/schema";
import { type Db, statements } from "../../platform/db";
import { newRevision } from "../../platform/ids";
import { collectionsRemovalSql, tagCollectionsOn } from "../collections/removal";
import { type Picked, pick } from "../shared/cascade";

/**
 * What goes with a tag: its game memberships and the TAG collections built on it; and what a
 * game's removal changes in the tags that hold it. Written once, for removeTag, a replace import of
 * tags, and the removal of a library entry or a custom game.
 */

const userTagIds = (userId: string) => statements.select({ id: tags.id }).from(tags).where(eq(tags.userId, userId));
/** The memberships of the user's tags. */
export const ofUserTags = (userId: string) => inArray(tagGames.tagId, userTagIds(userId));

/** The user's tags that hold one of the picked games. */
const holding = (userId: string, games: Picked) =>
  and(
    eq(tags.userId, userId),
    inArray(
      tags.id,
      statements
        .select({ id: tagGames.tagId })
        .from(tagGames)
        .where(and(games(tagGames.gameId), ofUserTags(userId))),
    ),
  );

/** The user's tags that hold the game (what a removal of the game takes it out of), oldest first. */
export const tagsHoldingGame = (db: Db, userId: string, gameId: number) =>
  db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(holding(userId, pick.one(gameId)))
    .orderBy(tags.id);

/**
 * The picked games leave the user's tags (their library entries or the games themselves go). That
 * changes each such tag's content (its games and gameCount), so their revision and updatedAt move first.
 */
export const gamesLeaveTagsSql = (userId: string, games: Picked, now: string): SQL[] => [
  statements.update(tags).set({ revision: newRevision(), updatedAt: now }).where(holding(userId, games)).getSQL(),
  statements
    .delete(tagGames)
    .where(and(games(tagGames.gameId), ofUserTags(userId)))
    .getSQL(),
];

/** The user's picked tags with their memberships and the TAG collections built on them. */
export const tagsRemovalSql = (userId: string, picked: Picked): SQL[] => [
  ...collectionsRemovalSql(userId, tagCollectionsOn(picked)),
  statements
    .delete(tagGames)
    .where(and(picked(tagGames.tagId), ofUserTags(userId)))
    .getSQL(),
  statements
    .delete(tags)
    .where(and(eq(tags.userId, userId), picked(tags.id)))
    .getSQL(),
];
