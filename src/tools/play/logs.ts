import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { runConditional, type WriteCondition } from "../../platform/registeredLimits";

export const playLogSchema = z
  .object({
    playLogId: z.string(),
    playId: z.string(),
    playDate: z.string().nullable(),
    playTime: z.number().int().describe("Minutes of the session."),
    memo: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "PlayLog" });

export interface LogRow {
  id: string;
  play_id: string;
  play_date: string | null;
  play_time: number;
  memo: string | null;
  created_at: string;
  updated_at: string;
  title: string;
}

export const toPlayLog = (row: LogRow) => ({
  playLogId: row.id,
  playId: row.play_id,
  playDate: row.play_date,
  playTime: row.play_time,
  memo: row.memo,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The caller's log, with its game's title for previews. */
export async function findPlayLog(db: Db, userId: string, playLogId: string): Promise<LogRow | undefined> {
  const [row] = await db.all<LogRow>(sql`
    SELECT l.*, g.title FROM play_logs l JOIN play_records r ON r.id = l.play_id JOIN games g ON g.id = r.game_id
    WHERE l.id = ${playLogId} AND l.user_id = ${userId}`);
  return row;
}

/** Adds a log while its record still exists (checked in the same batch: a removal racing it leaves no orphan log). */
export async function insertPlayLog(
  db: Db,
  userId: string,
  playId: string,
  values: { playDate: string | null; playTime: number; memo: string | null },
  now: string,
) {
  const id = newId("plog");
  const recordKept: WriteCondition = {
    holds: sql`EXISTS (SELECT 1 FROM play_records WHERE id = ${playId} AND user_id = ${userId})`,
    error: () => notFound(`Your play record ${playId}`),
  };
  await runConditional(db, [recordKept], [insertPlayLogSql(userId, playId, id, values, now)]);
  return id;
}

/** The one INSERT of a play log (addPlayLog, imports); `times` keeps a restored log's timestamps. */
export const insertPlayLogSql = (
  userId: string,
  playId: string,
  id: string,
  values: { playDate: string | null; playTime: number; memo: string | null },
  now: string,
  times = { createdAt: now, updatedAt: now },
) => sql`
  INSERT INTO play_logs (id, user_id, play_id, play_date, play_time, memo, created_at, updated_at)
  VALUES (${id}, ${userId}, ${playId}, ${values.playDate}, ${values.playTime}, ${values.memo}, ${times.createdAt}, ${times.updatedAt})`;

export async function updatePlayLogRow(
  db: Db,
  userId: string,
  playLogId: string,
  values: { playTime: number; memo: string | null },
  now: string,
) {
  await db.run(
    sql`UPDATE play_logs SET play_time = ${values.playTime}, memo = ${values.memo}, updated_at = ${now} WHERE id = ${playLogId} AND user_id = ${userId}`,
  );
}

export const deletePlayLogSql = (userId: string, playLogId: string): SQL =>
  sql`DELETE FROM play_logs WHERE id = ${playLogId} AND user_id = ${userId}`;

/** Newest session first. */
export async function playLogPage(db: Db, playId: string, page: { limit: number; offset: number }) {
  const [rows, total] = await queryBatch<[LogRow[], { n: number }[]]>(db, [
    sql`SELECT * FROM play_logs WHERE play_id = ${playId} ORDER BY play_date IS NULL, play_date DESC, created_at DESC, rowid DESC
      LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT COUNT(*) AS n FROM play_logs WHERE play_id = ${playId}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}
