import { sql } from "drizzle-orm";
import { GAME_LEFT_JOINS } from "../../games/queries";
import { playConditions, playFilterArgs } from "../../play/queries";
import { MY_DATASET_PLANS } from "./args";
import { GAME_COLUMNS, GAME_COLUMNS_SELECT, type GameColumnsRow, gameColumns, type MyDataset, rowOf } from "./dataset";

const columns = ["playLogId", "playId", "gameId", ...GAME_COLUMNS, "playDate", "playTime", "memo", "createdAt", "updatedAt"] as const;

interface LogExportRow extends GameColumnsRow {
  log_id: string;
  play_id: string;
  game_id: number;
  play_date: string | null;
  play_time: number;
  memo: string | null;
  created_at: string;
  updated_at: string;
}

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
      from: sql`play_logs lg JOIN play_records r ON r.id = lg.play_id JOIN games g ON g.id = r.game_id`,
      joins: GAME_LEFT_JOINS,
      where: [sql`lg.user_id = ${userId}`, ...(await playConditions(db, userId, args, now, "all"))],
      select: sql`lg.id AS log_id, lg.play_id, r.game_id, lg.play_date, lg.play_time, lg.memo, lg.created_at, lg.updated_at, ${GAME_COLUMNS_SELECT}`,
      keys: [
        { column: "lg.play_date", direction: "asc", nullsLast: true },
        { column: "lg.created_at", direction: "asc" },
        { column: "lg.id", direction: "asc" },
      ],
      render: (rows: LogExportRow[]) =>
        rows.map((row) =>
          rowOf(columns, {
            playLogId: row.log_id,
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
