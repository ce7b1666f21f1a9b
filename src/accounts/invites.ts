import { eq } from "drizzle-orm";
import { invites, users } from "../db/schema";
import type { Db } from "../platform/db";
import { notFound } from "../platform/errors";
import { newId } from "../platform/ids";
import { findUser } from "../tools/account/queries";
import { hashToken, isoAfter, randomToken } from "./tokens";

/** How long an invite link works: long enough to reach its holder by any channel, short enough to go stale. */
export const INVITE_TTL_HOURS = 72;

export type InviteState = "live" | "used" | "expired";

export interface IssuedInvite {
  inviteId: string;
  /** The secret of the link, shown once: only its hash is stored. */
  token: string;
  expiresAt: string;
}

export interface FoundInvite {
  inviteId: string;
  userId: string;
  userName: string | null;
  expiresAt: string;
  state: InviteState;
}

/** The link's path; the caller puts its public origin in front. */
export const invitePath = (token: string) => `/invite/${token}`;

/**
 * A one-time link that lets its holder register a passkey for the user: a new account's way in,
 * and recovery for one that lost its passkeys (an existing user may get any number; each works once).
 */
export async function createInvite(db: Db, userId: string, now = new Date()): Promise<IssuedInvite> {
  if (!(await findUser(db, userId))) throw notFound("The user");
  const token = randomToken();
  const invite = { id: newId("inv"), userId, tokenHash: await hashToken(token), expiresAt: isoAfter(now, INVITE_TTL_HOURS * 3_600_000) };
  await db.insert(invites).values(invite);
  return { inviteId: invite.id, token, expiresAt: invite.expiresAt };
}

const stateOf = (invite: { usedAt: string | null; expiresAt: string }, now: Date): InviteState => {
  if (invite.usedAt) return "used";
  return invite.expiresAt > now.toISOString() ? "live" : "expired";
};

/** The invite a link's token names, in whatever state (null: no such invite). */
export async function inviteByToken(db: Db, token: string, now = new Date()): Promise<FoundInvite | null> {
  const [row] = await db
    .select({ inviteId: invites.id, userId: invites.userId, userName: users.name, expiresAt: invites.expiresAt, usedAt: invites.usedAt })
    .from(invites)
    .innerJoin(users, eq(users.id, invites.userId))
    .where(eq(invites.tokenHash, await hashToken(token)));
  if (!row) return null;
  const { usedAt, ...invite } = row;
  return { ...invite, state: stateOf(row, now) };
}
