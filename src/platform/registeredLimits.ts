import { type SQL, sql } from "drizzle-orm";
import { type Db, guardStatement, queryBatch, runGuarded } from "./db";
import { ApiError } from "./errors";
import { type Plan, REGISTERED_LIMITS, type RegisteredResource } from "./plans";

/** How each registered resource of a user is counted: one definition for the limit and getAccount. */
const COUNT: Record<RegisteredResource, (userId: string) => SQL> = {
  apiKeys: (userId) => sql`SELECT COUNT(*) FROM api_keys WHERE user_id = ${userId} AND revoked_at IS NULL`,
  attributes: (userId) => sql`SELECT COUNT(*) FROM attributes WHERE user_id = ${userId}`,
  customGames: (userId) => sql`SELECT COUNT(*) FROM games WHERE owner_user_id = ${userId}`,
  customPlatforms: (userId) => sql`SELECT COUNT(*) FROM platforms WHERE owner_user_id = ${userId}`,
  customPublishers: (userId) => sql`SELECT COUNT(*) FROM companies WHERE owner_user_id = ${userId}`,
  library: (userId) => sql`SELECT COUNT(*) FROM library_entries WHERE user_id = ${userId}`,
  wishlist: (userId) => sql`SELECT COUNT(*) FROM wishlist_entries WHERE user_id = ${userId}`,
  consoles: (userId) => sql`SELECT COUNT(*) FROM consoles WHERE user_id = ${userId}`,
  tags: (userId) => sql`SELECT COUNT(*) FROM tags WHERE user_id = ${userId}`,
  collections: (userId) => sql`SELECT COUNT(*) FROM collections WHERE user_id = ${userId}`,
};

export interface LimitContext {
  userId: string;
  plan: Plan;
  upgradeUrl: string;
}

const limitReached = (ctx: LimitContext, resource: RegisteredResource) =>
  new ApiError(
    "plan_required",
    `The ${ctx.plan} plan allows ${REGISTERED_LIMITS[resource][ctx.plan]} ${resource}; remove some or upgrade.`,
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
  resource: RegisteredResource,
  statements: (SQL | D1PreparedStatement)[],
  conditions: readonly WriteCondition[] = [],
) {
  const limit: number | null = REGISTERED_LIMITS[resource][ctx.plan];
  const all = [...conditions];
  if (limit !== null) all.push({ holds: sql`(${COUNT[resource](ctx.userId)}) < ${limit}`, error: () => limitReached(ctx, resource) });
  await runConditional(db, all, statements);
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
    const [row] = await db.all<Record<string, number>>(
      sql`SELECT ${sql.join(
        conditions.map((c, i) => sql`(${c.holds}) AS ${sql.raw(`c${i}`)}`),
        sql`, `,
      )}`,
    );
    throw (conditions.find((_, i) => !row?.[`c${i}`]) ?? conditions[0]!).error();
  }
}

const RESOURCES = Object.keys(COUNT) as RegisteredResource[];

/** Every registered-record count of the user, as one statement with one column per resource (each counted through an index). */
export const registeredCountsQuery = (userId: string) =>
  sql`SELECT ${sql.join(
    RESOURCES.map((resource) => sql`(${COUNT[resource](userId)}) AS ${sql.raw(resource)}`),
    sql`, `,
  )}`;

/** registeredCountsQuery's row as each count with its plan limit (null: unlimited). */
export const registeredCountsOf = (row: Partial<Record<RegisteredResource, number>> | undefined, plan: Plan) =>
  Object.fromEntries(RESOURCES.map((resource) => [resource, { count: row?.[resource] ?? 0, limit: REGISTERED_LIMITS[resource][plan] }]));

/** Every registered-record count with its plan limit (null: unlimited), in one statement. */
export async function registeredCounts(db: Db, userId: string, plan: Plan) {
  const [[row]] = await queryBatch<[Partial<Record<RegisteredResource, number>>[]]>(db, [registeredCountsQuery(userId)]);
  return registeredCountsOf(row, plan);
}

/**
 * For batches that add many records at once (imports): a guard, placed after the inserts, that
 * breaks the batch when the user's count of `resource` ends above the plan's limit. Null when the
 * plan has no limit. With `currentCount` the room left before the batch is known too.
 */
export function limitGuardAfter(ctx: Pick<LimitContext, "userId" | "plan">, resource: RegisteredResource): SQL | null {
  const limit: number | null = REGISTERED_LIMITS[resource][ctx.plan];
  return limit === null ? null : guardStatement(sql`(${COUNT[resource](ctx.userId)}) <= ${limit}`);
}

/** How many more `resource` records the plan allows now (Infinity when unlimited). */
export async function roomLeft(db: Db, ctx: Pick<LimitContext, "userId" | "plan">, resource: RegisteredResource): Promise<number> {
  const limit: number | null = REGISTERED_LIMITS[resource][ctx.plan];
  if (limit === null) return Number.POSITIVE_INFINITY;
  const [row] = await db.all<{ n: number }>(sql`SELECT (${COUNT[resource](ctx.userId)}) AS n`);
  return Math.max(0, limit - (row?.n ?? 0));
}
