import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createDb } from "../platform/db";
import { clientAddress, countedAttempt, throttledAttempt } from "../platform/failedAttempts";

/** What is counted apart: sign-ins (passkey answers) and invites (links tried). */
export type AttemptBucket = "signIn" | "invite";

const TOO_MANY: Record<AttemptBucket, string> = {
  signIn: "Too many failed sign-ins from this address",
  invite: "Too many failed invite links from this address",
};

/**
 * Runs a sign-in or invite attempt under the per-address throttle of failed attempts (10 per 10 s
 * window, platform/failedAttempts.ts): a refusal the client caused (unknown or used invite, a
 * passkey answer that does not verify, ...) is counted; past the limit every attempt from the
 * address, right or wrong, is a 429 rate_limited with Retry-After until the window ends.
 */
export function guardAttempts<T>(c: Context<AppEnv>, bucket: AttemptBucket, attempt: () => Promise<T>): Promise<T> {
  const counter = `${bucket}:${clientAddress(c.req.header("CF-Connecting-IP"))}`;
  return throttledAttempt(createDb(c.env.DB), { counter, tooMany: TOO_MANY[bucket] }, attempt);
}

/**
 * Holds anonymous OAuth client registrations (each one a stored record) to the same 10 per
 * 10-second window per address: past it, 429 until the window ends.
 */
export function guardRegistration(c: Context<AppEnv>): Promise<void> {
  const counter = `oauthRegister:${clientAddress(c.req.header("CF-Connecting-IP"))}`;
  return countedAttempt(createDb(c.env.DB), { counter, tooMany: "Too many OAuth client registrations from this address" });
}
