import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listEvents } from "../../src/accounts/events";
import { checkCsrf, SESSION_COOKIE } from "../../src/accounts/sessions";
import { sessions } from "../../src/db/schema";
import { sha256Hex } from "../../src/platform/hashing";
import { db, member, newUser, suspend, TestBrowser } from "../support/accountsHarness";

/** A browser signed in as the user without a passkey ceremony (the sessions alone are under test here). */
async function sessionOf(userId: string, origin = "https://api.test") {
  const browser = new TestBrowser(origin);
  const started = await browser.post("/session/start", { userId });
  return { browser, started };
}

const cookieToken = (cookie: string) => decodeURIComponent(cookie.slice(SESSION_COOKIE.length + 1)).split(".")[0]!;

const notSignedIn = async (browser: TestBrowser) => expect((await browser.request("/session")).status).toBe(401);

describe("the session cookie", () => {
  it("is HttpOnly, SameSite=Lax, Path=/, Secure and lasts 30 days", async () => {
    const { started } = await sessionOf(await newUser());
    const cookie = started.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(cookie).toContain("; HttpOnly");
    expect(cookie).toContain("; SameSite=Lax");
    expect(cookie).toContain("; Path=/");
    expect(cookie).toContain("; Secure");
    expect(cookie).toContain(`; Max-Age=${30 * 86_400}`);
    expect(Date.parse(started.body.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
  });

  it.each(["http://localhost:8787", "http://127.0.0.1:8787"])("is not Secure on %s (plain HTTP of npm run dev)", async (origin) => {
    const { started, browser } = await sessionOf(await newUser(), origin);
    expect(started.headers.get("Set-Cookie")).not.toContain("Secure");
    expect((await browser.request("/session")).status).toBe(200);
  });

  it("carries a random token whose SHA-256 alone is stored", async () => {
    const userId = await newUser();
    const { browser } = await sessionOf(userId);
    const token = cookieToken(browser.cookie!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(await sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("is no session when tampered with, unsigned, or absent", async () => {
    const { browser } = await sessionOf(await newUser());
    const [name, value] = browser.cookie!.split("=") as [string, string];
    const flipped = `${value[0] === "A" ? "B" : "A"}${value.slice(1)}`;
    for (const cookie of [`${name}=${flipped}`, `${name}=${encodeURIComponent(cookieToken(browser.cookie!))}`, `${name}=`, "other=1"]) {
      expect((await browser.request("/session", { headers: { Cookie: cookie } })).status).toBe(401);
    }
    expect((await browser.request("/session")).status).toBe(200);
  });

  it("is no session once its row expired, or its user is suspended", async () => {
    const expiring = await newUser();
    const { browser } = await sessionOf(expiring);
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(sessions.userId, expiring));
    await notSignedIn(browser);
    const suspended = await newUser();
    const other = await sessionOf(suspended);
    await suspend(suspended);
    await notSignedIn(other.browser);
  });
});

describe("signing out", () => {
  it("revokes this browser's session: the same cookie, replayed, is no session", async () => {
    const { userId, browser, csrfToken } = await member();
    const kept = browser.cookie!;
    const out = await browser.checked("/signout", csrfToken);
    expect(out.status).toBe(204);
    expect(out.headers.get("Set-Cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Max-Age=0`));
    expect((await browser.request("/session", { headers: { Cookie: kept } })).status).toBe(401);
    const [row] = await db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, await sha256Hex(cookieToken(kept))));
    expect(row!.revokedAt).not.toBeNull();
    expect(row!.userId).toBe(userId);
  });

  it("everywhere ends every session of the user, and only theirs", async () => {
    const userId = await newUser();
    const [a, b] = [await sessionOf(userId), await sessionOf(userId)];
    const stranger = await sessionOf(await newUser());
    const out = await a.browser.checked("/signout-everywhere", a.started.body.csrfToken);
    expect(out.status).toBe(204);
    await notSignedIn(a.browser);
    await notSignedIn(b.browser);
    expect((await stranger.browser.request("/session")).status).toBe(200);
    const { items } = await listEvents(db, userId, 1, 10);
    expect(items.map((event) => event.kind)).toEqual(["signedOutEverywhere", "signedIn", "signedIn"]);
  });

  it("lets the user sign in again afterwards, clearing the dead sessions", async () => {
    const userId = await newUser();
    const first = await sessionOf(userId);
    await first.browser.checked("/signout-everywhere", first.started.body.csrfToken);
    const again = await sessionOf(userId);
    expect((await again.browser.request("/session")).status).toBe(200);
    expect(await db.select().from(sessions).where(eq(sessions.userId, userId))).toHaveLength(1);
  });
});

describe("CSRF", () => {
  it("accepts the session's own token, derived from it and not stored", async () => {
    const userId = await newUser();
    const { browser, started } = await sessionOf(userId);
    const { csrfToken } = started.body;
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect((await browser.checked("/checked", csrfToken)).status).toBe(200);
    expect((await browser.request("/session")).body.csrfToken).toBe(csrfToken);
  });

  it("refuses a missing, wrong or malformed token", async () => {
    const { browser, started } = await sessionOf(await newUser());
    const right: string = started.body.csrfToken;
    const wrong = `${right.slice(0, -1)}${right.endsWith("0") ? "1" : "0"}`;
    const attempts: Record<string, string>[] = [
      {},
      { "X-CSRF-Token": "" },
      { "X-CSRF-Token": wrong },
      { "X-CSRF-Token": right.toUpperCase() },
    ];
    for (const headers of attempts) {
      const reply = await browser.post("/checked", {}, headers);
      expect(reply.status).toBe(401);
      expect(reply.body.message).toContain("CSRF token");
    }
    // A form field may carry any text: one of 64 characters but more bytes is refused too, not a 500.
    const session = { userId: "usr_x", tokenHash: "0".repeat(64), csrfToken: right, expiresAt: started.body.expiresAt };
    expect(() => checkCsrf(session, "é".repeat(64))).toThrow(expect.objectContaining({ code: "unauthorized" }));
    expect(() => checkCsrf(session, undefined)).toThrow(expect.objectContaining({ code: "unauthorized" }));
    expect(checkCsrf(session, right)).toBeUndefined();
  });

  it("refuses another session's token, of another user or of the same user on another browser", async () => {
    const userId = await newUser();
    const [mine, sameUser, stranger] = [await sessionOf(userId), await sessionOf(userId), await sessionOf(await newUser())];
    for (const other of [sameUser, stranger]) {
      expect((await mine.browser.checked("/checked", other.started.body.csrfToken)).status).toBe(401);
    }
  });

  it("refuses a POST whose Origin is another site, even with the right token", async () => {
    const { browser, started } = await sessionOf(await newUser());
    const headers = { "X-CSRF-Token": started.body.csrfToken };
    for (const origin of ["https://evil.test", "null", "http://api.test", "https://api.test:8443"]) {
      const reply = await browser.post("/checked", {}, { ...headers, Origin: origin });
      expect(reply.status).toBe(401);
      expect(reply.body.message).toContain("another site");
    }
    const noOrigin = await browser.request("/checked", { method: "POST", headers });
    expect(noOrigin.status).toBe(200);
  });
});
