import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { tags } from "../../db/schema";
import { type Db, isUniqueViolation, queryBatch } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { newRevision } from "../../platform/ids";
import { orderOf, type SortKey } from "../../platform/keyset";
import { addWithinLimit, type LimitContext, planCounter } from "../../platform/registeredLimits";
import { nameText, text } from "../../platform/schemas";
import { differs, touchIfChanged } from "../../platform/writes";

/** The plan limit on tags: counted here, where its rows are written. */
export const TAGS_COUNTER = planCounter("tags", tags, tags.userId);

/** One tag holds at most this many games. */
export const TAG_GAME_LIMIT = 1000;

export const tagFieldArgs = {
  name: nameText(30).describe("Unique among your tags."),
  nameKana: text(60).nullable(),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "must be #rrggbb")
    .describe("#rrggbb."),
  description: text(500).nullable(),
};

export const tagSchema = z
  .object({
    tagId: z.number().int(),
    name: z.string(),
    nameKana: z.string().nullable(),
    gameCount: z.number().int(),
    revision: z.string().describe("Send it back to updateTag and updateTagGames."),
    description: z.string().nullable(),
    color: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: "Tag" });

export interface TagRow {
  id: number;
  name: string;
  name_kana: string | null;
  color: string | null;
  description: string | null;
  revision: string;
  updated_at: string;
  game_count: number;
}

export const toTag = (row: TagRow) => ({
  tagId: row.id,
  name: row.name,
  nameKana: row.name_kana,
  gameCount: row.game_count,
  revision: row.revision,
  description: row.description,
  color: row.color,
  updatedAt: row.updated_at,
});

export const TAG_SELECT = sql.raw("t.*, (SELECT COUNT(*) FROM tag_games tg WHERE tg.tag_id = t.id) AS game_count");

export async function findTag(db: Db, userId: string, tagId: number): Promise<TagRow | undefined> {
  const [row] = await db.all<TagRow>(sql`SELECT ${TAG_SELECT} FROM tags t WHERE t.id = ${tagId} AND t.user_id = ${userId}`);
  return row;
}

/** Oldest first. */
export const TAG_ORDER: SortKey[] = [{ column: "t.id", direction: "asc" }];

