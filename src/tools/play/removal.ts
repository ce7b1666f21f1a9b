import { and, desc, eq, inArray, ne, notExists, type SQL, sql } from "drizzle-orm";
import { playLogs, playRecords } from "../../db/schema";
import { type Db, statements } from "../../platform/db";
import { latestCycle } from "./queries";

/**
 * What goes with play records: their logs. Written once, for removePlayRecord, a FREE/LIGHT replay
 * (addPlayRecord), a replace import and the removal of a library entry or a custom game.
 */

const ofUser = (userId: string) => eq(playRecords.userId, userId);

/**
 * The user's play cycles that meet `cycles` (a condition on play_records: by id, by game; undefined:
 * all of them), with their logs.
 */
export const playCyclesRemovalSql = (userId: string, cycles: SQL | undefined): SQL[] => [
  statements
    .delete(playLogs)
    .where(
      and(
        eq(playLogs.userId, userId),
        cycles &&
          inArray(
            playLogs.playId,
            statements
              .select({ id: playRecords.id })
              .from(playRecords)
              .where(and(ofUser(userId), cycles)),
          ),
      ),
    )
    .getSQL(),
  statements
    .delete(playRecords)
    .where(and(ofUser(userId), cycles))
    .getSQL(),
];

/** The game's other cycles, newest first: the first is the one that becomes latest when the latest goes. */
const otherCycles = (userId: string, gameId: number, except: string) =>
  and(ofUser(userId), eq(playRecords.gameId, gameId), ne(playRecords.id, except));
const NEWEST_FIRST = [desc(playRecords.createdAt), desc(sql`rowid`)];

/** The cycle that becomes latest when this latest one is removed (removePlayRecord's preview names it). */
export const heirOf = (db: Db, userId: string, gameId: number, playId: string) =>
  db
    .select({ id: playRecords.id, playStartDate: playRecords.playStartDate, createdAt: playRecords.createdAt })
    .from(playRecords)
    .where(otherCycles(userId, gameId, playId))
    .orderBy(...NEWEST_FIRST)
    .get();

/** Removes one cycle with its logs; if it was the latest, the newest remaining cycle becomes latest. */
export const playRecordRemovalSql = (userId: string, gameId: number, playId: string): SQL[] => {
  const newest = statements
    .select({ id: playRecords.id })
    .from(playRecords)
    .where(otherCycles(userId, gameId, playId))
    .orderBy(...NEWEST_FIRST)
    .limit(1);
  return [
    ...playCyclesRemovalSql(userId, eq(playRecords.id, playId)),
    statements
      .update(playRecords)
      .set({ isLatest: true })
      .where(and(eq(playRecords.id, newest), notExists(latestCycle(userId, gameId))))
      .getSQL(),
  ];
};
