import type { SQL } from "drizzle-orm";
import { type AccountingEnv, accountingOf } from "../../platform/admission";
import { type Db, queryBatch } from "../../platform/db";
import { BURST_WINDOW_SEC, PLAN_LIMITS } from "../../platform/plans";
import { dailyUsageOf } from "../../platform/quota";
import { registeredCountsOf, registeredCountsQuery } from "../../platform/registeredLimits";
import { dayIn, utcDay } from "../../platform/time";
import type { UsageCount } from "../../platform/userAccounting";
import { PLAN_COUNTERS } from "../planCounters";
import type { AccountUser } from "./items";
import { accountUserQuery } from "./queries";

/** The account's rows in D1: the user and every registered count. */
const accountReads = (userId: string): SQL[] => [accountUserQuery(userId), registeredCountsQuery(userId, PLAN_COUNTERS)];

type AccountRows = [AccountUser[], Record<string, number>[]];

/** What getAccount and the settings page show of an account, with the counts of the days asked for. */
export interface AccountReading {
  /** Null when the user does not exist. */
  account: AccountView | null;
  /** The counts of the days asked for, from the user's accounting object (a day without calls is left out). */
  usage: UsageCount[];
}

/**
 * What getAccount and the settings page show of an account: the user, every registered count
 * with its plan limit, today's usage and the burst rate. One piece of code for both, so the page
 * never tells a person something their key's getAccount would not. The D1 rows and the usage
 * (the user's accounting object) are read at the same time; `days` are the UTC days whose counts
 * the caller wants besides today's.
 */
export async function readAccount(
  env: AccountingEnv,
  db: Db,
  userId: string,
  now: Date,
  days: readonly string[] = [],
): Promise<AccountReading> {
  const today = utcDay(now);
  const [rows, usage] = await Promise.all([
    queryBatch<AccountRows>(db, accountReads(userId)),
    accountingOf(env, userId).usage(days.includes(today) ? days : [...days, today]),
  ]);
  return { account: accountViewOf(rows, usage.find((count) => count.day === today)?.count ?? 0, now), usage };
}

function accountViewOf([[user], [counts]]: AccountRows, usedToday: number, now: Date) {
  if (!user) return null;
  return {
    userId: user.id,
    name: user.name,
    plan: user.plan,
    timeZone: user.time_zone,
    today: dayIn(now, user.time_zone),
    registered: registeredCountsOf(counts, user.plan, PLAN_COUNTERS),
    usage: dailyUsageOf(usedToday, user, now),
    rate: { burstLimit: PLAN_LIMITS[user.plan].burstLimit, burstWindowSec: BURST_WINDOW_SEC },
  };
}

export type AccountView = NonNullable<ReturnType<typeof accountViewOf>>;
