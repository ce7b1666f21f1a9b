import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { playLogs, playRecords } from "../../db/schema";
import { columnList, guardStatement, type RowOf, statements } from "../../platform/db";
import { newId } from "../../platform/ids";
import { ALL_PLANS } from "../../platform/plans";
import { isoDate, text } from "../../platform/schemas";
import { GAME_LEFT_JOINS, joinGame } from "../games/queries";
import { defineDataset, recordsRemoval, restoredTimes } from "../shared/datasets";
import { Decisions, type RestoreContext, type StagedRow } from "../shared/decisions";
import { playCycle } from "../shared/dependentRecords";
import { GAME_COLUMNS, GAME_COLUMNS_SELECT, type GameColumnsRow, gameColumns, rowOf, timestampsOf } from "../shared/exportDataset";
import { orNull, timesOf } from "../shared/restore";
import { forgetIdsSql, mapSql, REISSUED, referencedIds, restoredIds } from "../shared/restoreReads";
import { type PlayFilters, playConditions, playFilterArgs } from "./listQueries";
import { insertPlayLogSql } from "./queries";

const columns = ["playLogId", "playId", "gameId", ...GAME_COLUMNS, "playDate", "playTime", "memo", "createdAt", "updatedAt"] as const;

/** Play logs and their records, under the aliases the play list's conditions use for records. */
const log = alias(playLogs, "lg");
const record = playCycle;

const LOG_KEYS = ["id", "playId", "playDate", "playTime", "memo", "createdAt", "updatedAt"] as const;
type LogExportRow = RowOf<typeof playLogs, (typeof LOG_KEYS)[number]> & RowOf<typeof playRecords, "gameId"> & GameColumnsRow;

const rowSchema = z.object({
  playLogId: z.string().min(1).max(60),
  playId: z.string().min(1).max(60),
  playDate: isoDate.nullish(),
  playTime: z.number().int().min(1).max(1440),
  memo: text(2000).nullish(),
  ...restoredTimes,
});

/** True (in SQL) while every one of the play records is still the user's (a guarded batch's condition). */
const allPlayRecordsKept = (userId: string, playIds: readonly string[]) =>
  // raw SQL: a guard condition over json_each's rows, which the builder cannot say
  sql`NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify(playIds)}) j
    WHERE NOT EXISTS (SELECT 1 FROM ${playRecords} WHERE ${playRecords.userId} = ${userId} AND ${playRecords.id} = j.value))`;

/**
 * Play logs: new ids (kind log); each hangs off its play record as the playRecords restore
 * re-issued it (restore that file, with history, first), which must still be there when the batch runs.
 */
async function restorePlayLogs(ctx: RestoreContext, rows: StagedRow<z.output<typeof rowSchema>>[]) {
  const { userId } = ctx;
  const now = ctx.now.toISOString();
  const [restored, records] = await Promise.all([
    restoredIds(
      ctx,
      REISSUED.log,
      rows.map((r) => r.d.playLogId),
    ),
    referencedIds(ctx, REISSUED.play, [...new Set(rows.map((r) => r.d.playId))]),
  ]);
  const d = new Decisions();
  const parents: string[] = [];
  for (const { r, d: row } of rows) {
    if (restored.has(row.playLogId)) {
      d.exists(r, "playLogId", `Play log ${row.playLogId} was already imported (or is yours); kept as it is.`);
      continue;
    }
    const playId = records.idOf(row.playId);
    if (!records.here.has(playId)) {
      d.fail(r, "playId", "not_found", `Play record ${row.playId} is not here: import the playRecords file (with history) first.`);
      continue;
    }
    const id = newId("plog");
    restored.add(row.playLogId);
    parents.push(playId);
    d.add(
      insertPlayLogSql(userId, playId, id, { ...orNull(row, ["playDate", "memo"]), playTime: row.playTime }, now, timesOf(row, now)),
      mapSql(userId, "log", row.playLogId, id),
    );
  }
  if (parents.length > 0) d.statements.unshift(guardStatement(allPlayRecordsKept(userId, [...new Set(parents)])));
  return d.decided;
}

/**
 * Every play session of every play record the account holds (earlier cycles too, as getPlayLogs
 * reads them), oldest session first. The play record filters pick the records whose sessions are
 * exported, through getPlayRecords' own condition builder applied to each session's record.
 */
export const playLogsDataset = defineDataset({
  export: {
    name: "playLogs",
    plans: ALL_PLANS,
    accepts: Object.keys(playFilterArgs) as (keyof typeof playFilterArgs)[],
    columns,
    async query({ db, userId, now }, args: PlayFilters) {
      return {
        // raw SQL: read through the keyset machinery (platform/keyset.ts), with the play list's own conditions (play/listQueries.ts).
        from: sql`${playLogs} ${log} JOIN ${playRecords} ${record} ON ${record.id} = ${log.playId} ${joinGame("JOIN", record.gameId)}`,
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
              ...timestampsOf(row),
            }),
          ),
      };
    },
  },
  rowSchema,
  restore: restorePlayLogs,
  removal: (userId) =>
    recordsRemoval(
      playLogs,
      userId,
      [statements.delete(playLogs).where(eq(playLogs.userId, userId)).getSQL(), forgetIdsSql(userId, ["log"])],
      "play log",
    ),
});
