import { and, eq, gt, lte } from "drizzle-orm";
import type { Context } from "hono";
import { webauthnChallenges } from "../db/schema";
import type { AppEnv } from "../env";
import type { Db } from "../platform/db";
import { ApiError } from "../platform/errors";
import { publicOrigin } from "../platform/publicOrigin";
import { hashToken, isoAfter, randomToken } from "./tokens";

/** How long a passkey ceremony (options, then the browser's answer) may take. */
export const CEREMONY_TTL_MS = 5 * 60_000;

type Ceremony = typeof webauthnChallenges.$inferSelect;
type CeremonyStart = Pick<Ceremony, "purpose" | "challenge"> & Partial<Pick<Ceremony, "userId" | "inviteId">>;

/** Who the passkeys are for: the service's public origin (PUBLIC_BASE_URL when set) and its host name as the RP ID. */
export function relyingParty(c: Context<AppEnv>) {
  const origin = publicOrigin(c.env, c.req.url);
  return { id: new URL(origin).hostname, origin };
}

/**
 * Stores a ceremony's challenge under a new ceremony token (only its hash is kept) and answers the
 * token, which the browser sends back with its answer. Stale ceremonies go in the same batch, so
 * the table holds only those under way.
 */
export async function startCeremony(db: Db, ceremony: CeremonyStart, now: Date, ttlMs = CEREMONY_TTL_MS): Promise<string> {
  const token = randomToken();
  await db.batch([
    db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now.toISOString())),
    db.insert(webauthnChallenges).values({ ...ceremony, tokenHash: await hashToken(token), expiresAt: isoAfter(now, ttlMs) }),
  ]);
  return token;
}

/**
 * Takes the ceremony out of storage as it is read (one statement: whichever of two concurrent
 * answers comes first gets it, the other finds nothing), so a challenge is answered once. With
 * `userId`, only that user's ceremony is taken: another person's answer leaves it in place.
 */
export async function consumeCeremony(db: Db, token: string, purpose: Ceremony["purpose"], now: Date, userId?: string): Promise<Ceremony> {
  const [ceremony] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.tokenHash, await hashToken(String(token))),
        eq(webauthnChallenges.purpose, purpose),
        gt(webauthnChallenges.expiresAt, now.toISOString()),
        userId === undefined ? undefined : eq(webauthnChallenges.userId, userId),
      ),
    )
    .returning();
  if (!ceremony) {
    const what = purpose === "consent" ? "This consent page" : "This passkey step";
    throw new ApiError("invalid_input", `${what} expired or was already used: start again.`, { field: "ceremonyToken" });
  }
  return ceremony;
}
