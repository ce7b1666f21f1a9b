// The search-quality query set (bench/search-quality/queries.tsv): reading it, turning a row into
// searchGames arguments, and scoring the answers. Shared by `npm run bench:search-quality` and the
// node test that checks the file itself.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./local.mjs";

export const QUERY_FILE = join(projectRoot, "bench", "search-quality", "queries.tsv");
export const COLUMNS = ["kind", "query", "args", "gameId", "note"];
/** The kinds of query, in the order the report lists them. */
export const KINDS = ["title", "reading", "nickname", "numerals", "english_romaji", "model_number", "platform_word", "kana_variants_typos"];
/** How many results each call asks for; recall@5 and MRR read these. */
export const RESULT_LIMIT = 5;

/**
 * Parses the TSV text into `{ line, kind, query, args, gameId, note }` rows; throws an Error naming
 * the line on the first row that does not parse (wrong column count, unknown kind, empty query,
 * args that are not a JSON object, a gameId that is not a positive integer).
 */
export function parseQueries(text) {
  const [header, ...lines] = text.replace(/\n$/, "").split("\n");
  if (header !== COLUMNS.join("\t")) throw new Error(`line 1: the header must be ${COLUMNS.join(" TAB ")}`);
  return lines.map((raw, index) => parseRow(raw, index + 2));
}

function parseRow(raw, line) {
  const cells = raw.split("\t");
  const fail = (why) => {
    throw new Error(`line ${line}: ${why}: ${JSON.stringify(raw)}`);
  };
  if (cells.length !== COLUMNS.length) fail(`${cells.length} columns, expected ${COLUMNS.length}`);
  const [kind, query, argsText, gameIdText, note] = cells;
  if (!KINDS.includes(kind)) fail(`unknown kind "${kind}"`);
  if (!query.trim()) fail("empty query");
  if (!/^[1-9]\d*$/.test(gameIdText)) fail(`gameId "${gameIdText}" is not a positive integer`);
  let args = {};
  if (argsText) {
    try {
      args = JSON.parse(argsText);
    } catch {
      fail("args is not JSON");
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) fail("args is not a JSON object");
  }
  return { line, kind, query, args, gameId: Number(gameIdText), note };
}

export const loadQueries = (path = QUERY_FILE) => parseQueries(readFileSync(path, "utf8"));

/**
 * The searchGames arguments of a row: a model number as printed on the box goes in `modelNumber`
 * (the field a client uses for a code), every other kind in `query`; then the row's own args.
 */
export const searchArgs = (row) => ({
  ...(row.kind === "model_number" ? { modelNumber: row.query } : { query: row.query }),
  ...row.args,
  limit: RESULT_LIMIT,
  fields: [],
});

/** 1-based rank of the expected game among the returned ids, or null when it is not among them. */
export const rankOf = (row, gameIds) => {
  const index = gameIds.indexOf(row.gameId);
  return index === -1 ? null : index + 1;
};

/** recall@1, recall@5 and MRR (0 for a miss) of `{ kind, rank }` results, per kind and overall. */
export function summarise(results) {
  const score = (list) => ({
    count: list.length,
    recallAt1: list.filter((r) => r.rank === 1).length / list.length,
    recallAt5: list.filter((r) => r.rank !== null && r.rank <= RESULT_LIMIT).length / list.length,
    mrr: list.reduce((sum, r) => sum + (r.rank ? 1 / r.rank : 0), 0) / list.length,
  });
  const kinds = KINDS.map((kind) => [kind, results.filter((r) => r.kind === kind)]).filter(([, list]) => list.length);
  return { kinds: Object.fromEntries(kinds.map(([kind, list]) => [kind, score(list)])), overall: score(results) };
}
