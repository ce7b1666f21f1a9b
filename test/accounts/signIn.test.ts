import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createInvite } from "../../src/accounts/invites";
import { listPasskeys } from "../../src/accounts/passkeys";
import { passkeys } from "../../src/db/schema";
import { db, member, newUser, suspend, TestBrowser } from "../support/accountsHarness";
import { SoftwareAuthenticator, withClientData } from "../support/authenticator";

/** A sign-in ceremony started on the browser: its token and options. */
const started = async (browser: TestBrowser) => (await browser.post("/signin/options")).body;

const refusedAs401 = (reply: { status: number; body: any }) => {
  expect(reply.status).toBe(401);
  expect(reply.body).toMatchObject({ code: "unauthorized", message: expect.stringContaining("passkey") });
};

describe("sign-in with a passkey", () => {
  it("asks for any discoverable passkey of this site and signs its user in", async () => {
    const { userId, authenticator } = await member();
    const browser = new TestBrowser();
    const { options } = await started(browser);
    expect(options).toMatchObject({ rpId: "api.test", userVerification: "preferred" });
    expect(options.allowCredentials ?? []).toEqual([]);
    const reply = await browser.signIn(authenticator);
    expect(reply.status).toBe(200);
    expect(reply.body.userId).toBe(userId);
    expect((await browser.request("/session")).body.userId).toBe(userId);
  });

  it("stores the new counter and the last use", async () => {
    const { userId, authenticator, browser } = await member();
    await browser.signIn(authenticator);
    const [row] = await db.select().from(passkeys).where(eq(passkeys.userId, userId));
    expect(row!.counter).toBe(authenticator.credentials[0]!.counter);
    expect(row!.counter).toBe(2);
    expect((await listPasskeys(db, userId))[0]!.lastUsedAt).not.toBeNull();
  });

  it("signs in with whichever of the user's passkeys is used", async () => {
    const { userId } = await member();
    const second = new SoftwareAuthenticator();
    await new TestBrowser().registerWithInvite(second, (await createInvite(db, userId)).token);
    expect((await new TestBrowser().signIn(second)).body.userId).toBe(userId);
  });

  it("refuses a passkey not registered here", async () => {
    const stranger = new SoftwareAuthenticator();
    await stranger.createCredential(
      { rp: { id: "api.test", name: "x" }, user: { id: "dXNy", name: "u", displayName: "" }, challenge: "AAAA", pubKeyCredParams: [] },
      "https://api.test",
    );
    const reply = await new TestBrowser().signIn(stranger);
    refusedAs401(reply);
    expect(reply.body.message).toContain("not registered here");
  });

  it("refuses a signature made by another key", async () => {
    const { authenticator } = await member();
    const browser = new TestBrowser();
    const { ceremonyToken, options } = await started(browser);
    const forger = new SoftwareAuthenticator();
    await forger.createCredential(
      { rp: { id: "api.test", name: "x" }, user: { id: "dXNy", name: "u", displayName: "" }, challenge: "AAAA", pubKeyCredParams: [] },
      browser.origin,
    );
    const forged = await forger.getAssertion(options, browser.origin);
    const claimed = { ...forged, id: authenticator.credentials[0]!.id, rawId: authenticator.credentials[0]!.id };
    refusedAs401(await browser.post("/signin/verify", { ceremonyToken, response: claimed }));
  });

  it("refuses a clientDataJSON altered after signing (challenge or origin)", async () => {
    const { authenticator } = await member();
    for (const change of [{ challenge: "AAAAAAAAAAAAAAAAAAAAAA" }, { origin: "https://evil.test" }, { type: "webauthn.create" }]) {
      const browser = new TestBrowser();
      const { ceremonyToken, options } = await started(browser);
      const response = withClientData(await authenticator.getAssertion(options, browser.origin), change);
      refusedAs401(await browser.post("/signin/verify", { ceremonyToken, response }));
    }
  });

  it("refuses an answer signed for another origin or another ceremony's challenge", async () => {
    const { authenticator } = await member();
    const browser = new TestBrowser();
    const first = await started(browser);
    const elsewhere = await authenticator.getAssertion(first.options, "https://evil.test");
    const reply = await browser.post("/signin/verify", { ceremonyToken: first.ceremonyToken, response: elsewhere });
    refusedAs401(reply);
    expect(reply.body.reason).toContain("origin");
    const [a, b] = [await started(browser), await started(browser)];
    const forB = await authenticator.getAssertion(b.options, browser.origin);
    const crossed = await browser.post("/signin/verify", { ceremonyToken: a.ceremonyToken, response: forB });
    refusedAs401(crossed);
    expect(crossed.body.reason).toContain("challenge");
  });

  it("takes a ceremony once: replaying it, even with a valid answer, is refused", async () => {
    const { authenticator } = await member();
    const browser = new TestBrowser();
    const { ceremonyToken, options } = await started(browser);
    const response = await authenticator.getAssertion(options, browser.origin);
    expect((await browser.post("/signin/verify", { ceremonyToken, response })).status).toBe(200);
    const replayed = await browser.post("/signin/verify", { ceremonyToken, response });
    expect(replayed.status).toBe(400);
    expect(replayed.body).toMatchObject({ code: "invalid_input", field: "ceremonyToken" });
  });

  it("does not take a registration's ceremony token for a sign-in", async () => {
    const { authenticator } = await member();
    const browser = new TestBrowser();
    const registration = await browser.post("/invite/options", { token: (await createInvite(db, await newUser())).token });
    const { options } = await started(browser);
    const response = await authenticator.getAssertion(options, browser.origin);
    const reply = await browser.post("/signin/verify", { ceremonyToken: registration.body.ceremonyToken, response });
    expect(reply.body).toMatchObject({ code: "invalid_input", field: "ceremonyToken" });
  });

  it("refuses a counter that goes backwards (a cloned authenticator), and one that stands still", async () => {
    const { authenticator } = await member();
    await new TestBrowser().signIn(authenticator);
    const credential = authenticator.credentials[0]!;
    for (const counter of [0, credential.counter - 1]) {
      credential.counter = counter;
      const reply = await new TestBrowser().signIn(authenticator);
      refusedAs401(reply);
      expect(reply.body.reason).toContain("counter");
    }
  });

  it("counts one of two sign-ins that carry the same counter at once (a cloned authenticator)", async () => {
    const { authenticator } = await member();
    const credential = authenticator.credentials[0]!;
    const [a, b] = [new TestBrowser(), new TestBrowser()];
    const [first, second] = [await started(a), await started(b)];
    /** An answer that leaves the counter where it was, so the next one carries the same value. */
    const cloned = async (browser: TestBrowser, { ceremonyToken, options }: { ceremonyToken: string; options: any }) => {
      const counter = credential.counter;
      const response = await authenticator.getAssertion(options, browser.origin);
      credential.counter = counter;
      return { ceremonyToken, response };
    };
    const answers = [await cloned(a, first), await cloned(b, second)];
    const replies = await Promise.all([a.post("/signin/verify", answers[0]), b.post("/signin/verify", answers[1])]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 401]);
  });

  it("refuses a user handle naming another account", async () => {
    const { authenticator } = await member();
    const browser = new TestBrowser();
    const { ceremonyToken, options } = await started(browser);
    const response = await authenticator.getAssertion(options, browser.origin);
    const foreign = { ...response, response: { ...response.response, userHandle: isoBase64URL.fromUTF8String("usr_someoneElse00") } };
    refusedAs401(await browser.post("/signin/verify", { ceremonyToken, response: foreign }));
  });

  it("refuses a suspended user with 403 and starts no session", async () => {
    const { userId, authenticator } = await member();
    await suspend(userId);
    const browser = new TestBrowser();
    const reply = await browser.signIn(authenticator);
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("access_suspended");
    expect(browser.cookie).toBeUndefined();
  });

  it("answers malformed answers with 4xx, never a 500", async () => {
    const { authenticator } = await member();
    const id = authenticator.credentials[0]!.id;
    const browser = new TestBrowser();
    for (const response of [
      null,
      {},
      { id: 5 },
      { id: "x", response: null },
      { id, rawId: id, type: "public-key", response: {} },
      { id, response: "x" },
    ]) {
      const { ceremonyToken } = await started(browser);
      const reply = await browser.post("/signin/verify", { ceremonyToken, response });
      expect(reply.status).toBe(401);
    }
  });
});
