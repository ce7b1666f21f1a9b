import { count, eq } from "drizzle-orm";
import { games, genres, users } from "../db/schema";
import { type AccountingEnv, accountingOf } from "../platform/admission";
import { inJsonArray } from "../platform/columns";
import type { Db } from "../platform/db";
import { newId } from "../platform/ids";
import type { Plan } from "../platform/plans";
import type { AccountChange } from "../platform/userAccounting";

export async function insertUser(db: Db, plan: Plan, name: string | null) {
  const [user] = await db
    .insert(users)
    .values({ id: newId("usr"), plan, name })
    .returning();
  return user!;
}

/**
 * Changes a user's plan or suspension; undefined for an unknown user. The user's accounting object,
 * which admits their calls by what it holds, hears it before D1, so a suspension takes effect at once.
 */
export async function updateUser(accounting: AccountingEnv, db: Db, userId: string, patch: AccountChange) {
  const [known] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!known) return undefined;
  await accountingOf(accounting, userId).changeAccount(patch);
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

/** Every stored genre's place in the taxonomy. */
export const genreTaxonomy = (db: Db) => db.select({ id: genres.id, parentId: genres.parentId, key: genres.taxonomyKey }).from(genres);

/** Which of these genres some game has as its main genre. */
export async function mainGenresAmong(db: Db, genreIds: readonly number[]): Promise<number[]> {
  const rows = await db.selectDistinct({ id: games.genreId }).from(games).where(inJsonArray(games.genreId, genreIds));
  return rows.flatMap((row) => row.id ?? []);
}

/**
 * Failed operator authentications are counted per client address in the fixed-window counters
 * the burst limit keeps per key (platform/failedAttempts.ts); the prefix keeps the two apart (key
 * ids start with `key_`).
 */
export const authFailureCounter = (address: string) => `admin-auth:${address}`;
