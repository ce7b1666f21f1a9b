import type { SQL } from "drizzle-orm";
import { type AuthContext, hashPresentedKey, type KeyRow, keyRowQuery, type PresentedKey, verifyKey } from "./auth";
import { type Db, queryBatch, renderQuery, runRendered } from "./db";
import { type Prefetched, rememberCaller } from "./firstReads";
import { PLAN_LIMITS } from "./plans";
import {
  type BurstWindow,
  burstChargeStatement,
  burstWindowOf,
  type CallTerms,
  type DailyCharge,
  dailyChargeStatement,
  keyUserUsageQuery,
} from "./quota";
import { type RateState, rateStateOf } from "./rateLimitHeaders";
import { nextUtcMidnight, utcDay } from "./time";

export interface Admission {
  auth: AuthContext;
  /** Null when nothing was charged: the call is refused (scope, plan, burst) or today's quota had no room for it. */
  charge: DailyCharge | null;
  /** The key's current burst window, and whether it had room for this call. */
  burst: BurstWindow & { admitted: boolean };
  /** Both limits as they stand after this call, for the rate-limit headers. */
  rate: RateState;
  /** The statements read in the same round trip (`ahead`), with their rows. */
  prefetched?: Prefetched;
}

/**
 * Authenticates the key, charges the call to its user's daily quota and counts it in its burst
 * window in one round trip. The charge is made only for a call that will be admitted (scope, plan,
 * burst room and quota are checked by the charging statement itself, before the burst count), so a
 * refused call never holds any of the quota. `ahead` are reads the call will need (see
 * firstReads.ts), run in the same round trip; they change nothing, so whatever admission decides,
 * reading them was harmless.
 */
export async function admitCall(
  db: Db,
  presented: PresentedKey,
  now: Date,
  terms: CallTerms,
  ahead: readonly SQL[] = [],
): Promise<Admission> {
  const key = await hashPresentedKey(presented);
  const day = utcDay(now);
  const window = burstWindowOf(now);
  const aheadQueries = ahead.map(renderQuery);
  const admission = [
    keyRowQuery(key.keyId),
    dailyChargeStatement(key, day, terms, window),
    burstChargeStatement(key, window),
    keyUserUsageQuery(key, day),
  ].map(renderQuery);
  const [keyRows, charged, counted, usage, ...aheadResults] = (await runRendered(db, [...admission, ...aheadQueries])) as [
    KeyRow[],
    { count: number }[],
    { count: number }[],
    { count: number }[],
    ...unknown[][],
  ];
  const auth = await verifyKey(keyRows[0], key);
  rememberCaller(key.keyId, auth);
  const rate = rateStateOf(
    auth.plan,
    { used: counted[0]?.count ?? PLAN_LIMITS[auth.plan].burstLimit, end: window.end },
    { used: usage[0]?.count ?? 0, end: nextUtcMidnight(now) },
    now,
  );
  return {
    auth,
    charge: charged.length > 0 ? { day, cost: terms.cost ?? 1 } : null,
    burst: { ...window, admitted: counted.length > 0 },
    rate,
    prefetched: ahead.length > 0 ? { queries: aheadQueries, results: aheadResults } : undefined,
  };
}

/** A request that runs no tool, admitted: who sent it, and whether its key's burst window had room for it. */
export interface RequestsAdmission {
  auth: AuthContext;
  burst: BurstWindow & { admitted: boolean };
}

/**
 * Authenticates the key and counts `units` requests in its burst window, all or none, in one round
 * trip: for requests that run no tool (the MCP face's initialize, tools/list, ...), which need a
 * valid key and count against the burst limit but charge no daily quota. No units: authentication only.
 */
export async function admitRequests(db: Db, presented: PresentedKey, now: Date, units: number): Promise<RequestsAdmission> {
  const key = await hashPresentedKey(presented);
  const window = burstWindowOf(now);
  const counting = units > 0 ? [burstChargeStatement(key, window, units)] : [];
  const [rows, ...counts] = await queryBatch<[KeyRow[], ...{ count: number }[][]]>(db, [keyRowQuery(key.keyId), ...counting]);
  const auth = await verifyKey(rows[0], key);
  return { auth, burst: { ...window, admitted: counts.every((counted) => counted.length > 0) } };
}
