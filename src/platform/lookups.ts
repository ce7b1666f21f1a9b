import type { Db } from "./db";

/**
 * What a read must look up before it can build its statements (a genre's place in the taxonomy,
 * attribute ids by label): one read per value, present only when the arguments need that value.
 */
export type Lookups<L> = { [K in keyof L]?: (db: Db) => Promise<L[K]> };

/** A read described once: the lookups its arguments need, then its statements (or whatever it builds) from their values. */
export interface LookupPlan<L, R> {
  lookups: Lookups<L>;
  build(looked: Partial<L>): R;
}

/** Reads every lookup (a value not needed stays absent). */
async function readLookups<L>(db: Db, lookups: Lookups<L>): Promise<Partial<L>> {
  const reads = Object.entries(lookups) as [string, (db: Db) => Promise<unknown>][];
  return Object.fromEntries(await Promise.all(reads.map(async ([name, read]) => [name, await read(db)])));
}

/**
 * What the plan builds when its arguments need no lookup; undefined otherwise. This is all a
 * read-ahead can use (firstReads run before admission, with nothing read yet); the handler then
 * builds the same statements by the same function (buildAfterLookups), so batchReader finds them.
 */
export function buildWithoutLookups<L, R>({ lookups, build }: LookupPlan<L, R>): R | undefined {
  return Object.keys(lookups).length === 0 ? build({}) : undefined;
}

/** What the plan builds once its lookups are read (the handler's way). */
export async function buildAfterLookups<L, R>(db: Db, { lookups, build }: LookupPlan<L, R>): Promise<R> {
  return build(await readLookups(db, lookups));
}
