import { and, asc, count, eq, exists, gt, lt } from "drizzle-orm";
import { passkeys, users } from "../db/schema";
import { type Db, statements } from "../platform/db";
import { ApiError } from "../platform/errors";
import { runConditional } from "../platform/registeredLimits";
import { eventStatement } from "./events";
import { nameOf } from "./keyChanges";

export interface PasskeySummary {
  passkeyId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const ofUser = (userId: string) => eq(passkeys.userId, userId);
const owned = (userId: string, passkeyId: string) => and(eq(passkeys.id, passkeyId), ofUser(userId));

/** The user's passkeys, oldest first (never the public key: nothing on a page needs it). */
export const listPasskeys = (db: Db, userId: string): Promise<PasskeySummary[]> =>
  db
    .select({ passkeyId: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(ofUser(userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));

/** The user's credentials as a registration's excludeCredentials: an authenticator holding one is not registered twice. */
export const credentialDescriptors = (db: Db, userId: string) =>
  db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(ofUser(userId));

/** A passkey by its credential id, with what sign-in checks of its user. */
export async function passkeyByCredential(db: Db, credentialId: string) {
  const [passkey] = await db
    .select({
      id: passkeys.id,
      userId: passkeys.userId,
      publicKey: passkeys.publicKey,
      counter: passkeys.counter,
      suspended: users.suspended,
    })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.id, credentialId));
  return passkey;
}

/**
 * Stores a sign-in's counter and last use, only while the counter moves forward (or stays 0, as
 * with authenticators that keep none): of two sign-ins that passed the check with one counter
 * value (a cloned authenticator), one counts. False when the counter did not move forward.
 */
export async function markPasskeyUsed(db: Db, passkeyId: string, counter: number, at: string): Promise<boolean> {
  const forward = counter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, counter);
  const marked = await db
    .update(passkeys)
    .set({ counter, lastUsedAt: at })
    .where(and(eq(passkeys.id, passkeyId), forward))
    .returning({ id: passkeys.id });
  return marked.length > 0;
}

const passkeyNotFound = () => new ApiError("not_found", "This passkey was not found among yours.", { field: "passkeyId" });

const lastPasskey = () =>
  new ApiError("invalid_input", "A passkey is the only way in: add another before removing this one.", { field: "passkeyId" });

/**
 * Removes one of the user's passkeys, never the last: the batch that deletes it first checks that
 * it is still there and that the user has another, so two removals racing over a user's last two
 * passkeys leave one (the later is told why), and records passkeyRemoved with it.
 */
export async function removePasskey(db: Db, userId: string, passkeyId: string): Promise<void> {
  const [passkey] = await db.select({ name: passkeys.name }).from(passkeys).where(owned(userId, passkeyId));
  if (!passkey) throw passkeyNotFound();
  await runConditional(
    db,
    [
      { holds: exists(statements.select({ id: passkeys.id }).from(passkeys).where(owned(userId, passkeyId))), error: passkeyNotFound },
      { holds: gt(statements.select({ n: count() }).from(passkeys).where(ofUser(userId)), 1), error: lastPasskey },
    ],
    [
      statements.delete(passkeys).where(owned(userId, passkeyId)).getSQL(),
      eventStatement(userId, "passkeyRemoved", { passkeyId, name: passkey.name }),
    ],
  );
}

/** Renames one of the user's passkeys (1 to 100 characters, 400 naming `name`), recording passkeyRenamed; another's or unknown: 404. */
export async function renamePasskey(db: Db, userId: string, passkeyId: string, typed: string): Promise<void> {
  const name = nameOf(typed);
  await runConditional(
    db,
    [{ holds: exists(statements.select({ id: passkeys.id }).from(passkeys).where(owned(userId, passkeyId))), error: passkeyNotFound }],
    [
      statements.update(passkeys).set({ name }).where(owned(userId, passkeyId)).getSQL(),
      eventStatement(userId, "passkeyRenamed", { passkeyId, name }),
    ],
  );
}
