import { type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "../db/schema";

export const createDb = (d1: D1Database) => drizzle(d1, { schema });
export type Db = ReturnType<typeof createDb>;

export const nowIso = () => new Date().toISOString();

const dialect = new SQLiteAsyncDialect();

/**
 * Runs several raw `sql` queries in one D1 round trip (drizzle's batch takes only builder
 * queries) and returns each one's rows.
 */
export async function queryBatch<R extends unknown[][]>(db: Db, queries: { [K in keyof R]: SQL }): Promise<R> {
  const statements = (queries as SQL[]).map((query) => {
    const { sql, params } = dialect.sqlToQuery(query);
    return db.$client.prepare(sql).bind(...params);
  });
  const results = await db.$client.batch(statements);
  return results.map((result) => result.results) as R;
}

/** D1 reports a broken UNIQUE constraint only in its message. */
export const isUniqueViolation = (error: unknown) => error instanceof Error && /UNIQUE constraint failed/.test(error.message + String(error.cause ?? ""));
