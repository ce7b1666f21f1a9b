import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, queryBatch } from "../../platform/db";
import { newId } from "../../platform/ids";
import { utcDay } from "../../platform/quota";
import { runConditional } from "../../platform/registeredLimits";
import { isoDate, nameText, text } from "../../platform/schemas";
import { consoleKept } from "./queries";

export const MAINTENANCE_STATUSES = ["SCHEDULED", "DONE"] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

export const maintenanceFieldArgs = {
  title: nameText(100),
  memo: text(2000).nullable(),
  status: z.enum(MAINTENANCE_STATUSES).describe("DONE sets completedDate to today (UTC) when it is empty."),
  scheduledDate: isoDate.nullable(),
  completedDate: isoDate.nullable(),
};

export const maintenanceLogSchema = z
  .object({
    maintenanceLogId: z.string(),
    consoleId: z.string(),
    title: z.string(),
    memo: z.string().nullable(),
    status: z.enum(MAINTENANCE_STATUSES),
    scheduledDate: z.string().nullable(),
    completedDate: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "MaintenanceLog" });

export interface LogRow {
  id: string;
  console_id: string;
  title: string;
  memo: string | null;
  status: MaintenanceStatus;
  scheduled_date: string | null;
  completed_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface LogValues {
  title: string;
  memo: string | null;
  status: MaintenanceStatus;
  scheduledDate: string | null;
  completedDate: string | null;
}

export const toMaintenanceLog = (row: LogRow) => ({
  maintenanceLogId: row.id,
  consoleId: row.console_id,
  title: row.title,
  memo: row.memo,
  status: row.status,
  scheduledDate: row.scheduled_date,
  completedDate: row.completed_date,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** A log marked DONE without a date was done today: the rule keeps status and dates coherent. */
export const withDoneDate = (values: LogValues, now: Date): LogValues =>
  values.status === "DONE" && values.completedDate === null ? { ...values, completedDate: utcDay(now) } : values;

export async function findLog(db: Db, userId: string, maintenanceLogId: string): Promise<LogRow | undefined> {
  const [row] = await db.all<LogRow>(sql`SELECT * FROM maintenance_logs WHERE id = ${maintenanceLogId} AND user_id = ${userId}`);
  return row;
}

/** Adds a log while its console still exists (checked in the same batch). */
export async function insertLog(db: Db, userId: string, consoleId: string, values: LogValues, now: string): Promise<string> {
  const id = newId("mlog");
  await runConditional(
    db,
    [consoleKept(userId, consoleId)],
    [
      sql`
    INSERT INTO maintenance_logs (id, user_id, console_id, title, memo, status, scheduled_date, completed_date, created_at, updated_at)
    VALUES (${id}, ${userId}, ${consoleId}, ${values.title}, ${values.memo}, ${values.status}, ${values.scheduledDate}, ${values.completedDate}, ${now}, ${now})`,
    ],
  );
  return id;
}

const LOG_COLUMNS: Record<keyof LogValues, string> = {
  title: "title",
  memo: "memo",
  status: "status",
  scheduledDate: "scheduled_date",
  completedDate: "completed_date",
};

/**
 * Writes only the fields sent, so two patches of different fields never undo each other; then
 * a DONE log still without a completion date gets today's (the same rule as on insert).
 */
export async function patchLog(db: Db, userId: string, maintenanceLogId: string, changes: Partial<LogValues>, now: Date) {
  const sets = (Object.keys(changes) as (keyof LogValues)[]).map((key) => sql`${sql.raw(LOG_COLUMNS[key])} = ${changes[key]}`);
  const where = sql`WHERE id = ${maintenanceLogId} AND user_id = ${userId}`;
  await queryBatch(db, [
    sql`UPDATE maintenance_logs SET ${sql.join([...sets, sql`updated_at = ${now.toISOString()}`], sql`, `)} ${where}`,
    sql`UPDATE maintenance_logs SET completed_date = ${utcDay(now)} ${where} AND status = 'DONE' AND completed_date IS NULL`,
  ]);
}

export const deleteLogSql = (userId: string, maintenanceLogId: string): SQL =>
  sql`DELETE FROM maintenance_logs WHERE id = ${maintenanceLogId} AND user_id = ${userId}`;

/** Newest first: by the date the work was done or planned, else when it was logged. */
export async function logPage(db: Db, consoleId: string, page: { limit: number; offset: number }) {
  const [rows, total] = await queryBatch<[LogRow[], { n: number }[]]>(db, [
    sql`SELECT * FROM maintenance_logs WHERE console_id = ${consoleId}
      ORDER BY coalesce(completed_date, scheduled_date, created_at) DESC, created_at DESC, id
      LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT COUNT(*) AS n FROM maintenance_logs WHERE console_id = ${consoleId}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}
