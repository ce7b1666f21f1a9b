import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Db, queryBatch } from "./db";
import { sha256Hex } from "./hashing";

/**
 * What a two-step removal takes with it, as its preview saw it: how many rows, and a fingerprint
 * that changes whenever one of them comes, goes or changes its key. A preview's targetRevision
 * carries the fingerprint, so a confirmation whose impact changed meanwhile asks again.
 */
export interface Fingerprint {
  count: number;
  fingerprint: string;
}

/**
 * The select-list entry `k` a fingerprinted select reads: the columns that identify a row and
 * those that move when it changes (a revision, an updatedAt), joined.
 */
export const keyOf = (...columns: SQLiteColumn[]) =>
  sql<string>`${sql.join(
    columns.map((column) => sql`${column}`),
    sql` || '@' || `,
  )}`.as("k");

/** The fingerprints of several selects of keys (each selecting keyOf), in one round trip. */
export async function fingerprintsOf(db: Db, keyed: readonly SQL[]): Promise<Fingerprint[]> {
  // raw SQL: group_concat over an ordered subquery of any select of keys.
  const rows = await queryBatch<{ n: number; f: string | null }[][]>(
    db,
    keyed.map((keys) => sql`SELECT COUNT(*) AS n, group_concat(k) AS f FROM (SELECT k FROM (${keys}) ORDER BY k)`),
  );
  // Hashed: an attribute on a whole library would otherwise make a token's revision 50,000 keys long.
  return Promise.all(rows.map(async ([row]) => ({ count: row?.n ?? 0, fingerprint: await sha256Hex(row?.f ?? "") })));
}
