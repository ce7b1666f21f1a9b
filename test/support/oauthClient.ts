// An OAuth client as an assistant runs one: oauth4webapi (a certified OAuth 2 / OpenID client
// library) against the real Worker: discovery from the MCP resource, dynamic registration, PKCE,
// the code exchange and refreshes. The person's part (sign-in and consent) is a PagesBrowser.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import * as oauth from "oauth4webapi";
import { expect } from "vitest";
import type { createApp } from "../../src/app";
import { freshAddress } from "./accountsHarness";
import { ORIGIN } from "./harness";
import type { PageReply, PagesBrowser } from "./pagesBrowser";

export const MCP_OAUTH_URL = `${ORIGIN}/mcp/oauth`;
export const REDIRECT_URI = "https://assistant.example/oauth/callback";

/**
 * A request of an assistant's client to the Worker's default export, from an address of its own
 * (registrations are throttled per address, and tests run side by side).
 */
export function fromAssistant(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  request.headers.set("CF-Connecting-IP", freshAddress());
  return exports.default.fetch(request);
}

/** oauth4webapi's requests reach the Worker's default export. */
export const viaWorker = { [oauth.customFetch]: (url: string, init: RequestInit) => fromAssistant(url, init) };

/** Where oauth4webapi's requests go. */
type Via = typeof viaWorker;

/** oauth4webapi's requests reach an app a test built (with services of its own), from an address of their own. */
export const viaApp = (app: ReturnType<typeof createApp>) => ({
  [oauth.customFetch]: async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("CF-Connecting-IP", freshAddress());
    const ctx = createExecutionContext();
    const response = await app.request(request, undefined, env, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  },
});

/** The Worker's authorization server, found the way an MCP client finds it: from the resource's metadata. */
export async function discover(via: Via = viaWorker): Promise<oauth.AuthorizationServer> {
  const resource = await oauth.processResourceDiscoveryResponse(
    new URL(MCP_OAUTH_URL),
    await oauth.resourceDiscoveryRequest(new URL(MCP_OAUTH_URL), via),
  );
  const issuer = new URL(resource.authorization_servers![0]!);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...via, algorithm: "oauth2" }));
}

/** A public client registered by RFC 7591 dynamic registration, as Claude's and ChatGPT's connectors do. */
export async function register(as: oauth.AuthorizationServer, metadata: Partial<oauth.Client> = {}): Promise<oauth.Client> {
  return oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: "Test Assistant", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", ...metadata },
      viaWorker,
    ),
  );
}

export interface Authorization {
  /** The authorization request's path and query on this origin (where the browser goes). */
  path: string;
  state: string;
  verifier: string;
}

/** An authorization request with PKCE (S256) for the MCP resource; `extra` overrides or adds parameters (`null` drops one). */
export async function authorizationRequest(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  extra: Record<string, string | null> = {},
): Promise<Authorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    resource: MCP_OAUTH_URL,
    ...extra,
  };
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return { path: `${url.pathname}${url.search}`, state, verifier };
}

/** The hidden fields of the consent form a page shows. */
export function consentFields(html: string): { consent: string; handle: string } {
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];
  const consent = field("consent");
  const handle = field("handle");
  expect(consent, html).toBeDefined();
  expect(handle, html).toBeDefined();
  return { consent: consent!, handle: handle! };
}

/** The person answers the consent page: allow with these permissions, or deny. */
export function answerConsent(browser: PagesBrowser, page: PageReply, choice: Record<string, string | string[]> & { decision: string }) {
  return browser.postForm("/oauth/authorize", { ...consentFields(page.text), ...choice });
}

/** The browser's whole part: open the request, allow with `choice`; the redirect back to the client. */
export async function consentTo(
  browser: PagesBrowser,
  request: Authorization,
  choice: Record<string, string | string[]> = { preset: "viewOnly" },
) {
  const page = await browser.get(request.path);
  expect(page.status, page.text).toBe(200);
  const answer = await answerConsent(browser, page, { decision: "approve", ...choice });
  expect(answer.status, answer.text).toBe(302);
  return new URL(answer.headers.get("Location")!);
}

/** The code exchange (with the PKCE verifier) at the token endpoint: the raw response. */
export async function exchangeCode(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  request: Authorization,
  callback: URL,
  verifier = request.verifier,
  via: Via = viaWorker,
) {
  const params = oauth.validateAuthResponse(as, client, callback, request.state);
  return oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, {
    ...via,
    additionalParameters: { resource: MCP_OAUTH_URL },
  });
}

export const tokensOf = (as: oauth.AuthorizationServer, client: oauth.Client, response: Response) =>
  oauth.processAuthorizationCodeResponse(as, client, response);

export async function refresh(as: oauth.AuthorizationServer, client: oauth.Client, refreshToken: string, via: Via = viaWorker) {
  return oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, via));
}

/** The OAuth error code a library call was refused with (`invalid_grant`, ...). */
export async function oauthErrorOf(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, "expected the OAuth server to refuse").toBeInstanceOf(oauth.ResponseBodyError);
  return (error as oauth.ResponseBodyError).error;
}

/** Everything up to a token: discovery, registration, consent (view only unless told), code exchange. */
export async function connectedClient(browser: PagesBrowser, choice?: Record<string, string | string[]>) {
  const as = await discover();
  const client = await register(as);
  const request = await authorizationRequest(as, client);
  const callback = await consentTo(browser, request, choice);
  const tokens = await tokensOf(as, client, await exchangeCode(as, client, request, callback));
  return { as, client, tokens };
}

export { oauth };
