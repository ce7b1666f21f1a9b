import { and, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { collections, consoles, games, importIdMap, libraryEntries, playLogs, playRecords, tags, wishlistEntries } from "../../db/schema";
import { inJsonArray, visibleToUser } from "../../platform/columns";
import { type Db, guardStatement, statements } from "../../platform/db";
import { CUSTOM_ID_BASE } from "../../platform/schemas";
import type { Decisions, RestoreContext } from "./decisions";

/**
 * What a restore reads before it decides its rows: which records are here already, and the ids
 * earlier restores re-issued (import_id_map: a restored record gets a new id, and later files of
 * the same export find it through the old one).
 */

/** Ids re-issued by earlier restores of this user: old id (as in the file) -> new id. */
export async function idMap(db: Db, userId: string, kind: string, oldIds: readonly string[]): Promise<Map<string, string>> {
  if (oldIds.length === 0) return new Map();
  const rows = await db
    .select({ oldId: importIdMap.oldId, newId: importIdMap.newId })
    .from(importIdMap)
    .where(and(eq(importIdMap.userId, userId), eq(importIdMap.kind, kind), inJsonArray(importIdMap.oldId, oldIds)));
  return new Map(rows.map((r) => [r.oldId, r.newId]));
}

/** Records a re-issued id; `newIdValue` may be SQL (a tag's id is known only once it is inserted). */
export const mapSql = (userId: string, kind: string, oldId: string, newIdValue: string | SQL) =>
  statements
    .insert(importIdMap)
    .values({ userId, kind, oldId, newId: newIdValue })
    .onConflictDoUpdate({
      target: [importIdMap.userId, importIdMap.kind, importIdMap.oldId],
      set: { newId: sql`excluded.${sql.identifier(importIdMap.newId.name)}` },
    })
    .getSQL();

/** Forgets the ids re-issued for these kinds of record (a replace import removes the records they led to). */
export const forgetIdsSql = (userId: string, kinds: readonly string[]) =>
  statements
    .delete(importIdMap)
    .where(and(eq(importIdMap.userId, userId), inArray(importIdMap.kind, kinds)))
    .getSQL();

/** The ids among `ids` the user can see (official games and their own custom games). */
export async function visibleGames(db: Db, userId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: games.id })
    .from(games)
    .where(and(inJsonArray(games.id, ids), visibleToUser(games.ownerUserId, userId)));
  return new Set(rows.map((r) => r.id));
}

/** Which of `values` stand in `column` of the user's rows (whose owner column is `owner`; `also` narrows them). */
export async function held<T extends string | number>(
  db: Db,
  owner: SQLiteColumn,
  userId: string,
  column: SQLiteColumn,
  values: readonly T[],
  also?: SQL,
): Promise<Set<T>> {
  const rows = await db
    .select({ value: column })
    .from(column.table)
    .where(and(eq(owner, userId), inJsonArray(column, values), also));
  return new Set(rows.map((row) => row.value as T));
}

/** Which of the games are in the user's library. */
export const inLibrary = (db: Db, userId: string, gameIds: readonly number[]) =>
  held(db, libraryEntries.userId, userId, libraryEntries.gameId, gameIds);

/** Which of the games are on the user's wishlist. */
export const onWishlist = (db: Db, userId: string, gameIds: readonly number[]) =>
  held(db, wishlistEntries.userId, userId, wishlistEntries.gameId, gameIds);

/** Which of the games have a current (latest) play record of the user. */
export const withLatestPlay = (db: Db, userId: string, gameIds: readonly number[]) =>
  held(db, playRecords.userId, userId, playRecords.gameId, gameIds, eq(playRecords.isLatest, true));

/** Games (distinct) that must still be in the user's library when the batch runs (a removal racing the restore or updateTagGames breaks it). */
export const allOwnedGuard = (userId: string, gameIds: readonly number[]) =>
  guardStatement(
    sql`${statements
      .select({ n: count() })
      .from(libraryEntries)
      .where(and(eq(libraryEntries.userId, userId), inJsonArray(libraryEntries.gameId, gameIds)))} = ${gameIds.length}`,
  );

