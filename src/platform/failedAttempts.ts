import { eq, sql } from "drizzle-orm";
import { burstCounters } from "../db/schema";
import type { Db } from "./db";
import { ApiError } from "./errors";
import { type BurstWindow, burstWindowOf } from "./quota";
import { secondsUntil } from "./time";

/**
 * Failed attempts at a secret (operator tokens, passkey sign-ins, invite links) are counted per
 * client address in fixed windows: the burst limit's windows (10 s) and its counters table, under a
 * counter name that says what is counted (`admin-auth:<address>`, `signIn:<address>`; API key ids
 * start with `key_`, so the two never meet).
 */
export const FAILED_ATTEMPTS_PER_WINDOW = 10;

/**
 * The address failures are counted under: CF-Connecting-IP, which Cloudflare's edge sets (a client
 * cannot forge it there); an IPv6 client by its /64, the block one subscriber usually holds, so
 * that walking through it buys no more tries; an IPv4 address (also one written inside IPv6) as it
 * is. Without the header (local dev) every request is the one address `local`.
 */
export function clientAddress(connectingIp: string | undefined): string {
  if (!connectingIp) return "local";
  if (connectingIp.includes(".")) return connectingIp.slice(connectingIp.lastIndexOf(":") + 1);
  const [head = "", tail] = connectingIp.toLowerCase().split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** The failures the counter holds in this window. */
export async function failuresIn(db: Db, counter: string, window: BurstWindow): Promise<number> {
  const [row] = await db.select().from(burstCounters).where(eq(burstCounters.keyId, counter));
  return row?.windowStart === window.start ? row.count : 0;
}

/**
 * Counts one failure in the counter's window, atomically and only while the window holds fewer
 * than `limit` (a new window starts at 1): false when it had no room, so concurrent failures can
 * never count past the limit.
 */
export async function countFailure(db: Db, counter: string, window: BurstWindow, limit: number): Promise<boolean> {
  const sameWindow = sql`${burstCounters.windowStart} = excluded.window_start`;
  const counted = await db
    .insert(burstCounters)
    .values({ keyId: counter, windowStart: window.start, count: 1 })
    .onConflictDoUpdate({
      target: burstCounters.keyId,
      set: {
        count: sql`CASE WHEN ${sameWindow} THEN ${burstCounters.count} + 1 ELSE 1 END`,
        windowStart: window.start,
      },
      setWhere: sql`NOT (${sameWindow}) OR ${burstCounters.count} < ${limit}`,
    })
    .returning({ count: burstCounters.count });
  return counted.length > 0;
}

/** What one kind of attempt is counted under, and what a throttled client is told. */
export interface AttemptRule {
  counter: string;
  /** The 429's message, e.g. "Too many wrong operator tokens from this address". */
  tooMany: string;
  /** Failures a window holds; FAILED_ATTEMPTS_PER_WINDOW unless the counter is a ceiling shared more widely. */
  limit?: number;
}

const throttled = (rule: AttemptRule, window: BurstWindow, now: Date) =>
  new ApiError("rate_limited", `${rule.tooMany}; retry when the window ends.`, {
    retryable: true,
    retryAfterSec: secondsUntil(now, window.end, 1),
    resetAt: window.end.toISOString(),
  });

/** A refusal the client caused (a wrong secret, an unknown or spent link): what the throttle counts. */
const isClientFailure = (error: unknown) => error instanceof ApiError && error.status < 500;

/**
 * Runs `attempt` under the counter's throttle. A window already holding the limit of failures
 * refuses at once (429), right secret or wrong, so the answers tell of no more guesses than the
 * limit. A failed attempt (an ApiError of the client's making) is counted, atomically and only
 * while its window has room: however many fail at once, at most the limit are answered with their
 * own error, every other with the 429. A successful attempt counts nothing, nor does our own
 * failure (a 5xx).
 */
export async function throttledAttempt<T>(db: Db, rule: AttemptRule, attempt: () => Promise<T>, now = new Date()): Promise<T> {
  const window = burstWindowOf(now);
  const limit = rule.limit ?? FAILED_ATTEMPTS_PER_WINDOW;
  if ((await failuresIn(db, rule.counter, window)) >= limit) throw throttled(rule, window, now);
  try {
    return await attempt();
  } catch (error) {
    if (isClientFailure(error) && !(await countFailure(db, rule.counter, window, limit))) {
      throw throttled(rule, window, now);
    }
    throw error;
  }
}

/**
 * Counts one attempt known to count (an anonymous OAuth client registration, which costs storage
 * whether or not it succeeds; a wrong operator token, once the right one was let through): every
 * one counts, at most the limit per window and address, the rest are 429.
 */
export async function countedAttempt(db: Db, rule: AttemptRule, now = new Date()): Promise<void> {
  const window = burstWindowOf(now);
  if (!(await countFailure(db, rule.counter, window, rule.limit ?? FAILED_ATTEMPTS_PER_WINDOW))) throw throttled(rule, window, now);
}
