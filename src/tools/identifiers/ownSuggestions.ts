import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { identifierSuggestions as s } from "../../db/schema";
import { statements } from "../../platform/db";

export type IdentifierKind = (typeof s.$inferSelect)["kind"];

/**
 * The games a user's own open suggestions of `kind` attach to, whose normalised value passes
 * `test`: searchGames finds them for their author only, before any review (the index on kind and
 * value serves the exact tests; the user's own rows are few for the partial ones).
 */
export function ownOpenSuggestionGames(
  userId: string,
  kind: IdentifierKind,
  test: (value: typeof s.searchValue) => SQL,
  gameOnly = false,
): SQL {
  return statements
    .select({ gameId: s.gameId })
    .from(s)
    .where(
      and(
        eq(s.userId, userId),
        eq(s.kind, kind),
        eq(s.status, "open"),
        test(s.searchValue),
        ...(gameOnly ? [isNull(s.gameEditionId)] : []),
      ),
    )
    .getSQL();
}

/** The value equals `value`. */
export const isValue = (value: string) => (column: typeof s.searchValue) => sql`${column} = ${value}`;
/** The value starts with `value`. */
export const startsWithValue = (value: string) => (column: typeof s.searchValue) => sql`instr(${column}, ${value}) = 1`;
/** The value contains `value`. */
export const containsValue = (value: string) => (column: typeof s.searchValue) => sql`instr(${column}, ${value}) > 0`;
