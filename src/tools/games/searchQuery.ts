import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { gameEditions, games, platforms } from "../../db/schema";
import type { Db } from "../../platform/db";
import { buildAfterLookups, type LookupPlan } from "../../platform/lookups";
import { normalizeCode, searchTerms } from "../../platform/normalize";
import type { GameRecord } from "./gameObject";
import {
  allOf,
  GAME_JOINS,
  GAME_RANK_G,
  GAME_SELECT,
  type GameFilters,
  type GameLookups,
  gameFilterPlan,
  joinGame,
  rankedGame,
  visibleTo,
} from "./queries";
import { SEARCH_SEPARATOR } from "./searchColumns";

export type MatchedBy = "janCode" | "modelNumber" | "externalId" | "title" | "titleEn" | "alias";

export interface SearchCriteria extends Omit<GameFilters, "title"> {
  query?: string;
  janCode?: string;
  modelNumber?: string;
  externalId?: { dbId?: number; dbSlug?: string };
}

/**
 * Match strength, smallest first: class * 10 + field. Classes: 0 identifier, 1 exact, 3 prefix,
 * 4 partial; fields: 0 title, 1 titleEn, 2 alias (reading or nickname). So an exact alias (12)
 * ranks after exact official titles (10, 11) and before any prefix match, as the spec orders.
 */
const FIELD_BY_RANK: MatchedBy[] = ["title", "titleEn", "alias"];
const HIT_ORDER = sql.raw(`h.strength, h.release_date IS NULL, h.release_date, h.id`);
const bar = SEARCH_SEPARATOR;

/**
 * Hits are read from game_rank under the game's alias (rankedGame, g): it has the games filter
 * columns under their games names, so the shared filters apply to it unchanged, plus the title
 * forms stored bracketed ("|a|b|"), so these tests allocate nothing per hit. See
 * migrations/0001_triggers_and_search.sql.
 */
const FORMS = [rankedGame.titleForms, rankedGame.titleEnForms, rankedGame.aliasForms];
type Form = (typeof FORMS)[number];
const isForm = (form: Form, value: string) => sql`instr(${form}, ${bar + value + bar}) > 0`;
const startsForm = (form: Form, value: string | SQL) =>
  sql`instr(${form}, ${typeof value === "string" ? bar + value : sql`${bar} || ${value}`}) > 0`;
const inForm = (form: Form, value: string | SQL) => sql`instr(${form}, ${value}) > 0`;

/** Identifier tests read the games row itself, joined as gc only when an identifier is searched. */
const gc = alias(games, "gc");
type Code = typeof gc.searchModel | typeof gc.searchEditionModel;
const holdsCode = (code: Code, value: string) => sql`instr(${bar} || ${code} || ${bar}, ${bar + value + bar}) > 0`;
const containsCode = (code: Code, value: string) => sql`instr(${code}, ${value}) > 0`;

const isIndexable = (value: string) => [...value].length >= 3;

/** Games whose given games_fts columns contain `value` (3+ characters), through the trigram index. */
// raw SQL: FTS5 MATCH (games_fts) has no builder form.
const trigramMatches = (columns: readonly string[], value: string) =>
  sql`SELECT rowid FROM games_fts WHERE games_fts MATCH ${`{${columns.join(" ")}} : "${value}"`}`;

/** Games whose title forms or model numbers hold a 1-2 character term: every such term is a token of games_grams. */
// raw SQL: FTS5 MATCH has no builder form.
const gramMatches = (column: "titles" | "codes", term: string) =>
  sql`SELECT rowid FROM games_grams WHERE games_grams MATCH ${`{${column}} : "${term}"`}`;

/** A term matches through the trigram index when it is long enough, else through games_grams. */
const indexedMatches = (trigramColumns: readonly string[], gramColumn: "titles" | "codes", term: string) =>
  sql`${rankedGame.id} IN (${isIndexable(term) ? trigramMatches(trigramColumns, term) : gramMatches(gramColumn, term)})`;

const TITLE_COLUMNS = ["search_title", "search_title_en", "search_alias"];

/** Game g has a title form (title, English title, reading, nickname) containing `term`. */
const titleContaining = (term: string) => indexedMatches(TITLE_COLUMNS, "titles", term);

/**
 * Game g has title forms containing every term: one FTS query per index, the terms ANDed inside
 * it, so a query of many words binds two values rather than several per word.
 */
