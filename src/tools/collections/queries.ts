import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { collections } from "../../db/schema";
import { type Db, queryBatch } from "../../platform/db";
import { ApiError, invalidInput, notFound } from "../../platform/errors";
import { newId, newRevision } from "../../platform/ids";
import { orderOf, type SortKey } from "../../platform/keyset";
import { normalizePlace } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, planCounter } from "../../platform/registeredLimits";
import { nameText, positiveId, text } from "../../platform/schemas";
import { differs, touchIfChanged } from "../../platform/writes";
import { gameFilterConditions, loadGameRecords, usableIds } from "../games/queries";
import { findTag } from "../tags/queries";

/** The plan limit on collections: counted here, where its rows are written. */
export const COLLECTIONS_COUNTER = planCounter("collections", collections, collections.userId);

/** gameIds and excludeGameIds hold at most this many ids each. */
export const COLLECTION_GAME_LIMIT = 1000;
export const COLLECTION_TYPES = ["INDIVIDUAL", "TAG", "PLATFORM"] as const;
export const PURPOSES = ["LIBRARY", "PLAY"] as const;

const gameIdList = z.array(positiveId).max(COLLECTION_GAME_LIMIT);
export const collectionFieldArgs = {
  name: nameText(50),
  description: text(500).nullable(),
  gameIds: gameIdList.describe("INDIVIDUAL: the games, up to 1,000."),
  excludeGameIds: gameIdList.describe("TAG and PLATFORM: games left out, up to 1,000."),
};

