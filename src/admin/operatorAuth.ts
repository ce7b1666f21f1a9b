import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { readBearerToken } from "../platform/auth";
import { createDb } from "../platform/db";
import { ApiError } from "../platform/errors";
import { clientAddress, FAILED_ATTEMPTS_PER_WINDOW, throttledAttempt } from "../platform/failedAttempts";
import { constantTimeEqual } from "../platform/hashing";
import { authFailureCounter } from "./queries";

/** Wrong operator tokens one client address may present per fixed window (the burst limit's, 10 s). */
export const OPERATOR_AUTH_FAILURES_PER_WINDOW = FAILED_ATTEMPTS_PER_WINDOW;

const wrongToken = () => new ApiError("unauthorized", "The operator token is wrong or not configured.");

/**
 * The operator API's guard: `Authorization: Bearer <ADMIN_TOKEN>`, with failed attempts throttled
 * per client address (throttledAttempt). A request without a bearer token is a 401 at once (it
 * guesses nothing, and touches no storage). A wrong token is counted, atomically and only while its
 * window has room, so however many arrive at once at most OPERATOR_AUTH_FAILURES_PER_WINDOW are
 * told 401; past that every attempt from the address, right or wrong, is a 429 until the window
 * ends, so its answers tell of no more guesses than that (and one right one). Refused attempts do
 * not extend the window.
 */
export function operatorAuthentication(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.env.ADMIN_TOKEN;
    const presented = readBearerToken(c.req.header("Authorization"));
    if (!expected) throw wrongToken();
    const rule = {
      counter: authFailureCounter(clientAddress(c.req.header("CF-Connecting-IP"))),
      tooMany: "Too many wrong operator tokens from this address",
    };
    await throttledAttempt(createDb(c.env.DB), rule, async () => {
      if (!(await constantTimeEqual(presented, expected))) throw wrongToken();
    });
    return next();
  };
}
