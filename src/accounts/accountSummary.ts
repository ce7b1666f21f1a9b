import type { AccountingEnv } from "../platform/admission";
import type { Db } from "../platform/db";
import { notFound } from "../platform/errors";
import { DAY_MS, utcDay } from "../platform/time";
import { USAGE_HISTORY_DAYS } from "../platform/userAccounting";
import { type AccountView, readAccount } from "../tools/account/accountView";

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

/** The user's account as getAccount shows it, plus the last 30 UTC days' usage; 404 for an unknown user. */
export async function accountSummary(env: AccountingEnv, db: Db, userId: string, now: Date): Promise<AccountSummary> {
  const days = historyDays(now);
  const { account, usage } = await readAccount(env, db, userId, now, days);
  if (!account) throw notFound("The user");
  const usedOn = new Map(usage.map((row) => [row.day, row.count]));
  return { ...account, usageHistory: days.map((date) => ({ date, used: usedOn.get(date) ?? 0 })) };
}
