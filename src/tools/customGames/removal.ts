import { and, eq, type SQL } from "drizzle-orm";
import { games } from "../../db/schema";
import { statements } from "../../platform/db";
import { gamesLeaveCollectionsSql } from "../collections/removal";
import { libraryEntriesRemovalSql } from "../library/removal";
import { type Picked, pick } from "../shared/cascade";
import { wishesRemovalSql } from "../wishlist/removal";

/**
 * What goes with a custom game: everything of its owner's that names it. Written once, for
 * removeCustomGame and a replace import of custom games.
 */

const ownedBy = (userId: string, picked: Picked) => and(eq(games.ownerUserId, userId), picked(games.id));

/** The user's custom games among the picked, as a pick of their own (for the records that name them). */
export const ownCustomGames = (userId: string, picked: Picked) =>
  pick.among(statements.select({ id: games.id }).from(games).where(ownedBy(userId, picked)));

/**
 * The user's picked custom games, with what goes with their library entries (copies, play cycles
 * and logs, places in tags), their wishlist entries, and their places in collections (which get a
 * new revision and updatedAt, their content having changed). The games go last: the statements
 * before read them.
 */
export const customGamesRemovalSql = (userId: string, picked: Picked, now: string): SQL[] => {
  const owned = ownCustomGames(userId, picked);
  return [
    ...libraryEntriesRemovalSql(userId, owned, now),
    ...gamesLeaveCollectionsSql(userId, owned, now),
    wishesRemovalSql(userId, owned),
    statements.delete(games).where(ownedBy(userId, picked)).getSQL(),
  ];
};
