import { and, eq } from "drizzle-orm";
import { identifierSuggestions as s } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import type { Db } from "../../platform/db";
import { normalizeCode } from "../../platform/normalize";
import type { GameRow } from "../games/masterRows";

/**
 * Approved suggestions stay master data when the operator imports the games again: merged into
 * the imported rows before their content is hashed and written. A JAN fills an empty JAN only
 * (the imported file's own JAN wins), a model number joins the row's unless it holds it already;
 * a suggestion for an edition the file no longer has is left out.
 */
export async function mergeApprovedIdentifiers(db: Db, rows: GameRow[]): Promise<void> {
  const approved = await db
    .select()
    .from(s)
    .where(
      and(
        eq(s.status, "approved"),
        inJsonArray(
          s.gameId,
          rows.map((row) => row.gameId),
        ),
      ),
    );
  const byId = new Map(rows.map((row) => [row.gameId, row]));
  for (const suggestion of approved) {
    const game = byId.get(suggestion.gameId)!;
    const target = suggestion.gameEditionId === null ? game : game.editions.find((e) => e.gameEditionId === suggestion.gameEditionId);
    if (!target) continue;
    if (suggestion.kind === "janCode") target.janCode ??= suggestion.value;
    else if (!target.modelNumber.some((code) => normalizeCode(code) === suggestion.searchValue)) {
      target.modelNumber = [...target.modelNumber, suggestion.value];
    }
  }
}
