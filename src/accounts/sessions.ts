import { and, eq, gt, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { Bindings } from "../bindings";
import { sessions, users } from "../db/schema";
import type { AppEnv } from "../env";
import { createDb, type Db, queryBatch, statements } from "../platform/db";
import { ApiError } from "../platform/errors";
import { digestsEqual, hmacSha256Hex, requiredSecret } from "../platform/hashing";
import { DAY_MS } from "../platform/time";
import { eventStatement } from "./events";
import { hashToken, isoAfter, randomToken } from "./tokens";

/** The pages' session cookie; read by the pages face only (the API stays bearer-only). */
export const SESSION_COOKIE = "rgc_session";
export const SESSION_TTL_DAYS = 30;

export interface Session {
  userId: string;
  /** SHA-256 of the cookie's token: the session row's key. */
  tokenHash: string;
  /** What every form of this session carries (checkCsrf). */
  csrfToken: string;
  expiresAt: string;
}

/** The session of a request, with the account's IANA time zone, in which the pages show times. */
export interface CurrentSession extends Session {
  timeZone: string;
}

const sessionSecret = (env: Bindings) => requiredSecret(env.SESSION_SECRET, "SESSION_SECRET", "sessions can be neither started nor read");

/** The session's CSRF token: derived, not stored, so it needs no row and dies with the session. */
const csrfTokenOf = (env: Bindings, tokenHash: string) => hmacSha256Hex(sessionSecret(env), `csrf:${tokenHash}`);

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** HttpOnly, SameSite=Lax, the whole site; Secure except on a local host, which `npm run dev` serves over plain HTTP. */
const cookieOptions = (c: Context<AppEnv>): CookieOptions => ({
  httpOnly: true,
  sameSite: "Lax",
  path: "/",
  secure: !LOCAL_HOSTS.has(new URL(c.req.url).hostname),
  maxAge: (SESSION_TTL_DAYS * DAY_MS) / 1000,
});

/** The user's sessions that no cookie can use any more: dropped when the user signs in again. */
const deadSessionsOf = (userId: string, now: string) =>
  and(eq(sessions.userId, userId), or(isNotNull(sessions.revokedAt), lte(sessions.expiresAt, now)));

/**
 * Signs the user in on this browser: a random token in a cookie signed with SESSION_SECRET, its
 * SHA-256 in `sessions` (with signedIn recorded in the same batch), valid 30 days.
 */
export async function startSession(c: Context<AppEnv>, userId: string): Promise<Session> {
  const db = createDb(c.env.DB);
  const now = new Date();
  const token = randomToken();
  const session = { userId, tokenHash: await hashToken(token), expiresAt: isoAfter(now, SESSION_TTL_DAYS * DAY_MS) };
  await queryBatch(db, [
    statements.delete(sessions).where(deadSessionsOf(userId, now.toISOString())).getSQL(),
    statements.insert(sessions).values(session).getSQL(),
    eventStatement(userId, "signedIn"),
  ]);
  await setSignedCookie(c, SESSION_COOKIE, token, sessionSecret(c.env), cookieOptions(c));
  return { ...session, csrfToken: await csrfTokenOf(c.env, session.tokenHash) };
}

/** The browser's session: a cookie whose signature holds, naming a row neither revoked nor expired, of a user not suspended; else null. */
export async function currentSession(c: Context<AppEnv>): Promise<CurrentSession | null> {
  const token = await getSignedCookie(c, sessionSecret(c.env), SESSION_COOKIE);
  if (!token) return null;
  const tokenHash = await hashToken(token);
  const [row] = await createDb(c.env.DB)
    .select({ userId: sessions.userId, expiresAt: sessions.expiresAt, timeZone: users.timeZone })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date().toISOString()),
        eq(users.suspended, false),
      ),
    );
  return row ? { ...row, tokenHash, csrfToken: await csrfTokenOf(c.env, tokenHash) } : null;
}

const revoke = (which: SQL) =>
  statements
    .update(sessions)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(which, isNull(sessions.revokedAt)))
    .getSQL();

/** Signs this browser out: the row is revoked (the cookie is worthless even if kept) and the cookie cleared. */
export async function endSession(c: Context<AppEnv>, session: Session): Promise<void> {
  const db = createDb(c.env.DB);
  await db.run(revoke(eq(sessions.tokenHash, session.tokenHash)));
  deleteCookie(c, SESSION_COOKIE, cookieOptions(c));
}

/** Signs the user out everywhere: every session row of theirs revoked, signedOutEverywhere recorded in the same batch. */
export async function endAllSessions(db: Db, userId: string): Promise<void> {
  await queryBatch(db, [revoke(eq(sessions.userId, userId)), eventStatement(userId, "signedOutEverywhere")]);
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** Refuses a form post whose CSRF token is missing or not this session's (compared in constant time). */
export function checkCsrf(session: Session, presented: string | undefined): void {
  if (typeof presented === "string" && HEX_DIGEST.test(presented) && digestsEqual(presented, session.csrfToken)) return;
  throw new ApiError(
    "unauthorized",
    "This form has expired or did not come from this site (its CSRF token is missing or wrong): reload the page and try again.",
  );
}

/**
 * Refuses a POST whose Origin header names another site: a browser sends Origin with every
 * cross-site POST, so no other site can make a signed-in browser post a form here (on top of the
 * SameSite cookie and the CSRF token). A request without Origin (a script) passes to the CSRF check.
 */
export function sameOriginPosts(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header("Origin");
    if (c.req.method === "POST" && origin !== undefined && origin !== new URL(c.req.url).origin) {
      throw new ApiError("unauthorized", "This form was posted from another site, which this service does not accept.");
    }
    return next();
  };
}
