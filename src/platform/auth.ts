import { type SQLWrapper, sql } from "drizzle-orm";
import { apiKeys, type users } from "../db/schema";
import type { RowOf } from "./db";
import { ApiError } from "./errors";
import { digestsEqual, sha256Hex } from "./hashing";
import { randomBase62 } from "./ids";
import type { Plan, Scope } from "./plans";
import { planCounter } from "./registeredLimits";

/** Now as stored instants are written (ISO 8601 with milliseconds, UTC), so comparing the text orders the instants. */
const NOW_ISO = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** A key that can be used: not revoked and not past its expiry (the database's clock decides, in every statement alike). */
export const keyIsLive = (revokedAt: SQLWrapper, expiresAt: SQLWrapper) =>
  sql`${revokedAt} IS NULL AND (${expiresAt} IS NULL OR ${expiresAt} > ${NOW_ISO})`;

/** keyIsLive of `k`, the alias the statements of every call give api_keys. */
export const LIVE_KEY_K = keyIsLive(sql`k.revoked_at`, sql`k.expires_at`);

/** The plan limit on API keys: live keys count (revoked and expired ones do not). */
export const API_KEYS_COUNTER = planCounter(
  "apiKeys",
  apiKeys,
  apiKeys.userId,
  keyIsLive(apiKeys.revokedAt, apiKeys.expiresAt),
  (plan, limit) =>
    `The ${plan} plan allows ${limit} active API keys at a time; revoke one you no longer use (expired keys do not count) or upgrade.`,
);

/**
 * API keys look like `rgc_<16 id chars><32 secret chars>`. The fixed `rgc_` prefix lets secret
 * scanners recognise a leaked key; the id part finds the row without scanning hashes.
 */
const KEY_PREFIX = "rgc_";
const KEY_PATTERN = /^rgc_([A-Za-z0-9]{16})([A-Za-z0-9]{32})$/;

export interface AuthContext {
  userId: string;
  plan: Plan;
  keyId: string;
  scopes: ReadonlySet<Scope>;
}

export interface IssuedKey {
  keyId: string;
  apiKey: string;
  displayPrefix: string;
  keyHash: string;
}

export async function issueApiKey(): Promise<IssuedKey> {
  const idPart = randomBase62(16);
  const apiKey = `${KEY_PREFIX}${idPart}${randomBase62(32)}`;
  return {
    keyId: `key_${idPart}`,
    apiKey,
    displayPrefix: apiKey.slice(0, KEY_PREFIX.length + 6),
    keyHash: await sha256Hex(apiKey),
  };
}

const unauthorized = (message: string) => new ApiError("unauthorized", message);

export function readBearerToken(header: string | undefined): string {
  if (!header) throw unauthorized("Send the API key as 'Authorization: Bearer <API key>'.");
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized("The Authorization header must be 'Bearer <API key>'.");
  return match[1]!;
}

export interface PresentedKey {
  token: string;
  keyId: string;
}

/** Reads the key from the Authorization header without touching storage; 401 when malformed. */
export function presentedKey(authorization: string | undefined): PresentedKey {
  const token = readBearerToken(authorization);
  const parts = KEY_PATTERN.exec(token);
  if (!parts) throw refusedToken("unknown", "The API key is malformed: it is not one this service issued.");
  return { token, keyId: `key_${parts[1]}` };
}

/** The presented key with its hash, which is what storage holds. */
export interface HashedKey extends PresentedKey {
  hash: string;
}

export const hashPresentedKey = async (key: PresentedKey): Promise<HashedKey> => ({ ...key, hash: await sha256Hex(key.token) });

/** keyRowQuery's row: raw values (scopes as JSON text, suspended as 0/1), some under aliases. */
export type KeyRow = Pick<typeof apiKeys.$inferSelect, "keyHash" | "expiresAt"> & RowOf<typeof apiKeys, "scopes"> & KeyOwnerRow;
type KeyOwnerRow = { userId: (typeof users.$inferSelect)["id"] } & RowOf<typeof users, "plan" | "suspended">;

/**
 * The live (unrevoked, unexpired) key with this id and its user; verifyKey decides whether it was
 * presented. Read when a key's accounting object does not know the key yet (admission.ts).
 */
// raw SQL: fixed text with aliases, no per-call building.
export const keyRowQuery = (keyId: string) => sql`
  SELECT k.key_hash AS keyHash, k.scopes, k.expires_at AS expiresAt, u.id AS userId, u.plan, u.suspended
  FROM api_keys k JOIN users u ON u.id = k.user_id
  WHERE k.id = ${keyId} AND ${LIVE_KEY_K}`;

const NO_KEY_HASH = "0".repeat(64);

/** Why a presented bearer token is refused (RFC 6750 invalid_token): never issued (or not its secret), revoked, or expired. */
export type TokenRefusal = "unknown" | "revoked" | "expired";

/** 401 invalid_token naming why; the message is the challenge's error_description too, so it holds no quote or backslash. */
export const refusedToken = (reason: TokenRefusal, message: string) => new ApiError("invalid_token", message, { reason });

const KEY_REFUSALS: Record<TokenRefusal, string> = {
  unknown: "The API key is unknown: it was never issued, or its secret is wrong.",
  revoked: "The API key was revoked: create a new key in the settings.",
  expired: "The API key has expired: create a new key in the settings.",
};

/** A key that was never issued, was revoked or has expired, or a secret that does not match, saying which. */
export const invalidKey = (reason: TokenRefusal = "unknown") => refusedToken(reason, KEY_REFUSALS[reason]);

/** The key's row in any state, read only once a key was refused, to tell the caller why (keyRefusalOf). */
// raw SQL: fixed text, no per-call building.
export const keyStateQuery = (keyId: string) => sql`
  SELECT key_hash AS keyHash, revoked_at AS revokedAt, expires_at AS expiresAt FROM api_keys WHERE id = ${keyId}`;
export type KeyStateRow = Pick<typeof apiKeys.$inferSelect, "keyHash" | "revokedAt" | "expiresAt">;

/**
 * Why a refused key was refused. Only the holder of the key's secret learns more than "unknown"
 * (the hashes are compared even without a row). A key refused while neither revoked nor past its
 * expiry in D1 is being revoked (its accounting object is told first): revoked.
 */
export function keyRefusalOf(row: KeyStateRow | undefined, key: HashedKey, now: Date): TokenRefusal {
  const matches = digestsEqual(key.hash, row?.keyHash ?? NO_KEY_HASH);
  if (!row || !matches) return "unknown";
  const expired = row.revokedAt === null && row.expiresAt !== null && Date.parse(row.expiresAt) <= now.getTime();
  return expired ? "expired" : "revoked";
}

export const accessSuspended = () => new ApiError("access_suspended", "Access for this account is suspended.");

/** Resolves a presented API key to its user, plan and scopes; 401 or 403 otherwise. */
export async function verifyKey(row: KeyRow | undefined, key: HashedKey): Promise<AuthContext> {
  // Compare even when no row exists, so timing does not reveal which key ids exist. Both sides are
  // SHA-256 hex digests (a stand-in of the same length when there is no row).
  const matches = digestsEqual(key.hash, row?.keyHash ?? NO_KEY_HASH);
  if (!row || !matches) throw invalidKey();
  if (row.suspended) throw accessSuspended();
  return { userId: row.userId, plan: row.plan, keyId: key.keyId, scopes: new Set(JSON.parse(row.scopes) as Scope[]) };
}
