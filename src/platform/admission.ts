import { eq, type SQL } from "drizzle-orm";
import { users } from "../db/schema";
import {
  type AuthContext,
  accessSuspended,
  type HashedKey,
  hashPresentedKey,
  invalidKey,
  type KeyRow,
  type KeyStateRow,
  keyRefusalOf,
  keyRowQuery,
  keyStateQuery,
  type PresentedKey,
  verifyKey,
} from "./auth";
import { createDb, type Db, queryBatch, type RowOf, renderQuery, runRendered, statements } from "./db";
import type { ApiError } from "./errors";
import { knownCallerOf, type Prefetched, rememberCaller } from "./firstReads";
import type { Plan } from "./plans";
import { type BurstWindow, burstWindowOf, type CallTerms, type DailyCharge, quotaExceeded } from "./quota";
import { type RateState, rateStateOf } from "./rateLimitHeaders";
import { nextUtcMidnight, utcDay } from "./time";
import type { AccountSeed, AdmitAnswer, AdmitRequest, KeySeed, UserAccounting } from "./userAccounting";

/** The bindings accounting needs: D1 (the directory of users and keys) and the users' accounting objects. */
export interface AccountingEnv {
  DB: D1Database;
  ACCOUNTING: DurableObjectNamespace;
}

/** The user's accounting object (userAccounting.ts); wrangler.toml binds ACCOUNTING to that class, which bindings.ts cannot import. */
export const accountingOf = (env: AccountingEnv, userId: string) =>
  (env.ACCOUNTING as DurableObjectNamespace<UserAccounting>).getByName(userId);

export interface Admission {
  auth: AuthContext;
  /** Null when nothing was charged: the call is refused (scope, plan, burst) or today's quota had no room for it. */
  charge: DailyCharge | null;
  /** The key's current burst window, and whether it had room for this call. */
  burst: BurstWindow & { admitted: boolean };
  /** Both limits as they stand after this call, for the rate-limit headers. */
  rate: RateState;
  /** The statements read alongside admission (`ahead`), with their rows. */
  prefetched?: Prefetched;
}

/**
 * Authenticates the key, counts the call in its burst window and charges it to its user's daily
 * quota, in one request to the user's accounting object, which charges only a call that will be
 * admitted (scope, plan, burst room and quota), so a refused call never holds any of the quota.
 * `ahead` are D1 reads the call will need (see firstReads.ts), run at the same time; they change
 * nothing, so whatever admission decides, reading them was harmless. `verified`: the key's user as
 * this request already admitted it (admitRequests).
 */
export async function admitCall(
  env: AccountingEnv,
  db: Db,
  presented: PresentedKey,
  now: Date,
  terms: CallTerms,
  ahead: readonly SQL[] = [],
  verified?: AuthContext,
): Promise<Admission> {
  const key = await hashPresentedKey(presented);
  const aheadQueries = ahead.map(renderQuery);
  // Only what the object needs: the tool definition itself cannot cross to it.
  const charge = { cost: terms.cost ?? 1, scopes: terms.scopes, plans: terms.plans };
  const [admitted, aheadResults] = await Promise.all([
    admitKey(env, key, { now: now.getTime(), units: 1, charge }, verified?.userId),
    aheadQueries.length > 0 ? runRendered(db, aheadQueries) : [],
  ]);
  const { auth, burst, daily } = admitted;
  const window = burstWindowOf(now);
  return {
    auth,
    charge: daily.charged ? { day: utcDay(now), cost: charge.cost } : null,
    burst: { ...window, admitted: burst.admitted },
    rate: rateStateOf(auth.plan, { used: burst.used, end: window.end }, { used: daily.used, end: nextUtcMidnight(now) }, now),
    prefetched: ahead.length > 0 ? { queries: aheadQueries, results: aheadResults } : undefined,
  };
}

/** A request that runs no tool, admitted: who sent it, and whether its key's burst window had room for it. */
export interface RequestsAdmission {
  auth: AuthContext;
  burst: BurstWindow & { admitted: boolean };
}

/**
 * Authenticates the key and counts `units` requests in its burst window, all or none: for requests
 * that run no tool (the MCP face's initialize, tools/list, ...), which need a valid key and count
 * against the burst limit but charge no daily quota. No units: authentication only.
 */
export async function admitRequests(env: AccountingEnv, presented: PresentedKey, now: Date, units: number): Promise<RequestsAdmission> {
  const key = await hashPresentedKey(presented);
  const { auth, burst } = await admitKey(env, key, { now: now.getTime(), units });
  return { auth, burst: { ...burstWindowOf(now), admitted: burst.admitted } };
}

type Admitted = Extract<AdmitAnswer, { status: "admitted" }> & { auth: AuthContext };

