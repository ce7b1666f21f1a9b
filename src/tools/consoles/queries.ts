import { type SQL, sql } from "drizzle-orm";
import { type Db, orderNullsLast, placeContains, queryBatch, rangeConditions } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { normalizePlace } from "../../platform/normalize";
import { allOf, usableIds } from "../games/queries";
import type { ConsolePlatform, ConsoleRow } from "./console";

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

export const consoleValuesOf = (row: ConsoleRow, platforms: ConsolePlatform[]): ConsoleValues => ({
  name: row.name,
  nameKana: row.name_kana,
  memo: row.memo,
  rating: row.rating,
  buyDate: row.buy_date,
  buyPrice: row.buy_price,
  buyPlace: row.buy_place,
  publisherName: row.publisher_name,
  platformPriorities: platforms.map(({ platformId, priority }) => ({ platformId, priority })),
});

/** Every platform a console names must be official or the user's own; 404 naming the first that is not. */
export async function checkPlatformPriorities(db: Db, userId: string, priorities: ConsoleValues["platformPriorities"]) {
  const usable = await usableIds(db, "platforms", userId, priorities.map((p) => p.platformId));
  const index = priorities.findIndex((p) => !usable.has(p.platformId));
  if (index >= 0) {
    const field = `platformPriorities[${index}].platformId`;
    throw new ApiError("not_found", `${field}: ${priorities[index]!.platformId} is not a platform you can use.`, { field });
  }
}

const searchKeyOf = (values: ConsoleValues) => normalizePlace(`${values.name} ${values.publisherName ?? ""}`);

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
  if (filters.name !== undefined) conditions.push(placeContains("c.search_key", filters.name));
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
  name: "c.search_key",
  rating: "c.rating",
  buyDate: "c.buy_date",
  buyPrice: "c.buy_price",
  createdAt: "c.created_at",
  updatedAt: "c.updated_at",
} as const;

export const consoleOrder = (sortBy: keyof typeof CONSOLE_SORTS, sortOrder: "asc" | "desc") =>
  orderNullsLast(CONSOLE_SORTS[sortBy], sortOrder, "c.id");

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

export async function countConsoles(db: Db, userId: string): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM consoles WHERE user_id = ${userId}`);
  return row?.n ?? 0;
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

export async function insertConsole(db: Db, userId: string, values: ConsoleValues, now: string): Promise<string> {
  const id = newId("con");
  await queryBatch(db, [
    sql`INSERT INTO consoles (id, user_id, name, name_kana, search_key, memo, rating, buy_date, buy_price, buy_place, publisher_name, created_at, updated_at)
      VALUES (${id}, ${userId}, ${values.name}, ${values.nameKana}, ${searchKeyOf(values)}, ${values.memo}, ${values.rating}, ${values.buyDate},
        ${values.buyPrice}, ${values.buyPlace}, ${values.publisherName}, ${now}, ${now})`,
    ...replacePlatformsSql(id, values.platformPriorities),
  ]);
  return id;
}

export async function updateConsole(db: Db, userId: string, consoleId: string, values: ConsoleValues, now: string) {
  await queryBatch(db, [
    sql`UPDATE consoles SET name = ${values.name}, name_kana = ${values.nameKana}, search_key = ${searchKeyOf(values)}, memo = ${values.memo},
      rating = ${values.rating}, buy_date = ${values.buyDate}, buy_price = ${values.buyPrice}, buy_place = ${values.buyPlace},
      publisher_name = ${values.publisherName}, updated_at = ${now}
    WHERE id = ${consoleId} AND user_id = ${userId}`,
    ...replacePlatformsSql(consoleId, values.platformPriorities),
  ]);
}

export async function countLogs(db: Db, consoleId: string): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM maintenance_logs WHERE console_id = ${consoleId}`);
  return row?.n ?? 0;
}

/** The console, its platform list and its maintenance logs go together. */
export async function deleteConsole(db: Db, userId: string, consoleId: string) {
  await queryBatch(db, [
    sql`DELETE FROM maintenance_logs WHERE console_id = ${consoleId} AND user_id = ${userId}`,
    sql`DELETE FROM console_platforms WHERE console_id = ${consoleId}`,
    sql`DELETE FROM consoles WHERE id = ${consoleId} AND user_id = ${userId}`,
  ]);
}
