import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { playRecords } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import type { Db } from "../../platform/db";

/*
 * A game's play cycles as the families beside play read them (the library's latestPlay group,
 * exportMyData's library rows) and the play list's hasHistory column. What goes with a removed
 * record is written in its parent family's removal.ts (see shared/cascade.ts).
 */

/** The play records as list queries read them (aliased r), and another cycle of the same game (h). */
export const playCycle = alias(playRecords, "r");
const otherCycle = alias(playRecords, "h");

/** True (in SQL) when other cycles of the record's game are kept (PREMIUM keeps every cycle). */
export const hasHistory = sql`EXISTS (SELECT 1 FROM ${playRecords} ${otherCycle} WHERE ${otherCycle.userId} = ${playCycle.userId} AND ${otherCycle.gameId} = ${playCycle.gameId} AND ${otherCycle.id} <> ${playCycle.id})`;

type CycleStatus = (typeof playRecords.$inferSelect)["status"];

/** The latest cycle of each of these games (for the library's latestPlay group). */
export async function latestPlays(db: Db, userId: string, gameIds: readonly number[]) {
  if (gameIds.length === 0) return new Map<number, { playId: string; status: CycleStatus; hasHistory: boolean }>();
  // raw SQL: a correlated subquery; the builder drops table names from a one-table select list.
  const rows = await db.all<{ gameId: number; playId: string; status: CycleStatus; hasHistory: number }>(sql`
    SELECT ${playCycle.gameId} AS gameId, ${playCycle.id} AS playId, ${playCycle.status} AS status, ${hasHistory} AS hasHistory FROM ${playRecords} ${playCycle}
    WHERE ${and(eq(playCycle.userId, userId), eq(playCycle.isLatest, true), inJsonArray(playCycle.gameId, gameIds))}`);
  return new Map(rows.map(({ gameId, hasHistory, ...play }) => [gameId, { ...play, hasHistory: hasHistory === 1 }]));
}
