import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** A schema column, or (for expressions and statements the builder cannot express) its SQL. */
export type ColumnRef = SQLiteColumn | SQL | string;

export const columnSql = (column: ColumnRef): SQL => (typeof column === "string" ? sql.raw(column) : sql`${column}`);

/** True (in SQL) when the JSON array stored in `column` holds `value` (raw SQL: json_each has no builder form). */
export const jsonArrayHolds = (column: ColumnRef, value: string | number) =>
  sql`EXISTS (SELECT 1 FROM json_each(${columnSql(column)}) WHERE value = ${value})`;

/**
 * True (in SQL) when `column` is one of `values`, bound as one JSON parameter however many there
 * are (D1 binds at most 100 parameters a statement; raw SQL: json_each has no builder form).
 */
export const inJsonArray = (column: ColumnRef, values: readonly (string | number)[]) =>
  sql`${columnSql(column)} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/**
 * True (in SQL) for official rows (no owner) and the user's own custom ones, never another user's.
 * Written as an expression no index can serve, on purpose: a search or page then drives its query
 * from the few rows it matched, not from "every official row" (the owner index).
 */
export const visibleToUser = (ownerColumn: ColumnRef, userId: string) => sql`ifnull(${columnSql(ownerColumn)}, ${userId}) = ${userId}`;
