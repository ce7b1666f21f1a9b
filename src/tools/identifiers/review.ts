import { type SQL, sql } from "drizzle-orm";
import { gameEditions, games, identifierSuggestions as s } from "../../db/schema";
import type { Db } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { bumpGeneration } from "../games/generation";
import { holdsForm, SEARCH_SEPARATOR } from "../games/searchColumns";
import type { SuggestionRow } from "./items";
import { findSuggestion, gamesHolding } from "./queries";

const bar = SEARCH_SEPARATOR;
/** Appends a normalised code to a "a|b" search column, unless it holds it already. */
const withCode = (column: SQL, code: string) =>
  sql`CASE WHEN ${column} = '' THEN ${code} WHEN ${holdsForm(column, code)} THEN ${column} ELSE ${column} || ${bar} || ${code} END`;
const lacksCode = (column: SQL, code: string) => sql`NOT ${holdsForm(column, code)}`;
const col = (name: string) => sql.raw(`"${name}"`);

/**
 * The master-data writes of an approved value: a JAN fills the game's (or edition's) empty JAN,
 * a model number joins its model numbers and the game's search forms (the triggers of games keep
 * the search indexes). Each write changes nothing when the value is there already.
 */
function masterWrites(row: SuggestionRow): SQL[] {
  const { gameId, gameEditionId, value, searchValue } = row;
  if (row.kind === "janCode") {
    return gameEditionId === null
      ? [sql`UPDATE ${games} SET ${col("jan_code")} = ${value} WHERE ${games.id} = ${gameId} AND ${games.janCode} IS NULL`]
      : [
          sql`UPDATE ${gameEditions} SET ${col("jan_code")} = ${value} WHERE ${gameEditions.id} = ${gameEditionId} AND ${gameEditions.janCode} IS NULL`,
        ];
  }
  if (gameEditionId === null) {
    return [
      sql`UPDATE ${games} SET ${col("model_number")} = json_insert(${games.modelNumber}, '$[#]', ${value}), ${col("search_model")} = ${withCode(sql`${games.searchModel}`, searchValue)}
        WHERE ${games.id} = ${gameId} AND ${lacksCode(sql`${games.searchModel}`, searchValue)}`,
    ];
  }
  // The edition first, while the game's forms still tell whether an edition holds the code.
  const editionsLack = lacksCode(sql`(SELECT ${games.searchEditionModel} FROM ${games} WHERE ${games.id} = ${gameId})`, searchValue);
  return [
    sql`UPDATE ${gameEditions} SET ${col("model_number")} = json_insert(${gameEditions.modelNumber}, '$[#]', ${value}) WHERE ${gameEditions.id} = ${gameEditionId} AND ${editionsLack}`,
    sql`UPDATE ${games} SET ${col("search_edition_model")} = ${withCode(sql`${games.searchEditionModel}`, searchValue)} WHERE ${games.id} = ${gameId}`,
  ];
}

/** The JAN slot the value goes into is empty or holds the value already. */
function slotFree(row: SuggestionRow): SQL {
  if (row.kind !== "janCode") return sql`1`;
  const slot =
    row.gameEditionId === null
      ? sql`SELECT ${games.janCode} FROM ${games} WHERE ${games.id} = ${row.gameId}`
      : sql`SELECT ${gameEditions.janCode} FROM ${gameEditions} WHERE ${gameEditions.id} = ${row.gameEditionId}`;
  return sql`coalesce((${slot}), ${row.value}) = ${row.value}`;
}

const held = (message: string) => () => new ApiError("already_exists", message);

/** What must still hold when an approval's batch runs: the value free to go where it is suggested. */
const approvalConditions = (row: SuggestionRow): WriteCondition[] => [
  {
    holds: sql`NOT EXISTS (SELECT 1 FROM (${gamesHolding(row.kind, row.searchValue)}) WHERE id <> ${row.gameId})`,
    error: held(`This ${row.kind} is confirmed for another game; correct the master data or reject the suggestion.`),
  },
  {
    holds: slotFree(row),
    error: held("The game (or edition) already has another JAN code; reject the suggestion or fix the master data."),
  },
];

