import type { ClientInfo } from "@cloudflare/workers-oauth-provider";
import type { Bindings } from "../bindings";
import { invalidInput } from "../platform/errors";
import { readStreamWithin } from "../platform/requestBody";

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP 2026-07-28
 * way in): a client names itself by an https URL that serves its metadata, and registers nothing.
 * The Worker fetches the document itself (one function, fetchClientMetadataDocument, through the
 * fetcher the app was built with) under its own rules, and keeps the client it describes where the
 * OAuth library reads registered clients (`client:<url>` in OAUTH_KV), for as long as the
 * document's Cache-Control allows within bounds.
 */

/** How the Worker reaches a client's host: global fetch deployed (public addresses only); a test serves it itself. */
export type MetadataFetch = (request: Request) => Promise<Response>;

export const publicFetch: MetadataFetch = (request) => fetch(request);

const CLIENT_METADATA_MAX_BYTES = 5_120;
const CLIENT_METADATA_TIMEOUT_MS = 5_000;
/** Fresh at least 5 minutes (no refetch per request), at most a day (a changed document is seen soon). */
const FRESH_MIN_SECONDS = 300;
const FRESH_MAX_SECONDS = 86_400;
/** The record outlives its freshness by an hour, so a consent opened on it can still be answered. */
const KEPT_AFTER_FRESH_SECONDS = 3_600;

/** What is stored: the client as the library reads it, and until when the document is fresh. */
type StoredClient = ClientInfo & { metadataFreshUntil: number };

const refused = (why: string) => invalidInput("client_id", `This application could not be verified: ${why}.`);

/** A client_id the Worker resolves as a metadata document: an https URL with a path (a bare origin is no document). */
export function isMetadataClientId(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return url.protocol === "https:" && url.pathname !== "/";
  } catch {
    return false;
  }
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Loopback, private, link-local, shared (CGNAT), benchmarking, multicast and reserved IPv4 ranges. */
function isNonPublicIpv4(host: string): boolean {
  const octets = IPV4.exec(host)?.slice(1).map(Number);
  if (!octets) return false;
  const [a = 0, b = 0] = octets;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && octets[2] === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

/**
 * The URL rules, checked before anything is fetched: https, the URL in its normal form (no dot
 * segments, no fragment, no credentials), a public host. An IPv6 literal or a name without a dot
 * (an intranet host, localhost) is refused outright; a public name that resolves to a private
 * address is refused by the runtime deployed (`global_fetch_strictly_public`).
 */
function checkMetadataUrl(clientId: string): URL {
  const url = new URL(clientId);
  if (url.protocol !== "https:") throw refused("its client_id must be an https URL");
  if (url.href !== clientId) throw refused("its client_id must be a URL in normal form (no dot segments, default port omitted)");
  if (url.username || url.password || url.hash) throw refused("its client_id must not carry credentials or a fragment");
  const host = url.hostname.toLowerCase();
  if (host.startsWith("[") || isNonPublicIpv4(host) || !host.includes(".") || host.endsWith(".localhost")) {
    throw refused("its client_id must name a public host");
  }
  return url;
}

/** The body, read no further than the limit. */
async function readLimited(response: Response): Promise<string> {
  const tooLarge = () => refused(`its metadata document is larger than ${CLIENT_METADATA_MAX_BYTES} bytes`);
  if (Number(response.headers.get("Content-Length") ?? 0) > CLIENT_METADATA_MAX_BYTES) throw tooLarge();
  const bytes = await readStreamWithin(response.body, CLIENT_METADATA_MAX_BYTES, tooLarge);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw refused("its metadata document is not UTF-8");
  }
}

/** The document as its host serves it at its own URL (no redirect), within the size and time limits. */
async function fetchDocumentText(fetcher: MetadataFetch, url: URL): Promise<{ text: string; cacheControl: string | null }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), CLIENT_METADATA_TIMEOUT_MS);
  try {
    const request = new Request(url, { headers: { Accept: "application/json" }, redirect: "manual", signal: abort.signal });
    const response = await fetcher(request).catch(() => {
      throw refused(
        abort.signal.aborted
          ? `its metadata document did not arrive within ${CLIENT_METADATA_TIMEOUT_MS / 1000} s`
          : "its metadata document could not be fetched",
      );
    });
    if (response.status >= 300 && response.status < 400)
      throw refused("its metadata document URL redirects (it must be served at its own URL)");
    if (response.status !== 200) throw refused(`its metadata document answered HTTP ${response.status}`);
    const text = await Promise.race([
      readLimited(response),
      new Promise<never>((_, reject) =>
        abort.signal.addEventListener("abort", () => reject(refused("its metadata document did not arrive in time"))),
      ),
    ]);
    return { text, cacheControl: response.headers.get("Cache-Control") };
  } finally {
    clearTimeout(timer);
  }
}

