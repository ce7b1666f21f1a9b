import { and, eq, sql } from "drizzle-orm";
import { usageDaily } from "../db/schema";
import type { AuthContext, HashedKey } from "./auth";
import type { Db } from "./db";
import { ApiError } from "./errors";
import { BURST_WINDOW_SEC, PLAN_LIMITS } from "./plans";

const DAY_MS = 86_400_000;

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);
const nextUtcMidnight = (now: Date) => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
const secondsUntil = (from: Date, to: Date) => Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));

function quotaError(code: "rate_limited" | "quota_exceeded", message: string, now: Date, resetAt: Date) {
  return new ApiError(code, message, {
    retryable: true,
    retryAfterSec: secondsUntil(now, resetAt),
    resetAt: resetAt.toISOString(),
    remaining: 0,
  });
}

/**
 * Fixed-window burst limit per key. KV is eventually consistent and not atomic, so this is a
 * soft guard against runaway loops, not an exact count; the daily quota below is the exact one.
 * The counter is read alongside authentication and written while the tool runs, so the guard
 * adds no round trip to a call.
 */
export interface BurstReading {
  counterKey: string;
  windowEnd: Date;
  used: number;
}

export async function readBurst(kv: KVNamespace, keyId: string, now: Date): Promise<BurstReading> {
  const windowMs = BURST_WINDOW_SEC * 1000;
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const counterKey = `burst:${keyId}:${windowStart}`;
  return { counterKey, windowEnd: new Date(windowStart + windowMs), used: Number((await kv.get(counterKey)) ?? 0) };
}

export function enforceBurstLimit(auth: AuthContext, reading: BurstReading, now: Date): void {
  const { burstLimit } = PLAN_LIMITS[auth.plan];
  if (reading.used >= burstLimit) {
    throw quotaError("rate_limited", `Burst limit of ${burstLimit} calls per ${BURST_WINDOW_SEC} s reached for this key.`, now, reading.windowEnd);
  }
}

/** 60 s is KV's shortest expiry; the window key changes long before that. */
export const recordBurst = (kv: KVNamespace, reading: BurstReading) =>
  kv.put(reading.counterKey, String(reading.used + 1), { expirationTtl: 60 });

export interface DailyCharge {
  day: string;
  cost: number;
}

const dailyQuotaOfPlan = sql.raw(
  `CASE (SELECT plan FROM users WHERE id = excluded.user_id) ${Object.entries(PLAN_LIMITS)
    .map(([plan, limits]) => `WHEN '${plan}' THEN ${limits.dailyQuota}`)
    .join(" ")} ELSE 0 END`,
);

/**
 * Adds `cost` to today's count of the key's user, atomically and only while that stays within the
 * plan's daily quota, and only for a live key whose hash matches and whose user is not suspended
 * (so a forged key charges nobody). Returns today's count, or no row when nothing was charged.
 */
export const dailyChargeStatement = (key: HashedKey, day: string, cost: number) => sql`
  INSERT INTO usage_daily (user_id, day, count)
  SELECT u.id, ${day}, ${cost} FROM api_keys k JOIN users u ON u.id = k.user_id
  WHERE k.id = ${key.keyId} AND k.key_hash = ${key.hash} AND k.revoked_at IS NULL AND NOT u.suspended
  ON CONFLICT (user_id, day) DO UPDATE SET count = count + excluded.count
  WHERE count + excluded.count <= ${dailyQuotaOfPlan}
  RETURNING count`;

export const quotaExceeded = (auth: AuthContext, now: Date) =>
  quotaError("quota_exceeded", `Daily quota of ${PLAN_LIMITS[auth.plan].dailyQuota} calls reached.`, now, nextUtcMidnight(now));

/** Gives back a charge for a call whose work could not be delivered. */
export async function refundDailyQuota(db: Db, auth: AuthContext, charge: DailyCharge): Promise<void> {
  await db
    .update(usageDaily)
    .set({ count: sql`max(0, ${usageDaily.count} - ${charge.cost})` })
    .where(and(eq(usageDaily.userId, auth.userId), eq(usageDaily.day, charge.day)));
}

export interface DailyUsage {
  date: string;
  used: number;
  limit: number;
  remaining: number;
  usageRate: number;
  resetAt: string;
}

export async function readDailyUsage(db: Db, auth: AuthContext, now: Date): Promise<DailyUsage> {
  const day = utcDay(now);
  const [row] = await db
    .select({ count: usageDaily.count })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, auth.userId), eq(usageDaily.day, day)));
  const used = row?.count ?? 0;
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
