import type { AuthContext } from "./auth";
import { ApiError } from "./errors";
import { BURST_WINDOW_SEC, PLAN_LIMITS, type Plan, type Scope } from "./plans";
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
 * Fixed-window burst limit per key, counted by the user's accounting object (userAccounting.ts),
 * which runs one request at a time, so concurrent calls cannot all pass. Every authenticated
 * request counts, refused ones included, except those the limit itself refuses.
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

export function burstLimited(auth: Pick<AuthContext, "plan">, window: BurstWindow, now: Date): ApiError {
  const { burstLimit } = PLAN_LIMITS[auth.plan];
  return quotaError("rate_limited", `Burst limit of ${burstLimit} calls per ${BURST_WINDOW_SEC} s reached for this key.`, now, window.end);
}

export interface DailyCharge {
  day: string;
  cost: number;
}

/** What a tool call needs to be admitted: its cost, the scopes its key must hold and the plans it runs on. */
export interface CallTerms {
  cost?: number;
  scopes: readonly Scope[];
  plans: readonly Plan[];
}

/** A per-user daily limit of one kind of write (not the call quota) reached: 429 until the next UTC midnight. */
export const dailyLimitReached = (message: string, now: Date) => quotaError("rate_limited", message, now, nextUtcMidnight(now));

export const quotaExceeded = (auth: Pick<AuthContext, "plan">, now: Date) =>
  quotaError("quota_exceeded", `Daily quota of ${PLAN_LIMITS[auth.plan].dailyQuota} calls reached.`, now, nextUtcMidnight(now));

export interface DailyUsage {
  date: string;
  used: number;
  limit: number;
  remaining: number;
  usageRate: number;
  resetAt: string;
}

/** Today's usage as getAccount shows it, from today's count in the user's accounting object. */
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
