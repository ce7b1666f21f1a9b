import type { SQL } from "drizzle-orm";
import { type Db, type RenderedQuery, renderQuery, runRendered } from "./db";
import type { Plan } from "./plans";

/** Runs statements in one round trip and answers each one's rows. */
export type BatchReader = <R extends unknown[][] = unknown[][]>(queries: readonly SQL[]) => Promise<R>;

/** Statements a call ran ahead of its handler (beside its admission), with their rows. */
export interface Prefetched {
  queries: readonly RenderedQuery[];
  results: unknown[][];
}

const sameQueries = (a: readonly RenderedQuery[], b: readonly RenderedQuery[]) =>
  a.length === b.length &&
  a.every(
    (query, i) =>
      query.sql === b[i]!.sql && query.params.length === b[i]!.params.length && query.params.every((p, j) => p === b[i]!.params[j]),
  );

/**
 * A tool call's batch reader. When the handler asks for exactly the statements that were read ahead
 * (same SQL, same parameters), their rows are answered from there, once; anything else runs now.
 * Comparing the statements, rather than trusting the guess, keeps a wrong guess (another user's id
 * from a stale cache, arguments read differently) from ever answering.
 */
export function batchReader(db: Db, prefetched?: Prefetched): BatchReader {
  let ahead = prefetched;
  return async <R extends unknown[][]>(queries: readonly SQL[]) => {
    const rendered = queries.map(renderQuery);
    if (ahead && sameQueries(ahead.queries, rendered)) {
      const { results } = ahead;
      ahead = undefined;
      return results as R;
    }
    return (await runRendered(db, rendered)) as R;
  };
}

/** A key's user and plan as this isolate last saw them admitted. */
export interface KnownCaller {
  userId: string;
  plan: Plan;
}

const KNOWN_KEYS_MAX = 10_000;
const callerOfKey = new Map<string, KnownCaller>();

/**
 * Who a key id belonged to when this isolate last admitted it: a key never changes owner, so a read
 * tool may guess its caller's statements before admission has read the key (the plan may have
 * changed since; batchReader's comparison catches any wrong guess). Admission still decides; the
 * guess only decides what is read alongside it.
 */
export const knownCallerOf = (keyId: string): KnownCaller | undefined => callerOfKey.get(keyId);

export function rememberCaller(keyId: string, caller: KnownCaller) {
  const known = callerOfKey.get(keyId);
  if (known?.userId === caller.userId && known.plan === caller.plan) return;
  if (callerOfKey.size >= KNOWN_KEYS_MAX) callerOfKey.clear();
  callerOfKey.set(keyId, { userId: caller.userId, plan: caller.plan });
}
