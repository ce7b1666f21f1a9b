import { z } from "zod";
import { type consolePlatforms, type consoles, maintenanceLogs } from "../../db/schema";
import type { RowOf } from "../../platform/db";
import { rating } from "../../platform/filters";
import { isoDate, nameText, PRICE_DESCRIPTION, positiveId, recordedDate, text } from "../../platform/schemas";

export const CONSOLE_FIELD_GROUPS = ["purchase", "platforms", "timestamps", "memo"] as const;
export type ConsoleFieldGroup = (typeof CONSOLE_FIELD_GROUPS)[number];

const platformPriority = z.strictObject({ platformId: positiveId, priority: z.number().int().min(1).max(5) });

/** Fields a user sets on an owned console (addConsole, updateConsole). */
export const consoleFieldArgs = {
  name: nameText(100),
  nameKana: text(100).nullable(),
  memo: text(2000).nullable(),
  rating: rating.nullable(),
  buyDate: recordedDate("Purchase date").nullable(),
  buyPrice: z.number().min(0).nullable().describe(PRICE_DESCRIPTION),
  buyPlace: text(100).nullable(),
  publisherName: text(100).nullable().describe("Maker of the console as printed on it."),
  platformPriorities: z
    .array(platformPriority)
    .max(20)
    .refine((list) => new Set(list.map((p) => p.platformId)).size === list.length, "lists a platformId twice")
    .describe(
      "The platforms it plays, each with your priority 1-5 (an order among consoles of one platform; 3 when the person gives none).",
    ),
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

export type ConsoleRecord = typeof consoles.$inferSelect;

/** A console as raw SQL reads it (`SELECT c.*`): exportMyData's keyset pages. */
export type ConsoleRow = RowOf<typeof consoles>;

/** What a user sets on a console: its own fields and the platforms it plays. */
export type ConsoleValues = Pick<
  ConsoleRecord,
  "name" | "nameKana" | "memo" | "rating" | "buyDate" | "buyPrice" | "buyPlace" | "publisherName"
> & {
  platformPriorities: Pick<typeof consolePlatforms.$inferSelect, "platformId" | "priority">[];
};

export type ConsolePlatform = ConsoleValues["platformPriorities"][number] & { name: string | null };

export const toConsoleItem = (row: ConsoleRecord, groups: ReadonlySet<ConsoleFieldGroup>, platforms: ConsolePlatform[] = []) => ({
  consoleId: row.id,
  name: row.name,
  rating: row.rating,
  publisherName: row.publisherName,
  ...(groups.has("memo") ? { nameKana: row.nameKana, memo: row.memo } : {}),
  ...(groups.has("purchase") ? { buyDate: row.buyDate, buyPrice: row.buyPrice, buyPlace: row.buyPlace } : {}),
  ...(groups.has("platforms")
    ? { platforms, platformPriorities: platforms.map(({ platformId, priority }) => ({ platformId, priority })) }
    : {}),
  ...(groups.has("timestamps") ? { createdAt: row.createdAt, updatedAt: row.updatedAt } : {}),
});

export const MAINTENANCE_STATUSES = maintenanceLogs.status.enumValues;

export const maintenanceFieldArgs = {
  title: nameText(100),
  memo: text(2000).nullable(),
  status: z.enum(MAINTENANCE_STATUSES).describe("DONE without completedDate sets it to today."),
  scheduledDate: isoDate.nullable(),
  completedDate: isoDate.nullable(),
};

export const maintenanceLogSchema = z
  .object({
    maintenanceLogId: z.string(),
    consoleId: z.string(),
    title: z.string(),
    memo: z.string().nullable(),
    status: z.enum(MAINTENANCE_STATUSES),
    scheduledDate: z.string().nullable(),
    completedDate: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "MaintenanceLog" });

export type LogRow = typeof maintenanceLogs.$inferSelect;

/** What a user sets on a maintenance log. */
export type LogValues = Pick<LogRow, "title" | "memo" | "status" | "scheduledDate" | "completedDate">;

export const toMaintenanceLog = (row: LogRow) => ({
  maintenanceLogId: row.id,
  consoleId: row.consoleId,
  title: row.title,
  memo: row.memo,
  status: row.status,
  scheduledDate: row.scheduledDate,
  completedDate: row.completedDate,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