/**
 * Asks the key's user's accounting object to admit a request. The user comes from this isolate's
 * memory of the key (a key never changes owner) or from D1; D1 is read, on the primary, so that a
 * key made a moment ago is found, only when this isolate or the object does not know the key yet,
 * and what it holds is checked here before the object is told (a forged key seeds nothing).
 */
async function admitKey(
  env: AccountingEnv,
  key: HashedKey,
  request: Omit<AdmitRequest, "keyId" | "keyHash" | "seed">,
  userId?: string,
): Promise<Admitted> {
  const presented = { ...request, keyId: key.keyId, keyHash: key.hash };
  const knownUser = userId ?? knownCallerOf(key.keyId)?.userId;
  if (knownUser) {
    const answer = await accountingOf(env, knownUser).admit(presented);
    if (answer.status !== "unseeded") return admittedAs(env, answer, knownUser, key);
  }
  const [rows] = await queryBatch<[KeyRow[]]>(createDb(env.DB), [keyRowQuery(key.keyId)]);
  if (!rows[0]) throw await refusedKey(env, key);
  const stored = await verifyKey(rows[0], key);
  const answer = await accountingOf(env, stored.userId).admit({ ...presented, seed: keySeedOf(rows[0]) });
  return admittedAs(env, answer, stored.userId, key);
}

/** The 401 of a refused key, naming why (unknown, revoked, expired): one more D1 read, on the refusal's path only. */
async function refusedKey(env: AccountingEnv, key: HashedKey): Promise<ApiError> {
  const [rows] = await queryBatch<[KeyStateRow[]]>(createDb(env.DB), [keyStateQuery(key.keyId)]);
  return invalidKey(keyRefusalOf(rows[0], key, new Date()));
}

async function admittedAs(env: AccountingEnv, answer: AdmitAnswer, userId: string, key: HashedKey): Promise<Admitted> {
  if (answer.status === "suspended") throw accessSuspended();
  if (answer.status !== "admitted") throw await refusedKey(env, key);
  const auth = { userId, plan: answer.plan, keyId: key.keyId, scopes: new Set(answer.scopes) };
  rememberCaller(key.keyId, auth);
  return { ...answer, auth };
}

/** What the object is taught of a key and its account the first time a call presents it. */
export const keySeedOf = (row: KeyRow): KeySeed => ({
  keyHash: row.keyHash,
  scopes: JSON.parse(row.scopes),
  expiresAt: row.expiresAt === null ? null : Date.parse(row.expiresAt),
  plan: row.plan,
  suspended: Boolean(row.suspended),
});

/** A user as charged with no key: their plan now, and the charge (null when the work costs nothing). */
export interface LinkAdmission {
  userId: string;
  plan: Plan;
  charge: DailyCharge | null;
  /** Today's count after the charge. */
  used: number;
}

/** linkUserQuery's row: suspended as stored (0/1). */
type LinkUser = RowOf<typeof users, "plan" | "suspended">;

const linkUserQuery = (userId: string) =>
  statements.select({ plan: users.plan, suspended: users.suspended }).from(users).where(eq(users.id, userId)).getSQL();

/**
 * Charges a user `cost` daily quota units with no key: the user a signed link names (a download,
 * an upload), an import job's batches. The user was ours when the link was signed or the job
 * started: one the directory no longer holds is answered `gone()`, the link's own "not valid".
 * 429 quota_exceeded when the quota has no room, 403 for a suspended account.
 */
export async function chargeUser(
  env: AccountingEnv,
  userId: string,
  now: Date,
  cost: number,
  gone: () => ApiError,
): Promise<LinkAdmission> {
  const accounting = accountingOf(env, userId);
  let answer = await accounting.chargeAccount({ now: now.getTime(), cost });
  if (answer.status === "unseeded")
    answer = await accounting.chargeAccount({ now: now.getTime(), cost, seed: await accountSeedOf(env, userId, gone) });
  if (answer.status === "unseeded") throw gone();
  if (answer.status === "suspended") throw accessSuspended();
  if (answer.status === "quota_exceeded") throw quotaExceeded(answer, now);
  return { userId, plan: answer.plan, charge: cost > 0 ? { day: utcDay(now), cost } : null, used: answer.used };
}

async function accountSeedOf(env: AccountingEnv, userId: string, gone: () => ApiError): Promise<AccountSeed> {
  const [[user]] = await queryBatch<[LinkUser[]]>(createDb(env.DB), [linkUserQuery(userId)]);
  if (!user) throw gone();
  return { plan: user.plan, suspended: Boolean(user.suspended) };
}

/** Gives back a charge whose work delivered nothing. */
export async function refundDailyQuota(env: AccountingEnv, userId: string, charge: DailyCharge): Promise<void> {
  await accountingOf(env, userId).refund(charge.day, charge.cost);
}