export const collectionSchema = z
  .object({
    collectionId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(COLLECTION_TYPES),
    purpose: z
      .enum(PURPOSES)
      .describe("LIBRARY: achieved when the game is in the library; PLAY: when its latest play record is COMPLETED."),
    tagId: z.number().int().nullable(),
    platformId: z.number().int().nullable(),
    genreId: z.number().int().nullable(),
    releaseDateFrom: z.string().nullable(),
    releaseDateTo: z.string().nullable(),
    gameIds: z.array(z.number().int()).describe("INDIVIDUAL members; [] for the other types."),
    excludeGameIds: z.array(z.number().int()),
    revision: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Collection" });

export interface CollectionRow {
  id: string;
  name: string;
  description: string | null;
  type: (typeof COLLECTION_TYPES)[number];
  purpose: (typeof PURPOSES)[number];
  tag_id: number | null;
  platform_id: number | null;
  genre_id: number | null;
  release_date_from: string | null;
  release_date_to: string | null;
  revision: string;
  created_at: string;
  updated_at: string;
  members: string;
  excluded: string;
}

export const COLLECTION_SELECT = sql.raw(`c.*,
  (SELECT json_group_array(game_id) FROM (SELECT game_id FROM collection_games WHERE collection_id = c.id AND kind = 'member' ORDER BY game_id)) AS members,
  (SELECT json_group_array(game_id) FROM (SELECT game_id FROM collection_games WHERE collection_id = c.id AND kind = 'excluded' ORDER BY game_id)) AS excluded`);

export const toCollection = (row: CollectionRow) => ({
  collectionId: row.id,
  name: row.name,
  description: row.description,
  type: row.type,
  purpose: row.purpose,
  tagId: row.tag_id,
  platformId: row.platform_id,
  genreId: row.genre_id,
  releaseDateFrom: row.release_date_from,
  releaseDateTo: row.release_date_to,
  gameIds: JSON.parse(row.members) as number[],
  excludeGameIds: JSON.parse(row.excluded) as number[],
  revision: row.revision,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The caller's collection with this id (no row when it is someone else's or gone). */
export const collectionQuery = (userId: string, collectionId: string) =>
  sql`SELECT ${COLLECTION_SELECT} FROM collections c WHERE c.id = ${collectionId} AND c.user_id = ${userId}`;

export async function findCollection(db: Db, userId: string, collectionId: string): Promise<CollectionRow | undefined> {
  const [row] = await db.all<CollectionRow>(collectionQuery(userId, collectionId));
  return row;
}

export interface CollectionFilters {
  name?: string;
  types?: (typeof COLLECTION_TYPES)[number][];
  purposeTypes?: (typeof PURPOSES)[number][];
}

export function collectionConditions(userId: string, filters: CollectionFilters): SQL[] {
  const conditions: SQL[] = [sql`c.user_id = ${userId}`];
  if (filters.name !== undefined) conditions.push(sql`instr(c.name_key, ${normalizePlace(filters.name)}) > 0`);
  if (filters.types?.length) conditions.push(sql`c.type IN (SELECT value FROM json_each(${JSON.stringify(filters.types)}))`);
  if (filters.purposeTypes?.length)
    conditions.push(sql`c.purpose IN (SELECT value FROM json_each(${JSON.stringify(filters.purposeTypes)}))`);
  return conditions;
}

/** Oldest first. */
export const COLLECTION_ORDER: SortKey[] = [
  { column: "c.created_at", direction: "asc" },
  { column: "c.id", direction: "asc" },
];

export async function collectionPage(db: Db, userId: string, filters: CollectionFilters, page: { limit: number; offset: number }) {
  const where = sql.join(collectionConditions(userId, filters), sql` AND `);
  const [rows, total] = await queryBatch<[CollectionRow[], { n: number }[]]>(db, [
    sql`SELECT ${COLLECTION_SELECT} FROM collections c WHERE ${where} ORDER BY ${orderOf(COLLECTION_ORDER)} LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT COUNT(*) AS n FROM collections c WHERE ${where}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}

/** Game ids must be games the user can see (official or their own custom games). */
export async function checkVisibleGames(db: Db, userId: string, ids: readonly number[], field: string) {
  const found = await loadGameRecords(db, userId, ids);
  const index = ids.findIndex((id) => !found.has(id));
  if (index >= 0) throw new ApiError("not_found", `${field}[${index}]: game ${ids[index]} was not found.`, { field: `${field}[${index}]` });
}

export interface NewCollection {
  name: string;
  description: string | null;
  type: (typeof COLLECTION_TYPES)[number];
  purpose: (typeof PURPOSES)[number];
  tagId: number | null;
  platformId: number | null;
  genreId: number | null;
  releaseDateFrom: string | null;
  releaseDateTo: string | null;
  gameIds: number[];
  excludeGameIds: number[];
}

/** What each type needs, and what it must not be given, without reading anything (400 naming the field). */
export function checkCollectionFields(c: NewCollection) {
  const refuse = (field: string, message: string) => invalidInput(field, `${field}: ${message}`);
  if (c.type !== "INDIVIDUAL" && c.gameIds.length) throw refuse("gameIds", `only INDIVIDUAL collections list their games.`);
  if (c.type === "INDIVIDUAL" && c.excludeGameIds.length)
    throw refuse("excludeGameIds", "only TAG and PLATFORM collections exclude games.");
  if (c.type !== "TAG" && c.tagId !== null) throw refuse("tagId", "only TAG collections take a tag.");
  if (c.type !== "PLATFORM" && (c.platformId ?? c.genreId ?? c.releaseDateFrom ?? c.releaseDateTo) !== null) {
    throw refuse("platformId", "only PLATFORM collections take platformId, genreId and release dates.");
  }
  if (c.type === "TAG" && c.tagId === null) throw refuse("tagId", "a TAG collection needs tagId.");
  if (c.type === "PLATFORM" && c.platformId === null) throw refuse("platformId", "a PLATFORM collection needs platformId.");
}

/** What each type needs, and what it must not be given; the tag, platform and games it names must be the caller's to use. */
export async function checkCollectionShape(db: Db, userId: string, c: NewCollection) {
  checkCollectionFields(c);
  if (c.type === "TAG" && !(await findTag(db, userId, c.tagId!))) throw notFound(`Your tag ${c.tagId}`);
  if (c.type === "PLATFORM" && !(await usableIds(db, "platforms", userId, [c.platformId!])).size)
    throw notFound(`Platform ${c.platformId}`);
  await checkVisibleGames(db, userId, c.gameIds, "gameIds");
  await checkVisibleGames(db, userId, c.excludeGameIds, "excludeGameIds");
}

const replaceGamesSql = (collectionId: string, kind: "member" | "excluded", ids: readonly number[]): SQL[] => [
  sql`DELETE FROM collection_games WHERE collection_id = ${collectionId} AND kind = ${kind}`,
  ...(ids.length
    ? [
        sql`INSERT OR IGNORE INTO collection_games (collection_id, game_id, kind) SELECT ${collectionId}, value, ${kind} FROM json_each(${JSON.stringify(ids)})`,
      ]
    : []),
];

/** The statements that store a new collection (addCollection, imports); `times` keeps a restored collection's timestamps. */
export const insertCollectionSql = (
  id: string,
  userId: string,
  c: NewCollection,
  now: string,
  times = { createdAt: now, updatedAt: now },
): SQL[] => [
  sql`INSERT INTO collections (id, user_id, name, name_key, description, type, purpose, tag_id, platform_id, genre_id, release_date_from,
      release_date_to, revision, created_at, updated_at)
    VALUES (${id}, ${userId}, ${c.name}, ${normalizePlace(c.name)}, ${c.description}, ${c.type}, ${c.purpose}, ${c.tagId}, ${c.platformId},
      ${c.genreId}, ${c.releaseDateFrom}, ${c.releaseDateTo}, ${newRevision()}, ${times.createdAt}, ${times.updatedAt})`,
  ...replaceGamesSql(id, "member", c.gameIds),
  ...replaceGamesSql(id, "excluded", c.excludeGameIds),
];

export async function insertCollection(db: Db, limit: LimitContext, c: NewCollection, now: string): Promise<string> {
  const id = newId("col");
  await addWithinLimit(db, limit, COLLECTIONS_COUNTER, insertCollectionSql(id, limit.userId, c, now));
  return id;
}

export interface CollectionChanges {
  name?: string;
  description?: string | null;
  gameIds?: number[];
  excludeGameIds?: number[];
}

/** The stored set of one kind of a collection's games differs from `ids` (in SQL, before the batch replaces it). */
const gamesDiffer = (collectionId: string, kind: "member" | "excluded", ids: readonly number[]) =>
  sql`(SELECT json_group_array(game_id) FROM (SELECT game_id FROM collection_games WHERE collection_id = ${collectionId} AND kind = ${kind} ORDER BY game_id))
    IS NOT ${JSON.stringify([...new Set(ids)].sort((a, b) => a - b))}`;

/**
 * Patches the collection in one batch; with `expected`, only while its revision still is that.
 * A patch that changes nothing keeps the revision and updatedAt.
 */
export async function patchCollection(
  db: Db,
  userId: string,
  collectionId: string,
  changes: CollectionChanges,
  expected: string | undefined,
  now: string,
) {
  const sets: SQL[] = [];
  const compared: [string, unknown][] = [];
  if (changes.name !== undefined) {
    sets.push(sql`name = ${changes.name}`, sql`name_key = ${normalizePlace(changes.name)}`);
    compared.push(["name", changes.name]);
  }
  if (changes.description !== undefined) {
    sets.push(sql`description = ${changes.description}`);
    compared.push(["description", changes.description]);
  }
  const changed = sql.join(
    [
      differs(compared),
      ...(changes.gameIds !== undefined ? [gamesDiffer(collectionId, "member", changes.gameIds)] : []),
      ...(changes.excludeGameIds !== undefined ? [gamesDiffer(collectionId, "excluded", changes.excludeGameIds)] : []),
    ],
    sql` OR `,
  );
  sets.push(...touchIfChanged(sql`(${changed})`, now, newRevision()));
  const result = await queryBatch<unknown[][]>(db, [
    sql`UPDATE collections SET ${sql.join(sets, sql`, `)} WHERE id = ${collectionId} AND user_id = ${userId}
      ${expected === undefined ? sql`` : sql`AND revision = ${expected}`} RETURNING id`,
    ...(changes.gameIds !== undefined ? replaceGamesSql(collectionId, "member", changes.gameIds) : []),
    ...(changes.excludeGameIds !== undefined ? replaceGamesSql(collectionId, "excluded", changes.excludeGameIds) : []),
  ]);
  return (result[0]?.length ?? 0) > 0;
}

export const deleteCollectionSql = (userId: string, collectionId: string): SQL[] => [
  sql`DELETE FROM collection_games WHERE collection_id = ${collectionId} AND collection_id IN (SELECT id FROM collections WHERE user_id = ${userId})`,
  sql`DELETE FROM collections WHERE id = ${collectionId} AND user_id = ${userId}`,
];

/** The collection's games as SQL yielding game_id: explicit members, a tag's games, or a platform's games, less exclusions. */
export async function memberSql(db: Db, userId: string, c: CollectionRow): Promise<SQL> {
  const notExcluded = sql`game_id NOT IN (SELECT game_id FROM collection_games WHERE collection_id = ${c.id} AND kind = 'excluded')`;
  if (c.type === "INDIVIDUAL") return sql`SELECT game_id FROM collection_games WHERE collection_id = ${c.id} AND kind = 'member'`;
  if (c.type === "TAG") return sql`SELECT game_id FROM tag_games WHERE tag_id = ${c.tag_id} AND ${notExcluded}`;
  const narrowing = await gameFilterConditions(db, {
    platformIds: [c.platform_id!],
    genreId: c.genre_id ?? undefined,
    releaseDateFrom: c.release_date_from ?? undefined,
    releaseDateTo: c.release_date_to ?? undefined,
  });
  return sql`SELECT g.id AS game_id FROM games g WHERE ifnull(g.owner_user_id, ${userId}) = ${userId} AND ${sql.join(narrowing, sql` AND `)}
    AND g.id NOT IN (SELECT game_id FROM collection_games WHERE collection_id = ${c.id} AND kind = 'excluded')`;
}
