import { and, eq, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { collectionGames, collections, genres, libraryEntries, playRecords, tagGames } from "../../db/schema";
import { type Db, queryBatch } from "../../platform/db";
import { orderOf, type SortName, type SortOrder, sortTable } from "../../platform/keyset";
import type { PageWindow } from "../../platform/paging";
import {
  allOf,
  GAME_CORE_SELECT,
  GAME_LEFT_JOINS,
  GAME_VIEW,
  GAMES_G,
  type GameFilters,
  joinGame,
  readGameConditions,
  visibleTo,
} from "../games/queries";
import type { CollectionItemRow, CollectionRow } from "./items";
import {
  COLLECTION_ORDER,
  COLLECTION_SELECT,
  COLLECTIONS_C,
  type CollectionFilters,
  listedCollection as c,
  collectionConditions,
} from "./queries";

/*
 * A collection's games and their achievement, worked out in SQL: the member set of each type
 * (collectionGamesCtes), one collection's games page with its summary (getCollectionGames), and
 * pages of collections with their summaries (getCollections; add and update answer one).
 */

const { game: g } = GAME_VIEW;

/**
 * Collections with their achievement counts, as one statement (rows: CollectionItemRow): the
 * chosen collections (`where`, in order, one page) are read first, then all their games at once
 * through collectionGamesCtes, never one query per collection.
 */
function collectionItemsQuery(userId: string, where: SQL, page: PageWindow): SQL {
  const order = orderOf(COLLECTION_ORDER);
  // raw SQL: CTEs over the page of collections, and COLLECTION_SELECT's select list.
  return sql`WITH listed AS MATERIALIZED (SELECT ${c}.* FROM ${COLLECTIONS_C} WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}),
      ${collectionGamesCtes(userId)},
      counts AS (SELECT h.collection_id, ${SUMMARY_COUNTS} FROM h GROUP BY h.collection_id)
    SELECT ${COLLECTION_SELECT}, COALESCE(s.total_games, 0) AS total_games, COALESCE(s.achieved_games, 0) AS achieved_games
    FROM listed ${c} LEFT JOIN counts s ON s.collection_id = ${c.id} ORDER BY ${order}`;
}

export async function collectionPage(db: Db, userId: string, filters: CollectionFilters, page: PageWindow) {
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
    UNION ALL SELECT ${c.id}, ${c.purpose}, ${g.id} FROM listed ${c} JOIN ${GAMES_G} ON ${g.platformId} = ${c.platformId}
      WHERE ${c.type} = 'PLATFORM' AND ${visibleTo(userId)} AND ${inCollectionGenre}
        AND (${c.releaseDateFrom} IS NULL OR ${g.releaseDate} >= ${c.releaseDateFrom})
        AND (${c.releaseDateTo} IS NULL OR ${g.releaseDate} <= ${c.releaseDateTo}) AND ${notExcludedBy(g.id)}),
  achieved AS MATERIALIZED (SELECT m.collection_id, m.game_id, ${achievedAtOf(userId)} AS achieved_at FROM m),
  h AS (SELECT collection_id, game_id, achieved_at IS NOT NULL AS achieved, achieved_at FROM achieved)`;

/** The game (g) of a row of h, which may be missing. */
const gameOfRow = joinGame("LEFT JOIN", "h.game_id");

/** A collection's summary counts over h (collectionSummary makes the summary of them). */
const SUMMARY_COUNTS = sql`COUNT(*) AS total_games, COALESCE(SUM(h.achieved), 0) AS achieved_games`;

/** getCollectionGames' sorts; the game id breaks ties. */
export const COLLECTION_GAME_SORTS = sortTable({ title: g.sortKey, releaseDate: g.releaseDate, achievedAt: "h.achieved_at" }, "h.game_id", {
  sortBy: "releaseDate",
  sortOrder: "asc",
});

export interface CollectionGamesFilters extends GameFilters {
  title?: string;
  achieved?: boolean;
  sortBy: SortName<typeof COLLECTION_GAME_SORTS>;
  sortOrder: SortOrder;
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
  page: PageWindow,
): Promise<SQL> {
  const conditions = await readGameConditions(db, filters);
  // Only game filters read the games; counting without them reads the collection's rows alone.
  const countGames = conditions.length > 0 ? gameOfRow : sql``;
  if (filters.achieved !== undefined) conditions.push(sql`h.achieved = ${filters.achieved ? 1 : 0}`);
  const where = allOf(conditions);
  const order = orderOf(COLLECTION_GAME_SORTS.of(filters.sortBy, filters.sortOrder));
  // raw SQL: CTEs, a window function and the game columns' select list.
  return sql`WITH listed AS (SELECT * FROM ${collections} WHERE ${eq(collections.id, collection.id)}),
      ${collectionGamesCtes(userId)},
      counts AS (SELECT SUM(CASE WHEN ${where} THEN 1 ELSE 0 END) AS matched_count, ${SUMMARY_COUNTS} FROM h ${countGames}),
      page AS (SELECT h.game_id, h.achieved, h.achieved_at, ROW_NUMBER() OVER (ORDER BY ${order}) AS position
        FROM h ${gameOfRow} WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset})
      SELECT c.matched_count, c.total_games, c.achieved_games, p.* FROM counts c LEFT JOIN (
        SELECT h.game_id, h.achieved, h.achieved_at, h.position, ${GAME_CORE_SELECT} FROM page h ${gameOfRow} ${GAME_LEFT_JOINS}
      ) p ON 1
      ORDER BY p.position`;
}
