import { type SQL, sql } from "drizzle-orm";
import { games, platforms } from "../../db/schema";
import type { Db } from "../../platform/db";
import { buildAfterLookups, type LookupPlan } from "../../platform/lookups";
import { searchTerms } from "../../platform/normalize";
import type { GameRecord } from "./gameObject";
import { type Criterion, gc, identifierCriteria, type MatchedBy, type SearchCriteria } from "./identifierCriteria";
import { onNamedPlatform, splitPlatformTerms } from "./platformWords";
import { allOf, GAME_JOINS, GAME_RANK_G, GAME_SELECT, type GameLookups, gameFilterPlan, joinGame, rankedGame, visibleTo } from "./queries";
import { SEARCH_SEPARATOR } from "./searchColumns";
import { gramMatches, indexedMatches, isIndexable, trigramMatches } from "./searchIndexes";

export type { MatchedBy, SearchCriteria };

/**
 * Match strength, smallest first: class * 10 + field. Classes: 0 identifier, 1 exact, 3 prefix,
 * 4 partial, 5 within one edit (the fallback); fields: 0 title, 1 titleEn, 2 alias (reading or
 * nickname). An identifier's strength is 0 for a whole code, 1 for a code's prefix, 2 inside one.
 * The order is the spec's, "identifier, exact title, alias, prefix, partial, then release date":
 * an exact alias (12) after the exact official titles (10 and 11, which tie), the fields of a
 * prefix or partial class tying, so that same-name ports follow their release dates.
 */
const FIELD_BY_RANK: MatchedBy[] = ["title", "titleEn", "alias"];
const HIT_ORDER = sql.raw(
  `h.strength / 10, CASE WHEN h.strength < 10 THEN h.strength ELSE h.strength = 12 END, h.release_date IS NULL, h.release_date, h.id`,
);
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

/** The prefix and partial cases of one term's strength on one game (see the strength scale above). */
function termCases(term: string | SQL): SQL[] {
  const prefix = FORMS.map((form, rank) => sql`WHEN ${startsForm(form, term)} THEN ${30 + rank}`);
  const partial = FORMS.slice(0, 2).map((form, rank) => sql`WHEN ${inForm(form, term)} THEN ${40 + rank}`);
  return [...prefix, ...partial];
}

/** The weakest of several terms' strengths, the terms bound once as one JSON array. */
const weakestTermStrength = (terms: readonly string[]) =>
  sql`(SELECT max(CASE ${sql.join(termCases(sql.raw("t.value")), sql` `)} ELSE 42 END) FROM json_each(${JSON.stringify(terms)}) t)`;

/**
 * A text query's strength: exact when one of `wholes` (the query with its spaces removed, or
 * without its platform words) equals a value; else, for one term, its own prefix or partial
 * class, and for several, the weakest term's.
 */
function textStrength(wholes: readonly string[], terms: readonly string[]): SQL {
  const exact = wholes.flatMap((whole) => FORMS.map((form, rank) => sql`WHEN ${isForm(form, whole)} THEN ${10 + rank}`));
  const rest = terms.length === 1 ? termCases(terms[0]!) : [sql`WHEN 1 THEN ${weakestTermStrength(terms)}`];
  return sql`(CASE ${sql.join([...exact, ...rest], sql` `)} ELSE 42 END)`;
}

/** Game g's title forms contain every term (none: any game). */
const titleTermsCondition = (terms: readonly string[]) =>
  terms.length === 0 ? sql`1` : terms.length === 1 ? titleContaining(terms[0]!) : titleContainingAll(terms);

interface QueryCriterion extends Criterion {
  /** The query's terms that named platforms and narrowed the search to them. */
  platformTerms: string[];
  /** The fallback within one edit, when some title term is long enough for it. */
  fuzzy?: Criterion;
}

/**
 * Each query term must match (AND); a platform word (platformWords.ts) matches a game on a platform
 * it names or a title holding it. With several terms the weakest title term decides the strength,
 * unless the whole query, spaces (or platform words) removed, equals a value exactly. Exact text
 * matches are exactly those of strength below 30.
 */
