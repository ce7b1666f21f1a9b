import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { apiKeys, usageDaily } from "../db/schema";
import { type AuthContext, type HashedKey, LIVE_KEY_K } from "./auth";
import { type Db, statements } from "./db";
import { ApiError } from "./errors";
import { BURST_WINDOW_SEC, PLAN_LIMITS, type Plan, type PlanLimits, type Scope } from "./plans";
import { nextUtcMidnight, secondsUntil, utcDay } from "./time";

function quotaError(code: "rate_limited" | "quota_exceeded", message: string, now: Date, resetAt: Date) {
  return new ApiError(code, message, {
    retryable: true,
    retryAfterSec: secondsUntil(now, resetAt, 1),
    resetAt: resetAt.toISOString(),
    remaining: 0,
  });
}

/**
 * Fixed-window burst limit per key, counted in D1 by the admission batch: the increment is atomic
 * and only made while the window has room, so concurrent calls cannot all pass. Every
 * authenticated request counts, refused ones included, except those the limit itself refuses.
 */
export interface BurstWindow {
  /** Epoch milliseconds. */
  start: number;
  end: Date;
}

export function burstWindowOf(now: Date): BurstWindow {
  const windowMs = BURST_WINDOW_SEC * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start, end: new Date(start + windowMs) };
}

const limitOfPlan = (limit: keyof PlanLimits, userOf: string) =>
  sql.raw(
    `CASE (SELECT plan FROM users WHERE id = ${userOf}) ${Object.entries(PLAN_LIMITS)
      .map(([plan, limits]) => `WHEN '${plan}' THEN ${limits[limit]}`)
      .join(" ")} ELSE 0 END`,
  );

/**
 * True (in SQL) while the window of the key `k` (a live api_keys row) has room for `units` more:
 * no counter yet, a counter of an older window, or one that stays within the plan's limit.
 */
const burstRoom = (window: BurstWindow, units: number) => sql`NOT EXISTS (
  SELECT 1 FROM burst_counters b
  WHERE b.key_id = k.id AND b.window_start = ${window.start} AND b.count + ${units} > ${limitOfPlan("burstLimit", "k.user_id")})`;

/** The live (unrevoked, unexpired) key the presented one names, only when its hash matches (so a forged key counts and charges nothing). */
const presentedKeyRow = (key: HashedKey) => sql`k.id = ${key.keyId} AND k.key_hash = ${key.hash} AND ${LIVE_KEY_K}`;

/** Counts `units` requests in the key's window (a new window starts at `units`); no row when the window has no room for them. */
// raw SQL: a one-round-trip UPSERT … RETURNING with the plan CASE, on every call's hot path (the builder cannot say it).
export const burstChargeStatement = (key: HashedKey, window: BurstWindow, units = 1) => sql`
  INSERT INTO burst_counters (key_id, window_start, count)
  SELECT k.id, ${window.start}, ${units} FROM api_keys k WHERE ${presentedKeyRow(key)} AND ${burstRoom(window, units)}
  ON CONFLICT (key_id) DO UPDATE SET
    count = CASE WHEN window_start = excluded.window_start THEN count + excluded.count ELSE excluded.count END,
    window_start = excluded.window_start
  RETURNING count`;

export function burstLimited(auth: Pick<AuthContext, "plan">, window: BurstWindow, now: Date): ApiError {
  const { burstLimit } = PLAN_LIMITS[auth.plan];
  return quotaError("rate_limited", `Burst limit of ${burstLimit} calls per ${BURST_WINDOW_SEC} s reached for this key.`, now, window.end);
}

export interface DailyCharge {
  day: string;
  cost: number;
}

const dailyQuotaOfPlan = limitOfPlan("dailyQuota", "excluded.user_id");

/**
 * The one charging statement: adds `cost` to today's count of the user that `chargedUser` selects
 * (as `u`, from users and whatever it joins), atomically and only while that stays within the
 * plan's daily quota and the user is not suspended. Returns today's count, or no row when nothing
 * was charged.
 */
