import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { consoles } from "../../db/schema";
import { type Db, placeContains, queryBatch, rangeConditions } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { rating } from "../../platform/filters";
import { newId } from "../../platform/ids";
import { nullsLastSort, orderOf } from "../../platform/keyset";
import { normalizePlace } from "../../platform/normalize";
import { addWithinLimit, type LimitContext, planCounter, runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { isoDate, text } from "../../platform/schemas";
import { allOf, usableIds } from "../games/queries";
import { detachConsoleSql } from "../play/queries";
import type { ConsolePlatform, ConsoleRow } from "./console";

/** The plan limit on consoles: counted here, where its rows are written. */
export const CONSOLES_COUNTER = planCounter("consoles", consoles, consoles.userId);

export interface ConsoleValues {
  name: string;
  nameKana: string | null;
  memo: string | null;
  rating: number | null;
  buyDate: string | null;
  buyPrice: number | null;
  buyPlace: string | null;
  publisherName: string | null;
  platformPriorities: { platformId: number; priority: number }[];
}

/** Every platform a console names must be official or the user's own; 404 naming the first that is not. */
export async function checkPlatformPriorities(db: Db, userId: string, priorities: ConsoleValues["platformPriorities"]) {
  const usable = await usableIds(
    db,
    "platforms",
    userId,
    priorities.map((p) => p.platformId),
  );
  const index = priorities.findIndex((p) => !usable.has(p.platformId));
  if (index >= 0) {
    const field = `platformPriorities[${index}].platformId`;
    throw new ApiError("not_found", `${field}: ${priorities[index]!.platformId} is not a platform you can use.`, { field });
  }
}

/** The columns each field is stored in: name and maker also keep a searchable key each. */
function columnsOf(changes: Partial<ConsoleValues>): SQL[] {
  const set = (column: string, value: unknown) => sql`${sql.raw(column)} = ${value}`;
  const sets: SQL[] = [];
  if (changes.name !== undefined) sets.push(set("name", changes.name), set("name_key", normalizePlace(changes.name)));
  if (changes.publisherName !== undefined) {
    sets.push(
      set("publisher_name", changes.publisherName),
      set("publisher_key", changes.publisherName && normalizePlace(changes.publisherName)),
    );
  }
  const plain: [keyof ConsoleValues, string][] = [
    ["nameKana", "name_kana"],
    ["memo", "memo"],
    ["rating", "rating"],
    ["buyDate", "buy_date"],
    ["buyPrice", "buy_price"],
    ["buyPlace", "buy_place"],
  ];
  for (const [key, column] of plain) if (changes[key] !== undefined) sets.push(set(column, changes[key]));
  return sets;
}

/** The consoles' filters (getConsoles, exportMyData's consoles dataset), read by consoleConditions. */
export const consoleFilterArgs = {
  name: text(30).optional().describe("Part of the name or maker; width and case are ignored."),
  ratingFrom: rating.optional(),
  ratingTo: rating.optional(),
  unrated: z.boolean().optional().describe("true: only consoles with no rating; false: only rated ones."),
  buyDateFrom: isoDate.optional(),
  buyDateTo: isoDate.optional(),
  buyPriceFrom: z.number().int().min(0).optional(),
  buyPriceTo: z.number().int().min(0).optional(),
};

/** Ranges of the console filters whose end may not come before their start. */
export const CONSOLE_RANGES: [keyof typeof consoleFilterArgs, keyof typeof consoleFilterArgs][] = [
  ["ratingFrom", "ratingTo"],
  ["buyDateFrom", "buyDateTo"],
  ["buyPriceFrom", "buyPriceTo"],
];

export interface ConsoleFilters {
  name?: string;
  ratingFrom?: number;
  ratingTo?: number;
  unrated?: boolean;
  buyDateFrom?: string;
  buyDateTo?: string;
  buyPriceFrom?: number;
  buyPriceTo?: number;
}

export function consoleConditions(userId: string, filters: ConsoleFilters): SQL[] {
  const conditions = [sql`c.user_id = ${userId}`];
  if (filters.name !== undefined) {
    conditions.push(sql`(${placeContains("c.name_key", filters.name)} OR ${placeContains("c.publisher_key", filters.name)})`);
  }
  if (filters.unrated !== undefined) conditions.push(filters.unrated ? sql`c.rating IS NULL` : sql`c.rating IS NOT NULL`);
  conditions.push(
    ...rangeConditions(filters, [
      ["ratingFrom", "c.rating", "from"],
      ["ratingTo", "c.rating", "to"],
      ["buyDateFrom", "c.buy_date", "from"],
      ["buyDateTo", "c.buy_date", "to"],
      ["buyPriceFrom", "c.buy_price", "from"],
      ["buyPriceTo", "c.buy_price", "to"],
    ]),
  );
  return conditions;
}

export const CONSOLE_SORTS = {
  name: "c.name_key",
  rating: "c.rating",
  buyDate: "c.buy_date",
  buyPrice: "c.buy_price",
  createdAt: "c.created_at",
  updatedAt: "c.updated_at",
} as const;

export type ConsoleSort = keyof typeof CONSOLE_SORTS;
export const CONSOLE_DEFAULT_SORT = { sortBy: "rating", sortOrder: "desc" } as const;

export const consoleSort = (sortBy: ConsoleSort, sortOrder: "asc" | "desc") => nullsLastSort(CONSOLE_SORTS[sortBy], sortOrder, "c.id");
export const consoleOrder = (sortBy: ConsoleSort, sortOrder: "asc" | "desc") => orderOf(consoleSort(sortBy, sortOrder));

export async function consolePage(db: Db, conditions: SQL[], order: SQL, page: { limit: number; offset: number }) {
  const where = allOf(conditions);
  const [rows, total] = await queryBatch<[ConsoleRow[], { n: number }[]]>(db, [
    sql`SELECT c.* FROM consoles c WHERE ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
    sql`SELECT COUNT(*) AS n FROM consoles c WHERE ${where}`,
  ]);
  return { rows, totalCount: total[0]?.n ?? 0 };
}

/** The platforms of these consoles, highest priority first, keyed by console. */
export async function platformsOf(db: Db, consoleIds: readonly string[]): Promise<Map<string, ConsolePlatform[]>> {
  const byConsole = new Map<string, ConsolePlatform[]>(consoleIds.map((id) => [id, []]));
  if (consoleIds.length === 0) return byConsole;
  const rows = await db.all<ConsolePlatform & { consoleId: string }>(sql`
    SELECT cp.console_id AS consoleId, cp.platform_id AS platformId, p.name, cp.priority
    FROM console_platforms cp LEFT JOIN platforms p ON p.id = cp.platform_id
    WHERE cp.console_id IN (SELECT value FROM json_each(${JSON.stringify(consoleIds)}))
    ORDER BY cp.priority DESC, cp.platform_id`);
  for (const { consoleId, ...platform } of rows) byConsole.get(consoleId)?.push(platform);
  return byConsole;
}

export async function findConsole(db: Db, userId: string, consoleId: string): Promise<ConsoleRow | undefined> {
  const [row] = await db.all<ConsoleRow>(sql`SELECT * FROM consoles WHERE id = ${consoleId} AND user_id = ${userId}`);
  return row;
}

const replacePlatformsSql = (consoleId: string, priorities: ConsoleValues["platformPriorities"]) => [
  sql`DELETE FROM console_platforms WHERE console_id = ${consoleId}`,
  ...(priorities.length
    ? [
        sql`INSERT INTO console_platforms (console_id, platform_id, priority)
          SELECT ${consoleId}, j.value ->> '$.platformId', j.value ->> '$.priority' FROM json_each(${JSON.stringify(priorities)}) j`,
      ]
    : []),
];

/** The statements that store a new console (addConsole, imports); `times` keeps a restored console's timestamps. */
export const insertConsoleSql = (
  id: string,
  userId: string,
  values: ConsoleValues,
  now: string,
  times = { createdAt: now, updatedAt: now },
): SQL[] => [
  sql`INSERT INTO consoles (id, user_id, name, name_key, created_at, updated_at) VALUES (${id}, ${userId}, ${values.name}, '', ${times.createdAt}, ${times.updatedAt})`,
  sql`UPDATE consoles SET ${sql.join(columnsOf(values), sql`, `)} WHERE id = ${id}`,
  ...replacePlatformsSql(id, values.platformPriorities),
];

/** Inserts the console within the plan's limit (counted in the same batch). */
export async function insertConsole(db: Db, limit: LimitContext, values: ConsoleValues, now: string) {
  const id = newId("con");
  await addWithinLimit(db, limit, CONSOLES_COUNTER, insertConsoleSql(id, limit.userId, values, now));
  return id;
}

/** The console still exists (checked in the batch that writes to it: a removal racing the write leaves no orphan rows). */
export const consoleKept = (userId: string, consoleId: string): WriteCondition => ({
  holds: sql`EXISTS (SELECT 1 FROM consoles WHERE id = ${consoleId} AND user_id = ${userId})`,
  error: () => notFound(`Your console ${consoleId}`),
});

/** Writes only the fields sent, so two patches of different fields never undo each other. */
export async function patchConsole(db: Db, userId: string, consoleId: string, changes: Partial<ConsoleValues>, now: string) {
  await runConditional(
    db,
    [consoleKept(userId, consoleId)],
    [
      sql`UPDATE consoles SET ${sql.join([...columnsOf(changes), sql`updated_at = ${now}`], sql`, `)} WHERE id = ${consoleId} AND user_id = ${userId}`,
      ...(changes.platformPriorities !== undefined ? replacePlatformsSql(consoleId, changes.platformPriorities) : []),
    ],
  );
}

export async function countLogs(db: Db, consoleId: string): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM maintenance_logs WHERE console_id = ${consoleId}`);
  return row?.n ?? 0;
}

/** The console, its platform list and its maintenance logs go together; play records lose it. `marker`: removeConsole's token use. */
export async function deleteConsole(db: Db, userId: string, consoleId: string, marker: SQL) {
  await queryBatch(db, [
    marker,
    detachConsoleSql(userId, consoleId),
    sql`DELETE FROM maintenance_logs WHERE console_id = ${consoleId} AND user_id = ${userId}`,
    sql`DELETE FROM console_platforms WHERE console_id = ${consoleId}`,
    sql`DELETE FROM consoles WHERE id = ${consoleId} AND user_id = ${userId}`,
  ]);
}
