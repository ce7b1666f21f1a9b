import { OAuthError, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { refusedToken, type TokenRefusal } from "../platform/auth";
import { bearerChallenge } from "./httpHeaders";

/**
 * What an OAuth client is told when the MCP resource refuses its access token (RFC 6750): a JSON
 * body `{error: "invalid_token", error_description}` and a challenge with the same error fields
 * and the resource's metadata, so the client's error says why. Each description holds no quote.
 */
const ACCESS_TOKEN_REFUSALS: Record<TokenRefusal, string> = {
  unknown: "The access token is unknown: it was never issued here.",
  revoked: "The access token's connection was revoked or has ended: connect the assistant again.",
  expired: "The access token has expired: refresh it, or connect the assistant again.",
};

/** Longer than any token the library issues (`<userId>:<grantId>:<secret>`): no look-up for it. */
const ACCESS_TOKEN_MAX = 256;

/** A grant of the user's with this id still lives (paged as the library lists them). */
async function grantLives(oauth: OAuthHelpers, userId: string, grantId: string): Promise<boolean> {
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(userId, cursor ? { cursor } : {});
    if (page.items.some((grant) => grant.id === grantId)) return true;
    cursor = page.cursor;
  } while (cursor);
  return false;
}

/**
 * Why the library refused an access token: its grant still lives (so the token itself expired),
 * its grant is gone (revoked by the person or the operator, or ended unused), or it is no token
 * of this server's form.
 */
async function accessTokenRefusalOf(oauth: OAuthHelpers, token: string): Promise<TokenRefusal> {
  const [userId, grantId, secret, ...rest] = token.split(":");
  if (token.length > ACCESS_TOKEN_MAX || !userId || !grantId || !secret || rest.length > 0) return "unknown";
  return (await grantLives(oauth, userId, grantId)) ? "expired" : "revoked";
}

/** Refuses an access token the library did not validate, naming why (the library answers the OAuthError as JSON). */
export async function refuseAccessToken(oauth: OAuthHelpers, token: string, resourceMetadata: string): Promise<never> {
  const reason = await accessTokenRefusalOf(oauth, token);
  const refusal = refusedToken(reason, ACCESS_TOKEN_REFUSALS[reason]);
  throw new OAuthError("invalid_token", {
    description: refusal.message,
    statusCode: 401,
    headers: { "WWW-Authenticate": bearerChallenge(refusal, { resource_metadata: resourceMetadata }) },
  });
}
