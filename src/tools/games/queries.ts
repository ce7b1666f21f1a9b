import { and, count, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { companies, gameEditions, gameRank, games, genres, masterMeta, platforms } from "../../db/schema";
import { type ColumnRef, columnSql, inJsonArray, visibleToUser } from "../../platform/columns";
import { type Db, type RowOf, statements } from "../../platform/db";
import { buildAfterLookups, type LookupPlan, type Lookups } from "../../platform/lookups";
import { searchForm } from "../../platform/normalize";
import type { PageWindow } from "../../platform/paging";
import type { GameFieldGroup, GameRecord } from "./gameObject";
import { EMPTY_GENERATION, generationKey } from "./generation";

/**
 * The shared game view: a game (g) with its platform (p), publisher (c) and main and support genres
 * (gm, gs), under the aliases every read of games gives them, so the select lists, the joins, the
 * game filters and the sorts below fit any statement that names its game g.
 */
export const GAME_VIEW = {
  game: alias(games, "g"),
  platform: alias(platforms, "p"),
  publisher: alias(companies, "c"),
  mainGenre: alias(genres, "gm"),
  subGenre: alias(genres, "gs"),
};
const { game: g, platform: p, publisher: c, mainGenre: gm, subGenre: gs } = GAME_VIEW;

/** Games aliased g, as a FROM item (an alias alone renders as its name). */
export const GAMES_G = sql`${games} ${g}`;

/**
 * game_rank aliased g: it has the games' filter columns under the same names, so the game filters
 * read it unchanged, in rows a fraction of the width (searchGames' hits, browseGames' count).
 */
export const rankedGame = alias(gameRank, "g");
export const GAME_RANK_G = sql`${gameRank} ${rankedGame}`;

/** The game (g) whose id is `gameId`, joined ("JOIN", "LEFT JOIN" for one that may be missing, "CROSS JOIN" to keep the order). */
// raw SQL: a join of the raw game reads (lists, search, browse, collections), whose select lists are GAME_VIEW's.
export const joinGame = (join: "JOIN" | "LEFT JOIN" | "CROSS JOIN", gameId: ColumnRef) =>
  sql`${sql.raw(join)} ${GAMES_G} ON ${g.id} = ${columnSql(gameId)}`;

/**
 * What toGame() reads without field groups: the `game` of list items, which never shows editions,
 * specs, links or the support genre. A page of them pays no editions lookup per row, and D1 carries
 * no columns nobody reads.
 */
// raw SQL: select lists over GAME_JOINS' aliases, shared with the list machinery (userLists.ts) and search.
export const GAME_CORE_SELECT = sql`${g.id}, ${g.title}, ${g.titleEn}, ${g.platformId}, ${p.name} AS platform_name,
  ${g.publisherId}, ${c.name} AS publisher_name, ${g.genreId}, ${gm.name} AS genre_name, ${g.releaseDate},
  ${g.dbId}, ${g.dbSlug}, ${g.dbCoverId}, ${g.ownerUserId}`;

const edition = alias(gameEditions, "e");

/** Everything toGame() needs, in one row per game (editions folded in as JSON). */
// raw SQL: editions folded in by a correlated json_group_array subquery.
export const GAME_SELECT = sql`${GAME_CORE_SELECT}, ${g.genreSubId}, ${gs.name} AS genre_sub_name, ${g.janCode},
  ${g.modelNumber}, ${g.price}, ${g.mediaId}, ${g.gpsId},
  (SELECT json_group_array(json_object('gameEditionId', ${edition.id}, 'title', ${edition.title}, 'modelNumber', json(${edition.modelNumber}),
     'releaseDate', ${edition.releaseDate}, 'price', ${edition.price}, 'janCode', ${edition.janCode}))
   FROM (SELECT * FROM ${gameEditions} WHERE ${gameEditions.gameId} = ${g.id} ORDER BY ${gameEditions.position}) ${edition}) AS editions`;

/** The game's platform, publisher and genres, joined to g; the platform by `platformJoin` (every game has one). */
// raw SQL: four aliased joins (genres twice), shared by every game read.
const gameJoins = (platformJoin: "JOIN" | "LEFT JOIN") => sql`
  ${sql.raw(platformJoin)} ${platforms} ${p} ON ${p.id} = ${g.platformId}
  LEFT JOIN ${companies} ${c} ON ${c.id} = ${g.publisherId}
  LEFT JOIN ${genres} ${gm} ON ${gm.id} = ${g.genreId}
  LEFT JOIN ${genres} ${gs} ON ${gs.id} = ${g.genreSubId}`;

export const GAME_JOINS = gameJoins("JOIN");

/** GAME_JOINS for a game that may be missing (LEFT JOIN games g): every join left. */
export const GAME_LEFT_JOINS = gameJoins("LEFT JOIN");

/** Official games, plus the caller's own custom games (games aliased g); nobody else's. */
export const visibleTo = (userId: string) => visibleToUser(g.ownerUserId, userId);

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
    SELECT ${GAME_SELECT} FROM ${GAMES_G} ${GAME_JOINS}
    WHERE ${inJsonArray(g.id, ids)} AND ${visibleTo(userId)}`);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The shared game filters (of games aliased g); searchGames and browseGames take all but `title`, having their own query. */
export interface GameFilters {
  platformIds?: number[];
  publisherId?: number;
  genreId?: number;
  releaseDateFrom?: string;
  releaseDateTo?: string;
  title?: string;
}

/** A genre as the genre filter reads it: where it sits in the taxonomy. */
type GenreNode = Pick<typeof genres.$inferSelect, "parentId" | "taxonomyKey">;

/** What the game filters look up before their conditions: the genre filtered by (null when there is no such genre). */
export interface GameLookups {
  genre: GenreNode | null;
}

async function genreNode(db: Db, genreId: number): Promise<GenreNode | null> {
  const genre = await db
    .select({ parentId: genres.parentId, taxonomyKey: genres.taxonomyKey })
    .from(genres)
    .where(eq(genres.id, genreId))
    .get();
  return genre ?? null;
}

/** The game filters' lookups: the genre's place in the taxonomy, when one is filtered by. */
export const gameLookups = ({ genreId }: GameFilters): Lookups<GameLookups> =>
  genreId === undefined ? {} : { genre: (db) => genreNode(db, genreId) };

/**
 * The genre filter, the one rule of every tool that takes genreId: a root genre matches a game's
 * main or support genre id; any other genre matches through its taxonomy key, i.e. the game's
 * classification (genreKey), support or main genre is that genre or one beneath it.
 */
function genreCondition(genreId: number, genre: GenreNode | null | undefined): SQL {
  if (!genre) return sql`0`;
  if (genre.parentId === null) return sql`(${g.genreId} = ${genreId} OR ${g.genreSubId} = ${genreId})`;
  // A range, not LIKE ("_" in a key is a LIKE wildcard), so games_genre_key_idx serves it: the keys
  // beneath "a.b" are those from "a.b." up to, not including, "a.b/" ("/" follows ".").
  const below = `${genre.taxonomyKey}.`;
  const classified = sql`(${g.genreKey} = ${genre.taxonomyKey} OR (${g.genreKey} >= ${below} AND ${g.genreKey} < ${`${genre.taxonomyKey}/`}))`;
  const subtree = statements
    .select({ id: genres.id })
    .from(genres)
    .where(or(eq(genres.taxonomyKey, genre.taxonomyKey), sql`substr(${genres.taxonomyKey}, 1, ${below.length}) = ${below}`))
    .getSQL();
  return sql`(${classified} OR ${g.genreSubId} IN (${subtree}) OR ${g.genreId} IN (${subtree}))`;
}

/** The shared `title` filter: title, reading and nicknames, or an edition's title, normalised. */
const titleCondition = (title: string) => {
  const term = searchForm(title);
  return sql`(instr(${g.searchTitle}, ${term}) > 0 OR instr(${g.searchAlias}, ${term}) > 0 OR instr(${g.searchEditionTitle}, ${term}) > 0)`;
};

/**
 * The shared game filters as conditions on games g, from what gameLookups looked up; release date
 * ranges are inclusive and drop undated games.
 */
export function gameConditions(filters: GameFilters, looked: Partial<GameLookups>): SQL[] {
  const conditions: SQL[] = [];
  if (filters.platformIds?.length) conditions.push(inJsonArray(g.platformId, filters.platformIds));
  if (filters.publisherId !== undefined) conditions.push(sql`${g.publisherId} = ${filters.publisherId}`);
  if (filters.genreId !== undefined) conditions.push(genreCondition(filters.genreId, looked.genre));
  if (filters.releaseDateFrom) conditions.push(sql`${g.releaseDate} >= ${filters.releaseDateFrom}`);
  if (filters.releaseDateTo) conditions.push(sql`${g.releaseDate} <= ${filters.releaseDateTo}`);
  if (filters.title !== undefined) conditions.push(titleCondition(filters.title));
  return conditions;
}

/** The shared game filters described once: their lookups, then their conditions (gameConditions). */
export const gameFilterPlan = (filters: GameFilters): LookupPlan<GameLookups, SQL[]> => ({
  lookups: gameLookups(filters),
  build: (looked) => gameConditions(filters, looked),
});

/** gameConditions with their lookups read first, for reads that are not read ahead. */
export const readGameConditions = (db: Db, filters: GameFilters): Promise<SQL[]> => buildAfterLookups(db, gameFilterPlan(filters));

/** Visibility, the game filters and title, their lookups read first (exportMyData's customGames). */
export async function ownedGameConditions(db: Db, userId: string, filters: GameFilters): Promise<SQL[]> {
  return [visibleTo(userId), ...(await readGameConditions(db, filters))];
}

/**
 * Official rows and the user's own custom ones, as the owner index serves them (listPlatforms,
 * listPublishers: read in owner order, unlike visibleToUser's searches).
 */
const officialOrOwn = (owner: SQLiteColumn, userId: string) => or(isNull(owner), eq(owner, userId));

/** A master row's `custom` as SQL gives it: 1 for the user's own, 0 for an official one. */
const customFlag = (owner: SQLiteColumn) => sql<number>`${owner} IS NOT NULL`.as("custom");

/** A page of master rows in listing order: official ones first, each part in id order. */
const listingOrder = (owner: SQLiteColumn, id: SQLiteColumn) => [sql`${owner} IS NOT NULL`, id];

/**
 * A page of the master rows of `table` the user can see that meet `where` (the `keys` columns and
 * `custom`), in listing order, and their total, for the tool's batch.
 */
function masterPageQueries<T extends typeof platforms | typeof companies>(
  table: T,
  keys: readonly (keyof T["_"]["columns"] & string)[],
  userId: string,
  where: SQL | undefined,
  page: PageWindow,
): [SQL, SQL] {
  const columns = Object.fromEntries(keys.map((key) => [key, (table as unknown as Record<string, SQLiteColumn>)[key]!]));
  const visible = and(officialOrOwn(table.ownerUserId, userId), where);
  return [
    statements
      .select({ ...columns, custom: customFlag(table.ownerUserId) })
      .from(table)
      .where(visible)
      .orderBy(...listingOrder(table.ownerUserId, table.id))
      .limit(page.limit)
      .offset(page.offset)
      .getSQL(),
    statements
      .select({ n: count().as("n") })
      .from(table)
      .where(visible)
      .getSQL(),
  ];
}

const PLATFORM_PAGE_KEYS = ["id", "name", "nameEn", "shortName", "maker", "releaseDate"] as const;
export type PlatformPageRow = RowOf<typeof platforms, (typeof PLATFORM_PAGE_KEYS)[number]> & { custom: number };

/** listPlatforms' page of the platforms the user can see, and their total. */
export const platformPageQueries = (userId: string, page: PageWindow) =>
  masterPageQueries(platforms, PLATFORM_PAGE_KEYS, userId, undefined, page);

const PUBLISHER_PAGE_KEYS = ["id", "name", "nameKana", "nameEn"] as const;
export type PublisherPageRow = RowOf<typeof companies, (typeof PUBLISHER_PAGE_KEYS)[number]> & { custom: number };

/** listPublishers' page of the publishers the user can see whose search text holds `term`, and their total. */
export const publisherPageQueries = (userId: string, term: string, page: PageWindow) =>
  masterPageQueries(companies, PUBLISHER_PAGE_KEYS, userId, sql`instr(${companies.searchText}, ${term}) > 0`, page);

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
 * official part (cached, see officialMaster) plus the caller's custom games; the note credits the
 * data's source.
 */
export async function coverageFrom(
  db: Db,
  [generationRows, customRows]: CoverageRows,
  credit?: string,
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
      " Games not listed may simply not be registered yet." +
      (credit ? ` Source: ${credit}` : ""),
  };
  return { generation: official.generation, coverage, gamesPerPlatform };
}
