// The assistant's side of `npm run check:pages`'s OAuth steps, in Node as an MCP connector runs it:
// oauth4webapi (discovery from the MCP resource, dynamic registration, PKCE, the code exchange and
// refreshes) with a loopback redirect URI served by a tiny node:http server, and the official MCP
// SDK client on the resource. The person's part (consent) is the browser's, in check-pages.mjs.
import { createServer } from "node:http";
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as oauth from "oauth4webapi";

export { oauth };

/** The issuer and the resource are the local server's plain http origin: oauth4webapi allows it when told. */
const insecure = { [oauth.allowInsecureRequests]: true };
const CALLBACK_PATH = "/callback";
const CALLBACK_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>check-pages assistant</title>' +
  "<p>check-pages assistant: the authorization response arrived. You can close this window.</p></html>";

/**
 * The client's redirect URI: a node:http server on 127.0.0.1 (a free port) that records each
 * request to /callback (`received`, as URLs) and answers a small page. `stop()` closes it.
 */
export async function startCallbackServer() {
  const received = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
    if (url.pathname !== CALLBACK_PATH) {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    received.push(url);
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).end(CALLBACK_PAGE);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const stop = () => new Promise((resolve) => server.close(() => resolve()));
  return { origin, redirectUri: `${origin}${CALLBACK_PATH}`, received, stop };
}

/**
 * Discovery as an MCP client does it: the resource's 401 names its metadata (RFC 9728), which
 * names the authorization server, whose metadata (RFC 8414) names the endpoints.
 * Resolves to `{ challenge, resourceMetadataUrl, resource, as }`.
 */
export async function discoverFromResource(resourceUrl) {
  const unauthenticated = await fetch(resourceUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await unauthenticated.body?.cancel();
  const challenge = unauthenticated.headers.get("WWW-Authenticate") ?? "";
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(unauthenticated);
  if (unauthenticated.status !== 401 || !resourceMetadataUrl) {
    throw new Error(`POST ${resourceUrl} without a token answered ${unauthenticated.status}, WWW-Authenticate: ${challenge || "(none)"}`);
  }
  const resource = await oauth.processResourceDiscoveryResponse(new URL(resourceUrl), await fetch(resourceMetadataUrl));
  const issuer = new URL(resource.authorization_servers?.[0] ?? "");
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }));
  return { challenge, resourceMetadataUrl, resource, as };
}

/** A public client (no secret, PKCE) registered by RFC 7591 dynamic registration. */
export async function registerClient(as, { clientName, redirectUri }) {
  const metadata = { client_name: clientName, redirect_uris: [redirectUri], token_endpoint_auth_method: "none" };
  return oauth.processDynamicClientRegistrationResponse(await oauth.dynamicClientRegistrationRequest(as, metadata, insecure));
}

/** An authorization request (code, PKCE S256, state, RFC 8707 resource): `{ url, state, verifier }`. */
export async function authorizationRequest(as, client, { redirectUri, resource }) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  const params = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    resource,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { url: url.href, state, verifier };
}

/** Checks the authorization response (state, iss) and exchanges its code with the verifier for tokens. */
export async function exchangeCode(as, client, request, callbackUrl, { redirectUri, resource }) {
  const params = oauth.validateAuthResponse(as, client, callbackUrl, request.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, request.verifier, {
    ...insecure,
    additionalParameters: { resource },
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

/** A refresh; resolves to the OAuth error code it was refused with (`invalid_grant`, ...), or null when tokens came. */
export async function refusalOfRefresh(as, client, refreshToken) {
  try {
    await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure),
    );
    return null;
  } catch (error) {
    if (error instanceof oauth.ResponseBodyError) return error.error;
    throw error;
  }
}

/**
 * The official MCP SDK client on `url`, with `token` (an API key or an OAuth access token) in the
 * Authorization header, connected. `lastResponse()` is the last HTTP answer it got (status, headers).
 */
export async function mcpClient(url, token) {
  let last;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      last = await fetch(input, init);
      return last;
    },
  });
  const client = new Client({ name: "check-pages", version: "1" });
  await client.connect(transport);
  return { client, lastResponse: () => last };
}

/** Calls a tool as an assistant reads it: `{ isError, body }`, body the structured result or the parsed error. */
export async function callTool(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const isError = result.isError === true;
  const text = result.content?.[0]?.text ?? "";
  if (!isError) return { isError, body: result.structuredContent };
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { message: text };
  }
  return { isError, body };
}
