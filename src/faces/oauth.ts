import { OAuthResourceServer } from "@cloudflare/workers-oauth-provider";
import type { Context, Hono } from "hono";
import {
  authorizationServerFor,
  canonicalRequest,
  type GrantProps,
  MCP_OAUTH_PATH,
  oauthResourceOf,
  REGISTER_PATH,
  TOKEN_PATH,
} from "../accounts/oauthServer";
import { guardRegistration } from "../accounts/throttle";
import type { AppEnv, Bindings } from "../env";
import { asApiError, methodNotAllowed } from "../platform/errors";
import { publicOrigin } from "../platform/publicOrigin";
import { bearerChallenge, errorResponse } from "./httpHeaders";
import type { McpAnswer } from "./mcp";
import { refuseAccessToken } from "./oauthRefusals";

/** Where RFC 9728 puts the metadata of the resource at MCP_OAUTH_PATH (the path inserted after the well-known prefix). */
const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_OAUTH_PATH}`;
/** RFC 8414 metadata of the issuer, the service's origin. */
const SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";

/** The request's execution context as the Workers runtime types it (Hono declares a narrower one). */
const executionContextOf = (c: Context<AppEnv>) => c.executionCtx as unknown as ExecutionContext;

/** The library's own endpoints: metadata, token (with refresh and revocation) and dynamic registration. */
const authorizationServerAnswer = (c: Context<AppEnv>) =>
  authorizationServerFor(c.env, c.req.url).fetch(canonicalRequest(c.env, c.req.raw), c.env, executionContextOf(c));

const metadataUrlOf = (c: Context<AppEnv>) => `${publicOrigin(c.env, c.req.url)}${RESOURCE_METADATA_PATH}`;

/**
 * A refusal of the pipeline on the OAuth resource (the grant's key revoked or expired, the
 * account suspended): the service's error body, and for a 401 the challenge that sends the client
 * back through OAuth discovery.
 */
function oauthRefusal(c: Context<AppEnv>, error: unknown): Response {
  const requestId = c.get("requestId");
  const apiError = asApiError(error, requestId);
  const response = errorResponse(apiError, requestId);
  if (apiError.status === 401) response.headers.set("WWW-Authenticate", bearerChallenge(apiError, { resource_metadata: metadataUrlOf(c) }));
  return response;
}

/**
 * The OAuth-protected MCP resource of this request: the library checks the access token (audience,
 * expiry) and answers discovery and challenges; a valid token's call is answered by the MCP face
 * as a call made with the API key its grant carries, through the one pipeline.
 */
function resourceServerFor(c: Context<AppEnv>, answer: McpAnswer) {
  const authorizationServer = authorizationServerFor(c.env, c.req.url);
  return new OAuthResourceServer<Bindings, GrantProps>({
    resourceMetadata: {
      resource: oauthResourceOf(c.env, c.req.url),
      authorization_servers: [publicOrigin(c.env, c.req.url)],
      bearer_methods_supported: ["header"],
      resource_name: "Retro Game Collection API",
    },
    validateToken: (env) => async (resource, token) =>
      (await authorizationServer.validateToken<GrantProps>(resource, token, env)) ??
      refuseAccessToken(authorizationServer.getOAuthApi(env), token, metadataUrlOf(c)),
    handler: {
      async fetch(request, _env, ctx) {
        if (request.method !== "POST") return oauthRefusal(c, methodNotAllowed(["POST"]));
        return answer(c, request, `Bearer ${ctx.props.apiKey}`).catch((error) => oauthRefusal(c, error));
      },
    },
  });
}

/**
 * OAuth 2.1 for assistants that cannot send an API key header (Claude's and ChatGPT's connectors):
 * the authorization server's endpoints (the consent page is the pages face's) and the protected
 * MCP resource at MCP_OAUTH_PATH. /mcp stays as the spec has it, API keys only.
 */
export function mountOAuth(app: Hono<AppEnv>, answer: McpAnswer): void {
  app.post(REGISTER_PATH, async (c) => {
    await guardRegistration(c);
    return authorizationServerAnswer(c);
  });
  for (const path of [SERVER_METADATA_PATH, TOKEN_PATH, REGISTER_PATH]) app.all(path, authorizationServerAnswer);
  const protectedResource = (c: Context<AppEnv>) =>
    resourceServerFor(c, answer).fetch(canonicalRequest(c.env, c.req.raw), c.env, executionContextOf(c));
  app.all(MCP_OAUTH_PATH, protectedResource);
  app.all(RESOURCE_METADATA_PATH, protectedResource);
}
