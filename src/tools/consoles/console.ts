import { z } from "zod";
import { rating } from "../../platform/filters";
import { isoDate, nameText, positiveId, text } from "../../platform/schemas";

export const CONSOLE_FIELD_GROUPS = ["purchase", "platforms", "timestamps", "memo"] as const;
export type ConsoleFieldGroup = (typeof CONSOLE_FIELD_GROUPS)[number];

const platformPriority = z.strictObject({ platformId: positiveId, priority: z.number().int().min(1).max(5) });

/** Fields a user sets on an owned console (addConsole, updateConsole). */
export const consoleFieldArgs = {
  name: nameText(100),
  nameKana: text(100).nullable(),
  memo: text(2000).nullable(),
  rating: rating.nullable(),
  buyDate: isoDate.nullable(),
  buyPrice: z.number().min(0).nullable().describe("JPY."),
  buyPlace: text(100).nullable(),
  publisherName: text(100).nullable().describe("Maker of the console as printed on it."),
  platformPriorities: z
    .array(platformPriority)
    .max(20)
    .refine((list) => new Set(list.map((p) => p.platformId)).size === list.length, "lists a platformId twice")
    .describe("The platforms it plays, each with your priority 1-5; replaces the whole set."),
};

export const consoleSchema = z
  .object({
    consoleId: z.string(),
    name: z.string(),
    rating: z.number().int().nullable(),
    publisherName: z.string().nullable(),
    nameKana: z.string().nullable().optional(),
    memo: z.string().nullable().optional(),
    buyDate: z.string().nullable().optional(),
    buyPrice: z.number().nullable().optional(),
    buyPlace: z.string().nullable().optional(),
    platforms: z.array(z.object({ platformId: z.number().int(), name: z.string().nullable(), priority: z.number().int() })).optional(),
    platformPriorities: z
      .array(z.object({ platformId: z.number().int(), priority: z.number().int() }))
      .optional()
      .describe("The platforms group under the name addConsole and updateConsole take it (highest priority first): send it back as it is."),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  })
  .meta({ id: "OwnedConsole" });

export interface ConsoleRow {
  id: string;
  name: string;
  name_kana: string | null;
  memo: string | null;
  rating: number | null;
  buy_date: string | null;
  buy_price: number | null;
  buy_place: string | null;
  publisher_name: string | null;
  created_at: string;
  updated_at: string;
}

export type ConsolePlatform = { platformId: number; name: string | null; priority: number };

export const toConsoleItem = (row: ConsoleRow, groups: ReadonlySet<ConsoleFieldGroup>, platforms: ConsolePlatform[] = []) => ({
  consoleId: row.id,
  name: row.name,
  rating: row.rating,
  publisherName: row.publisher_name,
  ...(groups.has("memo") ? { nameKana: row.name_kana, memo: row.memo } : {}),
  ...(groups.has("purchase") ? { buyDate: row.buy_date, buyPrice: row.buy_price, buyPlace: row.buy_place } : {}),
  ...(groups.has("platforms")
    ? { platforms, platformPriorities: platforms.map(({ platformId, priority }) => ({ platformId, priority })) }
    : {}),
  ...(groups.has("timestamps") ? { createdAt: row.created_at, updatedAt: row.updated_at } : {}),
});