/** Approves the rows `which` selects, writes the value into master data and moves the games generation, as one batch. */
function approvalBatch(db: Db, row: SuggestionRow, which: SQL, reviewedBy: string, now: Date) {
  return [
    sql`UPDATE ${s} SET ${col("status")} = 'approved', ${col("reviewed_by")} = ${reviewedBy}, ${col("reviewed_at")} = ${now.toISOString()} WHERE ${which}`,
    ...masterWrites(row),
    bumpGeneration(db.$client, "games").statement,
  ];
}

async function openSuggestion(db: Db, suggestionId: string): Promise<SuggestionRow> {
  const row = await findSuggestion(db, suggestionId);
  if (!row) throw notFound(`Suggestion ${suggestionId}`);
  return row;
}

const stillOpen = (suggestionId: string): WriteCondition => ({
  holds: sql`EXISTS (SELECT 1 FROM ${s} WHERE ${s.id} = ${suggestionId} AND ${s.status} = 'open')`,
  error: () => new ApiError("revision_conflict", `Suggestion ${suggestionId} was already reviewed.`),
});

/**
 * The operator approves a suggestion: in one batch that first checks it is still open, so of two
 * approvals at once exactly one writes the value and moves the generation.
 */
export async function approveSuggestion(db: Db, suggestionId: string, now: Date): Promise<SuggestionRow> {
  const row = await openSuggestion(db, suggestionId);
  await runConditional(
    db,
    [stillOpen(suggestionId), ...approvalConditions(row)],
    approvalBatch(db, row, sql`${s.id} = ${suggestionId}`, "operator", now),
  );
  return (await findSuggestion(db, suggestionId))!;
}

export async function rejectSuggestion(db: Db, suggestionId: string, reason: string | null, now: Date): Promise<SuggestionRow> {
  await openSuggestion(db, suggestionId);
  const reject = sql`UPDATE ${s} SET ${col("status")} = 'rejected', ${col("reviewed_by")} = 'operator', ${col("review_reason")} = ${reason}, ${col("reviewed_at")} = ${now.toISOString()} WHERE ${s.id} = ${suggestionId}`;
  await runConditional(db, [stillOpen(suggestionId)], [reject]);
  return (await findSuggestion(db, suggestionId))!;
}

/** Open, conflict-free suggestions of the same value for the same game (and edition). */
const agreeing = (row: SuggestionRow) =>
  sql`${s.status} = 'open' AND ${s.conflictGameId} IS NULL AND ${s.gameId} = ${row.gameId} AND ${s.gameEditionId} IS ${row.gameEditionId}
    AND ${s.kind} = ${row.kind} AND ${s.searchValue} = ${row.searchValue}`;

/**
 * Auto-approval (IDENTIFIER_AUTO_APPROVAL=agreement): once two different accounts suggested the
 * same value for the same game, every such open suggestion is approved. One conditional batch:
 * of two suggestions racing, the later batch sees both rows and approves them; the other finds
 * nothing left open (or only one account) and changes nothing. True when this call approved.
 */
export async function approveOnAgreement(db: Db, row: SuggestionRow, now: Date): Promise<boolean> {
  const agreement: WriteCondition = {
    holds: sql`(SELECT count(DISTINCT ${s.userId}) FROM ${s} WHERE ${agreeing(row)}) >= 2`,
    error: () => new Error("no agreement"),
  };
  try {
    await runConditional(db, [agreement, ...approvalConditions(row)], approvalBatch(db, row, agreeing(row), "agreement", now));
    return true;
  } catch (error) {
    if (error instanceof ApiError || (error instanceof Error && error.message === "no agreement")) return false;
    throw error;
  }
}
