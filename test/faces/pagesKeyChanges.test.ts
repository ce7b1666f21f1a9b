// Managing keys on their own settings pages: roll (a new secret, same name, scopes and expiry; the
// old one refused at once; two rolls at once make one key), rename, an expiry date of the
// person's choice (up to a year), ended keys folded away; passkeys renamed and named by the
// browser that registered them. Each with its errors (in the page's language, naming the field in
// words) and its refusals (another person's key, no CSRF token, no cookie).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listKeys } from "../../src/accounts/apiKeys";
import { dayAfter, dayIn, startOfDayIn } from "../../src/platform/time";
import { SoftwareAuthenticator } from "../support/authenticator";
import { callWith } from "../support/harness";
import { db, type PagesBrowser, rowIds, signedInPerson } from "../support/pagesBrowser";

const shownKey = (html: string) => /<code id="new-key">([^<]+)<\/code>/.exec(html)?.[1];

async function newKey(browser: PagesBrowser, fields: Record<string, string | string[]> = {}) {
  const reply = await browser.postForm("/settings/keys", { name: "backup script", preset: "standard", expiresInDays: "90", ...fields });
  expect(reply.status, reply.text).toBe(201);
  const apiKey = shownKey(reply.text)!;
  return { apiKey, keyId: `key_${apiKey.slice(4, 20)}` };
}

const status = async (apiKey: string) => (await callWith(apiKey, "getLibrary", {})).status;
const keysOf = async (userId: string) => (await listKeys(env, db, userId, 1, 100, "keys")).items;

