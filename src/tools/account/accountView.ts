import type { SQL } from "drizzle-orm";
import { BURST_WINDOW_SEC, PLAN_LIMITS } from "../../platform/plans";
import { dailyUsageOf, dailyUsageQuery } from "../../platform/quota";
import { registeredCountsOf, registeredCountsQuery } from "../../platform/registeredLimits";
import { PLAN_COUNTERS } from "../planCounters";
import type { AccountUser } from "./items";
import { accountUserQuery } from "./queries";

/**
 * What getAccount and the settings page show of an account: the user, every registered count
 * with its plan limit, today's usage and the burst rate. One piece of code for both, so the page
 * never tells a person something their key's getAccount would not.
 */
export const accountReads = (userId: string, now: Date): SQL[] => [
  accountUserQuery(userId),
  registeredCountsQuery(userId, PLAN_COUNTERS),
  dailyUsageQuery({ userId }, now),
];

/** accountReads' rows, in its order. */
export type AccountRows = [AccountUser[], Record<string, number>[], { count: number }[]];

/** The account as accountReads read it; null when the user does not exist. */
export function accountViewOf([[user], [counts], [usage]]: AccountRows, now: Date) {
  if (!user) return null;
  return {
    userId: user.id,
    name: user.name,
    plan: user.plan,
    registered: registeredCountsOf(counts, user.plan, PLAN_COUNTERS),
    usage: dailyUsageOf(usage?.count ?? 0, user, now),
    rate: { burstLimit: PLAN_LIMITS[user.plan].burstLimit, burstWindowSec: BURST_WINDOW_SEC },
  };
}

export type AccountView = NonNullable<ReturnType<typeof accountViewOf>>;
