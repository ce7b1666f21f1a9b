import type { SQL } from "drizzle-orm";
import { type AuthContext, hashPresentedKey, type KeyRow, keyRowQuery, type PresentedKey, verifyKey } from "./auth";
import { type Db, queryBatch, renderQuery, runRendered } from "./db";
import { type Prefetched, rememberCaller } from "./firstReads";
import { PLAN_LIMITS } from "./plans";
import { type BurstWindow, burstChargeStatement, burstWindowOf, type DailyCharge, dailyChargeStatement } from "./quota";
import { type RateState, rateStateOf } from "./rateLimitHeaders";
import { nextUtcMidnight, utcDay } from "./time";

export interface Admission {
  auth: AuthContext;
  /** Null when today's quota had no room left for the call. */
  charge: DailyCharge | null;
  /** The key's current burst window, and whether it had room for this call. */
  burst: BurstWindow & { admitted: boolean };
  /** Both limits as they stand after this call, for the rate-limit headers. */
  rate: RateState;
  /** The statements read in the same round trip (`ahead`), with their rows. */
  prefetched?: Prefetched;
}

/**
 * Authenticates the key, counts the call in its burst window and charges it to its user's daily
 * quota in one round trip. The charge is made before scope, plan and burst are checked, so a call
 * those refuse must be refunded. `ahead` are reads the call will need (see firstReads.ts), run in
 * the same round trip; they change nothing, so whatever admission decides, reading them was harmless.
 */
export async function admitCall(db: Db, presented: PresentedKey, now: Date, cost: number, ahead: readonly SQL[] = []): Promise<Admission> {
  const key = await hashPresentedKey(presented);
  const day = utcDay(now);
  const window = burstWindowOf(now);
  const aheadQueries = ahead.map(renderQuery);
  const admission = [keyRowQuery(key.keyId), burstChargeStatement(key, window), dailyChargeStatement(key, day, cost)].map(renderQuery);
  const [keyRows, counted, charged, ...aheadResults] = (await runRendered(db, [...admission, ...aheadQueries])) as [
    KeyRow[],
    { count: number }[],
    { count: number }[],
    ...unknown[][],
  ];
  const auth = await verifyKey(keyRows[0], key);
  rememberCaller(key.keyId, auth);
  const { burstLimit, dailyQuota } = PLAN_LIMITS[auth.plan];
  const rate = rateStateOf(
    auth.plan,
    { used: counted[0]?.count ?? burstLimit, end: window.end },
    { used: charged[0]?.count ?? dailyQuota, end: nextUtcMidnight(now) },
    now,
  );
  return {
    auth,
    charge: charged.length > 0 ? { day, cost } : null,
    burst: { ...window, admitted: counted.length > 0 },
    rate,
    prefetched: ahead.length > 0 ? { queries: aheadQueries, results: aheadResults } : undefined,
  };
}

/**
 * Authenticates a key without charging anything: for requests that run no tool (the MCP face's
 * initialize and tools/list), which must still be refused without a valid key.
 */
export async function authenticateOnly(db: Db, presented: PresentedKey): Promise<AuthContext> {
  const key = await hashPresentedKey(presented);
  const [rows] = await queryBatch<[KeyRow[]]>(db, [keyRowQuery(key.keyId)]);
  return verifyKey(rows[0], key);
}
