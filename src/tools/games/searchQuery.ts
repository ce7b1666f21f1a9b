import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db";
import { normalizeCode, searchTerms } from "../../platform/normalize";
import type { GameRecord } from "./gameObject";
import { GAME_JOINS, GAME_SELECT, type GameFilters, allOf, gameFilterConditions, visibleTo } from "./queries";
import { SEARCH_SEPARATOR } from "./searchColumns";

export type MatchedBy = "janCode" | "modelNumber" | "externalId" | "title" | "titleEn" | "alias";

export interface SearchCriteria extends GameFilters {
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
const TEXT_COLUMNS = ["search_title", "search_title_en", "search_alias"] as const;
const HIT_ORDER = sql.raw(`h.strength, h.release_date IS NULL, h.release_date, h.id`);
const column = (name: string) => sql.raw(`g.${name}`);
const bar = SEARCH_SEPARATOR;

/** `value` is one of the "|"-joined forms in the column. */
const holds = (name: string, value: string) => sql`instr(${bar} || ${column(name)} || ${bar}, ${bar + value + bar}) > 0`;
/** One of the forms in the column starts with `value`. */
const startsOneOf = (name: string, value: string) => sql`instr(${bar} || ${column(name)}, ${bar + value}) > 0`;
const contains = (name: string, value: string) => sql`instr(${column(name)}, ${value}) > 0`;

const isIndexable = (value: string) => [...value].length >= 3;

/** Games whose given columns contain `value` (3+ characters), through the trigram index. */
const indexedContaining = (columns: readonly string[], value: string) =>
  sql`g.id IN (SELECT rowid FROM games_fts WHERE games_fts MATCH ${`{${columns.join(" ")}} : "${value}"`})`;

/** Games with a title form containing `term`. Shorter terms scan games_text, a narrow copy of
 * the title forms that triggers keep, which costs far less than scanning the wide games rows. */
const titleContaining = (term: string) =>
  isIndexable(term) ? indexedContaining(TEXT_COLUMNS, term) : sql`g.id IN (SELECT id FROM games_text WHERE instr(text, ${term}) > 0)`;

/** Games with a code containing `code`; a short code scans the code columns. */
const codeContaining = (columns: readonly string[], code: string) =>
  isIndexable(code) ? indexedContaining(columns, code) : sql`(${sql.join(columns.map((name) => contains(name, code)), sql` OR `)})`;

/** The best class and field of one term on one game (see the strength scale above). */
function termStrength(term: string, wholeQuery: boolean): SQL {
  const exact = wholeQuery ? exactStrength(term) : [];
  const prefix = TEXT_COLUMNS.map((name, rank) => sql`WHEN ${startsOneOf(name, term)} THEN ${30 + rank}`);
  const partial = TEXT_COLUMNS.slice(0, 2).map((name, rank) => sql`WHEN ${contains(name, term)} THEN ${40 + rank}`);
  return sql`(CASE ${sql.join([...exact, ...prefix, ...partial], sql` `)} ELSE 42 END)`;
}

function exactStrength(whole: string): SQL[] {
  return TEXT_COLUMNS.map((name, rank) => sql`WHEN ${holds(name, whole)} THEN ${10 + rank}`);
}

interface Criterion {
  /** Which games match. */
  condition: SQL;
  strength: SQL;
  exact: SQL;
  edition: SQL;
  matchedBy?: MatchedBy;
}

function identifierCriteria(criteria: SearchCriteria): Criterion[] {
  const found: Criterion[] = [];
  if (criteria.janCode !== undefined) {
    const jan = normalizeCode(criteria.janCode);
    found.push({
      condition: sql`${codeContaining(["search_jan", "search_edition_jan"], jan)} AND (g.search_jan = ${jan} OR ${holds("search_edition_jan", jan)})`,
      strength: sql`0`,
      exact: sql`1`,
      edition: sql`(g.search_jan <> ${jan})`,
      matchedBy: "janCode",
    });
  }
  if (criteria.modelNumber !== undefined) {
    const code = normalizeCode(criteria.modelNumber);
    found.push({
      condition: codeContaining(["search_model", "search_edition_model"], code),
      strength: sql`0`,
      exact: sql`(${holds("search_model", code)} OR ${holds("search_edition_model", code)})`,
      edition: sql`(NOT ${contains("search_model", code)})`,
      matchedBy: "modelNumber",
    });
  }
  if (criteria.externalId !== undefined) {
    const { dbId, dbSlug } = criteria.externalId;
    found.push({
      condition: dbId !== undefined ? sql`g.db_id = ${dbId}` : sql`g.db_slug = ${dbSlug ?? ""} AND g.owner_user_id IS NULL`,
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
 * the whole query, spaces removed, equals a value exactly.
 */
function queryCriterion(query: string | undefined): Criterion | undefined {
  const terms = query === undefined ? [] : searchTerms(query);
  if (terms.length === 0) return undefined;
  const condition = sql.join(terms.map(titleContaining), sql` AND `);
  if (terms.length === 1) {
    const strength = termStrength(terms[0]!, true);
    return { condition, strength, exact: sql`(${strength} < 30)`, edition: sql`0` };
  }
  const weakest = sql`max(${sql.join(terms.map((term) => termStrength(term, false)), sql`, `)})`;
  const whole = exactStrength(terms.join(""));
  return {
    condition,
    strength: sql`(CASE ${sql.join(whole, sql` `)} ELSE ${weakest} END)`,
    exact: sql`(${sql.join(TEXT_COLUMNS.map((name) => holds(name, terms.join(""))), sql` OR `)})`,
    edition: sql`0`,
  };
}

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

export type HitRow = GameRecord & { strength: number; exact: number; edition: number; platform_counts: string };
type PlatformCount = { platformId: number; name: string; count: number };

/**
 * Builds the search query; the caller runs it in its own batch (one round trip). Identifiers
 * outrank text: with any identifier the strength is 0 and the text query only narrows.
 */
export async function prepareSearch(db: Db, userId: string, criteria: SearchCriteria, limit: number): Promise<PreparedSearch> {
  const identifiers = identifierCriteria(criteria);
  const text = queryCriterion(criteria.query);
  const all = [...identifiers, ...(text ? [text] : [])];
  const lead = identifiers[0] ?? text;
  if (!lead) throw new Error("prepareSearch needs a searchable term; the input schema requires one");
  const edition = identifiers.find((c) => c.matchedBy === "janCode" || c.matchedBy === "modelNumber")?.edition ?? sql`0`;
  const conditions = [...all.map((c) => c.condition), visibleTo(userId), ...(await gameFilterConditions(db, criteria))];
  // Materialised: the page and the platform counts read the same hits without matching twice.
  const hits = sql`WITH hits AS MATERIALIZED (
    SELECT g.id, g.platform_id, g.release_date, ${lead.strength} AS strength, ${lead.exact} AS exact, ${edition} AS edition
    FROM games g WHERE ${allOf(conditions)})`;
  return {
    // The page is cut before the game columns are built, so only `limit` rows pay for them; the
    // counts subquery is uncorrelated, so SQLite evaluates it once.
    query: sql`${hits}, ranked AS (SELECT * FROM hits h ORDER BY ${HIT_ORDER} LIMIT ${limit})
      SELECT ${GAME_SELECT}, h.strength, h.exact, h.edition,
        (SELECT json_group_array(json_object('platformId', c.platform_id, 'name', p.name, 'count', c.n))
         FROM (SELECT platform_id, COUNT(*) AS n FROM hits GROUP BY platform_id ORDER BY n DESC, platform_id) c
         JOIN platforms p ON p.id = c.platform_id) AS platform_counts
      FROM ranked h JOIN games g ON g.id = h.id ${GAME_JOINS}
      ORDER BY ${HIT_ORDER}`,
    identifierMatch: identifiers[0]?.matchedBy,
  };
}

export function readSearch(prepared: PreparedSearch, page: HitRow[]): SearchResult {
  const counts = page[0] ? (JSON.parse(page[0].platform_counts) as PlatformCount[]) : [];
  return {
    hits: page.map((row) => ({
      record: row,
      matchedBy: prepared.identifierMatch ?? FIELD_BY_RANK[row.strength % 10]!,
      exact: row.exact === 1,
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