function titleContainingAll(terms: readonly string[]): SQL {
  const phrases = (column: string, chosen: string[]) => chosen.map((term) => `${column} : "${term}"`).join(" AND ");
  const long = terms.filter(isIndexable);
  const short = terms.filter((term) => !isIndexable(term));
  const matches = [
    ...(long.length
      ? [sql`${rankedGame.id} IN (SELECT rowid FROM games_fts WHERE games_fts MATCH ${phrases(`{${TITLE_COLUMNS.join(" ")}}`, long)})`]
      : []),
    ...(short.length
      ? [sql`${rankedGame.id} IN (SELECT rowid FROM games_grams WHERE games_grams MATCH ${phrases("{titles}", short)})`]
      : []),
  ];
  return sql.join(matches, sql` AND `);
}

/** Game g has a model number, its own or an edition's, containing `model`. */
const modelContaining = (model: string) => indexedMatches(["search_model", "search_edition_model"], "codes", model);

/** The best class and field of one term on one game (see the strength scale above). */
function termStrength(term: string | SQL, wholeQuery: boolean): SQL {
  const exact = wholeQuery && typeof term === "string" ? exactStrength(term) : [];
  const prefix = FORMS.map((form, rank) => sql`WHEN ${startsForm(form, term)} THEN ${30 + rank}`);
  const partial = FORMS.slice(0, 2).map((form, rank) => sql`WHEN ${inForm(form, term)} THEN ${40 + rank}`);
  return sql`(CASE ${sql.join([...exact, ...prefix, ...partial], sql` `)} ELSE 42 END)`;
}

/** The weakest of several terms' strengths, the terms bound once as one JSON array. */
const weakestTermStrength = (terms: readonly string[]) =>
  sql`(SELECT max(${termStrength(sql.raw("t.value"), false)}) FROM json_each(${JSON.stringify(terms)}) t)`;

function exactStrength(whole: string): SQL[] {
  return FORMS.map((form, rank) => sql`WHEN ${isForm(form, whole)} THEN ${10 + rank}`);
}

interface Criterion {
  /** Which games match. */
  condition: SQL;
  strength: SQL;
}

interface IdentifierCriterion extends Criterion {
  exact: SQL;
  edition: SQL;
  matchedBy: MatchedBy;
}

function identifierCriteria(criteria: SearchCriteria): IdentifierCriterion[] {
  const found: IdentifierCriterion[] = [];
  if (criteria.janCode !== undefined) {
    // Stored JANs are validated digits, so the indexed columns compare as they are.
    const jan = normalizeCode(criteria.janCode);
    found.push({
      condition: sql`${rankedGame.id} IN (SELECT ${games.id} FROM ${games} WHERE ${games.janCode} = ${jan}
        UNION ALL SELECT ${gameEditions.gameId} FROM ${gameEditions} WHERE ${gameEditions.janCode} = ${jan})`,
      strength: sql`0`,
      exact: sql`1`,
      edition: sql`(${gc.janCode} IS NOT ${jan})`,
      matchedBy: "janCode",
    });
  }
  if (criteria.modelNumber !== undefined) {
    const model = normalizeCode(criteria.modelNumber);
    found.push({
      condition: modelContaining(model),
      strength: sql`0`,
      exact: sql`(${holdsCode(gc.searchModel, model)} OR ${holdsCode(gc.searchEditionModel, model)})`,
      edition: sql`(NOT ${containsCode(gc.searchModel, model)})`,
      matchedBy: "modelNumber",
    });
  }
  if (criteria.externalId !== undefined) {
    const { dbId, dbSlug } = criteria.externalId;
    found.push({
      condition: dbId !== undefined ? sql`${gc.dbId} = ${dbId}` : sql`${gc.dbSlug} = ${dbSlug ?? ""} AND ${gc.ownerUserId} IS NULL`,
      strength: sql`0`,
      exact: sql`1`,
      edition: sql`0`,
      matchedBy: "externalId",
    });
  }
  return found;
}

/**
 * Each query term must match (AND). With several terms the weakest decides the strength, unless
 * the whole query, spaces removed, equals a value exactly. Exact text matches are exactly those
 * of strength below 30.
 */
function queryCriterion(query: string | undefined): Criterion | undefined {
  const given = query === undefined ? [] : searchTerms(query);
  const terms = [...new Set(given)];
  if (terms.length === 0) return undefined;
  if (given.length === 1) return { condition: titleContaining(terms[0]!), strength: termStrength(terms[0]!, true) };
  const exactWhole = sql.join(exactStrength(given.join("")), sql` `);
  return { condition: titleContainingAll(terms), strength: sql`(CASE ${exactWhole} ELSE ${weakestTermStrength(terms)} END)` };
}

const EXACT_TEXT_BELOW = 30;

export interface SearchHit {
  record: GameRecord;
  matchedBy: MatchedBy;
  exact: boolean;
  edition: boolean;
}

