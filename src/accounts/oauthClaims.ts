import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { eq, lt } from "drizzle-orm";
import type { Bindings } from "../bindings";
import { oauthClaims } from "../db/schema";
import { createDb, type Db } from "../platform/db";
import { ApiError } from "../platform/errors";
import { DAY_MS } from "../platform/time";
import type { EndedReason } from "./apiKeys";
import { revokeKey } from "./connectedAssistants";
import type { GrantMetadata } from "./oauthServer";
import { hashToken } from "./tokens";

/**
 * Authorization codes and refresh tokens are single-use under any concurrency. The OAuth library
 * reads, checks and rewrites them in KV, which is not atomic (20 exchanges of one code at once got
 * up to 20 token sets), so the token endpoint claims each one here, in one conditional D1 insert,
 * before the library sees it. A second use ends the grant: RFC 6749 4.1.2 for a code, OAuth 2.1
 * 4.3.1's reuse detection for a refresh token (its successor already issued, or sent twice at once).
 */

/** What a token request presents once: a code or a refresh token (`<userId>:<grantId>:<secret>`, the library's form). */
export interface SingleUse {
  kind: "code" | "refresh";
  secret: string;
  userId: string;
  grantId: string;
}

/** A code lives 10 minutes; its claim is kept an hour, so a late replay is still recognised. */
const CODE_CLAIM_MS = 60 * 60_000;
/** A refresh token lives while its grant does (30 days idle): its claim and a grant's end outlive that. */
const GRANT_CLAIM_MS = 31 * DAY_MS;

const REUSE_REASON: Record<SingleUse["kind"], EndedReason> = { code: "code_reused", refresh: "refresh_token_reused" };

/** The secret a token request presents once, when it has the library's shape; anything else the library refuses itself. */
export function singleUseOf(form: URLSearchParams): SingleUse | undefined {
  const grantType = form.get("grant_type");
  const kind = grantType === "authorization_code" ? "code" : grantType === "refresh_token" ? "refresh" : undefined;
  const secret = kind && form.get(kind === "code" ? "code" : "refresh_token");
  const parts = secret?.split(":");
  if (!kind || !secret || parts?.length !== 3) return undefined;
  const [userId = "", grantId = ""] = parts;
  return { kind, secret, userId, grantId };
}

const claimOf = async (use: SingleUse) => `${use.kind}:${await hashToken(use.secret)}`;
const endedClaimOf = (userId: string, grantId: string) => `ended:${userId}:${grantId}`;

export type ClaimOutcome = "claimed" | "reused" | "ended";

/**
 * Claims the code or refresh token: "claimed" for the one first use, "reused" for any other,
 * "ended" when its grant was ended (whatever the library still holds of it in KV).
 */
export async function claimSingleUse(db: Db, use: SingleUse, now = Date.now()): Promise<ClaimOutcome> {
  const claim = await claimOf(use);
  const [taken, ended] = await db.batch([
    db
      .insert(oauthClaims)
      .values({ claim, expiresAt: now + (use.kind === "code" ? CODE_CLAIM_MS : GRANT_CLAIM_MS) })
      .onConflictDoNothing()
      .returning({ claim: oauthClaims.claim }),
    db
      .select({ claim: oauthClaims.claim })
      .from(oauthClaims)
      .where(eq(oauthClaims.claim, endedClaimOf(use.userId, use.grantId))),
  ]);
  if (ended.length > 0) return "ended";
  return taken.length > 0 ? "claimed" : "reused";
}

/** Notes that the library issued tokens for the claimed code or refresh token: a later use of it is a reuse for sure. */
export async function markIssued(db: Db, use: SingleUse): Promise<void> {
  await db
    .update(oauthClaims)
    .set({ issued: 1 })
    .where(eq(oauthClaims.claim, await claimOf(use)));
}

/** The library's record of a grant (the fields read here). */
interface StoredGrant {
  authCodeId?: string;
  refreshTokenId?: string;
  previousRefreshTokenId?: string;
  metadata?: GrantMetadata;
}

const grantOf = (env: Bindings, userId: string, grantId: string) =>
  env.OAUTH_KV.get<StoredGrant>(`grant:${userId}:${grantId}`, { type: "json" });

/**
 * Whether a reused secret is the grant's real one (the library names a token by its SHA-256 hex,
 * as hashToken does): tokens were issued for it, or the grant still knows it. A made-up
 * `<userId>:<grantId>:x` sent twice ends nothing.
 */
async function isGenuine(db: Db, use: SingleUse, grant: StoredGrant | null): Promise<boolean> {
  const [row] = await db
    .select({ issued: oauthClaims.issued })
    .from(oauthClaims)
    .where(eq(oauthClaims.claim, await claimOf(use)));
  if (row?.issued === 1) return true;
  if (!grant) return false;
  const id = await hashToken(use.secret);
  return use.kind === "code" ? grant.authCodeId === id : grant.refreshTokenId === id || grant.previousRefreshTokenId === id;
}

/**
 * A reused code or refresh token: when it is genuine, ends its grant for good. The end is noted
 * first (no token request of the grant goes on after it), then the grant's key is revoked with
 * the reason the settings page shows (every access token of the grant stops at once: a call runs
 * as the key), and the library's grant and tokens are deleted.
 */
export async function endReusedGrant(env: Bindings, oauth: OAuthHelpers, use: SingleUse, now = Date.now()): Promise<void> {
  const db = createDb(env.DB);
  const grant = await grantOf(env, use.userId, use.grantId);
  if (!(await isGenuine(db, use, grant))) return;
  await db
    .insert(oauthClaims)
    .values({ claim: endedClaimOf(use.userId, use.grantId), expiresAt: now + GRANT_CLAIM_MS })
    .onConflictDoNothing();
  const keyId = grant?.metadata?.keyId;
  if (keyId) await revokeKey(env, db, oauth, use.userId, keyId, REUSE_REASON[use.kind]).catch(ignoreAlreadyRevoked);
  await oauth.revokeGrant(use.grantId, use.userId);
}

/** Of concurrent reuses, one revokes the key; the others find it revoked (404), which is what they wanted. */
function ignoreAlreadyRevoked(error: unknown): void {
  if (!(error instanceof ApiError && error.code === "not_found")) throw error;
}

/** The cron's cleanup: claims past their expiry can no longer matter. */
export async function deleteExpiredClaims(db: Db, now = Date.now()): Promise<number> {
  const deleted = await db.delete(oauthClaims).where(lt(oauthClaims.expiresAt, now)).returning({ claim: oauthClaims.claim });
  return deleted.length;
}
