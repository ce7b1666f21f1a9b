import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** A schema column, or (for expressions and statements the builder cannot express) its SQL. */
export type ColumnRef = SQLiteColumn | SQL | string;

export const columnSql = (column: ColumnRef): SQL => (typeof column === "string" ? sql.raw(column) : sql`${column}`);

/** True (in SQL) when the JSON array stored in `column` holds `value` (raw SQL: json_each has no builder form). */
export const jsonArrayHolds = (column: ColumnRef, value: string | number) =>
  sql`EXISTS (SELECT 1 FROM json_each(${columnSql(column)}) WHERE value = ${value})`;
