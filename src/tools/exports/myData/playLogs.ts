import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { games, playLogs, playRecords } from "../../../db/schema";
import { columnList, type RowOf } from "../../../platform/db";
import { GAME_LEFT_JOINS } from "../../games/queries";
import { playConditions, playFilterArgs } from "../../play/queries";
import { MY_DATASET_PLANS } from "./args";
import { GAME_COLUMNS, GAME_COLUMNS_SELECT, type GameColumnsRow, gameColumns, JOINED, type MyDataset, rowOf } from "./dataset";

const columns = ["playLogId", "playId", "gameId", ...GAME_COLUMNS, "playDate", "playTime", "memo", "createdAt", "updatedAt"] as const;

/** Play logs and their records, under the aliases the play list's conditions use for records. */
const log = alias(playLogs, "lg");
const record = alias(playRecords, "r");
const { game } = JOINED;

const LOG_KEYS = ["id", "playId", "playDate", "playTime", "memo", "createdAt", "updatedAt"] as const;
type LogExportRow = RowOf<typeof playLogs, (typeof LOG_KEYS)[number]> & RowOf<typeof playRecords, "gameId"> & GameColumnsRow;

/**
 * Every play session of every play record the account holds (earlier cycles too, as getPlayLogs
 * reads them), oldest session first. The play record filters pick the records whose sessions are
 * exported, through getPlayRecords' own condition builder applied to each session's record.
 */
export const playLogsDataset: MyDataset = {
  name: "playLogs",
  plans: MY_DATASET_PLANS.playLogs,
  accepts: Object.keys(playFilterArgs) as (keyof typeof playFilterArgs)[],
  columns,
  async query({ db, userId, now }, args) {
    return {
      // raw SQL: read through the keyset machinery (platform/keyset.ts), with the play list's own conditions (play/queries.ts).
      from: sql`${playLogs} ${log} JOIN ${playRecords} ${record} ON ${record.id} = ${log.playId} JOIN ${games} ${game} ON ${game.id} = ${record.gameId}`,
      joins: GAME_LEFT_JOINS,
      where: [eq(log.userId, userId), ...(await playConditions(db, userId, args, now, "all"))],
      select: sql`${columnList(log, LOG_KEYS)}, ${record.gameId}, ${GAME_COLUMNS_SELECT}`,
      keys: [
        { column: log.playDate, direction: "asc", nullsLast: true },
        { column: log.createdAt, direction: "asc" },
        { column: log.id, direction: "asc" },
      ],
      render: (rows: LogExportRow[]) =>
        rows.map((row) =>
          rowOf(columns, {
            playLogId: row.id,
            playId: row.play_id,
            gameId: row.game_id,
            ...gameColumns(row),
            playDate: row.play_date,
            playTime: row.play_time,
            memo: row.memo,
            createdAt: row.created_at,
            updatedAt: row.updated_at,
          }),
        ),
    };
  },
};
