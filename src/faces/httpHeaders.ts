import type { Context, MiddlewareHandler, Next } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../env";
import { randomBase62 } from "../platform/ids";
import { rateLimitHeaders } from "../platform/rateLimitHeaders";

/** A client's own X-Request-Id is used when it is short printable ASCII; anything else is replaced. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** Every answer carries X-Request-Id: the client's, when usable, else a new one; errors and logs quote it. */
export const requestIds: MiddlewareHandler<AppEnv> = async (c, next) => {
  const sent = c.req.header("X-Request-Id");
  c.set("requestId", sent && CLIENT_REQUEST_ID.test(sent) ? sent : `req_${randomBase62(20)}`);
  await next();
  c.res.headers.set("X-Request-Id", c.get("requestId"));
};

/** One Content-Type for every JSON answer, success or error, from any face. */
export const jsonWithCharset: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (/^application\/json\s*$/i.test(c.res.headers.get("Content-Type") ?? "")) {
    c.res.headers.set("Content-Type", "application/json; charset=UTF-8");
  }
};

/** A tool call's answer, result or error, tells where the caller's burst window and daily quota stand. */
export const rateLimitState: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const rate = c.get("rate");
  if (rate) for (const [name, value] of Object.entries(rateLimitHeaders(rate))) c.res.headers.set(name, value);
};

const EXPOSED_HEADERS = ["RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id", "ETag", "Idempotent-Replayed", "WWW-Authenticate"];
const ALLOWED_HEADERS = [
  "Authorization",
  "Content-Type",
  "Idempotency-Key",
  "X-Request-Id",
  "If-None-Match",
  "Mcp-Protocol-Version",
  "Mcp-Session-Id",
];

/**
 * CORS for browser clients. Keys travel in Authorization, never in cookies, so any origin may call
 * by default; CORS_ORIGINS narrows it to a list. Only real preflights (with
 * Access-Control-Request-Method) are answered here: any other OPTIONS is a 405 like other methods.
 */
export function browserAccess(): MiddlewareHandler<AppEnv> {
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
    // Only browsers send Origin; scripts and assistants skip the CORS work entirely.
    if (!c.req.header("Origin")) return next();
    if (c.req.method === "OPTIONS" && !c.req.header("Access-Control-Request-Method")) return next();
    return handlerFor(c.env.CORS_ORIGINS?.trim() || "*")(c, next);
  };
}
