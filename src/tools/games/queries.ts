import { and, count, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { companies, gameRank, games, genres, masterMeta, platforms } from "../../db/schema";
import { inJsonArray, visibleToUser } from "../../platform/columns";
import { type Db, type RowOf, statements } from "../../platform/db";
import { normalizeSearchText } from "../../platform/normalize";
import type { GameFieldGroup, GameRecord } from "./gameObject";
import { EMPTY_GENERATION, generationKey } from "./generation";

/**
 * What toGame() reads without field groups: the `game` of list items, which never shows editions,
 * specs, links or the support genre. A page of them pays no editions lookup per row, and D1 carries
 * no columns nobody reads.
 */
// raw SQL: select lists over GAME_JOINS' aliases, shared with the list machinery (userLists.ts) and search.
export const GAME_CORE_SELECT = sql.raw(`
  g.id, g.title, g.title_en, g.platform_id, p.name AS platform_name, g.publisher_id, c.name AS publisher_name,
  g.genre_id, gm.name AS genre_name, g.release_date, g.db_id, g.db_slug, g.db_cover_id, g.owner_user_id`);

/** Everything toGame() needs, in one row per game (editions folded in as JSON). */
// raw SQL: editions folded in by a correlated json_group_array subquery.
export const GAME_SELECT = sql.raw(`
  g.id, g.title, g.title_en, g.platform_id, p.name AS platform_name, g.publisher_id, c.name AS publisher_name,
  g.genre_id, gm.name AS genre_name, g.genre_sub_id, gs.name AS genre_sub_name, g.release_date, g.jan_code,
  g.model_number, g.price, g.media_id, g.gps_id, g.db_id, g.db_slug, g.db_cover_id, g.owner_user_id,
  (SELECT json_group_array(json_object('gameEditionId', e.id, 'title', e.title, 'modelNumber', json(e.model_number),
     'releaseDate', e.release_date, 'price', e.price, 'janCode', e.jan_code))
   FROM (SELECT * FROM game_editions WHERE game_id = g.id ORDER BY position) e) AS editions`);

// raw SQL: four aliased joins (genres twice), shared by every game read.
export const GAME_JOINS = sql.raw(`
  JOIN platforms p ON p.id = g.platform_id
  LEFT JOIN companies c ON c.id = g.publisher_id
  LEFT JOIN genres gm ON gm.id = g.genre_id
  LEFT JOIN genres gs ON gs.id = g.genre_sub_id`);

/** GAME_JOINS for a game that may be missing (LEFT JOIN games g): every join left. */
export const GAME_LEFT_JOINS = sql.raw(`
  LEFT JOIN platforms p ON p.id = g.platform_id
  LEFT JOIN companies c ON c.id = g.publisher_id
  LEFT JOIN genres gm ON gm.id = g.genre_id
  LEFT JOIN genres gs ON gs.id = g.genre_sub_id`);

/** Official games, plus the caller's own custom games (games aliased g); nobody else's. */
export const visibleTo = (userId: string) => visibleToUser(sql.raw("g.owner_user_id"), userId);

/** Which of these platform or publisher ids the user may refer to: official ones and their own. */
export async function usableIds(db: Db, table: "platforms" | "companies", userId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const t = table === "platforms" ? platforms : companies;
  const rows = await db
    .select({ id: t.id })
    .from(t)
    .where(and(inJsonArray(t.id, ids), visibleToUser(t.ownerUserId, userId)));
  return new Set(rows.map((row) => row.id));
}

/** Game records by id, in the order asked, limited to what the caller may see. */
export async function loadGameRecords(db: Db, userId: string, ids: readonly number[]): Promise<Map<number, GameRecord>> {
  if (ids.length === 0) return new Map();
  // raw SQL: GAME_SELECT's aliased joins and correlated editions subquery.
  const rows = await db.all<GameRecord>(sql`
    SELECT ${GAME_SELECT} FROM games g ${GAME_JOINS}
    WHERE ${inJsonArray(sql.raw("g.id"), ids)} AND ${visibleTo(userId)}`);
  return new Map(rows.map((row) => [row.id, row]));
}

export interface GameFilters {
  platformIds?: number[];
  publisherId?: number;
  genreId?: number;
  releaseDateFrom?: string;
  releaseDateTo?: string;
}

/**
 * The genre filter, the one rule of every tool that takes genreId: a root genre matches a game's
 * main or support genre id; any other genre matches through its taxonomy key, i.e. the game's
 * support or main genre is that genre or one beneath it.
 */
async function genreCondition(db: Db, genreId: number): Promise<SQL> {
  const genre = await db
    .select({ parentId: genres.parentId, taxonomyKey: genres.taxonomyKey })
    .from(genres)
    .where(eq(genres.id, genreId))
    .get();
  if (!genre) return sql`0`;
  if (genre.parentId === null) return sql`(g.genre_id = ${genreId} OR g.genre_sub_id = ${genreId})`;
  // A prefix test, not LIKE: "_" in a key is a LIKE wildcard.
  const below = `${genre.taxonomyKey}.`;
  const subtree = statements
    .select({ id: genres.id })
    .from(genres)
    .where(or(eq(genres.taxonomyKey, genre.taxonomyKey), sql`substr(${genres.taxonomyKey}, 1, ${below.length}) = ${below}`))
    .getSQL();
  return sql`(g.genre_sub_id IN (${subtree}) OR g.genre_id IN (${subtree}))`;
}

/** The shared game filters as SQL, given the genre filter's condition (read first: see genreCondition). */
function gameConditionsWith(filters: GameFilters, genre: SQL | undefined): SQL[] {
  const conditions: SQL[] = [];
  if (filters.platformIds?.length) {
    conditions.push(inJsonArray(sql.raw("g.platform_id"), filters.platformIds));
  }
  if (filters.publisherId !== undefined) conditions.push(sql`g.publisher_id = ${filters.publisherId}`);
  if (genre) conditions.push(genre);
  if (filters.releaseDateFrom) conditions.push(sql`g.release_date >= ${filters.releaseDateFrom}`);
  if (filters.releaseDateTo) conditions.push(sql`g.release_date <= ${filters.releaseDateTo}`);
  return conditions;
}

/** SQL conditions for the shared game filters; release date ranges are inclusive and drop undated games. */
export async function gameFilterConditions(db: Db, filters: GameFilters): Promise<SQL[]> {
  return gameConditionsWith(filters, filters.genreId === undefined ? undefined : await genreCondition(db, filters.genreId));
}

/** gameFilterConditions when nothing needs reading first (no genre to look up); undefined otherwise. */
export const gameFilterConditionsNow = (filters: GameFilters): SQL[] | undefined =>
  filters.genreId === undefined ? gameConditionsWith(filters, undefined) : undefined;

/** The shared `title` filter: title, reading and nicknames, or an edition's title, normalised. */
export const titleFilterCondition = (title: string) => {
  const term = normalizeSearchText(title);
  return sql`(instr(g.search_title, ${term}) > 0 OR instr(g.search_alias, ${term}) > 0 OR instr(g.search_edition_title, ${term}) > 0)`;
};

/** Game-side filters of a user's own list (library, wishlist): visibility, the game filters and title. */
export async function ownedGameConditions(db: Db, userId: string, filters: GameFilters & { title?: string }): Promise<SQL[]> {
  return [visibleTo(userId), ...(await listGameConditions(db, filters))];
}

/** The game filters and title of a user's own list, on its games (g), visibility aside (see userLists' ListFilter). */
export async function listGameConditions(db: Db, filters: GameFilters & { title?: string }): Promise<SQL[]> {
  return withTitle(await gameFilterConditions(db, filters), filters);
}

/** listGameConditions when nothing needs reading first; undefined otherwise. */
export function listGameConditionsNow(filters: GameFilters & { title?: string }): SQL[] | undefined {
  const conditions = gameFilterConditionsNow(filters);
  return conditions && withTitle(conditions, filters);
}

const withTitle = (conditions: SQL[], filters: { title?: string }) =>
  filters.title === undefined ? conditions : [...conditions, titleFilterCondition(filters.title)];

/**
 * Official rows and the user's own custom ones, as the owner index serves them (listPlatforms,
 * listPublishers: read in owner order, unlike visibleToUser's searches).
 */
const officialOrOwn = (owner: SQLiteColumn, userId: string) => or(isNull(owner), eq(owner, userId));

/** A master row's `custom` as SQL gives it: 1 for the user's own, 0 for an official one. */
const customFlag = (owner: SQLiteColumn) => sql<number>`${owner} IS NOT NULL`.as("custom");

/** A page of master rows in listing order: official ones first, each part in id order. */
const listingOrder = (owner: SQLiteColumn, id: SQLiteColumn) => [sql`${owner} IS NOT NULL`, id];

/** listPlatforms' page of the platforms the user can see, and their total, for the tool's batch. */
export function platformPageQueries(userId: string, page: { limit: number; offset: number }): [SQL, SQL] {
  const visible = officialOrOwn(platforms.ownerUserId, userId);
  return [
    statements
      .select({
        id: platforms.id,
        name: platforms.name,
        nameEn: platforms.nameEn,
        shortName: platforms.shortName,
        maker: platforms.maker,
        releaseDate: platforms.releaseDate,
        custom: customFlag(platforms.ownerUserId),
      })
      .from(platforms)
      .where(visible)
      .orderBy(...listingOrder(platforms.ownerUserId, platforms.id))
      .limit(page.limit)
      .offset(page.offset)
      .getSQL(),
    statements
      .select({ n: count().as("n") })
      .from(platforms)
      .where(visible)
      .getSQL(),
  ];
}
export type PlatformPageRow = RowOf<typeof platforms, "id" | "name" | "nameEn" | "shortName" | "maker" | "releaseDate"> & {
  custom: number;
};

/** listPublishers' page of the publishers the user can see whose search text holds `term`, and their total. */
export function publisherPageQueries(userId: string, term: string, page: { limit: number; offset: number }): [SQL, SQL] {
  const where = and(officialOrOwn(companies.ownerUserId, userId), sql`instr(${companies.searchText}, ${term}) > 0`);
  return [
    statements
      .select({
        id: companies.id,
        name: companies.name,
        nameKana: companies.nameKana,
        nameEn: companies.nameEn,
        custom: customFlag(companies.ownerUserId),
      })
      .from(companies)
      .where(where)
      .orderBy(...listingOrder(companies.ownerUserId, companies.id))
      .limit(page.limit)
      .offset(page.offset)
      .getSQL(),
    statements
      .select({ n: count().as("n") })
      .from(companies)
      .where(where)
      .getSQL(),
  ];
}
export type PublisherPageRow = RowOf<typeof companies, "id" | "name" | "nameKana" | "nameEn"> & { custom: number };

/** listGenres' read: every genre in id order. */
export const everyGenreQuery = () =>
  statements
    .select({ id: genres.id, name: genres.name, parentId: genres.parentId, taxonomyKey: genres.taxonomyKey })
    .from(genres)
    .orderBy(genres.id)
    .getSQL();
export type GenreListRow = RowOf<typeof genres, "id" | "name" | "parentId" | "taxonomyKey">;

export const allOf = (conditions: SQL[]) => (conditions.length ? sql.join(conditions, sql` AND `) : sql`1`);

export const groupsOf = (fields: readonly GameFieldGroup[] | undefined, defaults: readonly GameFieldGroup[]) =>
  new Set<GameFieldGroup>(fields ?? defaults);

export interface Coverage {
  totalGames: number;
  platforms: string[];
  note: string;
}

/** The official master data as of one games + platforms generation pair. */
interface OfficialMaster {
  generation: string;
  totalGames: number;
  /** Names of the official platforms that have games, in id order. */
  platformNames: string[];
  gamesPerPlatform: ReadonlyMap<number, number>;
}

const officialMasterCache = new Map<string, OfficialMaster>();

const generationsQuery = statements
  .select({ key: masterMeta.key, value: masterMeta.value })
  .from(masterMeta)
  .where(inArray(masterMeta.key, [generationKey("games"), generationKey("platforms")]))
  .getSQL();
type GenerationRows = RowOf<typeof masterMeta>[];

/**
 * Counts over the official games only change with the generations, so they are computed once per
 * pair per isolate (platform names count too, so a platforms import must also refresh them).
 */
async function officialMaster(db: Db, generationRows: GenerationRows): Promise<OfficialMaster> {
  const generationOf = (dataset: "games" | "platforms") =>
    generationRows.find((row) => row.key === generationKey(dataset))?.value ?? EMPTY_GENERATION;
  const generation = generationOf("games");
  const cacheKey = `${generation}|${generationOf("platforms")}`;
  const cached = officialMasterCache.get(cacheKey);
  if (cached) return cached;
  const [counts, officialPlatforms] = await db.batch([
    db
      .select({ platformId: gameRank.platformId, n: count() })
      .from(gameRank)
      .where(isNull(gameRank.ownerUserId))
      .groupBy(gameRank.platformId),
    db.select({ id: platforms.id, name: platforms.name }).from(platforms).where(isNull(platforms.ownerUserId)).orderBy(platforms.id),
  ]);
  const gamesPerPlatform = new Map(counts.map((row) => [row.platformId, row.n]));
  const official = {
    generation,
    totalGames: counts.reduce((sum, row) => sum + row.n, 0),
    platformNames: officialPlatforms.filter((p) => gamesPerPlatform.has(p.id)).map((p) => p.name),
    gamesPerPlatform,
  };
  officialMasterCache.set(cacheKey, official);
  return official;
}

type PlatformCountRows = (RowOf<typeof games, "platformId"> & { n: number })[];

/** The generations and the caller's custom games per platform: put these in the tool's own batch. */
export const coverageQueries = (userId: string): [SQL, SQL] => [
  generationsQuery,
  statements
    .select({ platformId: games.platformId, n: count().as("n") })
    .from(games)
    .where(eq(games.ownerUserId, userId))
    .groupBy(games.platformId)
    .getSQL(),
];
export type CoverageRows = [GenerationRows, PlatformCountRows];

/**
 * What the master data covers, and how many games the caller can see on each platform: the
 * official part (cached, see officialMaster) plus the caller's custom games.
 */
export async function coverageFrom(
  db: Db,
  [generationRows, customRows]: CoverageRows,
): Promise<{ generation: string; coverage: Coverage; gamesPerPlatform: ReadonlyMap<number, number> }> {
  const official = await officialMaster(db, generationRows);
  const gamesPerPlatform = new Map(official.gamesPerPlatform);
  for (const row of customRows) gamesPerPlatform.set(row.platform_id, (gamesPerPlatform.get(row.platform_id) ?? 0) + row.n);
  const customGames = customRows.reduce((sum, row) => sum + row.n, 0);
  const coverage = {
    totalGames: official.totalGames + customGames,
    platforms: official.platformNames,
    note:
      `Official master data of ${official.platformNames.length} retro platforms` +
      (customGames ? `, plus your ${customGames} custom games.` : ".") +
      " Games not listed may simply not be registered yet.",
  };
  return { generation: official.generation, coverage, gamesPerPlatform };
}
