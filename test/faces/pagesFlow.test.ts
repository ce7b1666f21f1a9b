// The pages' ways in and out, through the real app: an invite link -> a passkey -> the settings;
// sign-in, open sign-up, sign-out (here and everywhere); invites that are used, expired, unknown or
// raced; the JSON ceremony steps' errors.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createInvite, INVITE_TTL_HOURS } from "../../src/accounts/invites";
import { listPasskeys } from "../../src/accounts/passkeys";
import { SESSION_COOKIE } from "../../src/accounts/sessions";
import { users } from "../../src/db/schema";
import { atWindowStart } from "../support/accounting";
import { newUser } from "../support/accountsHarness";
import { callWith } from "../support/harness";
import { db, PagesBrowser, signedInPerson } from "../support/pagesBrowser";

const today = () => new Date().toISOString().slice(0, 10);

/** A key made on the settings page, and its secret from the page that showed it once. */
async function pageKey(browser: PagesBrowser, fields: Record<string, string | string[]> = { preset: "viewOnly" }) {
  const reply = await browser.postForm("/settings/keys", fields);
  expect(reply.status, reply.text).toBe(201);
  return /<code id="new-key">([^<]+)<\/code>/.exec(reply.text)![1]!;
}

describe("invite -> passkey -> settings", () => {
  it("shows the invite, registers the passkey through it, and signs the person in", async () => {
    const userId = await newUser("LIGHT", "Aoi");
    const { token } = await createInvite(db, userId);
    const browser = new PagesBrowser();
    const page = await browser.get(`/invite/${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Register a passkey for Aoi");
    expect(page.text).toContain(`data-options="/invite/${token}/options"`);
    expect(page.text).toContain('id="passkey-register"');
    const registered = await browser.registerWithInvite(token, "laptop");
    expect(registered.status).toBe(200);
    expect(registered.json).toEqual({ redirect: "/settings" });
    const cookie = registered.headers.getSetCookie().find((set) => set.startsWith(`${SESSION_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i);
    const settings = await browser.get("/settings");
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('<dd id="plan">LIGHT</dd>');
    expect(settings.text).toContain("0 of 5,000 calls");
    expect(settings.text).toContain('<svg id="usage-chart"');
    expect((await browser.get("/settings/passkeys")).text).toContain('value="laptop"');
    const activity = await browser.get("/settings/activity");
    expect(activity.text).toContain('data-kind="passkeyAdded"');
    expect(activity.text).toContain('data-kind="signedIn"');
  });

  it("escapes the invited user's name", async () => {
    const userId = await newUser("FREE", '<img src=x onerror="alert(1)">');
    const { token } = await createInvite(db, userId);
    const page = await new PagesBrowser().get(`/invite/${token}`);
    expect(page.text).not.toContain("<img");
    expect(page.text).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("shows today's usage, the chart's bar for today, and the registered counts", async () => {
    const { browser } = await signedInPerson("PREMIUM");
    const apiKey = await pageKey(browser);
    for (let i = 0; i < 3; i++) expect((await callWith(apiKey, "getAccount", {}, "GET")).status).toBe(200);
    const settings = await browser.get("/settings");
    expect(settings.text).toMatch(/<dd id="usage-today">3 of 20,000 calls/);
    expect(settings.text).toContain(`<title>${today()}: 3</title>`);
    expect(settings.text).toContain('<desc id="usage-chart-desc">3 calls in 30 days; busiest day 3; daily quota 20,000.</desc>');
    expect(settings.text).toMatch(/<th scope="row">API keys<\/th><td class="number">1<\/td><td class="number">25<\/td>/);
  });

  it("a used invite is refused at the options step (410 JSON), an expired one too, an unknown one is 404", async () => {
    const userId = await newUser();
    const { token } = await createInvite(db, userId);
    expect((await new PagesBrowser().registerWithInvite(token)).status).toBe(200);
    const used = await new PagesBrowser().postJson(`/invite/${token}/options`);
    expect(used.status).toBe(410);
    expect(used.json.code).toBe("link_expired");
    const stale = await createInvite(db, userId, new Date(Date.now() - (INVITE_TTL_HOURS + 1) * 3_600_000));
    const expiredPage = await new PagesBrowser().get(`/invite/${stale.token}`);
    expect(expiredPage.status).toBe(410);
    expect(expiredPage.text).toContain("This invite link has expired");
    expect((await new PagesBrowser().postJson(`/invite/${stale.token}/options`)).status).toBe(410);
    const unknown = await new PagesBrowser().postJson("/invite/no-such-token/options");
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe("not_found");
  });

  it("lets one of two registrations racing through one invite through, and stores one passkey", async () => {
    const userId = await newUser();
    const { token } = await createInvite(db, userId);
    const [first, second] = [new PagesBrowser(), new PagesBrowser()];
    const options = await Promise.all([first, second].map((browser) => browser.postJson(`/invite/${token}/options`)));
    const answers = await Promise.all(
      [first, second].map(async (browser, i) => ({
        ceremonyToken: options[i]!.json.ceremonyToken,
        response: await browser.authenticator.createCredential(options[i]!.json.options, "https://api.test"),
      })),
    );
    const replies = await Promise.all([first, second].map((browser, i) => browser.postJson("/invite/verify", answers[i])));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 410]);
    expect(await listPasskeys(db, userId)).toHaveLength(1);
  });

  it("throttles failed invite links per address: 429 pages with Retry-After past ten in a window", async () => {
    const browser = new PagesBrowser();
    await atWindowStart();
    const replies = await Promise.all(Array.from({ length: 14 }, (_, i) => browser.get(`/invite/guess-${i}`)));
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(10);
    const throttled = replies.find((reply) => reply.status === 429)!;
    expect(throttled.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(throttled.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect((await new PagesBrowser().get("/invite/guess-other-address")).status).toBe(404);
  });
});

describe("sign-in and sign-out", () => {
  it("signs out here: the cookie is cleared, the session row revoked, the old cookie worthless", async () => {
    const { browser } = await signedInPerson();
    const cookie = browser.cookie!;
    const out = await browser.postForm("/settings/signout");
    expect(out.status).toBe(303);
    expect(out.headers.get("Location")).toBe("/signin?notice=signedOut");
    expect(browser.cookie).toBeUndefined();
    expect((await browser.get("/signin?notice=signedOut")).text).toContain("You are signed out.");
    const replayed = await browser.get("/settings", { Cookie: cookie });
    expect(replayed.status).toBe(303);
  });

  it("signs back in with the passkey", async () => {
    const { browser, userId } = await signedInPerson("FREE");
    await browser.postForm("/settings/signout");
    const signedIn = await browser.signIn();
    expect(signedIn.status).toBe(200);
    expect(signedIn.json).toEqual({ redirect: "/settings" });
    const settings = await browser.get("/settings");
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('<dd id="plan">FREE</dd>');
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    expect(user!.plan).toBe("FREE");
  });

  it("signs out everywhere: every other browser of the person is signed out too", async () => {
    const { browser } = await signedInPerson();
    const other = new PagesBrowser({ authenticator: browser.authenticator });
    expect((await other.signIn()).status).toBe(200);
    expect((await other.get("/settings")).status).toBe(200);
    const out = await browser.postForm("/settings/signout-everywhere");
    expect(out.status).toBe(303);
    expect((await other.get("/settings")).status).toBe(303);
    expect((await browser.get("/settings")).status).toBe(303);
    expect((await other.signIn()).status).toBe(200);
    expect((await other.get("/settings/activity")).text).toContain('data-kind="signedOutEverywhere"');
  });

  it("treats a tampered cookie as no session", async () => {
    const { browser } = await signedInPerson();
    const [name, value] = browser.cookie!.split("=") as [string, string];
    const tampered = `${name}=${value.startsWith("A") ? "B" : "A"}${value.slice(1)}`;
    expect((await browser.get("/settings", { Cookie: tampered })).status).toBe(303);
  });

  it("refuses a sign-in answer replayed: the ceremony is spent (JSON error, no session)", async () => {
    const { browser } = await signedInPerson();
    const fresh = new PagesBrowser({ authenticator: browser.authenticator });
    const started = await fresh.postJson("/signin/options");
    const answer = {
      ceremonyToken: started.json.ceremonyToken,
      response: await fresh.authenticator.getAssertion(started.json.options, "https://api.test"),
    };
    expect((await fresh.postJson("/signin/verify", answer)).status).toBe(200);
    const replay = new PagesBrowser();
    const replayed = await replay.postJson("/signin/verify", answer);
    expect(replayed.status).toBe(400);
    expect(replayed.json.code).toBe("invalid_input");
    expect(replay.cookie).toBeUndefined();
  });
});

describe("open sign-up", () => {
  it("creates a FREE account with a passkey when SIGNUP_MODE is open", async () => {
    const browser = new PagesBrowser({ bindings: { SIGNUP_MODE: "open" } });
    const reply = await browser.register("/signup/options", "/signup/verify", {}, "phone");
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ redirect: "/settings" });
    const settings = await browser.get("/settings");
    expect(settings.text).toContain('<dd id="plan">FREE</dd>');
    expect((await browser.get("/settings/passkeys")).text).toContain('value="phone"');
  });

  it("is closed (404 JSON) in invite mode", async () => {
    const reply = await new PagesBrowser().postJson("/signup/options");
    expect(reply.status).toBe(404);
    expect(reply.json.code).toBe("not_found");
  });
});

describe("the ceremony steps' JSON errors", () => {
  it("refuses anything but a JSON body, and a body that is no ceremony answer, with 400 JSON (never a 500)", async () => {
    const browser = new PagesBrowser();
    const asForm = await browser.request("/signin/verify", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "ceremonyToken=x",
    });
    expect(asForm.status).toBe(400);
    expect(asForm.json.code).toBe("invalid_input");
    for (const body of ["{", "[]", JSON.stringify({ ceremonyToken: "x" }), JSON.stringify({ ceremonyToken: "x", response: "y" })]) {
      const reply = await browser.request("/invite/verify", { method: "POST", headers: { "Content-Type": "application/json" }, body });
      expect(reply.status, body).toBe(400);
      expect(reply.json.code).toBe("invalid_input");
    }
    const unknownCeremony = await browser.postJson("/signin/verify", {
      ceremonyToken: "nope",
      response: { id: "x", type: "public-key", response: {} },
    });
    expect(unknownCeremony.status).toBe(400);
  });
});
