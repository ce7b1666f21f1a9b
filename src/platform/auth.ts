import { and, eq, isNull } from "drizzle-orm";
import { apiKeys, users } from "../db/schema";
import type { Db } from "./db";
import { ApiError } from "./errors";
import { constantTimeEqual, sha256Hex } from "./hashing";
import { randomBase62 } from "./ids";
import type { Plan, Scope } from "./plans";

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
  if (!parts) throw unauthorized("The API key is malformed.");
  return { token, keyId: `key_${parts[1]}` };
}

/** Resolves a presented API key to its user, plan and scopes; 401 or 403 otherwise. */
export async function authenticate(db: Db, { token, keyId }: PresentedKey): Promise<AuthContext> {
  const [row] = await db
    .select({
      keyHash: apiKeys.keyHash,
      scopes: apiKeys.scopes,
      userId: users.id,
      plan: users.plan,
      suspended: users.suspended,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .limit(1);
  const presentedHash = await sha256Hex(token);
  // Compare even when no row exists, so timing does not reveal which key ids exist.
  const matches = await constantTimeEqual(presentedHash, row?.keyHash ?? "");
  if (!row || !matches) throw unauthorized("The API key is unknown or revoked.");
  if (row.suspended) {
    throw new ApiError("access_suspended", "Access for this account is suspended.");
  }
  return { userId: row.userId, plan: row.plan, keyId, scopes: new Set(row.scopes as Scope[]) };
}
