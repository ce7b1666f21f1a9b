import { and, eq, inArray, notInArray, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { collectionGames, collections, games, tagGames } from "../../db/schema";
import { columnList, type Db, orderNullsLast, placeContains, queryBatch, statements } from "../../platform/db";
import { ApiError, invalidInput, notFound } from "../../platform/errors";
import { newId, newRevision } from "../../platform/ids";
import { orderOf, type SortKey } from "../../platform/keyset";
import { normalizePlace } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, planCounter } from "../../platform/registeredLimits";
import { differs, touchedIfChanged } from "../../platform/writes";
import {
  allOf,
  GAME_CORE_SELECT,
  GAME_LEFT_JOINS,
  type GameFilters,
  gameFilterConditions,
  listGameConditions,
  loadGameRecords,
  usableIds,
  visibleTo,
} from "../games/queries";
import { findTag } from "../tags/queries";
import { COLLECTION_KEYS, type COLLECTION_TYPES, type CollectionRow, type NewCollection, type PURPOSES } from "./items";

/** The plan limit on collections: counted here, where its rows are written. */
export const COLLECTIONS_COUNTER = planCounter("collections", collections, collections.userId);

/** Collections as their reads (and the collections export) name them: aliased c. */
const c = alias(collections, "c");
const COLLECTIONS_C = sql`${collections} ${c}`;
/** Games as the game filters name them: aliased g. */
const g = alias(games, "g");

type GameKind = (typeof collectionGames.$inferSelect)["kind"];

/** A collection's games of one kind: its members, or the games it excludes. */
const gamesOfKind = (collectionId: SQLiteColumn | string, kind: GameKind) =>
  and(eq(collectionGames.collectionId, collectionId), eq(collectionGames.kind, kind));

const gameIdsOfKind = (collectionId: SQLiteColumn | string, kind: GameKind) =>
  statements.select({ gameId: collectionGames.gameId }).from(collectionGames).where(gamesOfKind(collectionId, kind));

/** A collection's games of one kind as a JSON array, in id order. */
const gameIdsJson = (collectionId: SQLiteColumn | string, kind: GameKind) =>
  // raw SQL: json_group_array over an ordered subquery.
  sql`(SELECT json_group_array(game_id) FROM ${gameIdsOfKind(collectionId, kind).orderBy(collectionGames.gameId)})`;

// raw SQL: a select list, shared with the collections export's keyset pages (platform/keyset.ts), read as raw rows.
export const COLLECTION_SELECT = sql`${columnList(c, COLLECTION_KEYS)},
  ${gameIdsJson(c.id, "member")} AS members, ${gameIdsJson(c.id, "excluded")} AS excluded`;

/** The caller's collection with this id (no row when it is someone else's or gone). */
export const collectionQuery = (userId: string, collectionId: string) =>
  // raw SQL: COLLECTION_SELECT's rows, read raw through ctx.read by getCollectionGames' first reads.
  sql`SELECT ${COLLECTION_SELECT} FROM ${COLLECTIONS_C} WHERE ${eq(c.id, collectionId)} AND ${eq(c.userId, userId)}`;

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
  const conditions: SQL[] = [eq(c.userId, userId)];
  if (filters.name !== undefined) conditions.push(placeContains(c.nameKey, filters.name));
  if (filters.types?.length) conditions.push(inArray(c.type, filters.types));
  if (filters.purposeTypes?.length) conditions.push(inArray(c.purpose, filters.purposeTypes));
  return conditions;
}

/** Oldest first. */
export const COLLECTION_ORDER: SortKey[] = [
  { column: c.createdAt, direction: "asc" },
  { column: c.id, direction: "asc" },
];