/** Custom game ids of another account are mapped through earlier customGames restores; official ids are kept. */
export async function mappedGameIds(ctx: RestoreContext, ids: readonly number[]): Promise<Map<number, number>> {
  const custom = ids.filter((id) => id >= CUSTOM_ID_BASE).map(String);
  const mapped = await idMap(ctx.db, ctx.userId, "game", custom);
  return new Map(ids.map((id) => [id, Number(mapped.get(String(id)) ?? id)]));
}

/** A dataset's rows in this account: its handles, the time written, and the rows' game ids mapped (with the distinct targets). */
export async function rowsContext(ctx: RestoreContext, fileGameIds: readonly number[]) {
  const gameIds = await mappedGameIds(ctx, fileGameIds);
  return { db: ctx.db, userId: ctx.userId, now: ctx.now.toISOString(), gameIds, targets: [...new Set(gameIds.values())] };
}

/** rowsContext for rows of games, with which of their games this account can see and which its library holds. */
export async function gameRowsContext(ctx: RestoreContext, fileGameIds: readonly number[]) {
  const rows = await rowsContext(ctx, fileGameIds);
  const [visible, owned] = await Promise.all([
    visibleGames(rows.db, rows.userId, rows.targets),
    inLibrary(rows.db, rows.userId, rows.targets),
  ]);
  return { ...rows, visible, owned };
}

/** Reports a row whose game this account cannot see (not there, or another user's custom game); true when it did. */
export function unseenGame(d: Decisions, r: number, fileGameId: number, visible: ReadonlySet<number>, gameId: number): boolean {
  if (visible.has(gameId)) return false;
  d.fail(r, "gameId", "not_found", `Game ${fileGameId} does not exist here (or is another user's custom game).`);
  return true;
}

/** A record a restore gives a new id to (import_id_map kind), its id and owner columns, and how a stored id reads back. */
export interface RestorableRecord<T extends string | number> {
  kind: string;
  id: SQLiteColumn;
  owner: SQLiteColumn;
  asId: (reissued: string) => T;
}

const restorable = <T extends string | number>(kind: string, id: SQLiteColumn, owner: SQLiteColumn, asId: (reissued: string) => T) => ({
  kind,
  id,
  owner,
  asId,
});

/** The records a restore re-issues ids for, by their import_id_map kind. */
export const REISSUED = {
  game: restorable("game", games.id, games.ownerUserId, Number),
  console: restorable("console", consoles.id, consoles.userId, String),
  tag: restorable("tag", tags.id, tags.userId, Number),
  collection: restorable("collection", collections.id, collections.userId, String),
  play: restorable("play", playRecords.id, playRecords.userId, String),
  log: restorable("log", playLogs.id, playLogs.userId, String),
};

/**
 * The records a file's rows name, each as its id here (the one an earlier restore re-issued for
 * it, else the file's own), and which of those ids are the user's records.
 */
export async function referencedIds<T extends string | number>(
  { db, userId }: RestoreContext,
  record: RestorableRecord<T>,
  fileIds: readonly T[],
) {
  const reissued = await idMap(db, userId, record.kind, fileIds.map(String));
  const here = await held(db, record.owner, userId, record.id, [...fileIds, ...[...reissued.values()].map(record.asId)]);
  const idOf = (fileId: T) => {
    const again = reissued.get(String(fileId));
    return again === undefined ? fileId : record.asId(again);
  };
  return { idOf, here };
}

/**
 * Which of a file's record ids are here already: the account's own, one whose re-issued id (from
 * an earlier restore) still exists, or one this batch adds (add).
 */
export async function restoredIds<T extends string | number>(ctx: RestoreContext, record: RestorableRecord<T>, fileIds: readonly T[]) {
  const { idOf, here } = await referencedIds(ctx, record, fileIds);
  const added = new Set<T>();
  return {
    has: (fileId: T) => here.has(fileId) || here.has(idOf(fileId)) || added.has(fileId),
    add: (fileId: T) => added.add(fileId),
  };
}
