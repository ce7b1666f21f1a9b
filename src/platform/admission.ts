import { type Db, queryBatch } from "./db";
import { type AuthContext, type KeyRow, type PresentedKey, hashPresentedKey, keyRowQuery, verifyKey } from "./auth";
import { type DailyCharge, dailyChargeStatement, utcDay } from "./quota";

export interface Admission {
  auth: AuthContext;
  /** Null when today's quota had no room left for the call. */
  charge: DailyCharge | null;
}

/**
 * Authenticates the key and charges the call to its user's daily quota in one round trip. The
 * charge is made before scope, plan and burst are checked, so a call those refuse must be refunded.
 */
export async function admitCall(db: Db, presented: PresentedKey, now: Date, cost: number): Promise<Admission> {
  const key = await hashPresentedKey(presented);
  const day = utcDay(now);
  const [keyRows, charged] = await queryBatch<[KeyRow[], { count: number }[]]>(db, [
    keyRowQuery(key.keyId),
    dailyChargeStatement(key, day, cost),
  ]);
  const auth = await verifyKey(keyRows[0], key);
  return { auth, charge: charged.length > 0 ? { day, cost } : null };
}

/**
 * Authenticates a key without charging anything: for requests that run no tool (the MCP face's
 * initialize and tools/list), which must still be refused without a valid key.
 */
export async function authenticateOnly(db: Db, presented: PresentedKey): Promise<AuthContext> {
  const key = await hashPresentedKey(presented);
  const [rows] = await queryBatch<[KeyRow[]]>(db, [keyRowQuery(key.keyId)]);
  return verifyKey(rows[0], key);
}