function queryCriterion(query: string | undefined, hasIdentifier: boolean): QueryCriterion | undefined {
  const given = query === undefined ? [] : searchTerms(query);
  if (given.length === 0) return undefined;
  const { platformTerms, textTerms } = splitPlatformTerms([...new Set(given)], hasIdentifier);
  const platform = platformTerms.length ? [sql`(${onNamedPlatform(platformTerms)} OR ${titleContainingAll(platformTerms)})`] : [];
  const wholes = [...new Set([given.join(""), textTerms.join("")])].filter(Boolean);
  const strength = textTerms.length ? textStrength(wholes, textTerms) : sql`42`;
  const fuzzyTerms = hasIdentifier ? [] : textTerms.filter(allowsOneEdit);
  return {
    condition: allOf([titleTermsCondition(textTerms), ...platform]),
    strength,
    platformTerms,
    ...(fuzzyTerms.length
      ? {
          fuzzy: {
            condition: allOf([
              ...textTerms.map((term) => (allowsOneEdit(term) ? withinOneEdit(term) : titleContaining(term))),
              ...platform,
            ]),
            strength: oneEditStrength(fuzzyTerms),
          },
        }
      : {}),
  };
}

/** Terms of five characters or more may match within one edit when nothing matches as typed. */
const allowsOneEdit = (term: string) => [...term].length >= 5;

/** Any character of one form ("|" separates the forms of a column). */
const ONE_CHARACTER = "[^|]";

/**
 * GLOB patterns of every text within one edit (insertion, deletion or substitution) of `term`,
 * anywhere in a form. Search forms hold letters, digits and ー only, never a GLOB wildcard.
 */
function oneEditPatterns(term: string): string[] {
  const chars = [...term];
  const patterns = new Set<string>();
  for (let i = 0; i <= chars.length; i++) {
    const before = chars.slice(0, i).join("");
    patterns.add(`*${before}${ONE_CHARACTER}${chars.slice(i).join("")}*`);
    if (i === chars.length) continue;
    const after = chars.slice(i + 1).join("");
    patterns.add(`*${before}${ONE_CHARACTER}${after}*`);
    patterns.add(`*${before}${after}*`);
  }
  return [...patterns];
}

