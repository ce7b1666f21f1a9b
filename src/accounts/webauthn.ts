import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { and, eq, exists, isNull, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import type { Bindings } from "../bindings";
import { invites, passkeys, users } from "../db/schema";
import type { AppEnv } from "../env";
import { createDb, type Db, isUniqueViolation, statements } from "../platform/db";
import { ApiError } from "../platform/errors";
import { newId } from "../platform/ids";
import { runConditional, type WriteCondition } from "../platform/registeredLimits";
import { utcDay } from "../platform/time";
import { findUser } from "../tools/account/queries";
import { CEREMONY_TTL_MS, consumeCeremony, relyingParty, startCeremony } from "./ceremonies";
import { deviceNameOf } from "./deviceName";
import { eventStatement } from "./events";
import { inviteByToken } from "./invites";
import { credentialDescriptors, markPasskeyUsed, passkeyByCredential } from "./passkeys";

const RP_NAME = "Retro Game Collection";
/** ES256 (what nearly every authenticator makes) and RS256 (Windows Hello). */
const ALGORITHMS = [-7, -257];
const PASSKEY_NAME_MAX = 100;

/** Whom a registration adds a passkey to: an invite's user, the signed-in person, or a new account (open sign-up). */
export type RegistrationTarget = { kind: "invite"; token: string } | { kind: "signedIn"; userId: string } | { kind: "signup" };

interface Registrant {
  userId: string;
  userName: string;
  inviteId: string | null;
  newUser: boolean;
}

/** Whether anyone may create an account (SIGNUP_MODE "open"); otherwise only the operator's invites let people in. */
export const signupOpen = (env: Bindings) => env.SIGNUP_MODE === "open";

const signupClosed = () => new ApiError("not_found", "Sign-up is closed on this service: ask its operator for an invite link.");

/** An existing user a passkey may be added to: not suspended (they could not sign in with it). */
async function existingRegistrant(db: Db, userId: string, inviteId: string | null): Promise<Registrant> {
  const user = await findUser(db, userId);
  if (!user) throw new ApiError("not_found", "This account was not found.");
  if (user.suspended) throw new ApiError("access_suspended", "This account is suspended; ask the operator of this service.");
  return { userId, userName: user.name ?? userId, inviteId, newUser: false };
}

async function inviteRegistrant(db: Db, token: string): Promise<Registrant> {
  const invite = await inviteByToken(db, token);
  if (!invite) throw new ApiError("not_found", "This invite link is not valid: check that it was copied whole, or ask for a new one.");
  if (invite.state === "used") throw new ApiError("link_expired", "This invite link was already used: ask the operator for a new one.");
  if (invite.state === "expired") {
    throw new ApiError("link_expired", `This invite link expired at ${invite.expiresAt}: ask the operator for a new one.`, {
      expiredAt: invite.expiresAt,
    });
  }
  return existingRegistrant(db, invite.userId, invite.inviteId);
}

async function registrantOf(c: Context<AppEnv>, db: Db, target: RegistrationTarget): Promise<Registrant> {
  if (target.kind === "invite") return inviteRegistrant(db, target.token);
  if (target.kind === "signedIn") return existingRegistrant(db, target.userId, null);
  if (!signupOpen(c.env)) throw signupClosed();
  // The new account's id is reserved now (it is the passkey's user handle); the completion creates it.
  const userId = newId("usr");
  return { userId, userName: userId, inviteId: null, newUser: true };
}

/**
 * Starts a registration: the options for the browser's navigator.credentials.create and the
 * ceremony token to send back with its answer. The user handle is the user's id; a discoverable
 * credential (residentKey required) so that sign-in needs no user name.
 */
export async function registrationOptions(
  c: Context<AppEnv>,
  target: RegistrationTarget,
): Promise<{ ceremonyToken: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const db = createDb(c.env.DB);
  const registrant = await registrantOf(c, db, target);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(c).id,
    userName: registrant.userName,
    userID: isoUint8Array.fromUTF8String(registrant.userId),
    timeout: CEREMONY_TTL_MS,
    attestationType: "none",
    excludeCredentials: registrant.newUser ? [] : await credentialDescriptors(db, registrant.userId),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  const { userId, inviteId } = registrant;
  const ceremonyToken = await startCeremony(db, { purpose: "register", userId, inviteId, challenge: options.challenge }, new Date());
  return { ceremonyToken, options };
}

/** What the library's own message says, kept beside ours for whoever reads the answer. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function verifiedRegistration(c: Context<AppEnv>, response: RegistrationResponseJSON, challenge: string) {
  const rp = relyingParty(c);
  let reason = "not verified";
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (verified.verified) return verified.registrationInfo.credential;
  } catch (error) {
    reason = reasonOf(error);
  }
  throw new ApiError("invalid_input", "The passkey could not be registered: the authenticator's answer did not check out. Try again.", {
    field: "response",
    reason,
  });
}

/** The name typed for a passkey; none typed: the browser and system registering it, else the day. */
function passkeyNameOf(name: unknown, userAgent: string | undefined, now: Date): string {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (!trimmed) return deviceNameOf(userAgent) ?? `Passkey ${utcDay(now)}`;
  if (trimmed.length > PASSKEY_NAME_MAX) {
    throw new ApiError("invalid_input", `A passkey's name is at most ${PASSKEY_NAME_MAX} characters.`, { field: "name" });
  }
  return trimmed;
}

/** Transport hints as the browser reported them, kept only when they look like transport names. */
const transportsOf = (transports: readonly unknown[] | undefined) =>
  (transports ?? []).filter((t): t is string => typeof t === "string" && /^[a-z-]{1,32}$/.test(t)).slice(0, 8);

/** The invite's one use, claimed in the registration's batch: of two registrations through one invite, the later stores nothing. */
function inviteClaim(inviteId: string, now: string): { condition: WriteCondition; statement: SQL } {
  const unused = and(eq(invites.id, inviteId), isNull(invites.usedAt));
  return {
    condition: {
      holds: exists(statements.select({ id: invites.id }).from(invites).where(unused)),
      error: () => new ApiError("link_expired", "This invite link was already used: ask the operator for a new one."),
    },
    statement: statements.update(invites).set({ usedAt: now }).where(unused).getSQL(),
  };
}

/**
 * Completes a registration: takes the ceremony (once), verifies the authenticator's answer for
 * real, then in one batch claims the invite it came through, creates the FREE user of an open
 * sign-up, stores the passkey and records passkeyAdded.
 */
export async function completeRegistration(
  c: Context<AppEnv>,
  input: { ceremonyToken: string; response: RegistrationResponseJSON; name?: string },
  expected: CompletedAs,
): Promise<{ userId: string; passkeyId: string; newUser: boolean }> {
  const db = createDb(c.env.DB);
  const now = new Date();
  const name = passkeyNameOf(input.name, c.req.header("User-Agent"), now);
  const ceremony = await consumeCeremony(db, input.ceremonyToken, "register", now);
  const credential = await verifiedRegistration(c, input.response, ceremony.challenge);
  // Registration ceremonies always name their user; one not stored yet is an open sign-up's.
  const userId = ceremony.userId!;
  const newUser = !(await findUser(db, userId));
  if (newUser && !signupOpen(c.env)) throw signupClosed();
  if (!completesAs(expected, { userId, inviteId: ceremony.inviteId, newUser })) throw otherCeremony();
  const claim = ceremony.inviteId ? inviteClaim(ceremony.inviteId, now.toISOString()) : null;
  const passkey = {
    id: credential.id,
    userId,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: transportsOf(credential.transports),
    name,
  };
  try {
    await runConditional(db, claim ? [claim.condition] : [], [
      ...(claim ? [claim.statement] : []),
      ...(newUser ? [statements.insert(users).values({ id: userId, plan: "FREE", name: null }).getSQL()] : []),
      statements.insert(passkeys).values(passkey).getSQL(),
      eventStatement(userId, "passkeyAdded", { passkeyId: passkey.id, name }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("already_exists", "This passkey is already registered here.", { field: "response" });
    throw error;
  }
  return { userId, passkeyId: passkey.id, newUser };
}

/**
 * Where a registration is completed: through the invite page, by the signed-in person on the
 * settings page, or by an open sign-up. A ceremony token only completes where its ceremony began,
 * so a settings ceremony cannot be finished on the invite route, nor for another session's user.
 */
export type CompletedAs = { kind: "invite" } | { kind: "signedIn"; userId: string } | { kind: "signup" };

function completesAs(expected: CompletedAs, ceremony: { userId: string; inviteId: string | null; newUser: boolean }): boolean {
  if (expected.kind === "invite") return ceremony.inviteId !== null;
  if (ceremony.inviteId !== null) return false;
  return expected.kind === "signup" ? ceremony.newUser : !ceremony.newUser && ceremony.userId === expected.userId;
}

const otherCeremony = () =>
  new ApiError("invalid_input", "This ceremony was started elsewhere; start again from this page.", { field: "ceremonyToken" });

/** Starts a sign-in: a discoverable-credential request (no allowCredentials: the authenticator offers the passkeys it holds for this site). */
export async function signInOptions(
  c: Context<AppEnv>,
): Promise<{ ceremonyToken: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(c).id,
    timeout: CEREMONY_TTL_MS,
    userVerification: "preferred",
  });
  const ceremonyToken = await startCeremony(createDb(c.env.DB), { purpose: "signIn", challenge: options.challenge }, new Date());
  return { ceremonyToken, options };
}

const signInRefused = (reason: string) =>
  new ApiError("unauthorized", "This passkey could not sign you in: its answer did not check out. Try again, or use another passkey.", {
    reason,
  });

type StoredPasskey = NonNullable<Awaited<ReturnType<typeof passkeyByCredential>>>;

/** The assertion checked against the stored key: signature, challenge, origin, RP ID, and a counter that must move forward. */
async function verifiedAssertion(c: Context<AppEnv>, response: AuthenticationResponseJSON, challenge: string, passkey: StoredPasskey) {
  const rp = relyingParty(c);
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.id, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter },
      requireUserVerification: false,
    });
    if (verified.verified) return verified.authenticationInfo;
  } catch (error) {
    throw signInRefused(reasonOf(error));
  }
  throw signInRefused("not verified");
}