export interface SearchResult {
  hits: SearchHit[];
  platformCounts: { platformId: number; name: string; count: number }[];
  totalCount: number;
}

export interface PreparedSearch {
  /**
   * The page of hits, ordered by strength, then release date (undated last), then id; each row
   * also carries the per-platform counts of all hits (most first) as JSON, whose sum is the total.
   */
  query: SQL;
  identifierMatch?: MatchedBy;
}

export type HitRow = GameRecord & { strength: number; exact: number | null; edition: number; platform_counts: string };
type PlatformCount = { platformId: number; name: string; count: number };

/**
 * The search query, built from what the game filters' lookups looked up; the caller runs it in its
 * own batch (one round trip). searchGames builds it ahead when no lookup is needed (firstReads).
 */
export function searchPlan(userId: string, criteria: SearchCriteria, limit: number): LookupPlan<GameLookups, PreparedSearch> {
  const filters = gameFilterPlan(criteria);
  return { lookups: filters.lookups, build: (looked) => searchWith(userId, criteria, limit, filters.build(looked)) };
}

/** The search query, its lookups read first. */
export const prepareSearch = (db: Db, userId: string, criteria: SearchCriteria, limit: number): Promise<PreparedSearch> =>
  buildAfterLookups(db, searchPlan(userId, criteria, limit));

/** Identifiers outrank text: with any identifier the strength is 0 and the text query only narrows. */
function searchWith(userId: string, criteria: SearchCriteria, limit: number, filters: SQL[]): PreparedSearch {
  const identifiers = identifierCriteria(criteria);
  const text = queryCriterion(criteria.query);
  const [identifier] = identifiers;
  const lead = identifier ?? text;
  if (!lead) throw new Error("prepareSearch needs a searchable term; the input schema requires one");
  const conditions = [...[...identifiers, ...(text ? [text] : [])].map((c) => c.condition), visibleTo(userId), ...filters];
  // Only identifier tests need the wide games row; text searches, which can match thousands of
  // games, filter and rank on game_rank alone. Materialised: the page and the platform counts
  // read the same hits without matching twice.
  const source = identifier ? sql`${GAME_RANK_G} JOIN ${games} ${gc} ON ${gc.id} = ${rankedGame.id}` : GAME_RANK_G;
  // raw SQL: a materialised CTE of ranked hits over FTS5 matches, json_group_array counts and GAME_SELECT's joins.
  const hits = sql`WITH hits AS MATERIALIZED (
    SELECT ${rankedGame.id}, ${rankedGame.platformId}, ${rankedGame.releaseDate}, ${lead.strength} AS strength, ${identifier?.exact ?? sql`NULL`} AS exact, ${identifier?.edition ?? sql`0`} AS edition
    FROM ${source} WHERE ${allOf(conditions)})`;
  return {
    // The page is cut before the game columns are built, so only `limit` rows pay for them; the
    // counts subquery is uncorrelated, so SQLite evaluates it once.
    query: sql`${hits}, ranked AS (SELECT * FROM hits h ORDER BY ${HIT_ORDER} LIMIT ${limit})
      SELECT ${GAME_SELECT}, h.strength, h.exact, h.edition,
        (SELECT json_group_array(json_object('platformId', c.platform_id, 'name', ${platforms.name}, 'count', c.n))
         FROM (SELECT platform_id, COUNT(*) AS n FROM hits GROUP BY platform_id ORDER BY n DESC, platform_id) c
         JOIN ${platforms} ON ${platforms.id} = c.platform_id) AS platform_counts
      FROM ranked h ${joinGame("JOIN", "h.id")} ${GAME_JOINS}
      ORDER BY ${HIT_ORDER}`,
    identifierMatch: identifier?.matchedBy,
  };
}

export function readSearch(prepared: PreparedSearch, page: HitRow[]): SearchResult {
  const counts = page[0] ? (JSON.parse(page[0].platform_counts) as PlatformCount[]) : [];
  return {
    hits: page.map((row) => ({
      record: row,
      matchedBy: prepared.identifierMatch ?? FIELD_BY_RANK[row.strength % 10]!,
      exact: row.exact === null ? row.strength < EXACT_TEXT_BELOW : row.exact === 1,
      edition: row.edition === 1,
    })),
    platformCounts: counts,
    totalCount: counts.reduce((sum, c) => sum + c.count, 0),
  };
}

/** A filter (not a ranking) form of a text query: every term must match one of the game's titles. */
export function queryTermsCondition(query: string): SQL {
  return queryCriterion(query)?.condition ?? sql`0`;
}