const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+.-]*:$/;
const NEVER_REDIRECT_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:"]);
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** A redirect URI a document may list: https, http to this computer (RFC 8252), or an app's own scheme; never a fragment. */
function isAcceptableRedirect(uri: unknown): uri is string {
  if (typeof uri !== "string" || uri.length > 2_000) return false;
  try {
    const url = new URL(uri);
    if (url.hash) return false;
    if (url.protocol === "https:") return true;
    if (url.protocol === "http:") return LOOPBACK.test(url.hostname);
    return PRIVATE_USE_SCHEME.test(url.protocol) && !NEVER_REDIRECT_SCHEMES.has(url.protocol);
  } catch {
    return false;
  }
}

const optionalHttps = (value: unknown) =>
  typeof value === "string" && value.length <= 2_000 && value.startsWith("https://") ? value : undefined;

/** The client a document describes, as the library stores a registered public client; refused when it is not one. */
function clientOf(clientId: string, text: string): ClientInfo {
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(text);
  } catch {
    throw refused("its metadata document is not JSON");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document))
    throw refused("its metadata document is not a JSON object");
  if (document.client_id !== clientId) throw refused("its metadata document names another client_id than its URL");
  const { redirect_uris: redirects, client_name: name, token_endpoint_auth_method: authMethod } = document;
  if (!Array.isArray(redirects) || redirects.length === 0 || redirects.length > 10 || !redirects.every(isAcceptableRedirect)) {
    throw refused("its metadata document needs 1 to 10 redirect_uris, each https, http to a loopback address, or an app's own scheme");
  }
  if (typeof name !== "string" || name.trim() === "" || name.length > 200)
    throw refused("its metadata document needs a client_name of at most 200 characters");
  if ((authMethod ?? "none") !== "none" || "client_secret" in document)
    throw refused("a metadata document client is a public client (token_endpoint_auth_method none, no secret)");
  const grantTypes = document.grant_types ?? ["authorization_code", "refresh_token"];
  if (
    !Array.isArray(grantTypes) ||
    !grantTypes.includes("authorization_code") ||
    grantTypes.some((type) => type !== "authorization_code" && type !== "refresh_token")
  ) {
    throw refused("its metadata document's grant_types must be authorization_code (and refresh_token)");
  }
  const responseTypes = document.response_types ?? ["code"];
  if (!Array.isArray(responseTypes) || responseTypes.length !== 1 || responseTypes[0] !== "code")
    throw refused('its metadata document\'s response_types must be ["code"]');
  const clientUri = optionalHttps(document.client_uri);
  const logoUri = optionalHttps(document.logo_uri);
  return {
    clientId,
    clientName: name,
    redirectUris: redirects,
    grantTypes: grantTypes as string[],
    responseTypes: ["code"],
    tokenEndpointAuthMethod: "none",
    registrationDate: Math.floor(Date.now() / 1000),
    ...(clientUri ? { clientUri } : {}),
    ...(logoUri ? { logoUri } : {}),
  };
}

/** How long the document stays fresh: its max-age (s-maxage first), within the bounds; no-store and friends get the least. */
function freshSecondsOf(cacheControl: string | null): number {
  if (!cacheControl || /(^|,)\s*(no-store|no-cache|private)\b/i.test(cacheControl)) return FRESH_MIN_SECONDS;
  const maxAge = /(?:^|,)\s*s-maxage\s*=\s*"?(\d+)/i.exec(cacheControl) ?? /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cacheControl);
  const seconds = maxAge ? Number(maxAge[1]) : 0;
  return Math.min(FRESH_MAX_SECONDS, Math.max(FRESH_MIN_SECONDS, seconds));
}

/**
 * Fetches, checks and keeps the client a metadata document URL names (an ApiError naming
 * client_id when it cannot be used). A fresh stored copy is used as it is.
 */
export async function fetchClientMetadataDocument(
  env: Bindings,
  fetcher: MetadataFetch,
  clientId: string,
  now = Date.now(),
): Promise<ClientInfo> {
  const key = `client:${clientId}`;
  const stored = await env.OAUTH_KV.get<StoredClient>(key, { type: "json" });
  if (stored && stored.metadataFreshUntil * 1000 > now) return stored;
  const url = checkMetadataUrl(clientId);
  const { text, cacheControl } = await fetchDocumentText(fetcher, url);
  const client = clientOf(clientId, text);
  const fresh = freshSecondsOf(cacheControl);
  const record: StoredClient = { ...client, metadataFreshUntil: Math.floor(now / 1000) + fresh };
  await env.OAUTH_KV.put(key, JSON.stringify(record), { expirationTtl: fresh + KEPT_AFTER_FRESH_SECONDS });
  return client;
}
