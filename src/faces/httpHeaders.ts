import type { Context, MiddlewareHandler, Next } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../env";
import { bindingsProblem } from "../platform/bindingsCheck";
import { ApiError } from "../platform/errors";
import { randomBase62 } from "../platform/ids";
import { rateLimitHeaders } from "../platform/rateLimitHeaders";
import { BOOKMARK_HEADER } from "../platform/readSessions";

/** A client's own X-Request-Id is used when it is short printable ASCII; anything else is replaced. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** Seconds a client should wait before retrying during maintenance. */
export const MAINTENANCE_RETRY_AFTER_SEC = 300;

/** An ApiError as this service's JSON error answer, with the headers its code calls for. */
export function errorResponse(error: ApiError, requestId: string): Response {
  const headers = new Headers({ "Content-Type": JSON_CONTENT_TYPE, "X-Request-Id": requestId });
  if (typeof error.details.allow === "string") headers.set("Allow", error.details.allow);
  if (error.details.retryAfterSec !== undefined) headers.set("Retry-After", String(error.details.retryAfterSec));
  if (error.status === 401) headers.set("WWW-Authenticate", bearerChallenge(error));
  return new Response(JSON.stringify(error.toBody(requestId)), { status: error.status, headers });
}

/**
 * The RFC 6750 challenge of a 401: a refused token names the error and why (error_description,
 * the error's message); a request without a usable bearer token gets the bare scheme, as RFC 6750
 * (3.1) asks. `params` adds more (the OAuth resource's resource_metadata).
 */
export function bearerChallenge(error: ApiError, params: Record<string, string> = {}): string {
  const all = { ...(error.code === "invalid_token" ? { error: "invalid_token", error_description: error.message } : {}), ...params };
  const pairs = Object.entries(all).map(([name, value]) => `${name}="${value}"`);
  return pairs.length > 0 ? `Bearer ${pairs.join(", ")}` : "Bearer";
}

const JSON_CONTENT_TYPE = "application/json; charset=UTF-8";

/**
 * The longest request target (path and query string, as sent) the service reads. The platform
 * refuses longer ones before the Worker runs, with a plain-text 414 of its own (workerd from 64 KiB,
 * Cloudflare's edge from 16 KB): this lower limit answers every URL below those with our JSON error.
 */
export const MAX_REQUEST_TARGET_BYTES = 8192;

/** The request target's length: the URL after its origin (percent-encoded, so characters are bytes). */
const requestTargetLength = (url: string) => url.length - url.indexOf("/", url.indexOf("//") + 2);

const uriTooLong = () =>
  new ApiError(
    "uri_too_long",
    `The URL's path and query are longer than ${MAX_REQUEST_TARGET_BYTES} bytes; send long arguments in a POST JSON body.`,
    { limitBytes: MAX_REQUEST_TARGET_BYTES },
  );

const underMaintenance = () =>
  new ApiError("maintenance", "The service is under maintenance; retry later.", {
    retryable: true,
    retryAfterSec: MAINTENANCE_RETRY_AFTER_SEC,
  });

/**
 * What every answer of the service shares, in one middleware (each layer of Hono's chain costs a
 * call its share of CPU): X-Request-Id (the client's, when usable, else a new one; errors and logs
 * quote it), CORS for browsers on the API paths, the bindings' check (once per isolate), the URL
 * length limit, the maintenance switch, one JSON Content-Type for every face, and the rate-limit
 * headers once a tool call was admitted (results and errors alike).
 */
export function serviceFrame(isApiPath: (path: string) => boolean): MiddlewareHandler<AppEnv> {
  const corsFor = browserAccess();
  return async (c, next) => {
    const sent = c.req.header("X-Request-Id");
    const requestId = sent && CLIENT_REQUEST_ID.test(sent) ? sent : `req_${randomBase62(20)}`;
    c.set("requestId", requestId);
    const serve = async () => {
      const misconfigured = bindingsProblem(c.env);
      if (misconfigured) c.res = errorResponse(misconfigured, requestId);
      else if (requestTargetLength(c.req.url) > MAX_REQUEST_TARGET_BYTES) c.res = errorResponse(uriTooLong(), requestId);
      else if (c.env.MAINTENANCE_MODE === "on") c.res = errorResponse(underMaintenance(), requestId);
      else await next();
    };
    // Only browsers send Origin; scripts and assistants skip the CORS work entirely.
    if (c.req.header("Origin") && isApiPath(c.req.path)) {
      const preflight = await corsFor(c, serve);
      if (preflight) c.res = preflight;
    } else await serve();
    const headers = c.res.headers;
    headers.set("X-Request-Id", requestId);
    if (/^application\/json\s*$/i.test(headers.get("Content-Type") ?? "")) headers.set("Content-Type", JSON_CONTENT_TYPE);
    const rate = c.get("rate");
    if (rate) for (const [name, value] of Object.entries(rateLimitHeaders(rate))) headers.set(name, value);
    const bookmark = c.get("bookmark");
    if (bookmark) headers.set(BOOKMARK_HEADER, bookmark);
  };
}

const EXPOSED_HEADERS = [
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "X-Request-Id",
  "ETag",
  "Idempotent-Replayed",
  "WWW-Authenticate",
  BOOKMARK_HEADER,
];
const ALLOWED_HEADERS = [
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "X-Request-Id",
  "If-None-Match",
  "Mcp-Protocol-Version",
  "Mcp-Session-Id",
  BOOKMARK_HEADER,
];

/**
 * CORS for browser clients. Keys travel in Authorization, never in cookies, so any origin may call
 * by default; CORS_ORIGINS narrows it to a list. Only real preflights (with
 * Access-Control-Request-Method) are answered here: any other OPTIONS is a 405 like other methods.
 */
function browserAccess(): MiddlewareHandler<AppEnv> {
  const handlers = new Map<string, MiddlewareHandler>();
  const handlerFor = (origins: string) => {
    let handler = handlers.get(origins);
    if (!handler) {
      handler = cors({
        origin: origins === "*" ? "*" : origins.split(",").map((origin) => origin.trim()),
        allowMethods: ["GET", "POST", "PUT"],
        allowHeaders: ALLOWED_HEADERS,
        exposeHeaders: EXPOSED_HEADERS,
        maxAge: 86_400,
      });
      handlers.set(origins, handler);
    }
    return handler;
  };
  return async (c: Context<AppEnv>, next: Next) => {
    if (c.req.method === "OPTIONS" && !c.req.header("Access-Control-Request-Method")) return next();
    return handlerFor(c.env.CORS_ORIGINS?.trim() || "*")(c, next);
  };
}
