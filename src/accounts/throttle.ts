import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createDb } from "../platform/db";
import { clientAddress, countedAttempt, FAILED_ATTEMPTS_PER_WINDOW, throttledAttempt } from "../platform/failedAttempts";
import { hashToken } from "./tokens";

/** What is counted apart: sign-ins (passkey answers) and invites (links tried). */
export type AttemptBucket = "signIn" | "invite";

const TOO_MANY: Record<AttemptBucket, string> = {
  signIn: "Too many failed sign-ins from this address",
  invite: "Too many failed invite links from this address",
};

/**
 * One address is often many people and programs (an office or carrier NAT, a hosted assistant's
 * cloud), so each limit is counted per address and software, and the address as a whole has a
 * higher ceiling: one abuser is held by the first, a crowd behind one address by the second only.
 */
export const ADDRESS_CEILING = 60;
/** Client registrations per address and software (its software_id or client_name) in a window. */
export const REGISTRATIONS_PER_SOFTWARE = 20;

/** A short, fixed-length name of a software's self-description (a user agent, a client name) for a counter. */
const softwareKey = async (description: string) => (await hashToken(description)).slice(0, 16);

const addressOf = (c: Context<AppEnv>) => clientAddress(c.req.header("CF-Connecting-IP"));

/**
 * Runs a sign-in or invite attempt under the throttles of failed attempts (platform/failedAttempts.ts):
 * 10 per 10 s window per address and user agent, ADDRESS_CEILING per address. A refusal the client
 * caused (unknown or used invite, a passkey answer that does not verify, ...) is counted; past a
 * limit every attempt it covers, right or wrong, is a 429 rate_limited with Retry-After until the
 * window ends.
 */
export async function guardAttempts<T>(c: Context<AppEnv>, bucket: AttemptBucket, attempt: () => Promise<T>): Promise<T> {
  const db = createDb(c.env.DB);
  const address = `${bucket}:${addressOf(c)}`;
  const agent = `${address}:${await softwareKey(c.req.header("User-Agent") ?? "")}`;
  const tooMany = TOO_MANY[bucket];
  return throttledAttempt(db, { counter: address, tooMany, limit: ADDRESS_CEILING }, () =>
    throttledAttempt(db, { counter: agent, tooMany, limit: FAILED_ATTEMPTS_PER_WINDOW }, attempt),
  );
}

/**
 * Holds anonymous OAuth client registrations (each one a stored record): REGISTRATIONS_PER_SOFTWARE
 * per 10-second window per address and software, ADDRESS_CEILING per address; past either, 429
 * until the window ends. Hosted assistants need none: they name themselves by a Client ID Metadata
 * Document.
 */
export async function guardRegistration(c: Context<AppEnv>, software: string): Promise<void> {
  const db = createDb(c.env.DB);
  const address = `oauthRegister:${addressOf(c)}`;
  await countedAttempt(db, { counter: address, tooMany: "Too many OAuth client registrations from this address", limit: ADDRESS_CEILING });
  await countedAttempt(db, {
    counter: `${address}:${await softwareKey(software)}`,
    tooMany: "Too many OAuth client registrations of this software from this address",
    limit: REGISTRATIONS_PER_SOFTWARE,
  });
}
