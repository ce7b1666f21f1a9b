import { BURST_WINDOW_SEC, PLAN_LIMITS, type Plan } from "./plans";
import { secondsUntil } from "./time";

const DAY_SEC = 86_400;

/** Where a caller stands in one of its two limits, as the rate-limit headers tell it. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSec: number;
}

export interface RateState {
  burst: LimitState;
  daily: LimitState;
}

/** The caller's burst window and day after admission counted (or refused) this call. */
export function rateStateOf(plan: Plan, burst: { used: number; end: Date }, daily: { used: number; end: Date }, now: Date): RateState {
  const limits = PLAN_LIMITS[plan];
  return {
    burst: { limit: limits.burstLimit, remaining: Math.max(0, limits.burstLimit - burst.used), resetSec: secondsUntil(now, burst.end) },
    daily: { limit: limits.dailyQuota, remaining: Math.max(0, limits.dailyQuota - daily.used), resetSec: secondsUntil(now, daily.end) },
  };
}

/**
 * The IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers): one
 * policy per limit, `q` its quota and `w` its window in seconds; `r` what remains, `t` the
 * seconds until it resets.
 */
export function rateLimitHeaders(state: RateState): Record<string, string> {
  return {
    "RateLimit-Policy": `"burst";q=${state.burst.limit};w=${BURST_WINDOW_SEC}, "daily";q=${state.daily.limit};w=${DAY_SEC}`,
    RateLimit: `"burst";r=${state.burst.remaining};t=${state.burst.resetSec}, "daily";r=${state.daily.remaining};t=${state.daily.resetSec}`,
  };
}
