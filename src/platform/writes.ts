import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type ColumnRef, columnSql } from "./columns";

/**
 * What every write tool shares about writing under concurrency.
 *
 * - A write's result is read back after its batch committed, and a concurrent removal may take the
 *   row in between: `readBack` answers what happened (the tool's 404) instead of crashing.
 * - A write that needs its parent (a library entry, a play record, a console) checks it inside
 *   the batch that writes (registeredLimits' WriteCondition / runConditional), never only before.
 * - A write that changes nothing keeps the record's revision and updatedAt (`touchIfChanged`), so
 *   a client holding the revision is not sent a needless 409.
 */

/** The row a write reads back, or `gone()` when a concurrent removal took it after the write. */
export function readBack<T>(row: T | undefined, gone: () => Error): T {
  if (row === undefined) throw gone();
  return row;
}

/** True (in SQL) when any column's stored value differs from the value about to be written. */
export const differs = (values: readonly (readonly [column: ColumnRef, value: unknown])[]): SQL =>
  values.length === 0
    ? sql`0`
    : sql`(${sql.join(
        values.map(([column, value]) => sql`${columnSql(column)} IS NOT ${value}`),
        sql` OR `,
      )})`;

/**
 * `differs` for the values an update().set() writes, by their schema property names: JSON columns
 * compare as the text they are stored as. Undefined values are not written, so not compared.
 */
export function setDiffers(table: SQLiteTable, values: object): SQL {
  const columns = getTableColumns(table);
  const pairs = Object.entries(values).flatMap(([key, value]) => {
    const column = columns[key];
    if (value === undefined || !column) return [];
    return [[column, column.columnType === "SQLiteTextJson" ? JSON.stringify(value) : value] as const];
  });
  return differs(pairs);
}

/**
 * touchIfChanged for the query builder's update().set(): the table's updatedAt and revision move
 * only when `changed` holds.
 */
export const touchedIfChanged = (
  table: { updatedAt: SQLiteColumn; revision: SQLiteColumn },
  changed: SQL,
  now: string,
  revision: string,
) => ({
  updatedAt: sql`CASE WHEN ${changed} THEN ${now} ELSE ${table.updatedAt} END`,
  revision: sql`CASE WHEN ${changed} THEN ${revision} ELSE ${table.revision} END`,
});

/**
 * SET clauses that move `updated_at` and `revision` only when `changed` holds. An UPDATE's SET
 * expressions all read the row as it was before the statement, so `changed` compares old values.
 */
export const touchIfChanged = (changed: SQL, now: string, revision: string): SQL[] => [
  sql`updated_at = CASE WHEN ${changed} THEN ${now} ELSE updated_at END`,
  sql`revision = CASE WHEN ${changed} THEN ${revision} ELSE revision END`,
];