export async function collectionPage(db: Db, userId: string, filters: CollectionFilters, page: { limit: number; offset: number }) {
  const where = allOf(collectionConditions(userId, filters));
  // raw SQL: COLLECTION_SELECT's page, with its count in the same round trip.
  const [rows, total] = await queryBatch<[CollectionRow[], { n: number }[]]>(db, [
    sql`SELECT ${COLLECTION_SELECT} FROM ${COLLECTIONS_C} WHERE ${where} ORDER BY ${orderOf(COLLECTION_ORDER)} LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT COUNT(*) AS n FROM ${COLLECTIONS_C} WHERE ${where}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}

/** Game ids must be games the user can see (official or their own custom games). */
export async function checkVisibleGames(db: Db, userId: string, ids: readonly number[], field: string) {
  const found = await loadGameRecords(db, userId, ids);
  const index = ids.findIndex((id) => !found.has(id));
  if (index >= 0) throw new ApiError("not_found", `${field}[${index}]: game ${ids[index]} was not found.`, { field: `${field}[${index}]` });
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

const replaceGamesSql = (collectionId: string, kind: GameKind, ids: readonly number[]): SQL[] => [
  statements.delete(collectionGames).where(gamesOfKind(collectionId, kind)).getSQL(),
  ...(ids.length
    ? [
        // raw SQL: json_each inserts up to 1,000 ids through one parameter (D1 binds at most 100 a statement).
        sql`INSERT OR IGNORE INTO ${collectionGames} (collection_id, game_id, kind) SELECT ${collectionId}, value, ${kind} FROM json_each(${JSON.stringify(ids)})`,
      ]
    : []),
];

/** The statements that store a new collection (addCollection, imports); `times` keeps a restored collection's timestamps. */
export const insertCollectionSql = (
  id: string,
  userId: string,
  { gameIds, excludeGameIds, ...definition }: NewCollection,
  now: string,
  times = { createdAt: now, updatedAt: now },
): SQL[] => [
  statements
    .insert(collections)
    .values({ id, userId, ...definition, nameKey: normalizePlace(definition.name), revision: newRevision(), ...times })
    .getSQL(),
  ...replaceGamesSql(id, "member", gameIds),
  ...replaceGamesSql(id, "excluded", excludeGameIds),
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
const gamesDiffer = (collectionId: string, kind: GameKind, ids: readonly number[]) =>
  sql`${gameIdsJson(collectionId, kind)} IS NOT ${JSON.stringify([...new Set(ids)].sort((a, b) => a - b))}`;

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
  const t = collections;
  const sets: Partial<typeof collections.$inferInsert> = {};
  const compared: [SQLiteColumn, unknown][] = [];
  if (changes.name !== undefined) {
    sets.name = changes.name;
    sets.nameKey = normalizePlace(changes.name);
    compared.push([t.name, changes.name]);
  }
  if (changes.description !== undefined) {
    sets.description = changes.description;
    compared.push([t.description, changes.description]);
  }
  const changed = sql.join(
    [
      differs(compared),
      ...(changes.gameIds !== undefined ? [gamesDiffer(collectionId, "member", changes.gameIds)] : []),
      ...(changes.excludeGameIds !== undefined ? [gamesDiffer(collectionId, "excluded", changes.excludeGameIds)] : []),
    ],
    sql` OR `,
  );
  const update = statements
    .update(t)
    .set({ ...sets, ...touchedIfChanged(t, sql`(${changed})`, now, newRevision()) })
    .where(and(eq(t.id, collectionId), eq(t.userId, userId), expected === undefined ? undefined : eq(t.revision, expected)))
    .returning({ id: t.id });
  const [updated] = await queryBatch<[unknown[]]>(db, [
    update.getSQL(),
    ...(changes.gameIds !== undefined ? replaceGamesSql(collectionId, "member", changes.gameIds) : []),
    ...(changes.excludeGameIds !== undefined ? replaceGamesSql(collectionId, "excluded", changes.excludeGameIds) : []),
  ]);
  return updated.length > 0;
}

/** Removes the collection with its games and exclusions, in the batch of the confirm marker. */
export async function deleteCollection(db: Db, userId: string, collectionId: string, marker: SQL) {
  const usersCollections = statements.select({ id: collections.id }).from(collections).where(eq(collections.userId, userId));
  await queryBatch(db, [
    marker,
    statements
      .delete(collectionGames)
      .where(and(eq(collectionGames.collectionId, collectionId), inArray(collectionGames.collectionId, usersCollections)))
      .getSQL(),
    statements
      .delete(collections)
      .where(and(eq(collections.id, collectionId), eq(collections.userId, userId)))
      .getSQL(),
  ]);
}

/** The collection's games, one game id a row: explicit members, a tag's games, or a platform's games, less exclusions. */
async function membersQuery(db: Db, userId: string, collection: CollectionRow): Promise<SQL> {
  const excluded = gameIdsOfKind(collection.id, "excluded");
  if (collection.type === "INDIVIDUAL") return gameIdsOfKind(collection.id, "member").getSQL();
  if (collection.type === "TAG") {
    return statements
      .select({ gameId: tagGames.gameId })
      .from(tagGames)
      .where(and(eq(tagGames.tagId, collection.tag_id!), notInArray(tagGames.gameId, excluded)))
      .getSQL();
  }
  const narrowing = await gameFilterConditions(db, {
    platformIds: [collection.platform_id!],
    genreId: collection.genre_id ?? undefined,
    releaseDateFrom: collection.release_date_from ?? undefined,
    releaseDateTo: collection.release_date_to ?? undefined,
  });
  return statements
    .select({ gameId: g.id })
    .from(g)
    .where(and(visibleTo(userId), ...narrowing, notInArray(g.id, excluded)))
    .getSQL();
}

export const COLLECTION_GAME_SORTS = { title: g.sortKey, releaseDate: g.releaseDate, achievedAt: "h.achieved_at" } as const;

export interface CollectionGamesFilters extends GameFilters {
  title?: string;
  achieved?: boolean;
  sortBy: keyof typeof COLLECTION_GAME_SORTS;
  sortOrder: "asc" | "desc";
}

/**
 * One page of the collection's games with their achievement, the filtered count and the whole
 * collection's counts, as one statement (rows: CollectionGameRow), so the collection's rows are
 * worked out once: the page is chosen from the narrow rows (game id, achievement, sort key), then
 * only its games are read whole; the filtered count and the summary come from one pass over the
 * collection, on every row (the page may be empty).
 */
export async function collectionGamesQuery(
  db: Db,
  userId: string,
  collection: CollectionRow,
  filters: CollectionGamesFilters,
  page: { limit: number; offset: number },
): Promise<SQL> {
  const library = collection.purpose === "LIBRARY";
  const achievements = library
    ? sql`LEFT JOIN library_entries a ON a.user_id = ${userId} AND a.game_id = m.game_id`
    : sql`LEFT JOIN play_records a ON a.user_id = ${userId} AND a.game_id = m.game_id AND a.is_latest = 1 AND a.status = 'COMPLETED'`;
  const achievedAt = library ? sql`a.created_at` : sql`COALESCE(a.play_end_date, a.updated_at)`;
  const members = await membersQuery(db, userId, collection);
  const conditions = await listGameConditions(db, filters);
  // Only game filters read the games; counting without them reads the collection's rows alone.
  const countGames = conditions.length > 0 ? sql`LEFT JOIN games g ON g.id = h.game_id` : sql``;
  if (filters.achieved !== undefined) conditions.push(sql`h.achieved = ${filters.achieved ? 1 : 0}`);
  const where = allOf(conditions);
  const order = orderNullsLast(COLLECTION_GAME_SORTS[filters.sortBy], filters.sortOrder, "h.game_id");
  // raw SQL: CTEs, a window function and the game columns' select list.
  return sql`WITH m(game_id) AS (${members}),
      h AS MATERIALIZED (SELECT DISTINCT m.game_id, a.game_id IS NOT NULL AS achieved,
        CASE WHEN a.game_id IS NOT NULL THEN ${achievedAt} END AS achieved_at FROM m ${achievements}),
      counts AS (SELECT SUM(CASE WHEN ${where} THEN 1 ELSE 0 END) AS matched_count, COUNT(*) AS total_games,
        COALESCE(SUM(h.achieved), 0) AS achieved_games FROM h ${countGames}),
      page AS (SELECT h.game_id, h.achieved, h.achieved_at, ROW_NUMBER() OVER (ORDER BY ${order}) AS position
        FROM h LEFT JOIN games g ON g.id = h.game_id WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset})
      SELECT c.matched_count, c.total_games, c.achieved_games, p.* FROM counts c LEFT JOIN (
        SELECT h.game_id, h.achieved, h.achieved_at, h.position, ${GAME_CORE_SELECT} FROM page h LEFT JOIN games g ON g.id = h.game_id ${GAME_LEFT_JOINS}
      ) p ON 1
      ORDER BY p.position`;
}
