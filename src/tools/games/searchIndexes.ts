import { sql } from "drizzle-orm";
import { rankedGame } from "./queries";

export const isIndexable = (value: string) => [...value].length >= 3;

/** Games whose given games_fts columns contain `value` (3+ characters), through the trigram index. */
// raw SQL: FTS5 MATCH (games_fts) has no builder form.
export const trigramMatches = (columns: readonly string[], value: string) =>
  sql`SELECT rowid FROM games_fts WHERE games_fts MATCH ${`{${columns.join(" ")}} : "${value}"`}`;

/** Games whose title forms or model numbers hold a 1-2 character term: every such term is a token of games_grams. */
// raw SQL: FTS5 MATCH has no builder form.
export const gramMatches = (column: "titles" | "codes", term: string) =>
  sql`SELECT rowid FROM games_grams WHERE games_grams MATCH ${`{${column}} : "${term}"`}`;

/** A term matches through the trigram index when it is long enough, else through games_grams. */
export const indexedMatches = (trigramColumns: readonly string[], gramColumn: "titles" | "codes", term: string) =>
  sql`${rankedGame.id} IN (${isIndexable(term) ? trigramMatches(trigramColumns, term) : gramMatches(gramColumn, term)})`;
