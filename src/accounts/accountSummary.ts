import { and, asc, between, eq } from "drizzle-orm";
import { usageDaily } from "../db/schema";
import { type Db, queryBatch, statements } from "../platform/db";
import { notFound } from "../platform/errors";
import { DAY_MS, utcDay } from "../platform/time";
import { type AccountRows, type AccountView, accountReads, accountViewOf } from "../tools/account/accountView";

/** Days the settings page charts: today and the 29 UTC days before it. */
export const USAGE_HISTORY_DAYS = 30;

export interface UsageDay {
  /** The UTC day, YYYY-MM-DD. */
  date: string;
  /** Calls charged to the user's daily quota that day. */
  used: number;
}

/** What the settings page shows of an account: what getAccount answers (without the calling key) and the last 30 days' usage. */
export interface AccountSummary extends AccountView {
  /** Oldest first, one entry per UTC day (0 for a day without calls), today last. */
  usageHistory: UsageDay[];
}

/** The UTC days of the history, oldest first. */
const historyDays = (now: Date) =>
  Array.from({ length: USAGE_HISTORY_DAYS }, (_, i) => utcDay(new Date(now.getTime() - (USAGE_HISTORY_DAYS - 1 - i) * DAY_MS)));

const usageHistoryQuery = (userId: string, days: readonly string[]) =>
  statements
    .select({ day: usageDaily.day, count: usageDaily.count })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), between(usageDaily.day, days[0]!, days.at(-1)!)))
    .orderBy(asc(usageDaily.day))
    .getSQL();

/** The user's account as getAccount shows it, plus the last 30 UTC days' usage, in one round trip; 404 for an unknown user. */
export async function accountSummary(db: Db, userId: string, now: Date): Promise<AccountSummary> {
  const days = historyDays(now);
  const [user, counts, usage, history] = await queryBatch<[...AccountRows, { day: string; count: number }[]]>(db, [
    ...accountReads(userId, now),
    usageHistoryQuery(userId, days),
  ]);
  const account = accountViewOf([user, counts, usage], now);
  if (!account) throw notFound("The user");
  const usedOn = new Map(history.map((row) => [row.day, row.count]));
  return { ...account, usageHistory: days.map((date) => ({ date, used: usedOn.get(date) ?? 0 })) };
}