const formMatchesAny = (form: Form | SQL, patterns: readonly string[]) =>
  sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(patterns)}) p WHERE ${form} GLOB p.value)`;

/** What bounds the fallback's cost: the candidates read per half of a term. */
const CANDIDATES_PER_HALF = 1000;

const holding = (part: string) => (isIndexable(part) ? trigramMatches(TITLE_COLUMNS, part) : gramMatches("titles", part));

/**
 * Game g has a title form within one edit of `term`. The edit leaves one half of the term intact,
 * so the candidates are the games holding either half, found through the indexes (at most
 * CANDIDATES_PER_HALF each); only they are tested against the patterns, all forms at once ("|"
 * bounds every pattern's wildcard to one form).
 */
function withinOneEdit(term: string): SQL {
  const chars = [...term];
  const half = Math.floor(chars.length / 2);
  const [left, right] = [chars.slice(0, half).join(""), chars.slice(half).join("")].map(
    (part) => sql`SELECT * FROM (${holding(part)} LIMIT ${CANDIDATES_PER_HALF})`,
  );
  const allForms = sql`(${rankedGame.titleForms} || ${rankedGame.titleEnForms} || ${rankedGame.aliasForms})`;
  return sql`${rankedGame.id} IN (${left} UNION ${right}) AND ${formMatchesAny(allForms, oneEditPatterns(term))}`;
}

/** The fallback's class (5) and the first field within one edit of a term. */
function oneEditStrength(terms: readonly string[]): SQL {
  const patterns = terms.flatMap(oneEditPatterns);
  const cases = FORMS.slice(0, 2).map((form, rank) => sql`WHEN ${formMatchesAny(form, patterns)} THEN ${50 + rank}`);
  return sql`(CASE ${sql.join(cases, sql` `)} ELSE 52 END)`;
}

const EXACT_TEXT_BELOW = 30;
const ONE_EDIT_FROM = 50;

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
  /** Nothing matched as typed: the hits are the fallback's, within one edit. */
  withinOneEdit: boolean;
}

export interface PreparedSearch {
  /**
   * The page of hits, ordered by strength, then release date (undated last), then id; each row
   * also carries the per-platform counts of all hits (most first) as JSON, whose sum is the total.
   */
  query: SQL;
  /** The same page from the fallback within one edit, for when `query` found nothing. */
  fallback?: SQL;
  identifierMatch?: MatchedBy;
  /** The query's terms that named platforms (for the hint of an empty answer). */
  platformTerms: string[];
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
  const identifiers = identifierCriteria(userId, criteria);
  const [identifier] = identifiers;
  const text = queryCriterion(criteria.query, identifier !== undefined);
  const lead = identifier ?? text;
  if (!lead) throw new Error("prepareSearch needs a searchable term; the input schema requires one");
  const others = [visibleTo(userId), ...filters];
  const conditions = [...[...identifiers, ...(text ? [text] : [])].map((c) => c.condition), ...others];
  // Only identifier tests need the wide games row; text searches, which can match thousands of
  // games, filter and rank on game_rank alone. Materialised: the page and the platform counts
  // read the same hits without matching twice.
  const source = identifier ? sql`${GAME_RANK_G} JOIN ${games} ${gc} ON ${gc.id} = ${rankedGame.id}` : GAME_RANK_G;
  const selectHits = (strength: SQL, where: SQL[]) =>
    sql`SELECT ${rankedGame.id}, ${rankedGame.platformId}, ${rankedGame.releaseDate}, ${strength} AS strength, ${identifier?.exact ?? sql`NULL`} AS exact, ${identifier?.edition ?? sql`0`} AS edition
    FROM ${source} WHERE ${allOf(where)}`;
  const fuzzy = text?.fuzzy;
  return {
    query: pageOf(selectHits(lead.strength, conditions), limit),
    // Read only when nothing matched as typed (a second statement, so that no other search pays for it).
    ...(fuzzy ? { fallback: pageOf(selectHits(fuzzy.strength, [fuzzy.condition, ...others]), limit) } : {}),
    identifierMatch: identifier?.matchedBy,
    platformTerms: text?.platformTerms ?? [],
  };
}

/** The page of hits and their per-platform counts, from the statement selecting every hit. */
function pageOf(selectHits: SQL, limit: number): SQL {
  // raw SQL: a materialised CTE of ranked hits over FTS5 matches, json_group_array counts and GAME_SELECT's joins.
  // The page is cut before the game columns are built, so only `limit` rows pay for them; the
  // counts subquery is uncorrelated, so SQLite evaluates it once.
  return sql`WITH hits AS MATERIALIZED (${selectHits}), ranked AS (SELECT * FROM hits h ORDER BY ${HIT_ORDER} LIMIT ${limit})
      SELECT ${GAME_SELECT}, h.strength, h.exact, h.edition,
        (SELECT json_group_array(json_object('platformId', c.platform_id, 'name', ${platforms.name}, 'count', c.n))
         FROM (SELECT platform_id, COUNT(*) AS n FROM hits GROUP BY platform_id ORDER BY n DESC, platform_id) c
         JOIN ${platforms} ON ${platforms.id} = c.platform_id) AS platform_counts
      FROM ranked h ${joinGame("JOIN", "h.id")} ${GAME_JOINS}
      ORDER BY ${HIT_ORDER}`;
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
    withinOneEdit: prepared.identifierMatch === undefined && (page[0]?.strength ?? 0) >= ONE_EDIT_FROM,
  };
}

/** A filter (not a ranking) form of a text query: every term must match one of the game's titles. */
export function queryTermsCondition(query: string): SQL {
  const terms = searchTerms(query);
  return terms.length ? titleTermsCondition([...new Set(terms)]) : sql`0`;
}
