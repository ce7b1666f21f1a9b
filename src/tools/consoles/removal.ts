import { and, eq, inArray, isNotNull, type SQL } from "drizzle-orm";
import { consolePlatforms, consoles, games, maintenanceLogs, playRecords } from "../../db/schema";
import { type Db, statements } from "../../platform/db";
import { keyOf } from "../../platform/fingerprints";
import { newRevision } from "../../platform/ids";
import { type Picked, pick } from "../shared/cascade";

/**
 * What goes with a console: its platform list and maintenance logs; the play records that name it
 * lose it. Written once, for removeConsole and a replace import of consoles; the preview reads it here.
 */

/** The user's play records that name one of the picked consoles. */
const namingConsoles = (userId: string, picked: Picked) =>
  and(eq(playRecords.userId, userId), isNotNull(playRecords.consoleId), picked(playRecords.consoleId));

/** The titles of the games whose play records name the console, for removeConsole's preview. */
export async function playsOnConsole(db: Db, userId: string, consoleId: string): Promise<{ title: string }[]> {
  return db
    .select({ title: games.title })
    .from(playRecords)
    .innerJoin(games, eq(games.id, playRecords.gameId))
    .where(namingConsoles(userId, pick.one(consoleId)))
    .orderBy(games.sortKey);
}

/** The play records that name the console, as keys to fingerprint (removing the console changes exactly these). */
export const playsOnConsoleKeys = (userId: string, consoleId: string) =>
  statements
    .select({ k: keyOf(playRecords.id) })
    .from(playRecords)
    .where(namingConsoles(userId, pick.one(consoleId)))
    .getSQL();

/** The console's maintenance logs as keys to fingerprint (removing the console deletes exactly these). */
export const maintenanceLogKeys = (consoleId: string) =>
  statements
    .select({ k: keyOf(maintenanceLogs.id, maintenanceLogs.updatedAt) })
    .from(maintenanceLogs)
    .where(eq(maintenanceLogs.consoleId, consoleId))
    .getSQL();

/**
 * The user's picked consoles with their platform lists and maintenance logs. The play records that
 * name them lose them: a change of their content, so their revision and updatedAt move.
 */
export const consolesRemovalSql = (userId: string, picked: Picked, now: string): SQL[] => [
  statements
    .update(playRecords)
    .set({ consoleId: null, updatedAt: now, revision: newRevision() })
    .where(namingConsoles(userId, picked))
    .getSQL(),
  statements
    .delete(maintenanceLogs)
    .where(and(eq(maintenanceLogs.userId, userId), picked(maintenanceLogs.consoleId)))
    .getSQL(),
  statements
    .delete(consolePlatforms)
    .where(
      and(
        picked(consolePlatforms.consoleId),
        inArray(consolePlatforms.consoleId, statements.select({ id: consoles.id }).from(consoles).where(eq(consoles.userId, userId))),
      ),
    )
    .getSQL(),
  statements
    .delete(consoles)
    .where(and(eq(consoles.userId, userId), picked(consoles.id)))
    .getSQL(),
];
