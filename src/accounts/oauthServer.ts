import { OAuthAuthorizationServer, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { Bindings } from "../bindings";
import { ApiError } from "../platform/errors";
import { SCOPES } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { isMetadataClientId } from "./clientMetadata";

/**
 * The MCP face's OAuth-protected twin of /mcp: the resource assistants that speak only OAuth
 * connect to. /mcp itself never advertises OAuth (docs/accounts.md says why).
 */
export const MCP_OAUTH_PATH = "/mcp/oauth";
export const AUTHORIZE_PATH = "/oauth/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";

/** An access token lives 15 minutes; its grant lives while the client keeps refreshing (30 days idle). */
const ACCESS_TOKEN_SECONDS = 15 * 60;
const IDLE_GRANT_SECONDS = 30 * 24 * 3600;

/** What a grant's tokens carry, encrypted by the library with a key only a token holder unwraps: the grant's API key. */
export interface GrantProps {
  apiKey: string;
}

/** What a grant records in the clear, to find it again: the key it is. */
export interface GrantMetadata {
  keyId: string;
}

const servers = new Map<string, OAuthAuthorizationServer<Bindings>>();

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** OAuth 2.1 asks for https; `wrangler dev` on a loopback address is the one exception. */
const servesOAuth = (origin: URL) => origin.protocol === "https:" || LOOPBACK_HOSTS.test(origin.hostname);

const noOAuthHere = (origin: string) =>
  new ApiError(
    "not_found",
    `OAuth is served over https only (or on localhost), not at ${origin}: set PUBLIC_BASE_URL to the service's https address.`,
  );

/**
 * The authorization server of the service's public origin (the issuer; tokens are for its
 * MCP_OAUTH_PATH alone). Built once per origin and isolate: its configuration is fixed at
 * construction, and an origin is a deployment fact (PUBLIC_BASE_URL, or the address `wrangler dev`
 * serves). 404 at an origin OAuth cannot be served from (plain http on another host).
 */
export function authorizationServerFor(env: Bindings, requestUrl: string): OAuthAuthorizationServer<Bindings> {
  const issuer = publicOrigin(env, requestUrl);
  if (!servesOAuth(new URL(issuer))) throw noOAuthHere(issuer);
  let server = servers.get(issuer);
  if (!server) {
    server = new OAuthAuthorizationServer<Bindings>({
      issuer,
      resources: [`${issuer}${MCP_OAUTH_PATH}`],
      authorizeEndpoint: AUTHORIZE_PATH,
      tokenEndpoint: TOKEN_PATH,
      clientRegistrationEndpoint: REGISTER_PATH,
      scopesSupported: [...SCOPES],
      accessTokenTTL: ACCESS_TOKEN_SECONDS,
      refreshTokenTTL: IDLE_GRANT_SECONDS,
      refreshTokenIdleTTL: IDLE_GRANT_SECONDS,
      // Desktop apps that sign in through their own URL scheme (Cursor's cursor://...); PKCE protects the code.
      allowPrivateUseRedirectUris: true,
      // One JSON line per refused OAuth request, like the service's other lines: what and why, never a token.
      onError: ({ code, status, internal }) => {
        console.log(JSON.stringify({ oauthError: code, status, category: internal.category, reason: internal.reason }));
      },
    });
    servers.set(issuer, server);
  }
  return server;
}

/**
 * The library's helpers (authorization requests, consent, grants) for this origin. A metadata
 * document client (the Worker resolves those itself, clientMetadata.ts: the library sees a stored
 * client) is described with its URL's host as publisher, as the library describes its own.
 */
export function oauthHelpersFor(env: Bindings, requestUrl: string): OAuthHelpers {
  const helpers = authorizationServerFor(env, requestUrl).getOAuthApi(env);
  const describe = helpers.describeConsent.bind(helpers);
  helpers.describeConsent = async (request) => {
    const consent = await describe(request);
    return isMetadataClientId(request.clientId) ? { ...consent, clientDomain: new URL(request.clientId).hostname } : consent;
  };
  return helpers;
}

/**
 * The helpers where grants may exist to be ended (revoking a key ends its grants), or undefined at
 * an origin that serves no OAuth: no grant was made through it, and the key's revocation alone
 * already refuses every call of a grant made elsewhere.
 */
export const grantHelpersFor = (env: Bindings, requestUrl: string): OAuthHelpers | undefined =>
  servesOAuth(new URL(publicOrigin(env, requestUrl))) ? oauthHelpersFor(env, requestUrl) : undefined;

/** The canonical address of the OAuth-protected MCP resource. */
export const oauthResourceOf = (env: Bindings, requestUrl: string) => `${publicOrigin(env, requestUrl)}${MCP_OAUTH_PATH}`;

/**
 * The request as the library must see it: at the public origin. Deployed, they are the same; behind
 * a tunnel to `wrangler dev` (PUBLIC_BASE_URL set to the tunnel's https address) the Worker sees
 * plain http, and the library would find no endpoint or resource of its issuer there.
 */
export function canonicalRequest(env: Bindings, request: Request): Request {
  const url = new URL(request.url);
  const origin = publicOrigin(env, request.url);
  if (url.origin === origin) return request;
  const target = `${origin}${url.pathname}${url.search}`;
  // A form whose body the page already read: what the library reads of it is its headers (cookies).
  return request.bodyUsed ? new Request(target, { headers: request.headers }) : new Request(target, request);
}
