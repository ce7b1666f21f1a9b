import { AuthorizationError, type ConsentDescription, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { and, eq } from "drizzle-orm";
import type { Bindings } from "../bindings";
import { apiKeys } from "../db/schema";
import type { AccountingEnv } from "../platform/admission";
import type { Db } from "../platform/db";
import { ApiError } from "../platform/errors";
import { digestsEqual } from "../platform/hashing";
import type { LimitContext } from "../platform/registeredLimits";
import { type EndedReason, type IssuedKeyAnswer, issueKeyFor, type KeyChoice, type KeyConnection, revokeKeyOf } from "./apiKeys";
import { consumeCeremony, startCeremony } from "./ceremonies";
import { canonicalRequest, type GrantMetadata, type GrantProps, oauthHelpersFor } from "./oauthServer";
import { hashToken } from "./tokens";

/**
 * A connected assistant is an OAuth grant that *is* one of the person's API keys: the consent
 * makes the key (same choices, same plan limit), the grant carries it, and every call made with
 * the grant's tokens is a call made with that key. Revoking the key ends the grant.
 */

/** The longest key name; a client's self-asserted name is cut to it. */
const KEY_NAME_MAX = 100;

/**
 * The keys a new consent replaces: the same client's earlier keys, as the library replaces its
 * earlier grants. A Client ID Metadata Document client (its id is a URL every installation
 * shares) is one installation per redirect URI.
 */
function connectionOf(accounting: AccountingEnv, consent: ConsentDescription): KeyConnection {
  const sameClient = eq(apiKeys.oauthClientId, consent.clientId);
  return {
    accounting,
    oauthClientId: consent.clientId,
    oauthRedirectUri: consent.redirectUri,
    replaces: consent.clientDomain ? and(sameClient, eq(apiKeys.oauthRedirectUri, consent.redirectUri))! : sameClient,
  };
}

/** Makes the key of a consent: the person's choice of permissions, named after the client. */
export function issueAssistantKey(
  accounting: AccountingEnv,
  db: Db,
  limit: LimitContext,
  choice: Omit<KeyChoice, "name">,
  consent: ConsentDescription,
): Promise<IssuedKeyAnswer> {
  const name = consent.clientName.trim().slice(0, KEY_NAME_MAX) || consent.clientId.slice(0, KEY_NAME_MAX);
  return issueKeyFor(db, limit, { ...choice, name }, { connection: connectionOf(accounting, consent) });
}

/**
 * Ends the OAuth grants that carry the key (its refresh and access tokens stop validating). The
 * key's own revocation already refuses their calls; this clears the grant so the client is told
 * so by the OAuth server too.
 */
async function endGrantsOfKey(oauth: OAuthHelpers, userId: string, keyId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(userId, cursor ? { cursor } : {});
    const carrying = page.items.filter((grant) => (grant.metadata as GrantMetadata | undefined)?.keyId === keyId);
    await Promise.all(carrying.map((grant) => oauth.revokeGrant(grant.id, userId)));
    cursor = page.cursor;
  } while (cursor);
}

/**
 * Revokes one of the user's keys (404 as revokeKeyOf) and ends the OAuth grants that carry it: the
 * one revocation of the settings page, the operator, a consent that could not be completed, and the
 * OAuth server ending a grant whose code or refresh token was used twice (with that reason).
 */
export async function revokeKey(
  accounting: AccountingEnv,
  db: Db,
  oauth: OAuthHelpers | undefined,
  userId: string,
  keyId: string,
  endedReason: EndedReason | null = null,
): Promise<{ keyId: string; revokedAt: string }> {
  const revoked = await revokeKeyOf(accounting, db, userId, keyId, endedReason);
  if (oauth) await endGrantsOfKey(oauth, userId, keyId);
  return revoked;
}

/** How long a consent page may be answered: the library's own consent step lives as long. */
const CONSENT_TTL_MS = 10 * 60_000;

/** What a consent form stands for, kept server-side: the library's consent handle (as a hash) and what the page showed. */
interface HeldConsent {
  handleHash: string;
  consent: ConsentDescription;
}

/**
 * Opens a consent form for the signed-in person: a single-use token bound to them and to the
 * library's consent handle. The library's own handle is single-use only by a read then a delete;
 * taking this token is one statement, so of two concurrent answers exactly one goes on.
 */
export async function startConsent(db: Db, userId: string, handle: string, consent: ConsentDescription): Promise<string> {
  const held: HeldConsent = { handleHash: await hashToken(handle), consent };
  return startCeremony(db, { purpose: "consent", userId, challenge: JSON.stringify(held) }, new Date(), CONSENT_TTL_MS);
}

/** Takes the consent form's token (once, by the person it was opened for); refused when it was opened for another handle. */
export async function takeConsent(db: Db, token: string, userId: string, handle: string): Promise<ConsentDescription> {
  const ceremony = await consumeCeremony(db, token, "consent", new Date(), userId);
  const held = JSON.parse(ceremony.challenge) as HeldConsent;
  if (!digestsEqual(held.handleHash, await hashToken(handle))) {
    throw new ApiError("invalid_input", "This consent page was opened for another connection request: start again from your assistant.", {
      field: "consent",
    });
  }
  return held.consent;
}

/** A consent step the library refuses (expired, used, opened in another browser): start again from the assistant. */
function asConsentRefusal(error: unknown): unknown {
  return error instanceof AuthorizationError ? new ApiError("link_expired", `${error.description} (from your assistant).`) : error;
}

/** The person's answer to a consent form, as taken (takeConsent) from the request that carries it. */
export interface ConsentAnswer {
  env: Bindings;
  db: Db;
  request: Request;
  userId: string;
  consent: ConsentDescription;
  handle: string;
}

/**
 * Grants the person's choice: the key (the plan's key limit holds), then the library's approval
 * and grant carrying the key. A grant that cannot be completed takes its key back with it.
 * Answers the redirect to the client, with the library's headers.
 */
export async function grantConsent(answer: ConsentAnswer, limit: LimitContext, choice: Omit<KeyChoice, "name">): Promise<Response> {
  const { env, db, request, userId, consent, handle } = answer;
  const oauth = oauthHelpersFor(env, request.url);
  const issued = await issueAssistantKey(env, db, limit, choice, consent);
  try {
    const approved = await oauth.approveConsent(canonicalRequest(env, request), handle, { scope: issued.scopes });
    const metadata: GrantMetadata = { keyId: issued.keyId };
    const props: GrantProps = { apiKey: issued.apiKey };
    const { redirectTo } = await oauth.completeAuthorization({ request: approved.request, userId, metadata, scope: issued.scopes, props });
    approved.headers.set("Location", redirectTo);
    return new Response(null, { status: 302, headers: approved.headers });
  } catch (error) {
    await revokeKey(env, db, oauth, userId, issued.keyId);
    throw asConsentRefusal(error);
  }
}

/** Denies the connection: back to the client with access_denied, by the library's redirect. */
export async function denyConsent({ env, request, handle }: Omit<ConsentAnswer, "db" | "userId" | "consent">): Promise<Response> {
  const denied = await oauthHelpersFor(env, request.url)
    .denyConsent(canonicalRequest(env, request), handle)
    .catch((error) => {
      throw asConsentRefusal(error);
    });
  return new Response(null, { status: 302, headers: denied.headers });
}
