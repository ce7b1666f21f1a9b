import { and, eq, inArray, type SQL } from "drizzle-orm";
import { libraryEntries, physicalCopies, playLogs, playRecords } from "../../db/schema";
import { type Db, statements } from "../../platform/db";
import { type Fingerprint, fingerprintsOf, keyOf } from "../../platform/fingerprints";
import { playCyclesRemovalSql } from "../play/removal";
import { type Picked, pick } from "../shared/cascade";
import { gamesLeaveTagsSql } from "../tags/removal";

/**
 * What goes with a library entry: its physical copies, every play cycle of its game with their
 * logs, and its game's places in the user's tags. Written once, for removeFromLibrary, a replace
 * import of the library and the removal of a custom game; the previews count it here too.
 */

const copiesOf = (userId: string, games: Picked) => and(eq(physicalCopies.userId, userId), games(physicalCopies.gameId));

/** The user's library entries of the picked games, with what goes with them; the tags they leave get a new revision. */
export const libraryEntriesRemovalSql = (userId: string, games: Picked, now: string): SQL[] => [
  statements.delete(physicalCopies).where(copiesOf(userId, games)).getSQL(),
  ...playCyclesRemovalSql(userId, games(playRecords.gameId)),
  ...gamesLeaveTagsSql(userId, games, now),
  statements
    .delete(libraryEntries)
    .where(and(eq(libraryEntries.userId, userId), games(libraryEntries.gameId)))
    .getSQL(),
];

/** How many physical copies of the game the user keeps. */
export async function countCopies(db: Db, userId: string, gameId: number): Promise<number> {
  return db.$count(physicalCopies, copiesOf(userId, pick.one(gameId)));
}

/** How many play cycles a game has, and a fingerprint that changes whenever any cycle or log does. */
export async function gamePlaysOf(db: Db, userId: string, gameId: number): Promise<Fingerprint> {
  const ofGame = and(eq(playRecords.userId, userId), eq(playRecords.gameId, gameId));
  const [records, logs] = await fingerprintsOf(db, [
    statements
      .select({ k: keyOf(playRecords.id, playRecords.revision) })
      .from(playRecords)
      .where(ofGame)
      .getSQL(),
    statements
      .select({ k: keyOf(playLogs.id, playLogs.updatedAt) })
      .from(playLogs)
      .where(
        and(
          eq(playLogs.userId, userId),
          inArray(playLogs.playId, statements.select({ id: playRecords.id }).from(playRecords).where(ofGame)),
        ),
      )
      .getSQL(),
  ]);
  return { count: records!.count, fingerprint: `${records!.fingerprint}|${logs!.fingerprint}` };
}
