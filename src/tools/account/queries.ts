import { and, count, eq, isNull } from "drizzle-orm";
import { apiKeys, users } from "../../db/schema";
import type { Db } from "../../platform/db";
import { countOwnAttributes } from "../attributes/queries";
import { countCustomGames } from "../customGames/queries";
import { countLibrary } from "../library/queries";
import { countWishlist } from "../wishlist/queries";
import { countConsoles } from "../consoles/queries";
import { ApiError } from "../../platform/errors";
import { type Plan, REGISTERED_LIMITS, type RegisteredResource } from "../../platform/plans";

export async function findUser(db: Db, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user;
}

const countActiveKeys = async (db: Db, userId: string) => {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  return row?.n ?? 0;
};

const COUNTERS: Record<RegisteredResource, (db: Db, userId: string) => Promise<number>> = {
  apiKeys: countActiveKeys,
  attributes: countOwnAttributes,
  customGames: countCustomGames,
  library: countLibrary,
  wishlist: countWishlist,
  consoles: countConsoles,
};

export const registeredLimitReached = (plan: Plan, resource: RegisteredResource, upgradeUrl: string) =>
  new ApiError("plan_required", `The ${plan} plan allows ${REGISTERED_LIMITS[resource][plan]} ${resource}; remove some or upgrade.`, {
    upgradeUrl,
  });

/** Refuses one more record of `resource` when the plan's limit is reached (403 plan_required). */
export async function enforceRegisteredLimit(db: Db, auth: { userId: string; plan: Plan }, resource: RegisteredResource, upgradeUrl: string) {
  const limit = REGISTERED_LIMITS[resource][auth.plan];
  if (limit !== null && (await COUNTERS[resource](db, auth.userId)) >= limit) throw registeredLimitReached(auth.plan, resource, upgradeUrl);
}

/** Every registered-record count with its plan limit (null: unlimited). */
export async function registeredCounts(db: Db, userId: string, plan: Plan) {
  const resources = Object.keys(COUNTERS) as RegisteredResource[];
  const counts = await Promise.all(resources.map((resource) => COUNTERS[resource](db, userId)));
  return Object.fromEntries(
    resources.map((resource, i) => [resource, { count: counts[i]!, limit: REGISTERED_LIMITS[resource][plan] }]),
  );
}
