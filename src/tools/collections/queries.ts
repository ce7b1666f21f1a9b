import { and, eq, exists, inArray, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { collectionGames, collectionSummaries, collections, platforms } from "../../db/schema";
import { columnList, type Db, placeContains, statements } from "../../platform/db";
import { ApiError, invalidInput, notFound } from "../../platform/errors";
import { newId, newRevision } from "../../platform/ids";
import type { SortKey } from "../../platform/keyset";
import { normalizePlace } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, planCounter, runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { differs, touchedIfChanged } from "../../platform/writes";
import { loadGameRecords, usableIds } from "../games/queries";
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
export const listedCollection = alias(collections, "c");
const c = listedCollection;
/** Collections aliased c, as a FROM item. */
export const COLLECTIONS_C = sql`${collections} ${c}`;

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

/**
 * Collections aliased c with their summaries (collection_summaries, kept by the triggers of
 * migrations/0007_collection_summaries.sql), as a FROM item: one row read per collection, however
 * many games it holds.
 */
export const COLLECTIONS_WITH_SUMMARIES = sql`${COLLECTIONS_C} LEFT JOIN ${collectionSummaries} ON ${collectionSummaries.collectionId} = ${c.id}`;

// raw SQL: the summary counts under the names SummaryCounts reads (0 for a collection with no row yet).
export const SUMMARY_SELECT = sql`COALESCE(${collectionSummaries.totalGames}, 0) AS total_games,
  COALESCE(${collectionSummaries.achievedGames}, 0) AS achieved_games`;

/** The caller's collection with this id and its summary (rows: CollectionItemRow; none when it is someone else's or gone). */
export const collectionItemQuery = (userId: string, collectionId: string) =>
  // raw SQL: COLLECTION_SELECT's rows with the summary, read raw through ctx.read by getCollectionGames' first reads.
  sql`SELECT ${COLLECTION_SELECT}, ${SUMMARY_SELECT} FROM ${COLLECTIONS_WITH_SUMMARIES} WHERE ${eq(c.id, collectionId)} AND ${eq(c.userId, userId)}`;

/** The caller's collection with its summary, as getCollections lists it (add and update answer it). */
export async function findCollectionItem(db: Db, userId: string, collectionId: string): Promise<CollectionItemRow | undefined> {
  const [row] = await db.all<CollectionItemRow>(collectionItemQuery(userId, collectionId));
  return row;
}

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

const onTag = (tagId: number) => and(eq(collections.type, "TAG"), eq(collections.tagId, tagId));
const oldestFirst = [collections.createdAt, collections.id] as const;

/** The user's TAG collections built on the tag, oldest first: removing the tag removes them too. */
export const collectionsOnTag = (db: Db, userId: string, tagId: number) =>
  db
    .select({ id: collections.id, name: collections.name, revision: collections.revision })
    .from(collections)
    .where(and(eq(collections.userId, userId), onTag(tagId)))
    .orderBy(...oldestFirst);

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
