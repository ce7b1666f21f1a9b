import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createInvite, INVITE_TTL_HOURS, inviteByToken, invitePath } from "../../src/accounts/invites";
import { listPasskeys } from "../../src/accounts/passkeys";
import { accountEvents, invites, passkeys, users, webauthnChallenges } from "../../src/db/schema";
import { sha256Hex } from "../../src/platform/hashing";
import { db, newUser, suspend, TestBrowser } from "../support/accountsHarness";
import { SoftwareAuthenticator } from "../support/authenticator";

const HOUR_MS = 3_600_000;

describe("invites", () => {
  it("are one-time links of 72 hours whose token is stored only as its hash", async () => {
    const userId = await newUser("LIGHT", "Aki");
    const now = new Date();
    const invite = await createInvite(db, userId, now);
    expect(invite.inviteId).toMatch(/^inv_/);
    expect(invite.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invite.expiresAt).toBe(new Date(now.getTime() + INVITE_TTL_HOURS * HOUR_MS).toISOString());
    expect(invitePath(invite.token)).toBe(`/invite/${invite.token}`);
    const [row] = await db.select().from(invites).where(eq(invites.id, invite.inviteId));
    expect(row!.tokenHash).toBe(await sha256Hex(invite.token));
    expect(JSON.stringify(row)).not.toContain(invite.token);
    expect(await inviteByToken(db, invite.token)).toEqual({
      inviteId: invite.inviteId,
      userId,
      userName: "Aki",
      expiresAt: invite.expiresAt,
      state: "live",
    });
  });

  it("tells an unknown token (null), a used invite and an expired one apart", async () => {
    const userId = await newUser();
    expect(await inviteByToken(db, "no-such-token")).toBeNull();
    const stale = await createInvite(db, userId, new Date(Date.now() - (INVITE_TTL_HOURS + 1) * HOUR_MS));
    expect((await inviteByToken(db, stale.token))!.state).toBe("expired");
    const used = await createInvite(db, userId);
    await new TestBrowser().registerWithInvite(new SoftwareAuthenticator(), used.token);
    expect((await inviteByToken(db, used.token))!.state).toBe("used");
  });

  it("refuses an unknown user with not_found", async () => {
    await expect(createInvite(db, "usr_nobody")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("registration through an invite", () => {
  it("registers a passkey for the invite's user, marks the invite used and records passkeyAdded", async () => {
    const userId = await newUser();
    const { token, inviteId } = await createInvite(db, userId);
    const browser = new TestBrowser();
    const started = await browser.post("/invite/options", { token });
    expect(started.status).toBe(200);
    const { options, ceremonyToken } = started.body;
    expect(options).toMatchObject({
      rp: { id: "api.test" },
      user: { name: "collector" },
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      attestation: "none",
      excludeCredentials: [],
    });
    expect(options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-7, -257]);
    const authenticator = new SoftwareAuthenticator();
    const response = await authenticator.createCredential(options, browser.origin);
    const done = await browser.post("/register/verify", { ceremonyToken, response, name: "  Laptop  " });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ userId, passkeyId: response.id, newUser: false });
    expect(authenticator.credentials[0]!.userHandle).toBe(Buffer.from(userId).toString("base64url"));
    const [passkey] = await listPasskeys(db, userId);
    expect(passkey).toMatchObject({ passkeyId: response.id, name: "Laptop", lastUsedAt: null });
    const [invite] = await db.select().from(invites).where(eq(invites.id, inviteId));
    expect(invite!.usedAt).not.toBeNull();
    const events = await db.select().from(accountEvents).where(eq(accountEvents.userId, userId));
    expect(events.map((e) => [e.kind, e.detail])).toEqual([["passkeyAdded", { passkeyId: response.id, name: "Laptop" }]]);
  });

  it("names an unnamed passkey by its day, and refuses a name over 100 characters without spending the ceremony", async () => {
    const userId = await newUser();
    const { token } = await createInvite(db, userId);
    const browser = new TestBrowser();
    const started = await browser.post("/invite/options", { token });
    const response = await new SoftwareAuthenticator().createCredential(started.body.options, browser.origin);
    const long = await browser.post("/register/verify", { ceremonyToken: started.body.ceremonyToken, response, name: "x".repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: "invalid_input", field: "name" });
    expect((await browser.post("/register/verify", { ceremonyToken: started.body.ceremonyToken, response })).status).toBe(200);
    expect((await listPasskeys(db, userId))[0]!.name).toMatch(/^Passkey \d{4}-\d{2}-\d{2}$/);
  });

  it("answers an unknown token with 404", async () => {
    const reply = await new TestBrowser().post("/invite/options", { token: "A".repeat(43) });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: "not_found", message: expect.stringContaining("invite link is not valid") });
  });

  it("answers a used invite with 410, before and after its options were given", async () => {
    const userId = await newUser();
    const { token } = await createInvite(db, userId);
    const browser = new TestBrowser();
    const late = await browser.post("/invite/options", { token });
    expect((await browser.registerWithInvite(new SoftwareAuthenticator(), token)).status).toBe(200);
    const again = await browser.post("/invite/options", { token });
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ code: "link_expired", message: expect.stringContaining("already used") });
    const response = await new SoftwareAuthenticator().createCredential(late.body.options, browser.origin);
    const completed = await browser.post("/register/verify", { ceremonyToken: late.body.ceremonyToken, response });
    expect(completed.status).toBe(410);
    expect(await listPasskeys(db, userId)).toHaveLength(1);
  });

  it("answers an expired invite with 410 and when it expired", async () => {
    const userId = await newUser();
    const stale = await createInvite(db, userId, new Date(Date.now() - INVITE_TTL_HOURS * HOUR_MS - 1000));
    const reply = await new TestBrowser().post("/invite/options", { token: stale.token });
    expect(reply.status).toBe(410);
    expect(reply.body).toMatchObject({ code: "link_expired", expiredAt: stale.expiresAt });
  });

  it("registers for the invite's user only: another user's invite never adds to mine", async () => {
    const [mine, theirs] = [await newUser(), await newUser()];
    const invite = await createInvite(db, theirs);
    const done = await new TestBrowser().registerWithInvite(new SoftwareAuthenticator(), invite.token);
    expect(done.body.userId).toBe(theirs);
    expect(await listPasskeys(db, mine)).toEqual([]);
    expect(await listPasskeys(db, theirs)).toHaveLength(1);
  });

  it("lets exactly one of two parallel registrations through one invite store a passkey", async () => {
    const userId = await newUser();
    const { token } = await createInvite(db, userId);
    const [a, b] = [new TestBrowser(), new TestBrowser()];
    const started = await Promise.all([a.post("/invite/options", { token }), b.post("/invite/options", { token })]);
    const responses = await Promise.all(
      started.map((s, i) => new SoftwareAuthenticator().createCredential(s.body.options, [a, b][i]!.origin)),
    );
    const done = await Promise.all(
      [a, b].map((browser, i) =>
        browser.post("/register/verify", { ceremonyToken: started[i]!.body.ceremonyToken, response: responses[i] }),
      ),
    );
    expect(done.map((d) => d.status).sort()).toEqual([200, 410]);
    expect(await listPasskeys(db, userId)).toHaveLength(1);
    const added = await db.select().from(accountEvents).where(eq(accountEvents.userId, userId));
    expect(added).toHaveLength(1);
  });

  it("recovers an account: a new invite adds a passkey beside the ones the user has, never the same authenticator twice", async () => {
    const userId = await newUser();
    const kept = new SoftwareAuthenticator();
    await new TestBrowser().registerWithInvite(kept, (await createInvite(db, userId)).token);
    const recovery = await createInvite(db, userId);
    const browser = new TestBrowser();
    const started = await browser.post("/invite/options", { token: recovery.token });
    expect(started.body.options.excludeCredentials).toEqual([
      { id: kept.credentials[0]!.id, type: "public-key", transports: ["internal"] },
    ]);
    await expect(kept.createCredential(started.body.options, browser.origin)).rejects.toThrow(/InvalidStateError/);
    expect((await browser.registerWithInvite(new SoftwareAuthenticator(), recovery.token)).status).toBe(200);
    expect(await listPasskeys(db, userId)).toHaveLength(2);
  });

  it("refuses a suspended user's invite with 403", async () => {
    const userId = await newUser();
    const { token } = await createInvite(db, userId);
    await suspend(userId);
    const reply = await new TestBrowser().post("/invite/options", { token });
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("access_suspended");
  });

  it("refuses an answer that does not verify (wrong origin, altered challenge, wrong ceremony) and stores nothing", async () => {
    const userId = await newUser();
    const browser = new TestBrowser();
    const attempt = async (answer: (options: any) => Promise<unknown>) => {
      const started = await browser.post("/invite/options", { token: (await createInvite(db, userId)).token });
      return browser.post("/register/verify", { ceremonyToken: started.body.ceremonyToken, response: await answer(started.body.options) });
    };
    const other = await browser.post("/invite/options", { token: (await createInvite(db, userId)).token });
    const replies = [
      await attempt((options) => new SoftwareAuthenticator().createCredential(options, "https://evil.test")),
      await attempt((options) => new SoftwareAuthenticator().createCredential({ ...options, challenge: "AAAA" }, browser.origin)),
      await attempt(() => new SoftwareAuthenticator().createCredential(other.body.options, browser.origin)),
      await attempt(async () => ({ id: 42 })),
      await attempt(async () => null),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        code: "invalid_input",
        field: "response",
        message: expect.stringContaining("could not be registered"),
      });
    }
    expect(await listPasskeys(db, userId)).toEqual([]);
  });

  it("takes a ceremony once: a replayed or unknown ceremony token is refused", async () => {
    const userId = await newUser();
    const browser = new TestBrowser();
    const started = await browser.post("/invite/options", { token: (await createInvite(db, userId)).token });
    const response = await new SoftwareAuthenticator().createCredential(started.body.options, browser.origin);
    const first = await browser.post("/register/verify", { ceremonyToken: started.body.ceremonyToken, response });
    expect(first.status).toBe(200);
    for (const ceremonyToken of [started.body.ceremonyToken, "unknown", 17]) {
      const again = await browser.post("/register/verify", { ceremonyToken, response });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ code: "invalid_input", field: "ceremonyToken" });
    }
  });

  it("refuses a ceremony past its five minutes", async () => {
    const userId = await newUser();
    const browser = new TestBrowser();
    const started = await browser.post("/invite/options", { token: (await createInvite(db, userId)).token });
    const tokenHash = await sha256Hex(started.body.ceremonyToken);
    const [row] = await db.select().from(webauthnChallenges).where(eq(webauthnChallenges.tokenHash, tokenHash));
    expect(Date.parse(row!.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(JSON.stringify(row)).not.toContain(started.body.ceremonyToken);
    await db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1).toISOString() })
      .where(eq(webauthnChallenges.tokenHash, tokenHash));
    const response = await new SoftwareAuthenticator().createCredential(started.body.options, browser.origin);
    const late = await browser.post("/register/verify", { ceremonyToken: started.body.ceremonyToken, response });
    expect(late.body).toMatchObject({ code: "invalid_input", field: "ceremonyToken", message: expect.stringContaining("expired") });
  });
});

