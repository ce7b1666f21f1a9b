import { eq, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { collectionGames, collectionSummaries, collections, genres, libraryEntries, playRecords, tagGames } from "../../db/schema";
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
  SUMMARY_SELECT,
} from "./queries";

/*
 * A collection's games and their achievement, worked out in SQL: the member set of each type
 * (collectionMembersCte) and one collection's games page (getCollectionGames); and pages of
 * collections with their summaries (getCollections; add and update answer one), which read the
 * summary row the triggers keep (migrations/0007_collection_summaries.sql), never the members.
 */

const { game: g } = GAME_VIEW;

/**
 * Collections with their summaries, as one statement (rows: CollectionItemRow): the chosen
 * collections (`where`, in order, one page) are read first, then their games lists and summaries.
 */
function collectionItemsQuery(where: SQL, page: PageWindow): SQL {
  const order = orderOf(COLLECTION_ORDER);
  // raw SQL: a CTE over the page of collections, and COLLECTION_SELECT's select list.
  return sql`WITH listed AS MATERIALIZED (SELECT ${c}.* FROM ${COLLECTIONS_C} WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset})
    SELECT ${COLLECTION_SELECT}, ${SUMMARY_SELECT}
    FROM listed ${c} LEFT JOIN ${collectionSummaries} ON ${collectionSummaries.collectionId} = ${c.id} ORDER BY ${order}`;
}

