import { and, count, eq, exists, not, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { libraryEntries, tagGames, tags } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import { columnList, type Db, isUniqueViolation, queryBatch, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { newRevision } from "../../platform/ids";
import { orderOf, type SortKey } from "../../platform/keyset";
import type { PageWindow } from "../../platform/paging";
import { addWithinLimit, type LimitContext, planCounter } from "../../platform/registeredLimits";
import { differs, touchedIfChanged } from "../../platform/writes";
import { TAG_KEYS, type TagRow, type TagValues } from "./items";

/** The plan limit on tags: counted here, where its rows are written. */
export const TAGS_COUNTER = planCounter("tags", tags, tags.userId);

/** One tag holds at most this many games. */
export const TAG_GAME_LIMIT = 1000;

/** Tags as the tag queries read them (and exportMyData's keyset pages, over `tags t`). */
const t = alias(tags, "t");

const ownTag = (userId: string, tagId: number) => and(eq(tags.id, tagId), eq(tags.userId, userId));
const gameCountOf = (tagId: number | SQLiteColumn) => statements.select({ n: count() }).from(tagGames).where(eq(tagGames.tagId, tagId));

/** A tag's columns and how many games it holds; exportMyData's tags dataset selects it too. */
export const TAG_SELECT = sql`${columnList(t, TAG_KEYS)}, ${gameCountOf(t.id)} AS game_count`;

// raw SQL: TAG_SELECT's rows, keyed by column name as toTag and exportMyData's keyset pages read them
const selectTags = (where: SQL | undefined) => sql`SELECT ${TAG_SELECT} FROM ${tags} ${t} WHERE ${where}`;

export async function findTag(db: Db, userId: string, tagId: number): Promise<TagRow | undefined> {
  const [row] = await db.all<TagRow>(selectTags(and(eq(t.id, tagId), eq(t.userId, userId))));
  return row;
}

/** Oldest first. */
export const TAG_ORDER: SortKey[] = [{ column: t.id, direction: "asc" }];

export async function tagPage(db: Db, userId: string, page: PageWindow) {
  // queryBatch, not db.batch: drizzle's D1 batch runs no raw statement with parameters
  const [rows, [total]] = await queryBatch<[TagRow[], { n: number }[]]>(db, [
    sql`${selectTags(eq(t.userId, userId))} ORDER BY ${orderOf(TAG_ORDER)} LIMIT ${page.limit} OFFSET ${page.offset}`,
    statements
      .select({ n: count().as("n") })
      .from(tags)
      .where(eq(tags.userId, userId))
      .getSQL(),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}

const nameTaken = (name: string) => new ApiError("already_exists", `You already have a tag named '${name}'.`, { field: "name" });

const byName = (userId: string, name: string) => and(eq(tags.userId, userId), eq(tags.name, name));

/** The one INSERT of a tag (addTag, imports); `times` keeps a restored tag's timestamps. */
export const insertTagSql = (userId: string, values: TagValues, now: string, times = { createdAt: now, updatedAt: now }) =>
  statements
    .insert(tags)
    .values({ userId, ...values, revision: newRevision(), ...times })
    .getSQL();

/** A tag's id in SQL, by its (unique) name: what a batch that inserts the tag refers to it by (sql`` parenthesizes the select). */
export const tagIdByNameSql = (userId: string, name: string) =>
  sql`${statements.select({ id: tags.id }).from(tags).where(byName(userId, name))}`;

/** Tags the games of the list that are in the user's library (the others are left out). */
export const tagGamesInsertSql = (userId: string, tagId: number | SQL, gameIds: readonly number[]) =>
  // raw SQL: INSERT OR IGNORE of the rows json_each reads has no builder form
  sql`INSERT OR IGNORE INTO ${tagGames} (tag_id, game_id) SELECT ${tagId}, value FROM json_each(${JSON.stringify(gameIds)})
    WHERE value IN ${statements.select({ gameId: libraryEntries.gameId }).from(libraryEntries).where(eq(libraryEntries.userId, userId))}`;

export async function insertTag(db: Db, limit: LimitContext, values: TagValues, now: string): Promise<number> {
  try {
    await addWithinLimit(db, limit, TAGS_COUNTER, [insertTagSql(limit.userId, values, now)]);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.name);
    throw error;
  }
  const row = await db.select({ id: tags.id }).from(tags).where(byName(limit.userId, values.name)).get();
  return row!.id;
}

export const revisionConflict = () =>
  new ApiError("revision_conflict", "The tag changed since that revision; read it again and resend.", { field: "revision" });

/** Patches the tag; with `expected`, only while its revision still is that. Changing nothing keeps revision and updatedAt. */
export async function patchTag(
  db: Db,
  userId: string,
  tagId: number,
  changes: Partial<TagValues>,
  expected: string | undefined,
  now: string,
) {
  const changed = differs((Object.keys(changes) as (keyof TagValues)[]).map((key) => [tags[key], changes[key]] as const));
  try {
    const result = await db
      .update(tags)
      .set({ ...changes, ...touchedIfChanged(tags, changed, now, newRevision()) })
      .where(and(ownTag(userId, tagId), expected === undefined ? undefined : eq(tags.revision, expected)));
    // Changed or removed since the handler read it: a removed tag is a 404, as for every update.
    if (result.meta.changes === 0) throw (await findTag(db, userId, tagId)) ? revisionConflict() : notFound(`Your tag ${tagId}`);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(String(changes.name));
    throw error;
  }
}

/** How many of these games the tag holds already. */
export const countTagged = (db: Db, tagId: number, gameIds: readonly number[]) =>
  db.$count(tagGames, and(eq(tagGames.tagId, tagId), inJsonArray(tagGames.gameId, gameIds)));

const inLibrary = (userId: string, gameIds: readonly number[]) =>
  and(eq(libraryEntries.userId, userId), inJsonArray(libraryEntries.gameId, gameIds));

/** 404 naming the first of updateTagGames' gameIds that is not in the user's library. */
export async function checkOwned(db: Db, userId: string, gameIds: readonly number[]) {
  const rows = await db.select({ gameId: libraryEntries.gameId }).from(libraryEntries).where(inLibrary(userId, gameIds));
  const owned = new Set(rows.map((row) => row.gameId));
  const index = gameIds.findIndex((id) => !owned.has(id));
  if (index >= 0) throw notFound(`gameIds[${index}]: game ${gameIds[index]} in your library`);
}

/**
 * True (in SQL) while the user's tag exists, with this revision when one is given (the guards of
 * updateTagGames and of a TAG collection's write). Written as EXISTS, never NULL: a comparison with
 * the revision of a removed tag would be NULL, which a guard reads as "still holds".
 */
export const tagStillThereSql = (userId: string, tagId: number, revision?: string) =>
  exists(
    statements
      .select({ one: sql`1` })
      .from(tags)
      .where(and(ownTag(userId, tagId), revision === undefined ? undefined : eq(tags.revision, revision))),
  );

/** True (in SQL) while the tag holds no more games than TAG_GAME_LIMIT (updateTagGames' guard, after its writes). */
export const tagWithinLimitSql = (tagId: number) => sql`${gameCountOf(tagId)} <= ${TAG_GAME_LIMIT}`;

const deleteTagGamesSql = (which: SQL | undefined) => statements.delete(tagGames).where(which).getSQL();

/**
 * The statements that change the tag's games (the caller's batch checks the revision, ownership
 * and the size limit around them). Only games still in the library are inserted, and the tag's
 * revision and updatedAt move only when its set of games really changes (compared before it does).
 */
export function tagGamesStatements(
  userId: string,
  tagId: number,
  mode: "add" | "remove" | "replace",
  gameIds: readonly number[],
  now: string,
): SQL[] {
  const ofTag = eq(tagGames.tagId, tagId);
  const tagged = statements.select({ gameId: tagGames.gameId }).from(tagGames).where(ofTag);
  // raw SQL: reads the list through json_each
  const adds = sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(gameIds)}) WHERE value NOT IN ${tagged})`;
  const drops = (kept: SQL) => exists(statements.select({ one: sql`1` }).from(tagGames).where(and(ofTag, kept)));
  const inIds = inJsonArray(tagGames.gameId, gameIds);
  const changed = mode === "add" ? adds : mode === "remove" ? drops(inIds) : sql`(${adds} OR ${drops(not(inIds))})`;
  const change: SQL[] =
    mode === "remove"
      ? [deleteTagGamesSql(and(ofTag, inIds))]
      : [...(mode === "replace" ? [deleteTagGamesSql(ofTag)] : []), tagGamesInsertSql(userId, tagId, gameIds)];
  return [
    statements
      .update(tags)
      .set(touchedIfChanged(tags, changed, now, newRevision()))
      .where(ownTag(userId, tagId))
      .getSQL(),
    ...change,
  ];
}

/** The user's tags that have one of these names (a restore knows a tag by its name). */
export const tagsNamed = (db: Db, userId: string, names: readonly string[]) =>
  db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(and(eq(tags.userId, userId), inJsonArray(tags.name, names)));

/** The user's own tags among these ids: another user's tag id is simply none of them. */
const ownTagsAmong = (userId: string, tagIds: readonly number[]) => and(eq(tags.userId, userId), inJsonArray(tags.id, tagIds));

/** True (in SQL) when the game (a list's gameId column) carries any of the user's tags among these ids. */
export const taggedWithAny = (userId: string, tagIds: readonly number[], gameId: SQLiteColumn): SQL =>
  sql`${gameId} IN ${statements
    .select({ gameId: tagGames.gameId })
    .from(tagGames)
    .innerJoin(tags, eq(tags.id, tagGames.tagId))
    .where(ownTagsAmong(userId, tagIds))}`;

export interface GameTag {
  tagId: number;
  name: string;
}

/** The user's tags of each of these games, by name. */
export async function tagsOfGames(db: Db, userId: string, gameIds: readonly number[]): Promise<Map<number, GameTag[]>> {
  const byGame = new Map<number, GameTag[]>();
  if (gameIds.length === 0) return byGame;
  const rows = await db
    .select({ gameId: tagGames.gameId, tagId: tags.id, name: tags.name })
    .from(tagGames)
    .innerJoin(tags, eq(tags.id, tagGames.tagId))
    .where(and(eq(tags.userId, userId), inJsonArray(tagGames.gameId, gameIds)))
    .orderBy(tags.name, tags.id);
  for (const { gameId, ...tag } of rows) byGame.set(gameId, [...(byGame.get(gameId) ?? []), tag]);
  return byGame;
}
