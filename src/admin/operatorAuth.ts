import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { readBearerToken } from "../platform/auth";
import { createDb } from "../platform/db";
import { ApiError } from "../platform/errors";
import { clientAddress, countedAttempt, FAILED_ATTEMPTS_PER_WINDOW } from "../platform/failedAttempts";
import { constantTimeEqual } from "../platform/hashing";
import { authFailureCounter } from "./queries";

/** Wrong operator tokens one client address may present per fixed window (the burst limit's, 10 s). */
export const OPERATOR_AUTH_FAILURES_PER_WINDOW = FAILED_ATTEMPTS_PER_WINDOW;

const wrongToken = () => new ApiError("unauthorized", "The operator token is wrong or not configured.");

/**
 * The operator API's guard: `Authorization: Bearer <ADMIN_TOKEN>`. The right token always goes
 * through, however many wrong ones came from the same address (a script's typo, or a neighbour
 * behind the same NAT, must not lock the operator out). Only wrong tokens are throttled, per
 * client address: each is counted, atomically and only while its window has room, so however many
 * arrive at once at most OPERATOR_AUTH_FAILURES_PER_WINDOW are told 401 and every other wrong one
 * a 429 until the window ends. Guessing is held by the token's length (docs/operating.md), the
 * throttle keeps a guesser's answers and storage cost per address bounded. A request without a
 * bearer token is a 401 at once (it guesses nothing, and touches no storage).
 */
export function operatorAuthentication(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.env.ADMIN_TOKEN;
    const presented = readBearerToken(c.req.header("Authorization"));
    if (!expected) throw wrongToken();
    if (await constantTimeEqual(presented, expected)) return next();
    await countedAttempt(createDb(c.env.DB), {
      counter: authFailureCounter(clientAddress(c.req.header("CF-Connecting-IP"))),
      tooMany: "Too many wrong operator tokens from this address",
    });
    throw wrongToken();
  };
}
