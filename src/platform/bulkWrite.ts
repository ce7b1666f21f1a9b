import type { Column, Table } from "drizzle-orm";

/**
 * Bulk writes that never approach D1's 100-bound-parameter limit: each statement binds ONE
 * parameter, a JSON array of rows, and reads it back with json_each(). Rows are chunked by size
 * (D1 caps a bound string at 2 MB) and statements are sent in batches (one round trip each).
 */

export interface BulkColumn {
  /** Table column. */
  column: string;
  /** Key of the row object. */
  key: string;
  /** Stored as JSON text (arrays). */
  json?: boolean;
}

/** The bulk columns of these schema properties of a table, each read from the row key of the same name; `json` ones hold arrays. */
export const sameNamedColumns = <T extends Table, K extends keyof T["_"]["columns"] & string>(
  table: T,
  keys: readonly K[],
  json: readonly K[] = [],
): BulkColumn[] => keys.map((key) => ({ column: (table as unknown as Record<K, Column>)[key].name, key, json: json.includes(key) }));

const CHUNK_BYTES = 256 * 1024;
const STATEMENTS_PER_BATCH = 50;

/** Splits rows into chunks whose JSON stays under CHUNK_BYTES. */
export function chunkRows<T>(rows: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const row of rows) {
    const rowSize = JSON.stringify(row).length;
    if (current.length > 0 && size + rowSize > CHUNK_BYTES) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(row);
    size += rowSize;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

const selectList = (columns: readonly BulkColumn[]) =>
  columns.map(({ key, json }) => (json ? `json(j.value -> '$.${key}')` : `j.value ->> '$.${key}'`)).join(", ");

// raw SQL: any number of rows as one JSON parameter per chunk (json_each), upserting on the key:
// master imports write up to 100,000 games, past what bound parameters (100 per statement) allow.
function insertSql(table: string, columns: readonly BulkColumn[], conflictKey?: string): string {
  const names = columns.map((c) => c.column);
  const insert = `INSERT INTO ${table} (${names.join(", ")}) SELECT ${selectList(columns)} FROM json_each(?) AS j WHERE true`;
  if (!conflictKey) return insert;
  const updates = names.filter((n) => n !== conflictKey).map((n) => `${n} = excluded.${n}`);
  return `${insert} ON CONFLICT(${conflictKey}) DO UPDATE SET ${updates.join(", ")}`;
}

/** INSERT (or upsert on `conflictKey`) statements for any number of rows. */
export function bulkInsert(
  d1: D1Database,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly object[],
  conflictKey?: string,
): D1PreparedStatement[] {
  const sql = insertSql(table, columns, conflictKey);
  return chunkRows(rows).map((chunk) => d1.prepare(sql).bind(JSON.stringify(chunk)));
}

/** DELETE FROM table WHERE column IN (ids), chunked (raw SQL: the ids as one json_each parameter). */
export function bulkDeleteWhereIn(d1: D1Database, table: string, column: string, ids: readonly number[]) {
  return chunkRows(ids).map((chunk) =>
    d1.prepare(`DELETE FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(chunk)),
  );
}

export async function runInBatches(d1: D1Database, statements: readonly D1PreparedStatement[]): Promise<void> {
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    await d1.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
  }
}

/** Reads `column` values of rows whose id is in `ids`, chunked; returns id -> value (raw SQL: the ids as one json_each parameter). */
export async function readByIds<V>(d1: D1Database, table: string, column: string, ids: readonly number[]): Promise<Map<number, V>> {
  const found = new Map<number, V>();
  const statements = chunkRows(ids).map((chunk) =>
    d1.prepare(`SELECT id, ${column} AS v FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(chunk)),
  );
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    for (const result of await d1.batch<{ id: number; v: V }>(statements.slice(i, i + STATEMENTS_PER_BATCH))) {
      for (const row of result.results) found.set(row.id, row.v);
    }
  }
  return found;
}
