import { OAuthResourceServer } from "@cloudflare/workers-oauth-provider";
import type { Context, Hono, Next } from "hono";
import { fetchClientMetadataDocument, isMetadataClientId, type MetadataFetch } from "../accounts/clientMetadata";
import { claimSingleUse, endReusedGrant, markIssued, singleUseOf } from "../accounts/oauthClaims";
import {
  AUTHORIZE_PATH,
  authorizationServerFor,
  canonicalRequest,
  type GrantProps,
  MCP_OAUTH_PATH,
  oauthHelpersFor,
  oauthResourceOf,
  REGISTER_PATH,
  TOKEN_PATH,
} from "../accounts/oauthServer";
import { guardRegistration } from "../accounts/throttle";
import type { Bindings } from "../bindings";
import type { AppEnv } from "../env";
import { createDb } from "../platform/db";
import { ApiError, asApiError, methodNotAllowed } from "../platform/errors";
import { publicOrigin } from "../platform/publicOrigin";
import { bearerChallenge, errorResponse } from "./httpHeaders";
import type { McpAnswer } from "./mcp";
import { refuseAccessToken } from "./oauthRefusals";
import {
  checkParameters,
  type OAuthErrorCode,
  oauthErrorResponse,
  readOAuthForm,
  readRegistration,
  tokenErrorCodeOf,
} from "./oauthRequests";
import { errorPage } from "./pages/errorPage";
import { pageOf } from "./pages/layout";

