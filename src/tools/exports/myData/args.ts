import { z } from "zod";
import { SHARED_RANGES } from "../../../platform/filters";
import type { Plan } from "../../../platform/plans";
import { isoDate, orderedRanges, text } from "../../../platform/schemas";
import { utcDay } from "../../../platform/time";
import type { LowerPlan, PlanDifference } from "../../../registry/defineTool";
import { COLLECTION_TYPES, PURPOSES } from "../../collections/items";
import { CONSOLE_RANGES, CONSOLE_SORTS, consoleFilterArgs } from "../../consoles/queries";
import { type MyDatasetName, USER_DATASETS } from "../../datasets";
import { LIBRARY_SORTS, libraryFilterArgs } from "../../library/queries";
import { PLAY_RANGES, PLAY_SORTS, playFilterArgs } from "../../play/listQueries";
import { WISHLIST_RANGES, WISHLIST_SORTS, wishlistFilterArgs } from "../../wishlist/queries";

/** exportMyData's datasets in the order the tool lists them (a Record: every registered dataset is listed); each declares its plans with its family. */
const LISTED: Record<MyDatasetName, true> = {
  library: true,
  wishlist: true,
  playRecords: true,
  playLogs: true,
  tags: true,
  collections: true,
  consoles: true,
  customGames: true,
};
export const MY_DATASETS = Object.keys(LISTED) as [MyDatasetName, ...MyDatasetName[]];

const datasetsOn = (plan: Plan) => MY_DATASETS.filter((name) => USER_DATASETS[name].export.plans.includes(plan));

export const MY_DATA_FORMATS = ["json", "csv"] as const;
/** JSON keeps types (numbers, booleans, null) and lists as they are, so a backup reads back exactly. */
export const DEFAULT_MY_DATA_FORMAT = "json";

/** Every sortBy of the list tools behind the datasets, in their order, each once. */
const SORT_VALUES = [...new Set([LIBRARY_SORTS, WISHLIST_SORTS, PLAY_SORTS, CONSOLE_SORTS].flatMap((sorts) => sorts.values))] as [
  string,
  ...string[],
];

/**
 * The filters of each list tool, as the list tools themselves define them (same schema objects),
 * plus the few that belong to exports (includeHistory, name, purposeTypes, collectionTypes).
 */
export const myDataArgs = {
  dataset: z
    .enum(MY_DATASETS)
    .describe(
      "library, wishlist, playRecords, playLogs (all plans); tags, consoles (LIGHT and above); collections, customGames (PREMIUM).",
    ),
  format: z.enum(MY_DATA_FORMATS).default(DEFAULT_MY_DATA_FORMAT).describe("json (default) or csv (UTF-8 with BOM)."),
  includeHistory: z.boolean().optional().describe("playRecords only: true exports every play cycle, one row per record (PREMIUM)."),
  ...libraryFilterArgs,
  ...wishlistFilterArgs,
  ...playFilterArgs,
  name: text(30).optional().describe("consoles: part of the name or maker; collections: part of the name. Width and case are ignored."),
  unrated: consoleFilterArgs.unrated,
  purposeTypes: z.array(z.enum(PURPOSES)).max(2).optional().describe("collections only: their purpose, any of them (PREMIUM)."),
  collectionTypes: z.array(z.enum(COLLECTION_TYPES)).max(3).optional().describe("collections only: their type, any of them (PREMIUM)."),
  sortBy: z.enum(SORT_VALUES).optional().describe("One the matching list tool takes; default: that tool's default order."),
  sortOrder: z.enum(["asc", "desc"]).optional(),
};
const RANGES = [...SHARED_RANGES, ...WISHLIST_RANGES, ...PLAY_RANGES, ...CONSOLE_RANGES].filter(
  ([from], i, all) => all.findIndex(([other]) => other === from) === i,
);

export const myDataInput = z.strictObject(myDataArgs).superRefine(orderedRanges<Record<string, unknown>>(RANGES));
export type MyDataArgs = z.output<typeof myDataInput>;

/** FREE: purchase dates only within the last few years (checked against today, UTC). */
export const FREE_BUY_DATE_YEARS = 5;
/** FREE: purchase price bounds up to this many JPY. */
export const FREE_BUY_PRICE_MAX = 50_000;
/** LIGHT: the name filter's length. */
export const LIGHT_NAME_MAX = 10;

function yearsAgo(now: Date, years: number): string {
  const day = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return utcDay(day);
}

const recentBuyDate = isoDate
  .refine((date) => date >= yearsAgo(new Date(), FREE_BUY_DATE_YEARS), {
    message: `must be within the last ${FREE_BUY_DATE_YEARS} years on the FREE plan`,
  })
  .describe(`FREE: a date within the last ${FREE_BUY_DATE_YEARS} years (on or after the same day ${FREE_BUY_DATE_YEARS} years ago, UTC).`);
const boundedBuyPrice = z
  .number()
  .int()
  .min(0)
  .max(FREE_BUY_PRICE_MAX)
  .describe(`FREE: 0 to ${FREE_BUY_PRICE_MAX.toLocaleString("en-US")} JPY.`);
const datasetOn = (plan: LowerPlan) => {
  const names = datasetsOn(plan);
  return z.enum(names as [MyDatasetName, ...MyDatasetName[]]).describe(`${plan}: ${names.join(", ")}.`);
};

/** What FREE and LIGHT lose, published in the catalog and enforced by the generic plan check. */
export const MY_DATA_PLAN_DIFFERENCES: Partial<Record<LowerPlan, PlanDifference>> = {
  FREE: {
    removedProperties: ["includeHistory", "consoleIds", "tagIds", "name", "unrated", "purposeTypes", "collectionTypes"],
    changedProperties: {
      dataset: datasetOn("FREE"),
      buyDateFrom: recentBuyDate,
      buyDateTo: recentBuyDate,
      buyPriceFrom: boundedBuyPrice,
      buyPriceTo: boundedBuyPrice,
    },
  },
  LIGHT: {
    removedProperties: ["includeHistory", "purposeTypes", "collectionTypes"],
    changedProperties: {
      dataset: datasetOn("LIGHT"),
      name: text(LIGHT_NAME_MAX).describe(`LIGHT: up to ${LIGHT_NAME_MAX} characters.`),
    },
  },
};
