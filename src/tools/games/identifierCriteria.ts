import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { gameEditions, games } from "../../db/schema";
import { normalizeCode } from "../../platform/normalize";
import { containsValue, isValue, ownOpenSuggestionGames, startsWithValue } from "../identifiers/ownSuggestions";
import { type GameFilters, rankedGame } from "./queries";
import { holdsForm, SEARCH_SEPARATOR } from "./searchColumns";
import { indexedMatches } from "./searchIndexes";

export type MatchedBy = "janCode" | "modelNumber" | "externalId" | "title" | "titleEn" | "alias";

export interface SearchCriteria extends Omit<GameFilters, "title"> {
  query?: string;
  janCode?: string;
  modelNumber?: string;
  externalId?: { dbId?: number; dbSlug?: string };
}

export interface Criterion {
  /** Which games match. */
  condition: SQL;
  strength: SQL;
}

export interface IdentifierCriterion extends Criterion {
  exact: SQL;
  edition: SQL;
  matchedBy: MatchedBy;
}

const bar = SEARCH_SEPARATOR;

/** Identifier tests read the games row itself, joined as gc only when an identifier is searched. */
export const gc = alias(games, "gc");
type Code = typeof gc.searchModel | typeof gc.searchEditionModel;
const holdsCode = (code: Code, value: string) => holdsForm(code, value);
const startsCode = (code: Code, value: string) => sql`instr(${bar} || ${code}, ${bar + value}) > 0`;
const containsCode = (code: Code, value: string) => sql`instr(${code}, ${value}) > 0`;

/** Game g has a model number, its own or an edition's, containing `model`. */
const modelContaining = (model: string) => indexedMatches(["search_model", "search_edition_model"], "codes", model);

/** The searching user's own open suggestion of the game (gc) passes the test. */
const ownSuggestion = (
  userId: string,
  kind: "janCode" | "modelNumber",
  test: Parameters<typeof ownOpenSuggestionGames>[2],
  gameOnly = false,
) => sql`${gc.id} IN (${ownOpenSuggestionGames(userId, kind, test, gameOnly)})`;

function janCriterion(userId: string, janCode: string): IdentifierCriterion {
  // Stored JANs are validated digits, so the indexed columns compare as they are.
  const jan = normalizeCode(janCode);
  return {
    condition: sql`${rankedGame.id} IN (SELECT ${games.id} FROM ${games} WHERE ${games.janCode} = ${jan}
        UNION ALL SELECT ${gameEditions.gameId} FROM ${gameEditions} WHERE ${gameEditions.janCode} = ${jan}
        UNION ALL ${ownOpenSuggestionGames(userId, "janCode", isValue(jan))})`,
    strength: sql`0`,
    exact: sql`1`,
    edition: sql`(${gc.janCode} IS NOT ${jan} AND NOT ${ownSuggestion(userId, "janCode", isValue(jan), true)})`,
    matchedBy: "janCode",
  };
}

function modelCriterion(userId: string, modelNumber: string): IdentifierCriterion {
  const model = normalizeCode(modelNumber);
  const whole = sql`(${holdsCode(gc.searchModel, model)} OR ${holdsCode(gc.searchEditionModel, model)} OR ${ownSuggestion(userId, "modelNumber", isValue(model))})`;
  const prefix = sql`(${startsCode(gc.searchModel, model)} OR ${startsCode(gc.searchEditionModel, model)} OR ${ownSuggestion(userId, "modelNumber", startsWithValue(model))})`;
  return {
    condition: sql`(${modelContaining(model)} OR ${rankedGame.id} IN (${ownOpenSuggestionGames(userId, "modelNumber", containsValue(model))}))`,
    // HVC-SM finds the Famicom's HVC-SM… before the Super Famicom's SHVC-SM…
    strength: sql`(CASE WHEN ${whole} THEN 0 WHEN ${prefix} THEN 1 ELSE 2 END)`,
    exact: whole,
    edition: sql`(NOT ${containsCode(gc.searchModel, model)} AND NOT ${ownSuggestion(userId, "modelNumber", containsValue(model), true)})`,
    matchedBy: "modelNumber",
  };
}

/**
 * The identifiers a search gives, each matching master data and the searching user's own open
 * suggestions (src/tools/identifiers/): nobody else sees a value before the operator approves it.
 */
export function identifierCriteria(userId: string, criteria: SearchCriteria): IdentifierCriterion[] {
  const found: IdentifierCriterion[] = [];
  if (criteria.janCode !== undefined) found.push(janCriterion(userId, criteria.janCode));
  if (criteria.modelNumber !== undefined) found.push(modelCriterion(userId, criteria.modelNumber));
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
