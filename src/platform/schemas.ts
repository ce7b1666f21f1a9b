import { z } from "zod";
import { normalizeCode, normalizeSearchText } from "./normalize";

/** A real calendar date `YYYY-MM-DD` (2024-02-30 is refused). */
export const isoDate = z.iso.date({ error: "must be a calendar date YYYY-MM-DD" });

/**
 * A date a person records about a purchase (bought, planned): a full date only, so that sorts,
 * date ranges, exports and imports read one kind of value. What is known of a vaguer date (a
 * month, a year) goes in the record's memo; the date stays null.
 */
/** What every update says of its fields (a note in REST; the MCP instructions say it once). */
export const UPDATE_NOTE = "An omitted field is kept; null clears one that may be empty.";

/** What every update with an optional revision says of it (a note in REST; the MCP instructions say it once). */
export const REVISION_NOTE = "Send the revision you last read to be told (409 revision_conflict, nothing changed) when it changed since.";

/** What every custom record says of its id (a note in REST; the MCP instructions say it once). */
export const CUSTOM_ID_NOTE = "Custom ids are 1,000,000,000 and above.";

/** What a price's description says (the MCP instructions say it once). */
export const PRICE_DESCRIPTION = "JPY.";

/** What every sorted list says of empty values (a note in REST; the MCP instructions say it once). */
export const SORT_NOTE = "Empty values sort last in either order.";

/** What a recorded date's description says after naming the date (the MCP instructions say it once). */
export const RECORDED_DATE_RULE =
  'a full date YYYY-MM-DD. Only the month or year known? Leave it null and note it in memo (e.g. "2023年5月頃").';

export const recordedDate = (what: string) =>
  z.iso
    .date({ error: "must be a full date YYYY-MM-DD; when only the month or year is known, leave it null and write it in memo" })
    .describe(`${what}: ${RECORDED_DATE_RULE}`);

/** EAN-13 / EAN-8 (JAN) with a valid check digit. */
export const janCode = z
  .string()
  .regex(/^(\d{8}|\d{13})$/, "must be 8 or 13 digits")
  .refine((code) => {
    const digits = [...code].map(Number);
    const check = digits.pop()!;
    const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
    return (10 - (sum % 10)) % 10 === check;
  }, "has a wrong check digit");

/** Official master ids stay below this; custom (user) records are numbered from it. */
export const CUSTOM_ID_BASE = 1_000_000_000;
/** The largest custom id: JavaScript's largest safe integer (platform/customIds.ts draws below it). */
export const CUSTOM_ID_MAX = Number.MAX_SAFE_INTEGER;
export const masterId = z
  .number()
  .int()
  .min(1)
  .max(CUSTOM_ID_BASE - 1);
export const positiveId = z.number().int().min(1);

/** User text: stored exactly as sent (a memo of spaces is a memo), 1 to `max` characters. */
export const text = (max: number) => z.string().min(1).max(max);

/** A name the user finds things by (tag, label, console ...): as sent, but not only spaces. */
export const nameText = (max: number) => text(max).refine((value) => value.trim() !== "", "must contain more than spaces");

/** Refuses ranges whose start is after their end, naming the end argument. */
export function orderedRanges<T extends Record<string, unknown>>(pairs: [from: keyof T & string, to: keyof T & string][]) {
  return (value: T, ctx: z.RefinementCtx) => {
    for (const [from, to] of pairs) {
      const start = value[from];
      const end = value[to];
      if (start !== undefined && end !== undefined && start !== null && end !== null && (start as never) > (end as never)) {
        ctx.addIssue({ code: "custom", path: [to], message: `must not be before ${from}` });
      }
    }
  };
}

/** Free text to search by: it must keep some letters or digits once normalised. */
export const searchText = (max: number) =>
  text(max).refine((value) => normalizeSearchText(value).length > 0, "needs letters or digits to search by");

/** A code (model number) to search by: letters or digits once hyphens and spaces are dropped. */
export const searchCode = (max: number) =>
  text(max).refine((value) => normalizeCode(value).length > 0, "needs letters or digits to search by");
