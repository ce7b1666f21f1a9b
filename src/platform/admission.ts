import { eq, type SQL } from "drizzle-orm";
import { users } from "../db/schema";
import { type AuthContext, accessSuspended, hashPresentedKey, type KeyRow, keyRowQuery, type PresentedKey, verifyKey } from "./auth";
import { type Db, queryBatch, type RowOf, renderQuery, runRendered, statements } from "./db";
import type { ApiError } from "./errors";
import { type Prefetched, rememberCaller } from "./firstReads";
import { PLAN_LIMITS, type Plan } from "./plans";
import {
  type BurstWindow,
  burstChargeStatement,
  burstWindowOf,
  type CallTerms,
  type DailyCharge,
  dailyChargeStatement,
  keyUserUsageQuery,
  quotaExceeded,
  userDailyChargeStatement,
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
 * reading them was harmless. `verified`: the key's user as this request already verified it
 * (admitRequests), so the key row is not read again; the charging statements still match the
 * key's hash, so a key revoked since charges nothing.
 */
export async function admitCall(
  db: Db,
  presented: PresentedKey,
  now: Date,
  terms: CallTerms,
  ahead: readonly SQL[] = [],
  verified?: AuthContext,
): Promise<Admission> {
  const key = await hashPresentedKey(presented);
  const day = utcDay(now);
  const window = burstWindowOf(now);
  const aheadQueries = ahead.map(renderQuery);
  const keyLookup = verified ? [] : [keyRowQuery(key.keyId)];
  const admission = [
    ...keyLookup,
    dailyChargeStatement(key, day, terms, window),
    burstChargeStatement(key, window),
    keyUserUsageQuery(key, day),
  ].map(renderQuery);
  const results = await runRendered(db, [...admission, ...aheadQueries]);
  const keyRows = verified ? undefined : (results.shift() as KeyRow[]);
  const [charged, counted, usage, ...aheadResults] = results as [
    { count: number }[],
    { count: number }[],
    { count: number }[],
    ...unknown[][],
  ];
  const auth = verified ?? (await verifyKey(keyRows?.[0], key));
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

/** A signed link's user as admitted: their plan now, and the charge (null when the work costs nothing). */
export interface LinkAdmission {
  userId: string;
  plan: Plan;
  charge: DailyCharge | null;
}

/** linkUserQuery's row: suspended as stored (0/1), read in a raw batch with the charge. */
type LinkUser = RowOf<typeof users, "plan" | "suspended">;

const linkUserQuery = (userId: string) =>
  statements.select({ plan: users.plan, suspended: users.suspended }).from(users).where(eq(users.id, userId)).getSQL();

/**
 * Admits the user a signed link names (a download, an upload: no key), charging `cost` daily quota
 * units in the same round trip. The link was signed by us, so its user existed: one removed since
 * is answered `gone()`, the link's own "not valid".
 */
export async function admitLinkUser(db: Db, userId: string, now: Date, cost: number, gone: () => ApiError): Promise<LinkAdmission> {
  const day = utcDay(now);
  const charging = cost > 0 ? [userDailyChargeStatement(userId, day, cost)] : [];
  const [found, charged] = await queryBatch<[LinkUser[], ...{ count: number }[][]]>(db, [linkUserQuery(userId), ...charging]);
  const user = found[0];
  if (!user) throw gone();
  if (user.suspended) throw accessSuspended();
  const charge = charged && charged.length > 0 ? { day, cost } : null;
  if (cost > 0 && !charge) throw quotaExceeded(user, now);
  return { userId, plan: user.plan, charge };
}