export async function tagPage(db: Db, userId: string, page: { limit: number; offset: number }) {
  const [rows, total] = await queryBatch<[TagRow[], { n: number }[]]>(db, [
    sql`SELECT ${TAG_SELECT} FROM tags t WHERE t.user_id = ${userId} ORDER BY ${orderOf(TAG_ORDER)} LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT COUNT(*) AS n FROM tags WHERE user_id = ${userId}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}

const nameTaken = (name: string) => new ApiError("already_exists", `You already have a tag named '${name}'.`, { field: "name" });

export interface TagValues {
  name: string;
  nameKana: string | null;
  color: string | null;
  description: string | null;
}

/** The one INSERT of a tag (addTag, imports); `times` keeps a restored tag's timestamps. */
export const insertTagSql = (userId: string, values: TagValues, now: string, times = { createdAt: now, updatedAt: now }) =>
  sql`INSERT INTO tags (user_id, name, name_kana, color, description, revision, created_at, updated_at)
    VALUES (${userId}, ${values.name}, ${values.nameKana}, ${values.color}, ${values.description}, ${newRevision()}, ${times.createdAt}, ${times.updatedAt})`;

/** A tag's id in SQL, by its (unique) name: what a batch that inserts the tag refers to it by. */
export const tagIdByNameSql = (userId: string, name: string) => sql`(SELECT id FROM tags WHERE user_id = ${userId} AND name = ${name})`;

/** Tags the games of the list that are in the user's library (the others are left out). */
export const tagGamesInsertSql = (userId: string, tagId: number | SQL, gameIds: readonly number[]) =>
  sql`INSERT OR IGNORE INTO tag_games (tag_id, game_id) SELECT ${tagId}, value FROM json_each(${JSON.stringify(gameIds)})
    WHERE value IN (SELECT game_id FROM library_entries WHERE user_id = ${userId})`;

export async function insertTag(db: Db, limit: LimitContext, values: TagValues, now: string): Promise<number> {
  try {
    await addWithinLimit(db, limit, TAGS_COUNTER, [insertTagSql(limit.userId, values, now)]);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.name);
    throw error;
  }
  const [row] = await db.all<{ id: number }>(sql`SELECT id FROM tags WHERE user_id = ${limit.userId} AND name = ${values.name}`);
  return row!.id;
}

export const revisionConflict = () =>
  new ApiError("revision_conflict", "The tag changed since that revision; read it again and resend.", { field: "revision" });

const TAG_COLUMNS = { name: "name", nameKana: "name_kana", color: "color", description: "description" } as const;

/** Patches the tag; with `expected`, only while its revision still is that. Changing nothing keeps revision and updatedAt. */
export async function patchTag(
  db: Db,
  userId: string,
  tagId: number,
  changes: Partial<Record<keyof typeof TAG_COLUMNS, string | null>>,
  expected: string | undefined,
  now: string,
) {
  const keys = Object.keys(changes) as (keyof typeof TAG_COLUMNS)[];
  const sets = keys.map((key) => sql`${sql.raw(TAG_COLUMNS[key])} = ${changes[key]}`);
  const changed = differs(keys.map((key) => [TAG_COLUMNS[key], changes[key]] as const));
  try {
    const result = await db.run(sql`
      UPDATE tags SET ${sql.join([...sets, ...touchIfChanged(changed, now, newRevision())], sql`, `)}
      WHERE id = ${tagId} AND user_id = ${userId} ${expected === undefined ? sql`` : sql`AND revision = ${expected}`}`);
    if (result.meta.changes === 0) throw revisionConflict();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(String(changes.name));
    throw error;
  }
}

/** How many of these games the tag holds already. */
export async function countTagged(db: Db, tagId: number, gameIds: readonly number[]): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM tag_games WHERE tag_id = ${tagId} AND game_id IN (SELECT value FROM json_each(${JSON.stringify(gameIds)}))`);
  return row?.n ?? 0;
}

/** The games of the list that are in the user's library. */
export async function ownedAmong(db: Db, userId: string, gameIds: readonly number[]): Promise<Set<number>> {
  const rows = await db.all<{ game_id: number }>(sql`
    SELECT game_id FROM library_entries WHERE user_id = ${userId} AND game_id IN (SELECT value FROM json_each(${JSON.stringify(gameIds)}))`);
  return new Set(rows.map((row) => row.game_id));
}

/** True (in SQL) while every one of these distinct games is in the user's library. */
export const allOwnedSql = (userId: string, gameIds: readonly number[]) =>
  sql`(SELECT COUNT(*) FROM library_entries WHERE user_id = ${userId} AND game_id IN (SELECT value FROM json_each(${JSON.stringify(gameIds)}))) = ${gameIds.length}`;

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
  const ids = JSON.stringify(gameIds);
  const tagged = sql`SELECT game_id FROM tag_games WHERE tag_id = ${tagId}`;
  const adds = sql`EXISTS (SELECT 1 FROM json_each(${ids}) WHERE value NOT IN (${tagged}))`;
  const drops = (kept: SQL) => sql`EXISTS (SELECT 1 FROM tag_games WHERE tag_id = ${tagId} AND ${kept})`;
  const inIds = sql`game_id IN (SELECT value FROM json_each(${ids}))`;
  const changed = mode === "add" ? adds : mode === "remove" ? drops(inIds) : sql`(${adds} OR ${drops(sql`NOT ${inIds}`)})`;
  const change: SQL[] =
    mode === "remove"
      ? [sql`DELETE FROM tag_games WHERE tag_id = ${tagId} AND ${inIds}`]
      : [...(mode === "replace" ? [sql`DELETE FROM tag_games WHERE tag_id = ${tagId}`] : []), tagGamesInsertSql(userId, tagId, gameIds)];
  return [
    sql`UPDATE tags SET ${sql.join(touchIfChanged(changed, now, newRevision()), sql`, `)} WHERE id = ${tagId} AND user_id = ${userId}`,
    ...change,
  ];
}

/** A game leaving the library leaves the user's tags too. */
export const untagGameSql = (userId: string, gameId: number) =>
  sql`DELETE FROM tag_games WHERE game_id = ${gameId} AND tag_id IN (SELECT id FROM tags WHERE user_id = ${userId})`;

export const deleteTagSql = (userId: string, tagId: number): SQL[] => [
  sql`DELETE FROM tag_games WHERE tag_id = ${tagId} AND tag_id IN (SELECT id FROM tags WHERE user_id = ${userId})`,
  sql`DELETE FROM tags WHERE id = ${tagId} AND user_id = ${userId}`,
];