describe("rolling a key", () => {
  it("gives a new secret with the same name, scopes and expiry, shown once; the old key is 401 at once", async () => {
    const { browser, userId } = await signedInPerson();
    const old = await newKey(browser);
    expect(await status(old.apiKey)).toBe(200);
    const page = await browser.get(`/settings/keys/${old.keyId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="roll-key"');
    const rolled = await browser.postForm(`/settings/keys/${old.keyId}/roll`);
    expect(rolled.status, rolled.text).toBe(201);
    const apiKey = shownKey(rolled.text)!;
    expect(apiKey).toMatch(/^rgc_/);
    expect(apiKey).not.toBe(old.apiKey);
    expect(await status(old.apiKey)).toBe(401);
    expect(await status(apiKey)).toBe(200);
    const [fresh, former] = await keysOf(userId);
    expect(fresh).toMatchObject({ name: "backup script", state: "active", scopes: former!.scopes, expiresAt: former!.expiresAt });
    expect(former).toMatchObject({ keyId: old.keyId, state: "revoked" });
    const activity = await browser.get("/settings/activity");
    expect(activity.text).toContain("Key rolled");
  });

  it("two rolls of one key at once make one new key, and the other is told 404", async () => {
    const { browser, userId } = await signedInPerson();
    const old = await newKey(browser);
    const replies = await Promise.all([1, 2, 3].map(() => browser.postForm(`/settings/keys/${old.keyId}/roll`)));
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 404, 404]);
    const keys = await keysOf(userId);
    expect(keys.filter((key) => key.state === "active")).toHaveLength(1);
    expect(keys).toHaveLength(2);
  });

  it("refuses a revoked key, another person's key, a form without its CSRF token, and a request without a session", async () => {
    const { browser } = await signedInPerson();
    const { browser: other } = await signedInPerson();
    const mine = await newKey(browser);
    const theirs = await newKey(other);
    expect((await browser.postForm(`/settings/keys/${theirs.keyId}/roll`)).status).toBe(404);
    expect((await browser.get(`/settings/keys/${theirs.keyId}`)).status).toBe(404);
    expect(await status(theirs.apiKey)).toBe(200);
    expect((await browser.postForm(`/settings/keys/${mine.keyId}/roll`, { csrf: "0".repeat(64) })).status).toBe(401);
    const cookieless = await browser.request(`/settings/keys/${mine.keyId}/roll`, {
      method: "POST",
      headers: { Cookie: "", "Content-Type": "application/x-www-form-urlencoded" },
      body: `csrf=${browser.csrf}`,
    });
    expect(cookieless.status).toBe(401);
    expect(await status(mine.apiKey)).toBe(200);
    await browser.postForm(`/settings/keys/${mine.keyId}/revoke`);
    expect((await browser.postForm(`/settings/keys/${mine.keyId}/roll`)).status).toBe(404);
  });
});

describe("renaming a key", () => {
  it("renames it (the list and the activity say so)", async () => {
    const { browser } = await signedInPerson();
    const { keyId } = await newKey(browser);
    await browser.get(`/settings/keys/${keyId}`);
    const renamed = await browser.postForm(`/settings/keys/${keyId}/rename`, { name: "  nightly sync  " });
    expect(renamed.status).toBe(303);
    expect(renamed.headers.get("Location")).toBe(`/settings/keys/${keyId}?notice=keyRenamed`);
    const list = await browser.get("/settings/keys");
    expect(list.text).toContain(">nightly sync</a>");
    expect((await browser.get("/settings/activity")).text).toContain("Key renamed");
  });

  it("refuses an empty or too long name with a 400 naming the field in words, in the page's language", async () => {
    const { browser } = await signedInPerson();
    const { keyId } = await newKey(browser);
    const empty = await browser.postForm(`/settings/keys/${keyId}/rename?lang=ja`, { name: "   " });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain("名前: 1〜100 文字で入力してください。");
    // ?lang=ja was remembered: English is chosen again the same way.
    const long = await browser.postForm(`/settings/keys/${keyId}/rename?lang=en`, { name: "x".repeat(101) });
    expect(long.status).toBe(400);
    expect(long.text).toContain("Name: enter 1 to 100 characters.");
    expect((await browser.get("/settings/keys?lang=en")).text).toContain(">backup script</a>");
  });

  it("refuses another person's key, a missing CSRF token and a cookie-less request", async () => {
    const { browser } = await signedInPerson();
    const { browser: other } = await signedInPerson();
    const theirs = await newKey(other);
    expect((await browser.postForm(`/settings/keys/${theirs.keyId}/rename`, { name: "mine now" })).status).toBe(404);
    const mine = await newKey(browser);
    expect((await browser.postForm(`/settings/keys/${mine.keyId}/rename`, { name: "n", csrf: "" })).status).toBe(401);
    const cookieless = await browser.request(`/settings/keys/${mine.keyId}/rename`, {
      method: "POST",
      headers: { Cookie: "", "Content-Type": "application/x-www-form-urlencoded" },
      body: `csrf=${browser.csrf}&name=n`,
    });
    expect(cookieless.status).toBe(401);
    expect((await other.get(`/settings/keys/${theirs.keyId}`)).text).toContain('value="backup script"');
  });
});

describe("an expiry date of the person's choice", () => {
  it("expires at the end of the chosen day in the account's time zone (Asia/Tokyo by default)", async () => {
    const { browser, userId } = await signedInPerson();
    const day = dayAfter(dayIn(new Date(), "Asia/Tokyo"), 200);
    const { apiKey } = await newKey(browser, { expiresInDays: "date", expiresOn: day });
    const [key] = await keysOf(userId);
    expect(key!.expiresAt).toBe(startOfDayIn(dayAfter(day), "Asia/Tokyo").toISOString());
    expect(key!.expiresAt).toBe(`${day}T15:00:00.000Z`);
    expect(await status(apiKey)).toBe(200);
  });

  it("refuses a day in the past, today, beyond a year, or none, naming the expiry date in the page's language", async () => {
    const { browser, userId } = await signedInPerson();
    const today = dayIn(new Date(), "Asia/Tokyo");
    for (const expiresOn of ["2020-01-01", today, dayAfter(today, 366), "", "2026-02-30", "tomorrow"]) {
      const ja = await browser.postForm("/settings/keys?lang=ja", { preset: "viewOnly", expiresInDays: "date", expiresOn });
      expect(ja.status, expiresOn).toBe(400);
      expect(ja.text).toContain(`有効期限: ${dayAfter(today)} から ${dayAfter(today, 365)} までの日付を選んでください。`);
    }
    const en = await browser.postForm("/settings/keys?lang=en", { preset: "viewOnly", expiresInDays: "date", expiresOn: "2020-01-01" });
    expect(en.text).toContain("Expiry date: choose a date from");
    expect(await keysOf(userId)).toHaveLength(0);
  });

  it("takes the last day of the year ahead", async () => {
    const { browser } = await signedInPerson();
    await newKey(browser, { expiresInDays: "date", expiresOn: dayAfter(dayIn(new Date(), "Asia/Tokyo"), 365) });
  });
});

describe("the keys page", () => {
  it("lists live keys and folds revoked and expired ones into a <details> closed by default", async () => {
    const { browser } = await signedInPerson();
    const kept = await newKey(browser, { name: "kept" });
    const gone = await newKey(browser, { name: "gone" });
    await browser.postForm(`/settings/keys/${gone.keyId}/revoke`);
    const page = await browser.get("/settings/keys");
    expect(rowIds(page.text, "keys", "data-key-id")).toEqual([kept.keyId]);
    expect(rowIds(page.text, "ended", "data-key-id")).toEqual([gone.keyId]);
    expect(page.text).toMatch(/<details id="ended-keys"><summary>Revoked and expired keys \(1\)<\/summary>/);
  });

  it("says in Japanese which field an individual-settings key with no scope lacks", async () => {
    const { browser } = await signedInPerson();
    const ja = await browser.postForm("/settings/keys?lang=ja", { preset: "individual" });
    expect(ja.status).toBe(400);
    expect(ja.text).toContain("権限: 個別設定では、下の権限を少なくとも 1 つ選んでください。");
    expect(ja.text).not.toMatch(/Too small|expected array/);
  });

  it("shows times in the account's time zone, UTC on hover", async () => {
    const { browser } = await signedInPerson();
    await newKey(browser);
    const page = await browser.get("/settings/keys");
    const [, iso, utc, shown] = /<time datetime="([^"]+)" title="([^"]+)">([^<]+)<\/time>/.exec(page.text) ?? [];
    expect(utc).toBe(`${iso!.slice(0, 10)} ${iso!.slice(11, 16)} UTC`);
    const tokyo = new Date(Date.parse(iso!) + 9 * 3_600_000).toISOString();
    expect(shown).toBe(`${tokyo.slice(0, 10)} ${tokyo.slice(11, 16)}`);
    expect(page.text).toContain("Times are in Asia/Tokyo");
  });

  it("remembers a language chosen with ?lang= on the next pages", async () => {
    const { browser } = await signedInPerson();
    const chosen = await browser.get("/settings?lang=ja");
    expect(chosen.headers.get("Set-Cookie")).toMatch(/^rgc_lang=ja;.*HttpOnly/);
    const next = await browser.get("/settings/keys", { "Accept-Language": "en" });
    expect(next.text).toContain('<html lang="ja">');
  });
});

describe("passkeys", () => {
  it("are named by the browser and system that registered them, and renamable", async () => {
    const { browser } = await signedInPerson();
    const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
    const added = await browser.register(
      "/settings/passkeys/options",
      "/settings/passkeys/verify",
      { "X-CSRF-Token": browser.csrf ?? "", "User-Agent": android },
      undefined,
      new SoftwareAuthenticator(),
    );
    expect(added.status, added.text).toBe(200);
    const page = await browser.get("/settings/passkeys");
    expect(page.text).toContain('value="Chrome on Android"');
    const passkeyId = rowIds(page.text, "passkeys", "data-passkey-id")[1]!;
    const renamed = await browser.postForm(`/settings/passkeys/${encodeURIComponent(passkeyId)}/rename`, { name: "My phone" });
    expect(renamed.status).toBe(303);
    expect((await browser.get("/settings/passkeys")).text).toContain('value="My phone"');
  });

  it("refuse an empty or too long name (400 naming the name), another person's passkey (404), no CSRF token or no session (401)", async () => {
    const { browser } = await signedInPerson();
    const { browser: other } = await signedInPerson();
    const mine = rowIds((await browser.get("/settings/passkeys")).text, "passkeys", "data-passkey-id")[0]!;
    const theirs = rowIds((await other.get("/settings/passkeys")).text, "passkeys", "data-passkey-id")[0]!;
    const path = (id: string) => `/settings/passkeys/${encodeURIComponent(id)}/rename`;
    const empty = await browser.postForm(`${path(mine)}?lang=ja`, { name: "" });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain("名前: 1〜100 文字で入力してください。");
    expect((await browser.postForm(path(mine), { name: "y".repeat(101) })).status).toBe(400);
    expect((await browser.postForm(path(theirs), { name: "stolen" })).status).toBe(404);
    expect((await browser.postForm(path(mine), { name: "n", csrf: "" })).status).toBe(401);
    const cookieless = await browser.request(path(mine), {
      method: "POST",
      headers: { Cookie: "", "Content-Type": "application/x-www-form-urlencoded" },
      body: `csrf=${browser.csrf}&name=n`,
    });
    expect(cookieless.status).toBe(401);
  });
});