/** The user handle, when the authenticator gives one, must name the passkey's own user (WebAuthn §7.2, step 6). */
function refuseForeignUserHandle(response: AuthenticationResponseJSON, passkey: StoredPasskey) {
  const handle = response.response.userHandle;
  if (handle && handle !== isoBase64URL.fromUTF8String(passkey.userId)) throw signInRefused("the user handle names another account");
}

/**
 * Completes a sign-in: takes the ceremony (once), finds the passkey by its credential id, verifies
 * the assertion, and stores its new counter and last use (refused unless the counter moved forward).
 * Answers the user to start a session for.
 */
export async function completeSignIn(
  c: Context<AppEnv>,
  input: { ceremonyToken: string; response: AuthenticationResponseJSON },
): Promise<{ userId: string }> {
  const db = createDb(c.env.DB);
  const now = new Date();
  const ceremony = await consumeCeremony(db, input.ceremonyToken, "signIn", now);
  const credentialId = input.response?.id;
  const passkey = typeof credentialId === "string" ? await passkeyByCredential(db, credentialId) : undefined;
  if (!passkey) throw new ApiError("unauthorized", "This passkey is not registered here: sign in with one you added to this service.");
  const verified = await verifiedAssertion(c, input.response, ceremony.challenge, passkey);
  refuseForeignUserHandle(input.response, passkey);
  if (passkey.suspended) throw new ApiError("access_suspended", "This account is suspended; ask the operator of this service.");
  if (!(await markPasskeyUsed(db, passkey.id, verified.newCounter, now.toISOString()))) {
    throw signInRefused("the signature counter did not move forward (another sign-in used it first)");
  }
  return { userId: passkey.userId };
}
