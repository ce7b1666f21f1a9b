import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type ColumnRef, columnSql } from "./columns";
import type { Db } from "./db";

export type SortOrder = "asc" | "desc";

/**
 * One key of an ORDER BY: a column (or expression) and its direction; `nullsLast` puts empty
 * values last in either direction. A list tool's order and an export's keyset pages are built
 * from the same keys, so both walk the rows in exactly the same order.
 */
export interface SortKey {
  /** A schema column (of a table or its alias), or an expression. */
  column: ColumnRef;
  direction: SortOrder;
  nullsLast?: boolean;
}

/** A list's sort table: its sortBy values, its default order, and the keys of any sortBy and sortOrder. */
export interface SortTable<K extends string> {
  values: [K, ...K[]];
  default: { sortBy: K; sortOrder: SortOrder };
  /** The order a sortBy takes when no sortOrder is given. */
  orderOf(sortBy: K): SortOrder;
  /**
   * The order: the sort column with empty values last in either direction, then the unique
   * tie-break column; without a sortOrder, the sortBy's own default order.
   */
  of(sortBy: K, sortOrder?: SortOrder): SortKey[];
}

/** The sortBy values of a sort table. */
export type SortName<T> = T extends SortTable<infer K> ? K : never;

/**
 * The sort table of a list whose sortBy values name these columns; `tieBreak` keeps pages from
 * overlapping. A sortBy named in `orders` sorts that way when no sortOrder is given (a title
 * A to Z), any other the way the default sort does.
 */
export const sortTable = <K extends string>(
  columns: Record<K, ColumnRef>,
  tieBreak: ColumnRef,
  defaultSort: { sortBy: NoInfer<K>; sortOrder: SortOrder },
  orders: Partial<Record<NoInfer<K>, SortOrder>> = {},
): SortTable<K> => {
  const orderOf = (sortBy: K) => orders[sortBy] ?? defaultSort.sortOrder;
  return {
    values: Object.keys(columns) as [K, ...K[]],
    default: defaultSort,
    orderOf,
    of: (sortBy, sortOrder) => nullsLastSort(columns[sortBy], sortOrder ?? orderOf(sortBy), tieBreak),
  };
};

/** A list tool's sortBy (one of its table's values) and sortOrder arguments (absent: the sortBy's default order). */
export const sortArgs = <K extends string>(table: SortTable<K>) => ({
  sortBy: z.enum(table.values).default(table.default.sortBy),
  sortOrder: z.enum(["asc", "desc"]).optional().describe(defaultOrdersText(table)),
});

/** "Default: asc for title, else desc.": the sortBy values that differ from the default order, named. */
function defaultOrdersText<K extends string>(table: SortTable<K>): string {
  const usual = table.default.sortOrder;
  const others = table.values.filter((sortBy) => table.orderOf(sortBy) !== usual);
  if (others.length === 0) return `Default: ${usual}.`;
  const other = usual === "asc" ? "desc" : "asc";
  return `Default: ${other} for ${others.join(", ")}, else ${usual}.`;
}

/** The list tools' order: one sort column with empty values last, then a unique tie-break column. */
export const nullsLastSort = (column: ColumnRef, direction: SortOrder, tieBreak: ColumnRef): SortKey[] => [
  { column, direction, nullsLast: true },
  { column: tieBreak, direction: "asc" },
];

const dir = (key: SortKey) => sql.raw(key.direction === "desc" ? "DESC" : "ASC");

const columnOf = (key: SortKey): SQL => columnSql(key.column);

/** ORDER BY text for the keys. */
export const orderOf = (keys: readonly SortKey[]): SQL =>
  sql.join(
    keys.map((key) => (key.nullsLast ? sql`${columnOf(key)} IS NULL, ${columnOf(key)} ${dir(key)}` : sql`${columnOf(key)} ${dir(key)}`)),
    sql`, `,
  );

const equalTo = (key: SortKey, value: unknown) => (value === null ? sql`${columnOf(key)} IS NULL` : sql`${columnOf(key)} = ${value}`);

/** Rows strictly after `value` on this key alone; undefined when none can be (an empty value sorts last). */
function beyond(key: SortKey, value: unknown): SQL | undefined {
  if (value === null) return undefined;
  const column = columnOf(key);
  const comparison = key.direction === "desc" ? sql`${column} < ${value}` : sql`${column} > ${value}`;
  return key.nullsLast ? sql`(${comparison} OR ${column} IS NULL)` : comparison;
}

/** Rows that come after the cursor (the last row's key values) in the keys' order. */
export function afterCursor(keys: readonly SortKey[], cursor: readonly unknown[]): SQL {
  const branches: SQL[] = [];
  keys.forEach((key, i) => {
    const strict = beyond(key, cursor[i]);
    if (!strict) return;
    const equalBefore = keys.slice(0, i).map((previous, j) => equalTo(previous, cursor[j]));
    branches.push(sql`(${sql.join([...equalBefore, strict], sql` AND `)})`);
  });
  return branches.length ? sql`(${sql.join(branches, sql` OR `)})` : sql`0`;
}

export interface KeysetQuery {
  /** The result columns (without the keys, which are added as _k0, _k1, ...). */
  select: SQL;
  /** FROM and JOIN clauses. */
  from: SQL;
  where: readonly SQL[];
  /** The order; the keys together must be unique per row. */
  keys: readonly SortKey[];
}

/**
 * Reads every row of the query one page at a time, each page starting after the previous page's
 * last row (never OFFSET), so memory stays bounded however many rows match.
 */
export async function* keysetPages<R>(db: Db, query: KeysetQuery, pageSize: number): AsyncGenerator<R[]> {
  const keyColumns = sql.join(
    query.keys.map((key, i) => sql`${columnOf(key)} AS ${sql.raw(`_k${i}`)}`),
    sql`, `,
  );
  let cursor: unknown[] | undefined;
  for (;;) {
    const conditions = cursor ? [...query.where, afterCursor(query.keys, cursor)] : [...query.where];
    const where = conditions.length ? sql.join(conditions, sql` AND `) : sql`1`;
    // raw SQL: the keyset machinery: the caller's FROM and select list, and a cursor condition over any sort.
    const rows = await db.all<R & Record<string, unknown>>(
      sql`SELECT ${query.select}, ${keyColumns} FROM ${query.from} WHERE ${where} ORDER BY ${orderOf(query.keys)} LIMIT ${pageSize}`,
    );
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!;
    cursor = query.keys.map((_, i) => last[`_k${i}`]);
    yield rows;
    if (rows.length < pageSize) return;
  }
}

/** How many rows the query's conditions match. */
export async function countRows(db: Db, from: SQL, where: readonly SQL[]): Promise<number> {
  // raw SQL: counts over the keyset machinery's caller-given FROM (joins and aliases as SQL).
  const [row] = await db.all<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM ${from} WHERE ${where.length ? sql.join([...where], sql` AND `) : sql`1`}`,
  );
  return row?.n ?? 0;
}
