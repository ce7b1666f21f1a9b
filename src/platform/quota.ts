import { and, eq, sql } from "drizzle-orm";
import { usageDaily } from "../db/schema";
import type { AuthContext } from "./auth";
import type { Db } from "./db";
import { ApiError } from "./errors";
import { PLAN_LIMITS } from "./plans";

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
 */
export async function enforceBurstLimit(kv: KVNamespace, auth: AuthContext, now: Date): Promise<void> {
  const { burstLimit, burstWindowSec } = PLAN_LIMITS[auth.plan];
  const windowMs = burstWindowSec * 1000;
  const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
  const counterKey = `burst:${auth.keyId}:${windowStart}`;
  const used = Number((await kv.get(counterKey)) ?? 0);
  if (used >= burstLimit) {
    throw quotaError(
      "rate_limited",
      `Burst limit of ${burstLimit} calls per ${burstWindowSec} s reached for this key.`,
      now,
      new Date(windowStart + windowMs),
    );
  }
  // 60 s is KV's shortest expiry; the window key changes long before that.
  await kv.put(counterKey, String(used + 1), { expirationTtl: 60 });
}

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