// raw SQL: a one-round-trip UPSERT … RETURNING with the plan CASE, on every call's hot path (the builder cannot say it).
const chargeStatement = (chargedUser: SQL, day: string, cost: number) => sql`
  INSERT INTO usage_daily (user_id, day, count)
  SELECT u.id, ${day}, ${cost} ${chargedUser} AND NOT u.suspended
  ON CONFLICT (user_id, day) DO UPDATE SET count = count + excluded.count
  WHERE count + excluded.count <= ${dailyQuotaOfPlan}
  RETURNING count`;

/** What a tool call needs to be admitted: its cost, the scopes its key must hold and the plans it runs on. */
export interface CallTerms {
  cost?: number;
  scopes: readonly Scope[];
  plans: readonly Plan[];
}

/**
 * Charges a tool call to the key's user only when the call will be admitted: the key holds every
 * scope the tool needs, the user's plan is one the tool runs on, and the key's burst window has
 * room. Checked in the statement itself (run before burstChargeStatement in the same batch), so a
 * call refused for scope, plan or burst never holds a unit of the quota, not even for a moment,
 * and cannot make a concurrent call of the same user fail. enforceToolAccess says the same rules
 * in words, for the refusal's message.
 */
export const dailyChargeStatement = (key: HashedKey, day: string, terms: CallTerms, window: BurstWindow) =>
  chargeStatement(
    sql`FROM api_keys k JOIN users u ON u.id = k.user_id WHERE ${presentedKeyRow(key)}
      AND NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify(terms.scopes)}) needed WHERE needed.value NOT IN (SELECT value FROM json_each(k.scopes)))
      AND u.plan IN (SELECT value FROM json_each(${JSON.stringify(terms.plans)}))
      AND ${burstRoom(window, 1)}`,
    day,
    terms.cost ?? 1,
  );

/** Today's count of the presented key's user, read after the call's charge: the daily part of the rate-limit headers. */
export const keyUserUsageQuery = (key: HashedKey, day: string) =>
  statements
    .select({ count: usageDaily.count })
    .from(usageDaily)
    .where(
      and(
        eq(usageDaily.day, day),
        inArray(usageDaily.userId, statements.select({ id: apiKeys.userId }).from(apiKeys).where(eq(apiKeys.id, key.keyId))),
      ),
    )
    .getSQL();

/** Charges a user directly, with no key: a signed link's user (admitLinkUser) and an import job's batches. */
export const userDailyChargeStatement = (userId: string, day: string, cost: number) =>
  chargeStatement(sql`FROM users u WHERE u.id = ${userId}`, day, cost);

export const quotaExceeded = (auth: Pick<AuthContext, "plan">, now: Date) =>
  quotaError("quota_exceeded", `Daily quota of ${PLAN_LIMITS[auth.plan].dailyQuota} calls reached.`, now, nextUtcMidnight(now));

/** The user's count row of one UTC day. */
const countOfDay = (userId: string, day: string) => and(eq(usageDaily.userId, userId), eq(usageDaily.day, day));

/** Gives back a charge for a call whose work could not be delivered. */
export async function refundDailyQuota(db: Db, auth: Pick<AuthContext, "userId">, charge: DailyCharge): Promise<void> {
  await db
    .update(usageDaily)
    .set({ count: sql`max(0, ${usageDaily.count} - ${charge.cost})` })
    .where(countOfDay(auth.userId, charge.day));
}

export interface DailyUsage {
  date: string;
  used: number;
  limit: number;
  remaining: number;
  usageRate: number;
  resetAt: string;
}

/** Today's count of the user's daily quota (no row: nothing used yet), for a batch of the caller's. */
export const dailyUsageQuery = (auth: Pick<AuthContext, "userId">, now: Date) =>
  statements
    .select({ count: usageDaily.count })
    .from(usageDaily)
    .where(countOfDay(auth.userId, utcDay(now)))
    .getSQL();

/** Today's usage as getAccount shows it, from the count dailyUsageQuery read. */
export function dailyUsageOf(used: number, auth: Pick<AuthContext, "plan">, now: Date): DailyUsage {
  const day = utcDay(now);
  const limit = PLAN_LIMITS[auth.plan].dailyQuota;
  return {
    date: day,
    used,
    limit,
    remaining: Math.max(0, limit - used),
    usageRate: Math.round((used / limit) * 10_000) / 10_000,
    resetAt: nextUtcMidnight(now).toISOString(),
  };
}
