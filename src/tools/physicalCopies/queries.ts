import { and, asc, eq, exists, type SQL, sql } from "drizzle-orm";
import { libraryEntries, physicalCopies } from "../../db/schema";
import { type Db, statements } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { newRevision } from "../../platform/ids";
import { placeKey } from "../../platform/normalize";
import { runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { notInLibrary } from "../library/queries";
import type { CopyRow, CopyValues, NewCopy } from "./items";

const copiesOf = (userId: string, gameId: number) => and(eq(physicalCopies.userId, userId), eq(physicalCopies.gameId, gameId));
const ownCopy = (userId: string, physicalId: string) => and(eq(physicalCopies.userId, userId), eq(physicalCopies.id, physicalId));
const entryOf = (userId: string, gameId: number) => and(eq(libraryEntries.userId, userId), eq(libraryEntries.gameId, gameId));

/** The copies of one game, oldest first (rowid keeps the order of copies created in one call). */
export async function listCopies(db: Db, userId: string, gameId: number): Promise<CopyRow[]> {
  // raw SQL: rowid is no schema column
  const insertionOrder = sql`rowid`;
  return db.select().from(physicalCopies).where(copiesOf(userId, gameId)).orderBy(asc(physicalCopies.createdAt), insertionOrder);
}

export async function findCopy(db: Db, userId: string, physicalId: string): Promise<CopyRow | undefined> {
  return db.select().from(physicalCopies).where(ownCopy(userId, physicalId)).get();
}

export const insertCopySql = (userId: string, gameId: number, copy: NewCopy, now: string) =>
  statements
    .insert(physicalCopies)
    .values({ ...copy, userId, gameId, editionKind: "base", createdAt: now, updatedAt: now })
    .getSQL();

export const updateCopySql = (userId: string, physicalId: string, values: CopyValues, now: string) =>
  statements
    .update(physicalCopies)
    .set({ ...values, updatedAt: now })
    .where(ownCopy(userId, physicalId))
    .getSQL();

/** Makes one copy (or none, with null) the representative of its game. */
export const setActiveSql = (userId: string, gameId: number, physicalId: string | null) =>
  statements
    .update(physicalCopies)
    .set({ isActive: sql`(${physicalCopies.id} = ${physicalId})` })
    .where(copiesOf(userId, gameId))
    .getSQL();

export const deleteCopySql = (userId: string, physicalId: string) =>
  statements.delete(physicalCopies).where(ownCopy(userId, physicalId)).getSQL();

/**
 * The library entry's revision is the whole game's revision: every copy write moves it. With
 * `sync`, the entry takes the representative copy's purchase data, rating, memo and attributes.
 */
export function touchLibrarySql(userId: string, gameId: number, revision: string, now: string, sync?: CopyValues): SQL {
  const { quantity: _, ...synced } = sync ?? {};
  return statements
    .update(libraryEntries)
    .set({ ...synced, ...(sync ? { buyPlaceKey: placeKey(sync.buyPlace), updatedAt: now } : {}), revision })
    .where(entryOf(userId, gameId))
    .getSQL();
}

export const revisionConflict = () =>
  new ApiError("revision_conflict", "The game's copies changed since that revision; read getPhysicalCopies again and resend.", {
    field: "revision",
  });

/**
 * Runs a copy write as one batch that only commits while the library entry still has the
 * revision the caller read and every other condition holds (the attributes the call names); returns
 * the entry's new revision. A broken batch is 404 when the game left the library meanwhile, 409 when
 * the game's copies changed, else the condition's error.
 */
export async function writeCopies(
  db: Db,
  target: { userId: string; gameId: number; expectedRevision: string },
  writes: SQL[],
  touch: { now: string; sync?: CopyValues },
  conditions: WriteCondition[] = [],
): Promise<string> {
  const revision = newRevision();
  const { userId, gameId, expectedRevision } = target;
  const entry = (also?: SQL) =>
    exists(
      statements
        .select({ one: sql`1` })
        .from(libraryEntries)
        .where(and(entryOf(userId, gameId), also)),
    );
  await runConditional(
    db,
    [
      { holds: entry(), error: () => notInLibrary(gameId) },
      { holds: entry(eq(libraryEntries.revision, expectedRevision)), error: revisionConflict },
      ...conditions,
    ],
    [...writes, touchLibrarySql(userId, gameId, revision, touch.now, touch.sync)],
  );
  return revision;
}
