import { z } from "zod";
import { isoDate, orderedRanges, positiveId, searchText, text } from "./schemas";

/** A rating: 1 (lowest) to 5 (highest). */
export const rating = z.number().int().min(1).max(5);

/** A record's attribute labels as a write takes them (library entries, copies, play records). */
export const attributeSetArg = z.array(text(40)).max(20).describe("Attribute ids or exact labels; replaces the whole set, [] clears.");

/**
 * The spec's shared filter parameters (library, play records, exports, collections), as one
 * zod shape each tool spreads into its input, so every tool validates them alike.
 */
export const sharedFilterArgs = {
  platformIds: z.array(positiveId).max(10).optional().describe("Up to 10; any of them."),
  genreId: positiveId.optional().describe("A main genre matches main or support genre; any other through its taxonomy."),
  title: searchText(30)
    .optional()
    .describe("Part of the title, hiragana reading, nickname or an edition's title (English titles: find the gameId with searchGames)."),
  releaseDateFrom: isoDate.optional(),
  releaseDateTo: isoDate.optional().describe("Inclusive; games without a release date are excluded by either bound."),
  attributes: z.array(text(40)).max(5).optional().describe("Up to 5 attribute ids or exact labels; all must be present."),
  buyPlace: text(30).optional().describe("Substring, case-insensitive."),
  ratingFrom: rating.optional(),
  ratingTo: rating.optional(),
  buyDateFrom: isoDate.optional(),
  buyDateTo: isoDate.optional(),
  buyPriceFrom: z.number().int().min(0).optional(),
  buyPriceTo: z.number().int().min(0).optional(),
};

export type SharedFilters = { [K in keyof typeof sharedFilterArgs]?: z.output<(typeof sharedFilterArgs)[K]> };

/** Ranges of the shared filters whose end may not come before their start. */
export const SHARED_RANGES: [keyof SharedFilters, keyof SharedFilters][] = [
  ["releaseDateFrom", "releaseDateTo"],
  ["ratingFrom", "ratingTo"],
  ["buyDateFrom", "buyDateTo"],
  ["buyPriceFrom", "buyPriceTo"],
];
export const sharedRangeCheck = orderedRanges<SharedFilters>(SHARED_RANGES);
