import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { games, physicalCopies, playLogs, playRecords } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import { type Db, statements } from "../../platform/db";
import { newRevision } from "../../platform/ids";
import { type Fingerprint, fingerprintsOf, keyOf } from "./fingerprints";

/*
 * Records that depend on another family's: a game's physical copies and play cycles, which hang off
 * its library entry, and the play cycles on a console. The parent families (library, consoles,
 * customGames) read and remove them here, so a parent never imports the families of its children;
 * the children (physicalCopies, play) import their parents.
 */

/** The play records as list queries read them (aliased r), and another cycle of the same game (h). */
export const playCycle = alias(playRecords, "r");
const otherCycle = alias(playRecords, "h");

/** True (in SQL) when other cycles of the record's game are kept (PREMIUM keeps every cycle). */
export const hasHistory = sql`EXISTS (SELECT 1 FROM ${playRecords} ${otherCycle} WHERE ${otherCycle.userId} = ${playCycle.userId} AND ${otherCycle.gameId} = ${playCycle.gameId} AND ${otherCycle.id} <> ${playCycle.id})`;

type CycleStatus = (typeof playRecords.$inferSelect)["status"];

const byUserAndGame = (userId: string, gameId: number) => and(eq(playRecords.userId, userId), eq(playRecords.gameId, gameId));
const copiesOf = (userId: string, gameId: number) => and(eq(physicalCopies.userId, userId), eq(physicalCopies.gameId, gameId));

/** How many physical copies of the game the user keeps. */
export async function countCopies(db: Db, userId: string, gameId: number): Promise<number> {
  return db.$count(physicalCopies, copiesOf(userId, gameId));
}

export const deleteCopiesSql = (userId: string, gameId: number) =>
  statements.delete(physicalCopies).where(copiesOf(userId, gameId)).getSQL();

/** The latest cycle of each of these games (for the library's latestPlay group). */
export async function latestPlays(db: Db, userId: string, gameIds: readonly number[]) {
  if (gameIds.length === 0) return new Map<number, { playId: string; status: CycleStatus; hasHistory: boolean }>();
  // raw SQL: a correlated subquery; the builder drops table names from a one-table select list.
  const rows = await db.all<{ gameId: number; playId: string; status: CycleStatus; hasHistory: number }>(sql`
    SELECT ${playCycle.gameId} AS gameId, ${playCycle.id} AS playId, ${playCycle.status} AS status, ${hasHistory} AS hasHistory FROM ${playRecords} ${playCycle}
    WHERE ${and(eq(playCycle.userId, userId), eq(playCycle.isLatest, true), inJsonArray(playCycle.gameId, gameIds))}`);
  return new Map(rows.map(({ gameId, hasHistory, ...play }) => [gameId, { ...play, hasHistory: hasHistory === 1 }]));
}

/** Every cycle of a game and their logs (removing the game from the library or the game itself). */
export const deleteGamePlaysSql = (userId: string, gameId: number): SQL[] => [
  statements
    .delete(playLogs)
    .where(
      and(
        eq(playLogs.userId, userId),
        inArray(playLogs.playId, statements.select({ id: playRecords.id }).from(playRecords).where(byUserAndGame(userId, gameId))),
      ),
    )
    .getSQL(),
  statements.delete(playRecords).where(byUserAndGame(userId, gameId)).getSQL(),
];

/** How many play cycles a game has, and a fingerprint that changes whenever any cycle or log does. */
export async function gamePlaysOf(db: Db, userId: string, gameId: number): Promise<Fingerprint> {
  const cycles = statements.select({ id: playRecords.id }).from(playRecords).where(byUserAndGame(userId, gameId));
  const [records, logs] = await fingerprintsOf(db, [
    statements
      .select({ k: keyOf(playRecords.id, playRecords.revision) })
      .from(playRecords)
      .where(byUserAndGame(userId, gameId))
      .getSQL(),
    statements
      .select({ k: keyOf(playLogs.id, playLogs.updatedAt) })
      .from(playLogs)
      .where(and(eq(playLogs.userId, userId), inArray(playLogs.playId, cycles)))
      .getSQL(),
  ]);
  return { count: records!.count, fingerprint: `${records!.fingerprint}|${logs!.fingerprint}` };
}

const onConsole = (userId: string, consoleId: string) => and(eq(playRecords.userId, userId), eq(playRecords.consoleId, consoleId));

/** The titles of the games whose play records name the console, for removeConsole's preview. */
export async function playsOnConsole(db: Db, userId: string, consoleId: string): Promise<{ title: string }[]> {
  return db
    .select({ title: games.title })
    .from(playRecords)
    .innerJoin(games, eq(games.id, playRecords.gameId))
    .where(onConsole(userId, consoleId))
    .orderBy(games.sortKey);
}

/** The play records that name the console, as keys to fingerprint (removing the console changes exactly these). */
export const playsOnConsoleKeys = (userId: string, consoleId: string) =>
  statements
    .select({ k: keyOf(playRecords.id) })
    .from(playRecords)
    .where(onConsole(userId, consoleId))
    .getSQL();

/** The console leaves the play records that name it: a change of their content, so their revision and updatedAt move. */
export const detachConsoleSql = (userId: string, consoleId: string, now: string) =>
  statements
    .update(playRecords)
    .set({ consoleId: null, updatedAt: now, revision: newRevision() })
    .where(onConsole(userId, consoleId))
    .getSQL();
