import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db";
import { normalizeCode, searchTerms } from "../../platform/normalize";
import type { GameRecord } from "./gameObject";
import { GAME_JOINS, GAME_SELECT, type GameFilters, allOf, gameFilterConditions, visibleTo } from "./queries";

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
const FIELD_RANK = sql.raw(`CASE m.field WHEN 'title' THEN 0 WHEN 'titleEn' THEN 1 ELSE 2 END`);
const FIELD_BY_RANK: MatchedBy[] = ["title", "titleEn", "alias"];
const TEXT_FIELDS = sql.raw(`('title', 'titleEn', 'alias')`);
const HIT_ORDER = sql.raw(`h.strength, h.release_date IS NULL, h.release_date, h.id`);

/**
 * Rows of game_terms containing `term`. Three or more characters go through the trigram index;
 * shorter terms cannot, and are found by scanning the terms of the given fields.
 */
function termRows(term: string, fields: SQL): SQL {
  if ([...term].length >= 3) {
    return sql`SELECT t.game_id, t.edition_id, t.field, t.term FROM game_terms_fts f JOIN game_terms t ON t.id = f.rowid
      WHERE game_terms_fts MATCH ${`"${term}"`} AND t.field IN ${fields}`;
  }
  return sql`SELECT game_id, edition_id, field, term FROM game_terms WHERE field IN ${fields} AND instr(term, ${term}) > 0`;
}

function textTermCte(name: string, term: string, wholeQuery: boolean): SQL {
  const exact = wholeQuery ? sql`WHEN m.term = ${term} THEN 1` : sql``;
  // SQLite's substr counts characters, so the length is in code points, not UTF-16 units.
  const length = [...term].length;
  return sql`${sql.raw(name)} AS (
    SELECT m.game_id, MIN((CASE ${exact} WHEN substr(m.term, 1, ${length}) = ${term} THEN 3 ELSE 4 END) * 10 + ${FIELD_RANK}) AS s
    FROM (${termRows(term, TEXT_FIELDS)}) m GROUP BY m.game_id)`;
}

interface Criterion {
  cte: SQL;
  name: string;
  /** SQL for this criterion's strength, exactness and edition flag on the joined row. */
  s: SQL;
  exact: SQL;
  edition: SQL;
  matchedBy?: MatchedBy;
}

function identifierCriteria(criteria: SearchCriteria): Criterion[] {
  const found: Criterion[] = [];
  if (criteria.janCode !== undefined) {
    found.push({
      name: "c_jan",
      cte: sql`c_jan AS (SELECT game_id, MIN(edition_id IS NOT NULL) AS edition FROM game_terms
        WHERE field = 'janCode' AND term = ${normalizeCode(criteria.janCode)} GROUP BY game_id)`,
      s: sql`0`,
      exact: sql`1`,
      edition: sql`c_jan.edition`,
      matchedBy: "janCode",
    });
  }
  if (criteria.modelNumber !== undefined) {
    const code = normalizeCode(criteria.modelNumber);
    found.push({
      name: "c_model",
      cte: sql`c_model AS (SELECT m.game_id, MIN(m.edition_id IS NOT NULL) AS edition, MAX(m.term = ${code}) AS exact
        FROM (${termRows(code, sql.raw(`('modelNumber')`))}) m GROUP BY m.game_id)`,
      s: sql`0`,
      exact: sql`c_model.exact`,
      edition: sql`c_model.edition`,
      matchedBy: "modelNumber",
    });
  }
  if (criteria.externalId !== undefined) {
    const { dbId, dbSlug } = criteria.externalId;
    const where = dbId !== undefined ? sql`db_id = ${dbId}` : sql`db_slug = ${dbSlug ?? ""} AND owner_user_id IS NULL`;
    found.push({
      name: "c_ext",
      cte: sql`c_ext AS (SELECT id AS game_id FROM games WHERE ${where})`,
      s: sql`0`,
      exact: sql`1`,
      edition: sql`0`,
      matchedBy: "externalId",
    });
  }
  return found;
}

/** Each query term is its own criterion (AND); with several, the weakest decides the strength,
 * unless the whole query, spaces removed, equals a value exactly. */
function queryCriteria(query: string | undefined): { criteria: Criterion[]; exactCte?: SQL } {
  const terms = query === undefined ? [] : searchTerms(query);
  const wholeQuery = terms.length === 1;
  const criteria = terms.map((term, i) => {
    const name = `c_q${i}`;
    return { name, cte: textTermCte(name, term, wholeQuery), s: sql.raw(`${name}.s`), exact: sql.raw(`(${name}.s < 30)`), edition: sql`0` };
  });
  if (terms.length < 2) return { criteria };
  const exactCte = sql`c_exact AS (SELECT m.game_id, MIN(10 + ${FIELD_RANK}) AS s FROM game_terms m
    WHERE m.term = ${terms.join("")} AND m.field IN ${TEXT_FIELDS} GROUP BY m.game_id)`;
  return { criteria, exactCte };
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

/** Builds the search query; the caller runs it in its own batch (one round trip). */
export async function prepareSearch(db: Db, userId: string, criteria: SearchCriteria, limit: number): Promise<PreparedSearch> {
  const identifiers = identifierCriteria(criteria);
  const { criteria: textCriteria, exactCte } = queryCriteria(criteria.query);
  const [first, ...rest] = [...identifiers, ...textCriteria];
  if (!first) throw new Error("prepareSearch needs a searchable term; check hasSearchableTerm first");

  const joins = sql.join(
    rest.map((c) => sql`JOIN ${sql.raw(c.name)} ON ${sql.raw(c.name)}.game_id = ${sql.raw(first.name)}.game_id`),
    sql` `,
  );
  const exactJoin = exactCte ? sql`LEFT JOIN c_exact ON c_exact.game_id = ${sql.raw(first.name)}.game_id` : sql``;
  const textStrength = textCriteria.length > 1 ? sql`max(${sql.join(textCriteria.map((c) => c.s), sql`, `)})` : (textCriteria[0]?.s ?? sql`0`);
  const strength = identifiers.length ? sql`0` : exactCte ? sql`COALESCE(c_exact.s, ${textStrength})` : textStrength;
  const exact = identifiers[0]?.exact ?? (exactCte ? sql`(c_exact.s IS NOT NULL)` : textCriteria[0]!.exact);
  const edition = identifiers.find((c) => c.matchedBy === "janCode" || c.matchedBy === "modelNumber")?.edition ?? sql`0`;
  const conditions = [visibleTo(userId), ...(await gameFilterConditions(db, criteria))];
  const ctes = sql.join([first, ...rest].map((c) => c.cte).concat(exactCte ? [exactCte] : []), sql`, `);
  // Materialised: the page and the platform counts read the same hits without matching twice.
  const hits = sql`WITH ${ctes}, hits AS MATERIALIZED (
    SELECT g.id, g.platform_id, g.release_date, ${strength} AS strength, ${exact} AS exact, ${edition} AS edition
    FROM ${sql.raw(first.name)} ${joins} ${exactJoin} JOIN games g ON g.id = ${sql.raw(first.name)}.game_id
    WHERE ${allOf(conditions)})`;
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
  const terms = searchTerms(query);
  if (terms.length === 0) return sql`0`;
  return sql.join(
    terms.map((term) => sql`g.id IN (SELECT game_id FROM (${termRows(term, TEXT_FIELDS)}))`),
    sql` AND `,
  );
}