export async function collectionPage(db: Db, userId: string, filters: CollectionFilters, page: PageWindow) {
  const where = allOf(collectionConditions(userId, filters));
  // raw SQL: the page's count in the same round trip.
  const [rows, total] = await queryBatch<[CollectionItemRow[], { n: number }[]]>(db, [
    collectionItemsQuery(where, page),
    sql`SELECT COUNT(*) AS n FROM ${COLLECTIONS_C} WHERE ${where}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
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
 * The CTE m over the collection of a CTE named `listed`: its games (purpose, game_id): an
 * INDIVIDUAL collection's members, the games carrying a TAG collection's tag, the games of a
 * PLATFORM collection's platform the user can see within its genre and release dates, TAG and
 * PLATFORM less their exclusions. Only the arm of the collection's type is written, and a PLATFORM
 * collection's platform and release dates (fixed at creation) are also given as values, so the
 * games are read by the platform and release date index instead of the platform's every game. The
 * page's definition of a collection's games; the summary triggers hold the same one in SQL (the
 * view collection_game_states), and test/tools/collections/collectionSummaries.property.test.ts
 * checks that the two agree.
 */
function collectionMembersCte(userId: string, collection: CollectionRow): SQL {
  const { platform_id: platformId, release_date_from: from, release_date_to: to } = collection;
  // raw SQL: one correlated arm per type.
  const arms = {
    INDIVIDUAL: sql`SELECT ${c.purpose} AS purpose, ${member.gameId} AS game_id FROM listed ${c}
      JOIN ${collectionGames} ${member} ON ${member.collectionId} = ${c.id} AND ${member.kind} = 'member'
      WHERE ${c.type} = 'INDIVIDUAL'`,
    TAG: sql`SELECT ${c.purpose} AS purpose, ${tagged.gameId} AS game_id FROM listed ${c}
      JOIN ${tagGames} ${tagged} ON ${tagged.tagId} = ${c.tagId}
      WHERE ${c.type} = 'TAG' AND ${notExcludedBy(tagged.gameId)}`,
    PLATFORM: sql`SELECT ${c.purpose} AS purpose, ${g.id} AS game_id FROM listed ${c} JOIN ${GAMES_G} ON ${g.platformId} = ${c.platformId}
      WHERE ${c.type} = 'PLATFORM' AND ${g.platformId} = ${platformId ?? -1}
        ${from === null ? sql`` : sql`AND ${g.releaseDate} >= ${from}`} ${to === null ? sql`` : sql`AND ${g.releaseDate} <= ${to}`}
        AND ${visibleTo(userId)} AND ${inCollectionGenre}
        AND (${c.releaseDateFrom} IS NULL OR ${g.releaseDate} >= ${c.releaseDateFrom})
        AND (${c.releaseDateTo} IS NULL OR ${g.releaseDate} <= ${c.releaseDateTo}) AND ${notExcludedBy(g.id)}`,
  };
  return sql`m AS (${arms[collection.type]})`;
}

/** The game (g) of a row of h, which may be missing. */
const gameOfRow = joinGame("LEFT JOIN", "h.game_id");

/** getCollectionGames' sorts; the game id breaks ties. */
export const COLLECTION_GAME_SORTS = sortTable({ title: g.sortKey, releaseDate: g.releaseDate, achievedAt: "h.achieved_at" }, "h.game_id", {
  sortBy: "releaseDate",
  sortOrder: "asc",
});

export interface CollectionGamesFilters extends GameFilters {
  title?: string;
  achieved?: boolean;
  sortBy: SortName<typeof COLLECTION_GAME_SORTS>;
  sortOrder?: SortOrder;
}

/**
 * One page of the collection's games with their achievement, the filtered count and the whole
 * collection's summary, as one statement (rows: CollectionGameRow): the page is chosen from the
 * narrow rows (game id, sort key), then only its games are read whole. The summary is the
 * collection's summary row; so is the filtered count unless a game filter narrows the collection
 * (achieved alone: achieved or the rest). Achievement is worked out for every member only when it
 * chooses the page (the achieved filter, the achievedAt sort); otherwise for the page's games alone.
 */
export async function collectionGamesQuery(
  db: Db,
  userId: string,
  collection: CollectionRow,
  filters: CollectionGamesFilters,
  page: PageWindow,
): Promise<SQL> {
  const conditions = await readGameConditions(db, filters);
  const gameFiltered = conditions.length > 0;
  const byAchievement = filters.achieved !== undefined || filters.sortBy === "achievedAt";
  if (filters.achieved !== undefined) conditions.push(sql`h.achieved = ${filters.achieved ? 1 : 0}`);
  const where = allOf(conditions);
  const order = orderOf(COLLECTION_GAME_SORTS.of(filters.sortBy, filters.sortOrder));
  const window = sql`ROW_NUMBER() OVER (ORDER BY ${order}) AS position FROM h ${gameOfRow} WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`;
  // raw SQL: CTEs; each way ends in `paged` (game_id, achieved_at, position).
  const rows = byAchievement
    ? sql`achieved AS MATERIALIZED (SELECT m.game_id, ${achievedAtOf(userId)} AS achieved_at FROM m),
      h AS (SELECT game_id, achieved_at IS NOT NULL AS achieved, achieved_at FROM achieved),
      paged AS (SELECT h.game_id, h.achieved_at, ${window})`
    : sql`h AS (SELECT game_id, purpose FROM m),
      page AS (SELECT h.game_id, h.purpose, ${window}),
      paged AS (SELECT m.game_id, ${achievedAtOf(userId)} AS achieved_at, m.position FROM page m)`;
  const summary = alias(collectionSummaries, "s");
  const total = sql`COALESCE(${summary.totalGames}, 0)`;
  const achieved = sql`COALESCE(${summary.achievedGames}, 0)`;
  const matched = gameFiltered
    ? sql`(SELECT COUNT(*) FROM h ${gameOfRow} WHERE ${where})`
    : filters.achieved === undefined
      ? total
      : filters.achieved
        ? achieved
        : sql`${total} - ${achieved}`;
  // raw SQL: CTEs, a window function and the game columns' select list.
  return sql`WITH listed AS (SELECT * FROM ${collections} WHERE ${eq(collections.id, collection.id)}),
      ${collectionMembersCte(userId, collection)},
      ${rows},
      counts AS (SELECT ${matched} AS matched_count, ${total} AS total_games, ${achieved} AS achieved_games
        FROM (SELECT 1) LEFT JOIN ${collectionSummaries} ${summary} ON ${eq(summary.collectionId, collection.id)})
      SELECT c.matched_count, c.total_games, c.achieved_games, p.* FROM counts c LEFT JOIN (
        SELECT h.game_id, h.achieved_at IS NOT NULL AS achieved, h.achieved_at, h.position, ${GAME_CORE_SELECT} FROM paged h ${gameOfRow} ${GAME_LEFT_JOINS}
      ) p ON 1
      ORDER BY p.position`;
}