/** Where RFC 9728 puts the metadata of the resource at MCP_OAUTH_PATH (the path inserted after the well-known prefix). */
const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_OAUTH_PATH}`;
/** RFC 8414 metadata of the issuer, the service's origin. */
const SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";

/** The request's execution context as the Workers runtime types it (Hono declares a narrower one). */
const executionContextOf = (c: Context<AppEnv>) => c.executionCtx as unknown as ExecutionContext;

/** The library's own endpoints: metadata, token (with refresh and revocation) and dynamic registration. */
const authorizationServerAnswer = (c: Context<AppEnv>, request: Request) =>
  authorizationServerFor(c.env, c.req.url).fetch(canonicalRequest(c.env, request), c.env, executionContextOf(c));

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

/** The request as sent, with the body the Worker already read, for the library to read again. */
const withBody = (c: Context<AppEnv>, body: string) =>
  canonicalRequest(c.env, new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers, body }));

/**
 * An OAuth endpoint of the Worker's own: a refusal of the request (an ApiError, never our own
 * failure nor a throttle) is answered in OAuth's words with the code the endpoint names it by.
 */
const oauthEndpoint =
  (work: (c: Context<AppEnv>) => Promise<Response>, codeOf: (error: ApiError) => OAuthErrorCode) => async (c: Context<AppEnv>) => {
    // An origin that serves no OAuth says so (404) before any parameter is judged.
    authorizationServerFor(c.env, c.req.url);
    try {
      return await work(c);
    } catch (error) {
      // A throttle's 429 keeps the service's rate_limited body and Retry-After (app.onError).
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) return oauthErrorResponse(error, codeOf(error));
      throw error;
    }
  };

const invalidGrant = (message: string) => oauthErrorResponse(new ApiError("invalid_input", message), "invalid_grant");

/**
 * POST /oauth/token: a code or refresh token is claimed once (accounts/oauthClaims.ts) before the
 * library issues anything; a second use ends its grant. Revocation and malformed grants go to the
 * library as they are.
 */
async function tokenEndpoint(c: Context<AppEnv>, fetcher: MetadataFetch): Promise<Response> {
  const { form, text } = await readOAuthForm(c.req.raw);
  await resolveMetadataClient(c, fetcher, form.get("client_id"));
  const request = withBody(c, text);
  const use = singleUseOf(form);
  if (!use) return authorizationServerAnswer(c, request);
  const db = createDb(c.env.DB);
  const outcome = await claimSingleUse(db, use);
  const oauth = oauthHelpersFor(c.env, c.req.url);
  if (outcome === "reused") {
    await endReusedGrant(c.env, oauth, use);
    return invalidGrant(
      `This ${use.kind === "code" ? "authorization code" : "refresh token"} was already used; if it was yours, connect again.`,
    );
  }
  if (outcome === "ended") {
    // Whatever a request in flight at the end wrote back to KV goes too.
    await oauth.revokeGrant(use.grantId, use.userId);
    return invalidGrant("This connection was ended because one of its codes or refresh tokens was used twice; connect again.");
  }
  const answer = await authorizationServerAnswer(c, request);
  if (answer.ok) await markIssued(db, use);
  return answer;
}

/** POST /oauth/register: a JSON object, throttled by address and software, for the library to judge. */
async function registrationEndpoint(c: Context<AppEnv>): Promise<Response> {
  const registration = await readRegistration(c.req.raw);
  await guardRegistration(c, softwareOf(registration));
  return authorizationServerAnswer(c, withBody(c, JSON.stringify(registration)));
}

/** Who a registration says it is: its software_id, else its client_name (self-asserted: it only splits the counting). */
const softwareOf = (registration: Record<string, unknown>) => String(registration.software_id ?? registration.client_name ?? "");

/** A client named by its metadata document URL is fetched and kept for the library to find (clientMetadata.ts). */
async function resolveMetadataClient(c: Context<AppEnv>, fetcher: MetadataFetch, clientId: string | null): Promise<void> {
  if (clientId && isMetadataClientId(clientId)) await fetchClientMetadataDocument(c.env, fetcher, clientId);
}

/**
 * The authorization server's metadata, which also says that a client may name itself by a
 * metadata document URL (the Worker resolves those itself, so the library does not say it).
 */
async function serverMetadata(c: Context<AppEnv>): Promise<Response> {
  const answer = await authorizationServerAnswer(c, c.req.raw);
  if (!answer.ok) return answer;
  const metadata = { ...(await answer.json<Record<string, unknown>>()), client_id_metadata_document_supported: true };
  return new Response(JSON.stringify(metadata), { status: answer.status, headers: answer.headers });
}

/**
 * /oauth/authorize's parameters before the consent page reads them: a refusal is a page (the
 * person's browser is there), 400 naming the parameter, and nothing goes back to a redirect URI
 * that was not checked.
 */
async function checkAuthorizeQuery(c: Context<AppEnv>, next: Next, fetcher: MetadataFetch): Promise<Response | undefined> {
  try {
    const query = new URL(c.req.url).searchParams;
    checkParameters(query);
    await resolveMetadataClient(c, fetcher, query.get("client_id"));
  } catch (error) {
    if (error instanceof ApiError) return errorPage(c, pageOf(c), error);
    throw error;
  }
  await next();
  return undefined;
}

/**
 * OAuth 2.1 for assistants that cannot send an API key header (Claude's and ChatGPT's connectors):
 * the authorization server's endpoints (the consent page is the pages face's) and the protected
 * MCP resource at MCP_OAUTH_PATH. /mcp stays as the spec has it, API keys only.
 */
export function mountOAuth(app: Hono<AppEnv>, answer: McpAnswer, fetcher: MetadataFetch): void {
  app.post(
    TOKEN_PATH,
    oauthEndpoint((c) => tokenEndpoint(c, fetcher), tokenErrorCodeOf),
  );
  app.post(
    REGISTER_PATH,
    oauthEndpoint(registrationEndpoint, () => "invalid_client_metadata"),
  );
  app.get(AUTHORIZE_PATH, (c, next) => checkAuthorizeQuery(c, next, fetcher));
  app.get(SERVER_METADATA_PATH, serverMetadata);
  for (const path of [SERVER_METADATA_PATH, TOKEN_PATH, REGISTER_PATH]) app.all(path, (c) => authorizationServerAnswer(c, c.req.raw));
  const protectedResource = (c: Context<AppEnv>) =>
    resourceServerFor(c, answer).fetch(canonicalRequest(c.env, c.req.raw), c.env, executionContextOf(c));
  app.all(MCP_OAUTH_PATH, protectedResource);
  app.all(RESOURCE_METADATA_PATH, protectedResource);
}
