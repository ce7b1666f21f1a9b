import { and, eq, sql } from "drizzle-orm";
import { usageDaily } from "../db/schema";
import type { AuthContext } from "./auth";
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
 * The counter is read alongside authentication and written alongside the daily charge, so the
 * guard adds no round trip to a call.
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

/** Atomically adds `cost` to today's count unless that would pass the plan's daily quota. */
export async function chargeDailyQuota(db: Db, auth: AuthContext, now: Date, cost = 1): Promise<DailyCharge> {
  const limit = PLAN_LIMITS[auth.plan].dailyQuota;
  const day = utcDay(now);
  const charged = await db
    .insert(usageDaily)
    .values({ userId: auth.userId, day, count: cost })
    .onConflictDoUpdate({
      target: [usageDaily.userId, usageDaily.day],
      set: { count: sql`${usageDaily.count} + excluded.count` },
      setWhere: sql`${usageDaily.count} + excluded.count <= ${limit}`,
    })
    .returning({ count: usageDaily.count });
  if (charged.length === 0) {
    throw quotaError("quota_exceeded", `Daily quota of ${limit} calls reached.`, now, nextUtcMidnight(now));
  }
  return { day, cost };
}

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
