import { and, eq, exists, inArray, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { collectionGames, collections, games, genres, libraryEntries, platforms, playRecords, tagGames } from "../../db/schema";
import { columnList, type Db, orderNullsLast, placeContains, queryBatch, statements } from "../../platform/db";
import { ApiError, invalidInput, notFound } from "../../platform/errors";
import { newId, newRevision } from "../../platform/ids";
import { orderOf, type SortKey } from "../../platform/keyset";
import { normalizePlace } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, planCounter, runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { differs, touchedIfChanged } from "../../platform/writes";
import {
  allOf,
  GAME_CORE_SELECT,
  GAME_LEFT_JOINS,
  type GameFilters,
  listGameConditions,
  loadGameRecords,
  usableIds,
  visibleTo,
} from "../games/queries";
import { gamesVisibleSql } from "../library/queries";
import { stillUsable } from "../shared/usableReferences";
import { findTag, tagStillThereSql } from "../tags/queries";
import {
  COLLECTION_KEYS,
  type COLLECTION_TYPES,
  type CollectionItemRow,
  type CollectionRow,
  type NewCollection,
  type PURPOSES,
} from "./items";

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

/**
 * Collections with their achievement counts, as one statement (rows: CollectionItemRow): the
 * chosen collections (`where`, in order, one page) are read first, then all their games at once
 * through collectionGamesCtes, never one query per collection.
 */
function collectionItemsQuery(userId: string, where: SQL, page: { limit: number; offset: number }): SQL {
  const order = orderOf(COLLECTION_ORDER);
  // raw SQL: CTEs over the page of collections, and COLLECTION_SELECT's select list.
  return sql`WITH listed AS MATERIALIZED (SELECT ${c}.* FROM ${COLLECTIONS_C} WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}),
      ${collectionGamesCtes(userId)},
      counts AS (SELECT h.collection_id, ${SUMMARY_COUNTS} FROM h GROUP BY h.collection_id)
    SELECT ${COLLECTION_SELECT}, COALESCE(s.total_games, 0) AS total_games, COALESCE(s.achieved_games, 0) AS achieved_games
    FROM listed ${c} LEFT JOIN counts s ON s.collection_id = ${c.id} ORDER BY ${order}`;
}

export async function collectionPage(db: Db, userId: string, filters: CollectionFilters, page: { limit: number; offset: number }) {
  const where = allOf(collectionConditions(userId, filters));
  // raw SQL: the page's count in the same round trip.
  const [rows, total] = await queryBatch<[CollectionItemRow[], { n: number }[]]>(db, [
    collectionItemsQuery(userId, where, page),
    sql`SELECT COUNT(*) AS n FROM ${COLLECTIONS_C} WHERE ${where}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}

/** The caller's collection with its achievement counts, as getCollections lists it (add and update answer it). */
export async function findCollectionItem(db: Db, userId: string, collectionId: string): Promise<CollectionItemRow | undefined> {
  const [row] = await db.all<CollectionItemRow>(
    collectionItemsQuery(userId, and(eq(c.id, collectionId), eq(c.userId, userId))!, { limit: 1, offset: 0 }),
  );
  return row;
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

const GAME_LISTS = ["gameIds", "excludeGameIds"] as const;

/** The game lists a write gives: addCollection both, updateCollection those it replaces. */
type GameLists = Partial<Pick<NewCollection, (typeof GAME_LISTS)[number]>>;

/** Each given list must hold only games the user can see (404 naming the first that is not). */
export async function checkListedGames(db: Db, userId: string, lists: GameLists) {
  for (const field of GAME_LISTS) {
    const ids = lists[field];
    if (ids) await checkVisibleGames(db, userId, ids, field);
  }
}

/** What each type needs, and what it must not be given; the tag, platform and games it names must be the caller's to use. */
export async function checkCollectionShape(db: Db, userId: string, c: NewCollection) {
  checkCollectionFields(c);
  if (c.type === "TAG" && !(await findTag(db, userId, c.tagId!))) throw notFound(`Your tag ${c.tagId}`);
  if (c.type === "PLATFORM" && !(await usableIds(db, "platforms", userId, [c.platformId!])).size)
    throw notFound(`Platform ${c.platformId}`);
  await checkListedGames(db, userId, c);
}

const one = sql`1`;

/**
 * What a collection write names must still be there when its batch runs (a tag, a custom platform
 * or custom games removed meanwhile): the checks above, repeated as conditions of the batch, each
 * answering the 404 its check would have.
 */
function referencesStillThere(userId: string, c: Partial<NewCollection>): WriteCondition[] {
  const conditions: WriteCondition[] = [];
  const { tagId, platformId } = c;
  if (c.type === "TAG" && tagId != null) {
    conditions.push({ holds: tagStillThereSql(userId, tagId), error: () => notFound(`Your tag ${tagId}`) });
  }
  if (c.type === "PLATFORM" && platformId != null) {
    conditions.push({ holds: stillUsable(platforms, userId, platformId), error: () => notFound(`Platform ${platformId}`) });
  }
  for (const field of GAME_LISTS) {
    const ids = c[field];
    if (!ids?.length) continue;
    const gone = () => new ApiError("not_found", `${field}: one of the games was removed meanwhile.`, { field });
    conditions.push({ holds: gamesVisibleSql(userId, ids), error: gone });
  }
  return conditions;
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

/** Stores a new collection (its games must be distinct), in a batch that checks the plan's limit and what it names. */
export async function insertCollection(db: Db, limit: LimitContext, c: NewCollection, now: string): Promise<string> {
  const id = newId("col");
  await addWithinLimit(
    db,
    limit,
    COLLECTIONS_COUNTER,
    insertCollectionSql(id, limit.userId, c, now),
    referencesStillThere(limit.userId, c),
  );
  return id;
}

export interface CollectionChanges {
  name?: string;
  description?: string | null;
  gameIds?: number[];
  excludeGameIds?: number[];
}

export const revisionConflict = () =>
  new ApiError("revision_conflict", "The collection changed since that revision; read getCollections again and rebuild the request.", {
    field: "revision",
  });

/** The stored set of one kind of a collection's games differs from `ids` (in SQL, before the batch replaces it). */
const gamesDiffer = (collectionId: string, kind: GameKind, ids: readonly number[]) =>
  sql`${gameIdsJson(collectionId, kind)} IS NOT ${JSON.stringify([...new Set(ids)].sort((a, b) => a - b))}`;

const ownCollection = (userId: string, collectionId: string) => and(eq(collections.id, collectionId), eq(collections.userId, userId));

/**
 * Patches the collection (replaced lists must hold distinct games) in one batch that runs only
 * while the collection is there, with revision `expected` when given, and its new games are still
 * visible: otherwise nothing is written (404, 409 revision_conflict, 404 naming the list). A patch
 * that changes nothing keeps the revision and updatedAt.
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
  const own = ownCollection(userId, collectionId);
  const stillThere = (also?: SQL) => exists(statements.select({ one }).from(t).where(and(own, also)));
  const conditions: WriteCondition[] = [
    { holds: stillThere(), error: () => notFound(`Your collection ${collectionId}`) },
    ...(expected === undefined ? [] : [{ holds: stillThere(eq(t.revision, expected)), error: revisionConflict }]),
    ...referencesStillThere(userId, changes),
  ];
  await runConditional(db, conditions, [
    statements
      .update(t)
      .set({ ...sets, ...touchedIfChanged(t, sql`(${changed})`, now, newRevision()) })
      .where(own)
      .getSQL(),
    ...(changes.gameIds !== undefined ? replaceGamesSql(collectionId, "member", changes.gameIds) : []),
    ...(changes.excludeGameIds !== undefined ? replaceGamesSql(collectionId, "excluded", changes.excludeGameIds) : []),
  ]);
}

/** The ids of the user's collections (that meet `which`, when given). */
const userCollectionIds = (userId: string, which?: SQL) =>
  statements
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.userId, userId), which));

/** Removes the user's collections that meet `which`, with their games and exclusions. */
const deleteCollectionsSql = (userId: string, which: SQL | undefined): SQL[] => [
  statements
    .delete(collectionGames)
    .where(inArray(collectionGames.collectionId, userCollectionIds(userId, which)))
    .getSQL(),
  statements
    .delete(collections)
    .where(and(eq(collections.userId, userId), which))
    .getSQL(),
];

/** Removes the collection with its games and exclusions, in the batch of the confirm marker. */
export async function deleteCollection(db: Db, userId: string, collectionId: string, marker: SQL) {
  await queryBatch(db, [marker, ...deleteCollectionsSql(userId, eq(collections.id, collectionId))]);
}

const onTag = (tagId: number) => and(TAG_COLLECTIONS, eq(collections.tagId, tagId));
const oldestFirst = [collections.createdAt, collections.id] as const;

/** The user's TAG collections built on the tag, oldest first: removing the tag removes them too. */
export const collectionsOnTag = (db: Db, userId: string, tagId: number) =>
  db
    .select({ id: collections.id, name: collections.name, revision: collections.revision })
    .from(collections)
    .where(and(eq(collections.userId, userId), onTag(tagId)))
    .orderBy(...oldestFirst);

/** Removes the user's TAG collections built on the tag (removeTag's batch). */
export const deleteCollectionsOnTagSql = (userId: string, tagId: number) => deleteCollectionsSql(userId, onTag(tagId));

/** Every TAG collection of the user: what goes when all their tags go (a replace import of tags). */
export const TAG_COLLECTIONS = eq(collections.type, "TAG");

/** Removes the user's TAG collections (a replace import of tags removes every tag). */
export const deleteTagCollectionsSql = (userId: string) => deleteCollectionsSql(userId, TAG_COLLECTIONS);

const listing = (userId: string, gameId: number) =>
  and(
    eq(collections.userId, userId),
    inArray(
      collections.id,
      statements.select({ id: collectionGames.collectionId }).from(collectionGames).where(eq(collectionGames.gameId, gameId)),
    ),
  );

/** The user's collections that list the game as a game or an exclusion, oldest first: what removing the game changes. */
export const collectionsListingGame = (db: Db, userId: string, gameId: number) =>
  db
    .select({ id: collections.id, name: collections.name })
    .from(collections)
    .where(listing(userId, gameId))
    .orderBy(...oldestFirst);

/**
 * A game removed altogether (removeCustomGame) leaves the collections that list it, as a game or an
 * exclusion. That changes their content (gameIds, excludeGameIds), so their revision and updatedAt
 * move first.
 */
export const gameLeavesCollectionsSql = (userId: string, gameId: number, now: string): SQL[] => [
  statements.update(collections).set({ revision: newRevision(), updatedAt: now }).where(listing(userId, gameId)).getSQL(),
  statements
    .delete(collectionGames)
    .where(and(eq(collectionGames.gameId, gameId), inArray(collectionGames.collectionId, userCollectionIds(userId))))
    .getSQL(),
];

const member = alias(collectionGames, "cg");
const excluded = alias(collectionGames, "x");
const tagged = alias(tagGames, "tg");
const chosenGenre = alias(genres, "q");
const gameGenre = alias(genres, "gg");
const entry = alias(libraryEntries, "a");
const cycle = alias(playRecords, "pr");

/** The game is not one the collection c excludes. */
const notExcludedBy = (gameId: SQLiteColumn) =>
  sql`NOT EXISTS (SELECT 1 FROM ${collectionGames} ${excluded} WHERE ${excluded.collectionId} = ${c.id} AND ${excluded.kind} = 'excluded' AND ${excluded.gameId} = ${gameId})`;

/**
 * Game g is within the genre of collection c, by the genre filter's rule (games/queries'
 * genreCondition), read in SQL so that one statement serves collections of different genres: a
 * root genre matches the game's main or support genre; another genre matches it or any genre
 * beneath it (taxonomy key prefix).
 */
const inCollectionGenre = sql`(${c.genreId} IS NULL OR EXISTS (SELECT 1 FROM ${genres} ${chosenGenre}, ${genres} ${gameGenre}
  WHERE ${chosenGenre.id} = ${c.genreId} AND ${gameGenre.id} IN (${g.genreId}, ${g.genreSubId})
    AND (${gameGenre.id} = ${chosenGenre.id} OR (${chosenGenre.parentId} IS NOT NULL
      AND substr(${gameGenre.taxonomyKey}, 1, length(${chosenGenre.taxonomyKey}) + 1) = ${chosenGenre.taxonomyKey} || '.'))))`;

/**
 * When the user achieved game m.game_id for a collection of purpose m.purpose (null: not yet):
 * LIBRARY, its library registration; PLAY, once its latest play record is COMPLETED, the play end
 * date, else that record's update time.
 */
const achievedAtOf = (userId: string) => sql`CASE m.purpose WHEN 'LIBRARY'
  THEN (SELECT ${entry.createdAt} FROM ${libraryEntries} ${entry} WHERE ${entry.userId} = ${userId} AND ${entry.gameId} = m.game_id)
  ELSE (SELECT COALESCE(${cycle.playEndDate}, ${cycle.updatedAt}) FROM ${playRecords} ${cycle}
    WHERE ${cycle.userId} = ${userId} AND ${cycle.gameId} = m.game_id AND ${cycle.isLatest} = 1 AND ${cycle.status} = 'COMPLETED') END`;

/**
 * The CTEs m and h over the collections of a CTE named `listed`: m, each collection's games
 * (collection_id, purpose, game_id): an INDIVIDUAL collection's members, the games carrying a TAG
 * collection's tag, the games of a PLATFORM collection's platform the user can see within its genre
 * and release dates, TAG and PLATFORM less their exclusions; h, each with its achievement, worked
 * out once (materialized). The one definition of a collection's games: getCollectionGames reads one
 * collection's, getCollections a page's.
 */
// raw SQL: a UNION ALL of correlated arms, one per type, and the achievement's scalar subqueries.
const collectionGamesCtes = (userId: string) => sql`m AS (
    SELECT ${c.id} AS collection_id, ${c.purpose} AS purpose, ${member.gameId} AS game_id FROM listed ${c}
      JOIN ${collectionGames} ${member} ON ${member.collectionId} = ${c.id} AND ${member.kind} = 'member'
      WHERE ${c.type} = 'INDIVIDUAL'
    UNION ALL SELECT ${c.id}, ${c.purpose}, ${tagged.gameId} FROM listed ${c} JOIN ${tagGames} ${tagged} ON ${tagged.tagId} = ${c.tagId}
      WHERE ${c.type} = 'TAG' AND ${notExcludedBy(tagged.gameId)}
    UNION ALL SELECT ${c.id}, ${c.purpose}, ${g.id} FROM listed ${c} JOIN ${games} ${g} ON ${g.platformId} = ${c.platformId}
      WHERE ${c.type} = 'PLATFORM' AND ${visibleTo(userId)} AND ${inCollectionGenre}
        AND (${c.releaseDateFrom} IS NULL OR ${g.releaseDate} >= ${c.releaseDateFrom})
        AND (${c.releaseDateTo} IS NULL OR ${g.releaseDate} <= ${c.releaseDateTo}) AND ${notExcludedBy(g.id)}),
  achieved AS MATERIALIZED (SELECT m.collection_id, m.game_id, ${achievedAtOf(userId)} AS achieved_at FROM m),
  h AS (SELECT collection_id, game_id, achieved_at IS NOT NULL AS achieved, achieved_at FROM achieved)`;

/** A collection's summary counts over h (collectionSummary makes the summary of them). */
const SUMMARY_COUNTS = sql`COUNT(*) AS total_games, COALESCE(SUM(h.achieved), 0) AS achieved_games`;

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
  const conditions = await listGameConditions(db, filters);
  // Only game filters read the games; counting without them reads the collection's rows alone.
  const countGames = conditions.length > 0 ? sql`LEFT JOIN games g ON g.id = h.game_id` : sql``;
  if (filters.achieved !== undefined) conditions.push(sql`h.achieved = ${filters.achieved ? 1 : 0}`);
  const where = allOf(conditions);
  const order = orderNullsLast(COLLECTION_GAME_SORTS[filters.sortBy], filters.sortOrder, "h.game_id");
  // raw SQL: CTEs, a window function and the game columns' select list.
  return sql`WITH listed AS (SELECT * FROM ${collections} WHERE ${eq(collections.id, collection.id)}),
      ${collectionGamesCtes(userId)},
      counts AS (SELECT SUM(CASE WHEN ${where} THEN 1 ELSE 0 END) AS matched_count, ${SUMMARY_COUNTS} FROM h ${countGames}),
      page AS (SELECT h.game_id, h.achieved, h.achieved_at, ROW_NUMBER() OVER (ORDER BY ${order}) AS position
        FROM h LEFT JOIN games g ON g.id = h.game_id WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset})
      SELECT c.matched_count, c.total_games, c.achieved_games, p.* FROM counts c LEFT JOIN (
        SELECT h.game_id, h.achieved, h.achieved_at, h.position, ${GAME_CORE_SELECT} FROM page h LEFT JOIN games g ON g.id = h.game_id ${GAME_LEFT_JOINS}
      ) p ON 1
      ORDER BY p.position`;
}