describe("open sign-up", () => {
  const open = { SIGNUP_MODE: "open" };

  it("is closed (404) unless SIGNUP_MODE is open", async () => {
    for (const mode of [{}, { SIGNUP_MODE: "invite" }, { SIGNUP_MODE: "OPEN" }]) {
      const reply = await new TestBrowser("https://api.test", mode).post("/register/options", { kind: "signup" });
      expect(reply.status).toBe(404);
      expect(reply.body.message).toContain("Sign-up is closed");
    }
  });

  it("creates a FREE user whose id is the passkey's user handle, who can then sign in", async () => {
    const browser = new TestBrowser("https://api.test", open);
    const authenticator = new SoftwareAuthenticator();
    const done = await browser.register(authenticator, "/register/options", { kind: "signup" }, {}, "/signup/verify");
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ newUser: true, userId: expect.stringMatching(/^usr_/) });
    const [user] = await db.select().from(users).where(eq(users.id, done.body.userId));
    expect(user).toMatchObject({ plan: "FREE", suspended: false, name: null });
    expect(authenticator.credentials[0]!.userHandle).toBe(Buffer.from(done.body.userId).toString("base64url"));
    const signedIn = await browser.signIn(authenticator);
    expect(signedIn.body.userId).toBe(done.body.userId);
  });

  it("creates nothing when sign-up closed between the options and the answer", async () => {
    const started = await new TestBrowser("https://api.test", open).post("/register/options", { kind: "signup" });
    const closed = new TestBrowser("https://api.test", { SIGNUP_MODE: "invite" });
    const response = await new SoftwareAuthenticator().createCredential(started.body.options, closed.origin);
    const reply = await closed.post("/signup/verify", { ceremonyToken: started.body.ceremonyToken, response });
    expect(reply.status).toBe(404);
    expect(await db.select().from(passkeys).where(eq(passkeys.id, response.id))).toEqual([]);
  });
});

describe("the relying party", () => {
  it("is PUBLIC_BASE_URL's origin and host when it is set, so a Host header never decides it", async () => {
    const browser = new TestBrowser("https://api.test", { PUBLIC_BASE_URL: "https://collection.example" });
    const userId = await newUser();
    const answerFrom = async (origin: string) => {
      const started = await browser.post("/invite/options", { token: (await createInvite(db, userId)).token });
      expect(started.body.options.rp.id).toBe("collection.example");
      const response = await new SoftwareAuthenticator().createCredential(started.body.options, origin);
      return browser.post("/register/verify", { ceremonyToken: started.body.ceremonyToken, response });
    };
    expect((await answerFrom("https://api.test")).body.reason).toContain("origin");
    expect((await answerFrom("https://collection.example")).status).toBe(200);
  });
});
