import { z } from "zod";
import type { identifierSuggestions } from "../../db/schema";

export const IDENTIFIER_KINDS = ["janCode", "modelNumber"] as const;
export const SUGGESTION_STATUSES = ["open", "approved", "rejected"] as const;

export const suggestionSchema = z.object({
  suggestionId: z.string(),
  gameId: z.number().int(),
  gameEditionId: z.number().int().nullable(),
  kind: z.enum(IDENTIFIER_KINDS),
  value: z.string(),
  note: z.string().nullable(),
  status: z.enum(SUGGESTION_STATUSES),
  createdAt: z.string(),
});

export type SuggestionRow = typeof identifierSuggestions.$inferSelect;

export const toSuggestion = (row: SuggestionRow): z.input<typeof suggestionSchema> => ({
  suggestionId: row.id,
  gameId: row.gameId,
  gameEditionId: row.gameEditionId,
  kind: row.kind,
  value: row.value,
  note: row.note,
  status: row.status,
  createdAt: row.createdAt,
});
