import { and, eq, exists, isNull, sql } from "drizzle-orm";
import { apiKeys } from "../db/schema";
import type { AccountingEnv } from "../platform/admission";
import { issueApiKey, keyIsLive } from "../platform/auth";
import { type Db, statements } from "../platform/db";
import { invalidInput, notFound } from "../platform/errors";
import type { Scope } from "../platform/plans";
import { runConditional } from "../platform/registeredLimits";
import { dayAfter, dayIn, nowIso, startOfDayIn } from "../platform/time";
import { type IssuedKeyAnswer, keyDetail, revokeKeysOf } from "./apiKeys";
import { eventStatement } from "./events";

/** A name given to a key or a passkey: what the create forms allow too. */
export const NAME_MAX = 100;

/** The furthest expiry a person may choose: a year from today. */
const MAX_EXPIRY_DAYS = 365;

/** A name as stored: trimmed, 1 to 100 characters; anything else a 400 naming `name`. */
export function nameOf(typed: string): string {
  const name = typed.trim();
  if (name.length === 0 || name.length > NAME_MAX) throw invalidInput("name", `name: give a name of 1 to ${NAME_MAX} characters.`);
  return name;
}

/**
 * The expiry of a key that works through `day` (YYYY-MM-DD) in the account's time zone: the
 * instant the next day begins there. The day must be from tomorrow to a year from today (there),
 * else a 400 naming `expiresOn`.
 */
export function expiryOnDay(day: string, timeZone: string, now: Date): string {
  const today = dayIn(now, timeZone);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && dayAfter(day, 0) === day;
  if (!valid || day <= today || day > dayAfter(today, MAX_EXPIRY_DAYS)) {
    throw invalidInput(
      "expiresOn",
      `expiresOn: choose a date from ${dayAfter(today)} to ${dayAfter(today, MAX_EXPIRY_DAYS)} (YYYY-MM-DD).`,
    );
  }
  return startOfDayIn(dayAfter(day), timeZone).toISOString();
}

/** One of the user's live keys made as a key (not an assistant's, whose secret nobody holds). */
const liveKeyOf = (userId: string, keyId: string) =>
  and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.oauthClientId), keyIsLive(apiKeys.revokedAt, apiKeys.expiresAt))!;

const activeKeyGone = () => notFound("The active key");

/**
 * Rolls one of the user's live keys: a new secret with the same name, scopes and expiry, the old
 * key revoked in the same batch, which first checks the old key is still live; so of two rolls at
 * once one makes a key and the other is told 404. The accounting object refuses the old key first
 * (revokeKeysOf). Not counted against the key limit: it ends one live key as it adds one.
 */
export async function rollKey(accounting: AccountingEnv, db: Db, userId: string, keyId: string): Promise<IssuedKeyAnswer> {
  const live = liveKeyOf(userId, keyId);
  const [key] = await db
    .select({ name: apiKeys.name, scopes: apiKeys.scopes, expiresAt: apiKeys.expiresAt, displayPrefix: apiKeys.displayPrefix })
    .from(apiKeys)
    .where(live);
  if (!key) throw activeKeyGone();
  const issued = await issueApiKey();
  const scopes = key.scopes as Scope[];
  const now = nowIso();
  const insert = statements
    .insert(apiKeys)
    .values({
      id: issued.keyId,
      userId,
      name: key.name,
      displayPrefix: issued.displayPrefix,
      keyHash: issued.keyHash,
      scopes,
      createdAt: now,
      expiresAt: key.expiresAt,
    })
    .getSQL();
  const rolled = eventStatement(userId, "keyRolled", { ...keyDetail(issued.keyId, issued.displayPrefix, key.name), replaced: keyId });
  const stillLive = exists(statements.select({ one: sql`1` }).from(apiKeys).where(live));
  await revokeKeysOf(accounting, db, userId, eq(apiKeys.id, keyId), now, (revoking) =>
    runConditional(db, [{ holds: stillLive, error: activeKeyGone }], [insert, revoking, rolled]),
  );
  return { keyId: issued.keyId, apiKey: issued.apiKey, scopes, expiresAt: key.expiresAt };
}

/** Renames one of the user's keys made as keys (revoked ones too: the list still shows them); another's or unknown: 404. */
export async function renameKey(db: Db, userId: string, keyId: string, typed: string): Promise<void> {
  const name = nameOf(typed);
  const mine = and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.oauthClientId))!;
  const [key] = await db.select({ displayPrefix: apiKeys.displayPrefix }).from(apiKeys).where(mine);
  if (!key) throw notFound("The key");
  await runConditional(
    db,
    [{ holds: exists(statements.select({ one: sql`1` }).from(apiKeys).where(mine)), error: () => notFound("The key") }],
    [
      statements.update(apiKeys).set({ name }).where(mine).getSQL(),
      eventStatement(userId, "keyRenamed", keyDetail(keyId, key.displayPrefix, name)),
    ],
  );
}
