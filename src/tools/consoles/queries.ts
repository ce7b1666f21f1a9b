import { and, asc, count, desc, eq, exists, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { alias, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { consolePlatforms, consoles, maintenanceLogs, platforms } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import { type Db, placeContains, rangeConditions, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { rating } from "../../platform/filters";
import { newId } from "../../platform/ids";
import { orderOf, type SortKey, sortTable } from "../../platform/keyset";
import { normalizePlace } from "../../platform/normalize";
import type { PageWindow } from "../../platform/paging";
import { addWithinLimit, type LimitContext, planCounter, runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { isoDate, text } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { usableIds } from "../games/queries";
import { stillUsable } from "../shared/usableReferences";
import {
  type ConsoleFieldGroup,
  type ConsolePlatform,
  type ConsoleRecord,
  type ConsoleValues,
  type LogRow,
  type LogValues,
  toConsoleItem,
} from "./items";

/** The plan limit on consoles: counted here, where its rows are written. */
export const CONSOLES_COUNTER = planCounter("consoles", consoles, consoles.userId);

/** Consoles as the list reads them (getConsoles, and exportMyData's keyset pages over `consoles c`). */
const c = alias(consoles, "c");

const ownConsole = (userId: string, consoleId: string) => and(eq(consoles.id, consoleId), eq(consoles.userId, userId));

/** One page of a table's rows and how many match `where` in all, in one round trip. */
async function pageAndTotal<T extends SQLiteTable>(db: Db, table: T, where: SQL | undefined, order: SQL[], page: PageWindow) {
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(table)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(table).where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
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
  if (index >= 0) throw platformNotUsable(priorities, index);
}

const platformNotUsable = (priorities: ConsoleValues["platformPriorities"], index: number) => {
  const field = `platformPriorities[${index}].platformId`;
  return new ApiError("not_found", `${field}: ${priorities[index]!.platformId} is not a platform you can use.`, { field });
};

/** checkPlatformPriorities again inside the writing batch: a custom platform removed meanwhile is never listed. */
const platformsKept = (userId: string, priorities: ConsoleValues["platformPriorities"]): WriteCondition[] =>
  priorities.map(({ platformId }, index) => ({
    holds: stillUsable(platforms, userId, platformId),
    error: () => platformNotUsable(priorities, index),
  }));

/** The columns the fields are stored in: name and maker also keep a searchable key each. */
function columnsOf<V extends Partial<ConsoleValues>>({ platformPriorities: _, ...fields }: V) {
  return {
    ...fields,
    ...(fields.name !== undefined ? { nameKey: normalizePlace(fields.name) } : {}),
    ...(fields.publisherName !== undefined ? { publisherKey: fields.publisherName && normalizePlace(fields.publisherName) } : {}),
  };
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

export type ConsoleFilters = z.output<z.ZodObject<typeof consoleFilterArgs>>;

export function consoleConditions(userId: string, filters: ConsoleFilters): SQL[] {
  const conditions = [eq(c.userId, userId)];
  if (filters.name !== undefined) {
    conditions.push(sql`(${placeContains(c.nameKey, filters.name)} OR ${placeContains(c.publisherKey, filters.name)})`);
  }
  if (filters.unrated !== undefined) conditions.push(filters.unrated ? isNull(c.rating) : isNotNull(c.rating));
  conditions.push(...rangeConditions(filters, { rating: c.rating, buyDate: c.buyDate, buyPrice: c.buyPrice }));
  return conditions;
}

/** getConsoles' sorts (and the consoles dataset's); the id breaks ties. */
export const CONSOLE_SORTS = sortTable(
  {
    name: c.nameKey,
    rating: c.rating,
    buyDate: c.buyDate,
    buyPrice: c.buyPrice,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  },
  c.id,
  { sortBy: "rating", sortOrder: "desc" },
  { name: "asc" },
);

export const consolePage = (db: Db, conditions: SQL[], sort: readonly SortKey[], page: PageWindow) =>
  pageAndTotal(db, c, and(...conditions), [orderOf(sort)], page);

/** The platforms of these consoles, highest priority first, keyed by console. */
export async function platformsOf(db: Db, consoleIds: readonly string[]): Promise<Map<string, ConsolePlatform[]>> {
  const byConsole = new Map<string, ConsolePlatform[]>(consoleIds.map((id) => [id, []]));
  if (consoleIds.length === 0) return byConsole;
  const rows = await db
    .select({
      consoleId: consolePlatforms.consoleId,
      platformId: consolePlatforms.platformId,
      name: platforms.name,
      priority: consolePlatforms.priority,
    })
    .from(consolePlatforms)
    .leftJoin(platforms, eq(platforms.id, consolePlatforms.platformId))
    .where(inJsonArray(consolePlatforms.consoleId, consoleIds))
    .orderBy(desc(consolePlatforms.priority), asc(consolePlatforms.platformId));
  for (const { consoleId, ...platform } of rows) byConsole.get(consoleId)?.push(platform);
  return byConsole;
}

export async function findConsole(db: Db, userId: string, consoleId: string): Promise<ConsoleRecord | undefined> {
  return db.select().from(consoles).where(ownConsole(userId, consoleId)).get();
}

/** A stored console as a tool result, with the given field groups (404 when a removal took it meanwhile). */
export async function renderConsole(db: Db, userId: string, consoleId: string, groups: readonly ConsoleFieldGroup[]) {
  const [row, platforms] = await Promise.all([findConsole(db, userId, consoleId), platformsOf(db, [consoleId])]);
  return toConsoleItem(
    readBack(row, () => notFound(`Your console ${consoleId}`)),
    new Set(groups),
    platforms.get(consoleId),
  );
}

const deletePlatformsSql = (consoleId: string) =>
  statements.delete(consolePlatforms).where(eq(consolePlatforms.consoleId, consoleId)).getSQL();

const replacePlatformsSql = (consoleId: string, priorities: ConsoleValues["platformPriorities"]) => [
  deletePlatformsSql(consoleId),
  ...(priorities.length
    ? [
        statements
          .insert(consolePlatforms)
          .values(priorities.map(({ platformId, priority }) => ({ consoleId, platformId, priority })))
          .getSQL(),
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
  statements
    .insert(consoles)
    .values({ id, userId, ...columnsOf(values), ...times })
    .getSQL(),
  ...replacePlatformsSql(id, values.platformPriorities),
];

/** Inserts the console within the plan's limit (counted in the same batch). */
export async function insertConsole(db: Db, limit: LimitContext, values: ConsoleValues, now: string) {
  const id = newId("con");
  await addWithinLimit(
    db,
    limit,
    CONSOLES_COUNTER,
    insertConsoleSql(id, limit.userId, values, now),
    platformsKept(limit.userId, values.platformPriorities),
  );
  return id;
}

/** The console must still be the user's when the batch that refers to it runs (`error` when removeConsole took it meanwhile). */
export const consoleKept = (userId: string, consoleId: string, error = () => notFound(`Your console ${consoleId}`)): WriteCondition => ({
  holds: exists(statements.select({ one: sql`1` }).from(consoles).where(ownConsole(userId, consoleId))),
  error,
});

/** Runs the writes as one batch while the console still exists: a removal racing them leaves no orphan rows. */
const whileConsoleKept = (db: Db, userId: string, consoleId: string, writes: SQL[], conditions: WriteCondition[] = []) =>
  runConditional(db, [consoleKept(userId, consoleId), ...conditions], writes);

/** Writes only the fields sent, so two patches of different fields never undo each other. */
export async function patchConsole(db: Db, userId: string, consoleId: string, changes: Partial<ConsoleValues>, now: string) {
  const { platformPriorities } = changes;
  await whileConsoleKept(
    db,
    userId,
    consoleId,
    [
      statements
        .update(consoles)
        .set({ ...columnsOf(changes), updatedAt: now })
        .where(ownConsole(userId, consoleId))
        .getSQL(),
      ...(platformPriorities !== undefined ? replacePlatformsSql(consoleId, platformPriorities) : []),
    ],
    platformsKept(userId, platformPriorities ?? []),
  );
}

const ownLog = (userId: string, maintenanceLogId: string) =>
  and(eq(maintenanceLogs.id, maintenanceLogId), eq(maintenanceLogs.userId, userId));

export async function findLog(db: Db, userId: string, maintenanceLogId: string): Promise<LogRow | undefined> {
  return db.select().from(maintenanceLogs).where(ownLog(userId, maintenanceLogId)).get();
}

/** A log marked DONE without a date was done today (the user's day): the rule keeps status and dates coherent. */
export const withDoneDate = async (values: LogValues, today: () => Promise<string>): Promise<LogValues> =>
  values.status === "DONE" && values.completedDate === null ? { ...values, completedDate: await today() } : values;

/** Adds a log while its console still exists (checked in the same batch). */
export async function insertLog(db: Db, userId: string, consoleId: string, values: LogValues, now: string): Promise<string> {
  const id = newId("mlog");
  await whileConsoleKept(db, userId, consoleId, [
    statements
      .insert(maintenanceLogs)
      .values({ id, userId, consoleId, ...values, createdAt: now, updatedAt: now })
      .getSQL(),
  ]);
  return id;
}

/**
 * Writes only the fields sent, so two patches of different fields never undo each other; then
 * a DONE log still without a completion date gets today's (the same rule as on insert). Only a
 * patch that sets DONE or clears the date can leave a log so, so only such a patch reads today.
 */
export async function patchLog(
  db: Db,
  userId: string,
  maintenanceLogId: string,
  changes: Partial<LogValues>,
  now: Date,
  today: () => Promise<string>,
) {
  const where = ownLog(userId, maintenanceLogId);
  const patch = db
    .update(maintenanceLogs)
    .set({ ...changes, updatedAt: now.toISOString() })
    .where(where);
  if (changes.status !== "DONE" && changes.completedDate !== null) {
    await patch;
    return;
  }
  await db.batch([
    patch,
    db
      .update(maintenanceLogs)
      .set({ completedDate: await today() })
      .where(and(where, eq(maintenanceLogs.status, "DONE"), isNull(maintenanceLogs.completedDate))),
  ]);
}

export const deleteLogSql = (userId: string, maintenanceLogId: string): SQL =>
  statements.delete(maintenanceLogs).where(ownLog(userId, maintenanceLogId)).getSQL();

/** The maintenance logs of these consoles (an export page's), each console's oldest logged first. */
export async function logsOf(db: Db, consoleIds: readonly string[]): Promise<Map<string, LogRow[]>> {
  const byConsole = new Map<string, LogRow[]>();
  if (consoleIds.length === 0) return byConsole;
  const rows = await db
    .select()
    .from(maintenanceLogs)
    .where(inJsonArray(maintenanceLogs.consoleId, consoleIds))
    .orderBy(asc(maintenanceLogs.createdAt), asc(maintenanceLogs.id));
  for (const row of rows) byConsole.set(row.consoleId, [...(byConsole.get(row.consoleId) ?? []), row]);
  return byConsole;
}

/** A restored maintenance log of console `consoleId` (a new id), with its own times. */
export const insertLogSql = (userId: string, consoleId: string, values: LogValues, times: { createdAt: string; updatedAt: string }): SQL =>
  statements
    .insert(maintenanceLogs)
    .values({ id: newId("mlog"), userId, consoleId, ...values, ...times })
    .getSQL();

/** Newest first: by the date the work was done or planned, else when it was logged. */
export const logPage = (db: Db, consoleId: string, page: PageWindow) =>
  pageAndTotal(
    db,
    maintenanceLogs,
    eq(maintenanceLogs.consoleId, consoleId),
    [
      // raw SQL: coalesce has no builder function
      desc(sql`coalesce(${maintenanceLogs.completedDate}, ${maintenanceLogs.scheduledDate}, ${maintenanceLogs.createdAt})`),
      desc(maintenanceLogs.createdAt),
      asc(maintenanceLogs.id),
    ],
    page,
  );
