import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { readBearerToken } from "../platform/auth";
import { createDb } from "../platform/db";
import { ApiError } from "../platform/errors";
import { constantTimeEqual } from "../platform/hashing";
import { type BurstWindow, burstWindowOf } from "../platform/quota";
import { secondsUntil } from "../platform/time";
import { authFailuresIn, countAuthFailure } from "./queries";

/** Wrong operator tokens one client address may present per fixed window (the burst limit's, 10 s). */
export const OPERATOR_AUTH_FAILURES_PER_WINDOW = 10;

const wrongToken = () => new ApiError("unauthorized", "The operator token is wrong or not configured.");

const throttled = (window: BurstWindow, now: Date) =>
  new ApiError("rate_limited", "Too many wrong operator tokens from this address; retry when the window ends.", {
    retryable: true,
    retryAfterSec: secondsUntil(now, window.end, 1),
    resetAt: window.end.toISOString(),
  });

/**
 * The address failures are counted under: CF-Connecting-IP, which Cloudflare's edge sets (a client
 * cannot forge it there); an IPv6 client by its /64, the block one subscriber usually holds, so
 * that walking through it buys no more tries; an IPv4 address (also one written inside IPv6) as it
 * is. Without the header (local dev) every request is the one address `local`.
 */
function clientAddress(connectingIp: string | undefined): string {
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

/**
 * The operator API's guard: `Authorization: Bearer <ADMIN_TOKEN>`, with failed attempts throttled
 * per client address. A request without a bearer token is a 401 at once (it guesses nothing, and
 * touches no storage). A wrong token is counted, atomically and only while its window has room, so
 * however many arrive at once at most OPERATOR_AUTH_FAILURES_PER_WINDOW are told 401; past that
 * every attempt from the address, right or wrong, is a 429 until the window ends, so its answers
 * tell of no more guesses than that (and one right one). Refused attempts do not extend the window.
 */
export function operatorAuthentication(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.env.ADMIN_TOKEN;
    const presented = readBearerToken(c.req.header("Authorization"));
    if (!expected) throw wrongToken();
    const db = createDb(c.env.DB);
    const address = clientAddress(c.req.header("CF-Connecting-IP"));
    const now = new Date();
    const window = burstWindowOf(now);
    if (await constantTimeEqual(presented, expected)) {
      if ((await authFailuresIn(db, address, window)) >= OPERATOR_AUTH_FAILURES_PER_WINDOW) throw throttled(window, now);
      return next();
    }
    if (!(await countAuthFailure(db, address, window, OPERATOR_AUTH_FAILURES_PER_WINDOW))) throw throttled(window, now);
    throw wrongToken();
  };
}
