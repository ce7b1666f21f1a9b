import { type SQL, sql } from "drizzle-orm";
import { type Db, queryBatch } from "../../platform/db";
import type { GameRecord } from "./gameObject";
import { GAME_JOINS, GAME_SELECT, allOf } from "./queries";

/**
 * A user's own list of games (library, wishlist, play records): a table with user_id and game_id read
 * together with its games (alias g), so filters, sorts and the `game` field group work alike.
 */
export interface UserList {
  table: "library_entries" | "wishlist_entries" | "play_records";
  alias: "l" | "w" | "r";
  /** The list's own columns, qualified with the alias. */
  columns: SQL;
}

/** The list joined with its games (g): what its filters and sorts read. */
export const userListFrom = (list: UserList) => sql.raw(`${list.table} ${list.alias} JOIN games g ON g.id = ${list.alias}.game_id`);
const from = userListFrom;

/** One page of the list plus the total, in one round trip; game columns only when asked for. */
export async function userListPage<R>(
  db: Db,
  list: UserList,
  conditions: SQL[],
  order: SQL,
  page: { limit: number; offset: number },
  withGame: boolean,
): Promise<{ rows: (R & Partial<GameRecord>)[]; totalCount: number }> {
  const where = allOf(conditions);
  const [rows, total] = await queryBatch<[(R & Partial<GameRecord>)[], { n: number }[]]>(db, [
    sql`SELECT ${list.columns}${withGame ? sql`, ${GAME_SELECT}` : sql``} FROM ${from(list)} ${withGame ? GAME_JOINS : sql``}
      WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT COUNT(*) AS n FROM ${from(list)} WHERE ${where}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}

/** One row of the caller's list with its game; undefined when the game is not on it. */
export async function userListRow<R>(db: Db, list: UserList, userId: string, gameId: number) {
  const [row] = await db.all<R & GameRecord>(sql`
    SELECT ${list.columns}, ${GAME_SELECT} FROM ${from(list)} ${GAME_JOINS}
    WHERE ${sql.raw(list.alias)}.user_id = ${userId} AND ${sql.raw(list.alias)}.game_id = ${gameId}`);
  return row;
}
