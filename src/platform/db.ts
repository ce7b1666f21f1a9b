import { SQL, sql, type Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteAsyncDialect, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type ColumnRef, columnSql } from "./columns";
import { normalizePlace } from "./normalize";

/**
 * A drizzle database over D1 or one of its sessions. No schema is given: the code builds its
 * statements from the schema's tables and never uses drizzle's relational queries, whose config a
 * schema would make drizzle work out for each database (one per call, with sessions).
 */
const newDb = (d1: D1Database | D1DatabaseSession) => drizzle(d1 as D1Database);
export type Db = ReturnType<typeof newDb>;

/**
 * A drizzle database with no D1 behind it, for statements that travel in batches (guarded writes,
 * imports, ctx.read): `statements.insert(t).values(v).getSQL()` builds one, type-checked against
 * the schema, and never runs it.
 */
export const statements = newDb({} as D1Database);

type ColumnsOf<T extends Table> = T["_"]["columns"];

/** A column's value as raw SQL returns it: JSON and boolean columns as stored (text, 0/1), the rest as typed. */
type RawValue<C extends ColumnsOf<Table>[string]> = C["_"]["columnType"] extends "SQLiteTextJson" | "SQLiteBoolean" | "SQLiteTimestamp"
  ? C["_"]["driverParam"]
  : C["_"]["data"];

/**
 * A table's row as raw SQL returns it: keyed by the columns' database names, for the statements the
 * builder cannot express. `K` picks columns by their schema property. Derived from the schema, so
 * renaming a column fails the compile wherever its rows are read.
 */
export type RowOf<T extends Table, K extends keyof ColumnsOf<T> = keyof ColumnsOf<T>> = {
  [P in K as ColumnsOf<T>[P]["_"]["name"]]: ColumnsOf<T>[P]["_"]["notNull"] extends true
    ? RawValue<ColumnsOf<T>[P]>
    : RawValue<ColumnsOf<T>[P]> | null;
};

/** The select list of those columns of a table (or its alias), for raw statements whose rows are RowOf the same keys. */
export const columnList = <T extends Table, K extends keyof ColumnsOf<T> & string>(table: T, keys: readonly K[]): SQL =>
  sql.join(
    keys.map((key) => (table as unknown as Record<K, SQLiteColumn>)[key]),
    sql`, `,
  );

/** The drizzle database over a D1 binding or session: cheap to make, so one per call or request. */
export const createDb = (d1: D1Database | D1DatabaseSession): Db => newDb(d1);

const dialect = new SQLiteAsyncDialect();

/** A drizzle `sql` query as the text and parameters D1 runs. */
export interface RenderedQuery {
  sql: string;
  params: unknown[];
}

export const renderQuery = (query: SQL): RenderedQuery => dialect.sqlToQuery(query);

/** A drizzle `sql` query as a D1 statement, for batches that mix it with prepared ones. */
export const prepare = (db: Db, query: SQL): D1PreparedStatement => prepareRendered(db, renderQuery(query));

const prepareRendered = (db: Db, { sql: text, params }: RenderedQuery) => db.$client.prepare(text).bind(...params);

/** Runs rendered queries in one D1 round trip and returns each one's rows. */
export async function runRendered(db: Db, queries: readonly RenderedQuery[]): Promise<unknown[][]> {
  const results = await db.$client.batch(queries.map((query) => prepareRendered(db, query)));
  return results.map((result) => result.results);
}

/**
 * Runs several raw `sql` queries in one D1 round trip (drizzle's batch takes only builder
 * queries) and returns each one's rows.
 */
export async function queryBatch<R extends unknown[][] = unknown[][]>(db: Db, queries: readonly SQL[]): Promise<R> {
  return (await runRendered(db, queries.map(renderQuery))) as R;
}

/** D1 reports a broken UNIQUE constraint only in its message. */
export const isUniqueViolation = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed/.test(error.message + String(error.cause ?? ""));

/** The names of the ranges among these arguments: `name` for each `<name>From`. */
type RangeName<A> = { [K in keyof A]: K extends `${infer N}From` ? N : never }[keyof A];

/** Inclusive range filters: for each range, its `<name>From` and `<name>To` arguments present in `args` bound its column. */
export function rangeConditions<A extends object>(args: A, ranges: Partial<Record<RangeName<A>, ColumnRef>>): SQL[] {
  const values = args as Record<string, unknown>;
  const bounds = Object.entries<ColumnRef>(ranges as Record<string, ColumnRef>).flatMap(([name, column]) => [
    { value: values[`${name}From`], column, operator: ">=" },
    { value: values[`${name}To`], column, operator: "<=" },
  ]);
  return bounds
    .filter(({ value }) => value !== undefined)
    .map(({ value, column, operator }) => sql`${columnSql(column)} ${sql.raw(operator)} ${value}`);
}

/** A place filter: a substring of the place's key column (normalizePlace), width- and case-blind. */
export const placeContains = (keyColumn: ColumnRef, place: string) => sql`instr(${columnSql(keyColumn)}, ${normalizePlace(place)}) > 0`;

/**
 * A statement that breaks its D1 batch (rolling every statement of it back) when `stillHolds` is
 * false at that point of the batch (or unknown: a NULL, such as a comparison with a row that is
 * gone, breaks it too): it inserts into write_guards, whose CHECK refuses any row.
 */
// raw SQL: an INSERT … SELECT with no table under a caller's condition (the builder's insert-select needs a FROM).
export const guardStatement = (stillHolds: SQL) => sql`INSERT INTO write_guards (broken) SELECT 1 WHERE NOT coalesce((${stillHolds}), 0)`;

/** Runs the statements as one atomic batch; a broken guard becomes `onBroken()`'s error. */
export async function runGuarded(db: Db, statements: (SQL | D1PreparedStatement)[], onBroken: () => Error): Promise<void> {
  try {
    await db.$client.batch(statements.map((s) => (s instanceof SQL ? prepare(db, s) : s)));
  } catch (error) {
    if (error instanceof Error && /CHECK constraint failed/.test(error.message + String(error.cause ?? ""))) throw onBroken();
    throw error;
  }
}
