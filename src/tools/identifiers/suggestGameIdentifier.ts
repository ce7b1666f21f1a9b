import { sql } from "drizzle-orm";
import { z } from "zod";
import { identifierSuggestions } from "../../db/schema";
import { type Db, isUniqueViolation, statements } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { ALL_PLANS } from "../../platform/plans";
import { dailyLimitReached } from "../../platform/quota";
import { runConditional } from "../../platform/registeredLimits";
import { positiveId, text } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { identifierValueOf } from "./identifierValue";
import { IDENTIFIER_KINDS, type SuggestionRow, suggestionSchema, toSuggestion } from "./items";
import { findSuggestion, holdersOf, openSuggestionOf, requireTarget, suggestionsToday } from "./queries";
import { approveOnAgreement } from "./review";

/** Suggestions one user may make per UTC day, whatever becomes of them. */
export const SUGGESTIONS_PER_DAY = 50;

const openAlready = () =>
  new ApiError("already_exists", "You already have an open suggestion of this kind for this game; wait for its review.", { field: "kind" });

/** Stores the suggestion, unless the user already has one open for the game and kind or reached today's limit (checked in the same batch). */
async function insertSuggestion(db: Db, row: SuggestionRow, now: Date) {
  const insert = statements.insert(identifierSuggestions).values(row).getSQL();
  try {
    await runConditional(
      db,
      [
        { holds: sql`NOT ${openSuggestionOf(row.userId, row.gameId, row.kind)}`, error: openAlready },
        {
          holds: sql`(${suggestionsToday(row.userId, now)}) < ${SUGGESTIONS_PER_DAY}`,
          error: () => dailyLimitReached(`You can make ${SUGGESTIONS_PER_DAY} identifier suggestions per day.`, now),
        },
      ],
      [insert],
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw openAlready();
    throw error;
  }
}

export const suggestGameIdentifier = defineTool({
  name: "suggestGameIdentifier",
  family: "identifiers",
  title: "識別子の提案",
  description: "Suggests a JAN barcode or model number for a catalog game or edition; only your searches find it until reviewed.",
  restNote: 'In REST, POST /rest/v1/suggestGameIdentifier with {"gameId", "kind", "value"}.',
  scopes: ["library:write"],
  plans: ALL_PLANS,
  kind: "write",
  destructive: false,
  idempotent: true,
  nullIsOmission: true,
  input: z.strictObject({
    gameId: positiveId,
    gameEditionId: positiveId.optional().describe("An edition of gameId."),
    kind: z.enum(IDENTIFIER_KINDS),
    value: text(60).describe("JAN: 8/13 digits, prefix 45/49. Model number: as printed."),
    note: text(200).optional(),
  }),
  output: z.object({ item: suggestionSchema }),
  conflicts: ["already_exists"],
  notes: [`409: one open per game and kind, or the value is already known. ${SUGGESTIONS_PER_DAY} a day.`],
  async handler({ db, auth, now, env }, args) {
    const { value, searchValue } = identifierValueOf(args.kind, args.value);
    const target = { gameId: args.gameId, gameEditionId: args.gameEditionId ?? null };
    await requireTarget(db, target);
    const holders = await holdersOf(db, args.kind, searchValue);
    if (holders.includes(target.gameId)) {
      throw new ApiError("already_exists", `The catalog already has this ${args.kind} for game ${target.gameId}.`, { field: "value" });
    }
    const conflictGameId = holders[0] ?? null;
    const row: SuggestionRow = {
      id: newId("sug"),
      userId: auth.userId,
      ...target,
      kind: args.kind,
      value,
      searchValue,
      note: args.note ?? null,
      status: "open",
      conflictGameId,
      reviewedBy: null,
      reviewReason: null,
      reviewedAt: null,
      createdAt: now.toISOString(),
    };
    await insertSuggestion(db, row, now);
    if (conflictGameId !== null) {
      throw new ApiError(
        "already_exists",
        `This ${args.kind} is confirmed for game ${conflictGameId}; your suggestion ${row.id} is kept as a conflict for the operator to review.`,
        { field: "value", conflictGameId, suggestionId: row.id },
      );
    }
    if (env.IDENTIFIER_AUTO_APPROVAL === "agreement") await approveOnAgreement(db, row, now);
    return { item: toSuggestion((await findSuggestion(db, row.id))!) };
  },
});
