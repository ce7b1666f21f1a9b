import { and, count, eq, gt, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { companies, gameEditions, games, genres, platforms } from "../../../db/schema";
import { visibleToUser } from "../../../platform/columns";
import type { Db } from "../../../platform/db";
import type { ExportRow } from "../../../platform/exportSource";
import { companyRow, gameRow, genreRow, platformRow } from "../../games/masterRows";

/**
 * Master data rows in the master row format (src/tools/games/masterRows.ts): the columns are the
 * import schema's own keys, so an exported file is what the operator import reads. Rows are read
 * from D1 one keyset page at a time. A games file also has `custom`, on the user's custom games
 * only (official rows stay exactly the import format, which has no such key for games).
 */
export const MASTER_COLUMNS = {
  platforms: Object.keys(platformRow.shape),
  companies: Object.keys(companyRow.shape),
  genres: Object.keys(genreRow.shape),
  games: [...Object.keys(gameRow.shape), "custom"],
} as const;

export const MASTER_PAGE_ROWS = 1_000;
export const GAME_PAGE_ROWS = 500;

/** Pages of rows ordered by their integer id, read MASTER_PAGE_ROWS at a time after the last id seen. */
async function* pagesById<R extends { id: number }>(page: (afterId: number) => Promise<R[]>, toRow: (row: R) => ExportRow) {
  let afterId = 0;
  for (;;) {
    const rows = await page(afterId);
    if (rows.length > 0) yield rows.map(toRow);
    if (rows.length < MASTER_PAGE_ROWS) return;
    afterId = rows.at(-1)!.id;
  }
}

/**
 * Every row of a master table the user may see, by id: the official ones, then (their ids being
 * higher) the user's own, flagged custom. `fields` are the row's columns between its id and custom.
 */
const visiblePages = <T extends typeof platforms | typeof companies>(
  db: Db,
  userId: string,
  table: T,
  idKey: string,
  fields: Record<string, SQLiteColumn>,
) =>
  pagesById(
    (afterId) =>
      db
        .select({ id: table.id, ...fields, custom: sql<number>`${table.ownerUserId} IS NOT NULL` })
        .from(table)
        .where(and(gt(table.id, afterId), visibleToUser(table.ownerUserId, userId)))
        .orderBy(table.id)
        .limit(MASTER_PAGE_ROWS),
    ({ id, custom, ...rest }) => ({ [idKey]: id, ...rest, custom: custom === 1 }),
  );

export const platformPages = (db: Db, userId: string) =>
  visiblePages(db, userId, platforms, "platformId", {
    name: platforms.name,
    nameEn: platforms.nameEn,
    shortName: platforms.shortName,
    maker: platforms.maker,
    releaseDate: platforms.releaseDate,
  });

export const companyPages = (db: Db, userId: string) =>
  visiblePages(db, userId, companies, "companyId", { name: companies.name, nameKana: companies.nameKana, nameEn: companies.nameEn });

/** Main (root) genres only. */
export const mainGenrePages = (db: Db) =>
  pagesById(
    (afterId) =>
      db
        .select({ id: genres.id, name: genres.name, parentId: genres.parentId, taxonomyKey: genres.taxonomyKey })
        .from(genres)
        .where(and(gt(genres.id, afterId), isNull(genres.parentId)))
        .orderBy(genres.id)
        .limit(MASTER_PAGE_ROWS),
    ({ id, ...rest }) => ({ genreId: id, ...rest }),
  );

/** How many rows a dataset's file holds for the user (games: of one platform). */
export const countQueries = {
  platforms: (db: Db, userId: string) => db.select({ n: count() }).from(platforms).where(visibleToUser(platforms.ownerUserId, userId)),
  companies: (db: Db, userId: string) => db.select({ n: count() }).from(companies).where(visibleToUser(companies.ownerUserId, userId)),
  genres: (db: Db) => db.select({ n: count() }).from(genres).where(isNull(genres.parentId)),
  games: (db: Db, userId: string, platformId: number) =>
    db
      .select({ n: count() })
      .from(games)
      .where(and(eq(games.platformId, platformId), visibleToUser(games.ownerUserId, userId))),
};

const mainGenre = alias(genres, "gm");
const subGenre = alias(genres, "gs");

/** A game's editions in their order, as the master row format's array. */
// raw SQL: json_group_array / json_object over a correlated subquery have no builder form
const EDITIONS_JSON = sql`(SELECT json_group_array(json_object('gameEditionId', e.id, 'title', e.title, 'modelNumber', json(e.model_number),
     'releaseDate', e.release_date, 'price', e.price, 'janCode', e.jan_code))
   FROM (SELECT * FROM ${gameEditions} WHERE ${gameEditions.gameId} = ${games.id} ORDER BY ${gameEditions.position}) e)`.mapWith(
  (editions: string) => JSON.parse(editions),
);

/**
 * A game as a master row, its keys in the file's column order (MASTER_COLUMNS.games); names derive
 * from the ids. genreKey is the stored one; a custom game, which has none, is classified by its
 * support genre's key where that lies within its main genre's, else by its main genre's.
 */
const GAME_ROW = {
  gameId: games.id,
  title: games.title,
  titleReading: games.titleReading,
  titleEn: games.titleEn,
  aliases: games.aliases,
  platformId: games.platformId,
  platformName: platforms.name,
  publisherId: games.publisherId,
  publisherName: companies.name,
  genreId: games.genreId,
  genreName: mainGenre.name,
  genreSubId: games.genreSubId,
  // raw SQL: a prefix test and a fallback over two joined genres have no builder form
  genreKey: sql<string | null>`coalesce(${games.genreKey},
    CASE WHEN substr(${subGenre.taxonomyKey}, 1, length(${mainGenre.taxonomyKey}) + 1) = ${mainGenre.taxonomyKey} || '.' THEN ${subGenre.taxonomyKey} END,
    ${mainGenre.taxonomyKey})`,
  releaseDate: games.releaseDate,
  janCode: games.janCode,
  modelNumber: games.modelNumber,
  price: games.price,
  mediaId: games.mediaId,
  gpsId: games.gpsId,
  dbId: games.dbId,
  dbSlug: games.dbSlug,
  dbCoverId: games.dbCoverId,
  editions: EDITIONS_JSON,
};

/** Who a game page is read for: official games, or one user's own custom games. */
export type GameOwner = { official: true } | { userId: string };
const ownerCondition = (owner: GameOwner) => ("userId" in owner ? eq(games.ownerUserId, owner.userId) : isNull(games.ownerUserId));

/** A page of the platform's games (of `owner`) that meet `conditions`, in `order`. */
const gamePage = (db: Db, platformId: number, owner: GameOwner, conditions: (SQL | undefined)[], order: SQLiteColumn[]) =>
  db
    .select(GAME_ROW)
    .from(games)
    .innerJoin(platforms, eq(platforms.id, games.platformId))
    .leftJoin(companies, eq(companies.id, games.publisherId))
    .leftJoin(mainGenre, eq(mainGenre.id, games.genreId))
    .leftJoin(subGenre, eq(subGenre.id, games.genreSubId))
    .where(and(eq(games.platformId, platformId), ownerCondition(owner), ...conditions))
    .orderBy(...order)
    .limit(GAME_PAGE_ROWS);

/**
 * The games of one platform in release date order (undated last), then gameId: the dated games by
 * (release_date, id) keyset, then the undated ones by id. Each page reads on from the last row.
 */
export async function* platformGamePages(db: Db, platformId: number, owner: GameOwner): AsyncIterable<ExportRow[]> {
  let after: { releaseDate: string; gameId: number } | null = null;
  for (;;) {
    const rows = await gamePage(
      db,
      platformId,
      owner,
      [
        isNotNull(games.releaseDate),
        after ? sql`(${games.releaseDate}, ${games.id}) > (${after.releaseDate}, ${after.gameId})` : undefined,
      ],
      [games.releaseDate, games.id],
    );
    if (rows.length > 0) yield rows;
    if (rows.length < GAME_PAGE_ROWS) break;
    const last = rows.at(-1)!;
    after = { releaseDate: last.releaseDate!, gameId: last.gameId };
  }
  let afterId = 0;
  for (;;) {
    const rows = await gamePage(db, platformId, owner, [isNull(games.releaseDate), gt(games.id, afterId)], [games.id]);
    if (rows.length > 0) yield rows;
    if (rows.length < GAME_PAGE_ROWS) return;
    afterId = rows.at(-1)!.gameId;
  }
}

/** The games file's order: release date ascending with undated games last, then gameId. */
export function compareGameRows(a: ExportRow, b: ExportRow): number {
  const dateA = a.releaseDate as string | null;
  const dateB = b.releaseDate as string | null;
  if (dateA !== dateB) {
    if (dateA === null) return 1;
    if (dateB === null) return -1;
    return dateA < dateB ? -1 : 1;
  }
  return (a.gameId as number) - (b.gameId as number);
}
