import { z } from "zod";
import { isoDate, janCode, text } from "../../platform/schemas";
import { PLAY_STATUSES } from "../play/items";
import { malformed } from "./readers";

/**
 * What one staged row holds. An uploaded file is validated row by row while it is received and
 * staged in R2 as NDJSON lines `{"r": <row number in the file>, "d": <validated row>}`; the steps
 * that write it read those lines back from a byte offset. The columns are exportMyData's (each
 * dataset's rowSchema, src/tools/datasets.ts), or, for tracker CSVs, the generic row below.
 */

/** The first problem of a row as a 400 naming the row and the column. */
export function validRow<T extends z.ZodType>(schema: T, value: unknown, row: number): z.output<T> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw malformed(row, null, "each row must be a JSON object of the export's columns.");
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const column = issue.path.length > 0 ? String(issue.path[0]) : null;
  const path = issue.path
    .slice(1)
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("");
  throw malformed(row, column === null ? null : `${column}${path}`, issue.message);
}

/** A row of a tracker CSV, after its columns were mapped (see trackers.ts). */
export const trackerRowSchema = z.object({
  title: z.string().min(1).max(200).nullable(),
  platform: z.string().max(100).nullable(),
  janCode: janCode.nullable(),
  modelNumber: z.string().min(1).max(60).nullable(),
  buyDate: isoDate.nullable(),
  buyPrice: z.number().min(0).nullable(),
  buyPlace: text(100).nullable(),
  /** A play status, or WISHLIST: the game goes to the wishlist instead of the library. */
  status: z.enum([...PLAY_STATUSES, "WISHLIST"]).nullable(),
  playStartDate: isoDate.nullable(),
  playEndDate: isoDate.nullable(),
  rating: z.number().int().min(1).max(5).nullable(),
  memo: text(2000).nullable(),
});
export type TrackerRow = z.output<typeof trackerRowSchema>;
