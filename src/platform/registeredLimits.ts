import { and, count, eq, type SQL, sql } from "drizzle-orm";
import { QueryBuilder, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { listCounts } from "../db/schema";
import { type Db, guardStatement, runGuarded } from "./db";
import { ApiError } from "./errors";
import { type Plan, REGISTERED_LIMITS, type RegisteredResource } from "./plans";

/**
 * How a family counts a user's records of one plan-limited resource. Each family declares its
 * counter beside its queries (planCounter); tools/planCounters.ts lists them for getAccount.
 */
export interface PlanCounter {
  resource: RegisteredResource;
  /** A statement whose one value is the user's count (read through an index). */
  count(userId: string): SQL;
  /** What a full plan's refusal says, where the generic wording does not fit the resource. */
  fullMessage?(plan: Plan, limit: number): string;
}

const builder = new QueryBuilder();

/**
 * The size of a user's list as list_counts keeps it (triggers move it with every insert and
 * delete): one row read instead of counting the list. A statement whose one value is the size.
 */
export const listSize = (list: ListName, userId: string) =>
  builder
    .select({ n: sql<number>`coalesce(max(${listCounts.n}), 0)`.as("n") })
    .from(listCounts)
    .where(and(eq(listCounts.userId, userId), eq(listCounts.list, list)))
    .getSQL();

export type ListName = (typeof listCounts.$inferSelect)["list"];

/** The counter of a list whose size list_counts keeps. */
export const listSizeCounter = (resource: RegisteredResource, list: ListName): PlanCounter => ({
  resource,
  count: (userId) => listSize(list, userId),
});

/** The counter of `table`'s rows whose `owner` column is the user (and that meet `also`). */
export const planCounter = (
  resource: RegisteredResource,
  table: SQLiteTable,
  owner: SQLiteColumn,
  also?: SQL,
  fullMessage?: PlanCounter["fullMessage"],
): PlanCounter => ({
  resource,
  fullMessage,
  count: (userId) =>
    builder
      .select({ n: count() })
      .from(table)
      .where(and(eq(owner, userId), also))
      .getSQL(),
});

export interface LimitContext {
  userId: string;
  plan: Plan;
  upgradeUrl: string;
}

const limitReached = (ctx: LimitContext, counter: PlanCounter, limit: number) =>
  new ApiError(
    "plan_required",
    counter.fullMessage?.(ctx.plan, limit) ?? `The ${ctx.plan} plan allows ${limit} ${counter.resource}; remove some or upgrade.`,
    {
      upgradeUrl: ctx.upgradeUrl,
    },
  );

/** A condition that must still hold when a batch runs, and the error answered when it does not. */
export interface WriteCondition {
  holds: SQL;
  error: () => Error;
}

/**
 * Runs the statements that add one `resource` record as one batch that first checks the plan's
 * limit: counting and inserting in one transaction, concurrent adds cannot pass it together.
 * `conditions` (references that must still exist, ...) are checked in the same batch, before the
 * limit; a broken batch answers the error of the first condition that does not hold.
 */
export async function addWithinLimit(
  db: Db,
  ctx: LimitContext,
  counter: PlanCounter,
  statements: (SQL | D1PreparedStatement)[],
  conditions: readonly WriteCondition[] = [],
) {
  const limit: number | null = REGISTERED_LIMITS[counter.resource][ctx.plan];
  const all = [...conditions];
  if (limit !== null) {
    all.push({ holds: sql`(${counter.count(ctx.userId)}) < ${limit}`, error: () => limitReached(ctx, counter, limit) });
  }
  await runConditional(db, all, statements);
}

/**
 * Like addWithinLimit, for a batch whose first statements free room (they end what the new record
 * replaces): the limit is checked after the statements, on the count they leave.
 */
export async function replaceWithinLimit(db: Db, ctx: LimitContext, counter: PlanCounter, statements: (SQL | D1PreparedStatement)[]) {
  const limit: number | null = REGISTERED_LIMITS[counter.resource][ctx.plan];
  const guard = limitGuardAfter(ctx, counter);
  await runGuarded(db, guard ? [...statements, guard] : statements, () => limitReached(ctx, counter, limit ?? 0));
}

/** Runs the statements as one batch after guards for every condition; see addWithinLimit. */
export async function runConditional(db: Db, conditions: readonly WriteCondition[], statements: (SQL | D1PreparedStatement)[]) {
  const broken = new Error("a write condition broke");
  try {
    await runGuarded(db, [...conditions.map((c) => guardStatement(c.holds)), ...statements], () => broken);
  } catch (error) {
    if (error !== broken) throw error;
    if (conditions.length === 1) throw conditions[0]!.error();
    // The guard that broke is not named by D1: read which condition fails now.
    // raw SQL: a SELECT of conditions with no table (the builder needs a FROM).
    const [row] = await db.all<Record<string, number>>(
      sql`SELECT ${sql.join(
        conditions.map((c, i) => sql`(${c.holds}) AS ${sql.raw(`c${i}`)}`),
        sql`, `,
      )}`,
    );
    throw (conditions.find((_, i) => !row?.[`c${i}`]) ?? conditions[0]!).error();
  }
}

/** Every registered-record count of the user, as one statement with one column per resource (each counted through an index). */
// raw SQL: a SELECT of count subqueries with no table (the builder needs a FROM).
export const registeredCountsQuery = (userId: string, counters: readonly PlanCounter[]) =>
  sql`SELECT ${sql.join(
    counters.map((counter) => sql`(${counter.count(userId)}) AS ${sql.raw(counter.resource)}`),
    sql`, `,
  )}`;

/** registeredCountsQuery's row as each count with its plan limit (null: unlimited). */
export const registeredCountsOf = (
  row: Partial<Record<RegisteredResource, number>> | undefined,
  plan: Plan,
  counters: readonly PlanCounter[],
) =>
  Object.fromEntries(counters.map(({ resource }) => [resource, { count: row?.[resource] ?? 0, limit: REGISTERED_LIMITS[resource][plan] }]));

/**
 * For batches that add many records at once (imports): a guard, placed after the inserts, that
 * breaks the batch when the user's count of `resource` ends above the plan's limit. Null when the
 * plan has no limit. With `currentCount` the room left before the batch is known too.
 */
export function limitGuardAfter(ctx: Pick<LimitContext, "userId" | "plan">, counter: PlanCounter): SQL | null {
  const limit: number | null = REGISTERED_LIMITS[counter.resource][ctx.plan];
  return limit === null ? null : guardStatement(sql`(${counter.count(ctx.userId)}) <= ${limit}`);
}

/** How many more `resource` records the plan allows now (Infinity when unlimited). */
export async function roomLeft(db: Db, ctx: Pick<LimitContext, "userId" | "plan">, counter: PlanCounter): Promise<number> {
  const limit: number | null = REGISTERED_LIMITS[counter.resource][ctx.plan];
  if (limit === null) return Number.POSITIVE_INFINITY;
  // raw SQL: the counter's count under a name (its builder select leaves the column unnamed).
  const [row] = await db.all<{ n: number }>(sql`SELECT (${counter.count(ctx.userId)}) AS n`);
  return Math.max(0, limit - (row?.n ?? 0));
}
