import { and, count, eq, isNull, sql } from "drizzle-orm";
import { apiKeys, burstCounters, games, genres, users } from "../db/schema";
import { API_KEYS_COUNTER, issueApiKey } from "../platform/auth";
import { inJsonArray } from "../platform/columns";
import type { Db } from "../platform/db";
import { newId } from "../platform/ids";
import type { Plan, Scope } from "../platform/plans";
import type { BurstWindow } from "../platform/quota";
import { addWithinLimit, type LimitContext } from "../platform/registeredLimits";
import { nowIso } from "../platform/time";

export async function insertUser(db: Db, plan: Plan, name: string | null) {
  const [user] = await db
    .insert(users)
    .values({ id: newId("usr"), plan, name })
    .returning();
  return user!;
}

export async function updateUser(db: Db, userId: string, patch: { plan?: Plan; suspended?: boolean }) {
  const [user] = await db.update(users).set(patch).where(eq(users.id, userId)).returning();
  return user;
}

export async function listUsers(db: Db, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(users).orderBy(users.createdAt, users.id).limit(limit).offset(offset),
    db.select({ n: count() }).from(users),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}

/** Issues a key unless the user already has as many active keys as their plan allows. */
export async function insertApiKey(db: Db, limit: LimitContext, scopes: readonly Scope[], name: string | null) {
  const issued = await issueApiKey();
  await addWithinLimit(db, limit, API_KEYS_COUNTER, [
    db
      .insert(apiKeys)
      .values({
        id: issued.keyId,
        userId: limit.userId,
        name,
        displayPrefix: issued.displayPrefix,
        keyHash: issued.keyHash,
        scopes: [...scopes],
        createdAt: nowIso(),
      })
      .getSQL(),
  ]);
  return issued;
}

/** Marks the key revoked; authentication reads D1 on every call, so it stops working at once. */
export async function revokeApiKey(db: Db, keyId: string) {
  const [key] = await db
    .update(apiKeys)
    .set({ revokedAt: nowIso() })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ keyId: apiKeys.id, revokedAt: apiKeys.revokedAt });
  return key;
}

/** Every stored genre's place in the taxonomy. */
export const genreTaxonomy = (db: Db) => db.select({ id: genres.id, parentId: genres.parentId, key: genres.taxonomyKey }).from(genres);

/** Which of these genres some game has as its main genre. */
export async function mainGenresAmong(db: Db, genreIds: readonly number[]): Promise<number[]> {
  const rows = await db.selectDistinct({ id: games.genreId }).from(games).where(inJsonArray(games.genreId, genreIds));
  return rows.flatMap((row) => row.id ?? []);
}

/**
 * Failed operator authentications are counted per client address in the fixed-window counters
 * the burst limit keeps per key; the prefix keeps the two apart (key ids start with `key_`).
 */
const authFailureCounter = (address: string) => `admin-auth:${address}`;

/** The failures the address has in this window. */
export async function authFailuresIn(db: Db, address: string, window: BurstWindow): Promise<number> {
  const [row] = await db
    .select()
    .from(burstCounters)
    .where(eq(burstCounters.keyId, authFailureCounter(address)));
  return row?.windowStart === window.start ? row.count : 0;
}

/**
 * Counts one failure in the address's window, atomically and only while the window holds fewer
 * than `limit` (a new window starts at 1): false when it had no room, so concurrent failures can
 * never count past the limit.
 */
export async function countAuthFailure(db: Db, address: string, window: BurstWindow, limit: number): Promise<boolean> {
  const sameWindow = sql`${burstCounters.windowStart} = excluded.window_start`;
  const counted = await db
    .insert(burstCounters)
    .values({ keyId: authFailureCounter(address), windowStart: window.start, count: 1 })
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
