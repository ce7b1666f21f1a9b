// The pages face (src/faces/pages/): every page in Japanese and English, the headers every HTML
// answer carries, nothing loaded from another origin, errors as pages (never the API's JSON), and
// the static script and stylesheet served from public/settings/ with the pages' policy.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createInvite } from "../../src/accounts/invites";
import { PAGE_CSP, type Page } from "../../src/faces/pages/layout";
import { messagesOf } from "../../src/faces/pages/messages";
import { usageChart } from "../../src/faces/pages/usageChart";
import { newUser } from "../support/accountsHarness";
import { attributes } from "../support/html";
import { db, PagesBrowser, signedInPerson } from "../support/pagesBrowser";

const assets = (env as unknown as { ASSETS: Fetcher }).ASSETS;

/** What every page answer carries: HTML, never cached, never framed, the strict policy, no Referer to other sites. */
function expectPageHeaders(headers: Headers) {
  expect(headers.get("Content-Type")).toMatch(/^text\/html; charset=UTF-8/i);
  expect(headers.get("Cache-Control")).toBe("no-store");
  expect(headers.get("X-Frame-Options")).toBe("DENY");
  expect(headers.get("Referrer-Policy")).toBe("same-origin");
  expect(headers.get("Content-Security-Policy")).toBe(PAGE_CSP);
}

/** Only this origin's files, no inline script or style. */
function expectSelfContained(html: string) {
  for (const url of [...attributes(html, "src"), ...attributes(html, "href")]) expect(url).toMatch(/^\/(?!\/)/);
  expect(html).not.toMatch(/https?:\/\/|<style|\sstyle=|\son[a-z]+=/i);
  expect([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1])).toEqual(
    html.includes("<script") ? [' src="/settings/passkeys.js" defer'] : [],
  );
}

describe("the policy", () => {
  it("allows only this origin, no inline script, no frames", () => {
    expect(PAGE_CSP).toContain("default-src 'self'");
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
    expect(PAGE_CSP).not.toMatch(/unsafe|\*|https?:/);
  });
});

describe("GET /signin", () => {
  it("speaks English by default and Japanese to a browser that asks for it", async () => {
    const browser = new PagesBrowser();
    const english = await browser.get("/signin");
    expect(english.status).toBe(200);
    expectPageHeaders(english.headers);
    expectSelfContained(english.text);
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('id="passkey-signin"');
    expect(english.text).toContain("Sign in with a passkey");
    const japanese = await browser.get("/signin", { "Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8" });
    expect(japanese.text).toContain('<html lang="ja">');
    expect(japanese.text).toContain("パスキーでサインイン");
  });

  it("weighs Accept-Language by q-value; ?lang= overrides it and is carried on the page's links", async () => {
    const browser = new PagesBrowser();
    expect((await browser.get("/signin", { "Accept-Language": "fr, en;q=0.5, ja;q=0.8" })).text).toContain('<html lang="ja">');
    expect((await browser.get("/signin", { "Accept-Language": "ja;q=0, de" })).text).toContain('<html lang="en">');
    const chosen = await browser.get("/signin?lang=en", { "Accept-Language": "ja" });
    expect(chosen.text).toContain('<html lang="en">');
    expect(chosen.text).toContain('data-options="/signin/options?lang=en"');
    expect(chosen.text).toContain('href="/signin?lang=ja"');
    expect((await new PagesBrowser().get("/signin?lang=xx", { "Accept-Language": "ja" })).text).toContain('<html lang="ja">');
    // The choice is remembered (a cookie of the pages): the next page, without ?lang=, stays English.
    const next = await browser.get("/signin", { "Accept-Language": "ja" });
    expect(next.text).toContain('<html lang="en">');
    expect(next.text).toContain('href="/signin?lang=ja"');
  });

  it("offers sign-up only when SIGNUP_MODE is open", async () => {
    const closed = await new PagesBrowser().get("/signin");
    expect(closed.text).not.toContain('id="passkey-register"');
    expect(closed.text).toContain("by invitation");
    const open = await new PagesBrowser({ bindings: { SIGNUP_MODE: "open" } }).get("/signin?lang=ja");
    expect(open.text).toContain('id="passkey-register"');
    expect(open.text).toContain("アカウントを作る");
  });

  it("sends a signed-in person on to the settings", async () => {
    const { browser } = await signedInPerson();
    const reply = await browser.get("/signin");
    expect(reply.status).toBe(303);
    expect(reply.headers.get("Location")).toBe("/settings");
  });
});

describe("the settings without a session", () => {
  it.each(["/settings", "/settings/activity", "/settings/keys/key_x/revoke", "/settings/passkeys/x/remove"])(
    "GET %s redirects to /signin",
    async (path) => {
      const reply = await new PagesBrowser().get(path);
      expect(reply.status).toBe(303);
      expect(reply.headers.get("Location")).toBe("/signin");
      expect(reply.headers.get("Cache-Control")).toBe("no-store");
    },
  );

  it("keeps the chosen language on the way to /signin", async () => {
    const reply = await new PagesBrowser().get("/settings?lang=ja");
    expect(reply.headers.get("Location")).toBe("/signin?lang=ja");
  });

  it("refuses a form post with a 401 page, in the person's language", async () => {
    const reply = await new PagesBrowser().postForm(
      "/settings/keys",
      { csrf: "0".repeat(64), preset: "viewOnly" },
      { "Accept-Language": "ja" },
    );
    expect(reply.status).toBe(401);
    expectPageHeaders(reply.headers);
    expect(reply.text).toContain("もう一度サインインしてください");
    expect(reply.text).toContain('href="/signin"');
  });
});

describe("the settings page", () => {
  it("renders in both languages with the elements the browser check relies on, each settings page at its own address", async () => {
    const { browser } = await signedInPerson("LIGHT");
    const pages = {
      "/settings": [
        'id="plan"',
        'id="usage-today"',
        '<svg id="usage-chart"',
        'id="time-zone-form"',
        'id="signout"',
        'id="signout-everywhere"',
      ],
      "/settings/keys": [
        '<form id="create-key"',
        'name="name"',
        'name="preset" value="viewOnly"',
        'name="preset" value="standard"',
        'name="preset" value="individual"',
        'name="expiresInDays"',
        'type="date" name="expiresOn"',
        'id="create-key-submit"',
      ],
      "/settings/assistants": ["No assistant is connected."],
      "/settings/passkeys": ['<table id="passkeys" class="cards">', 'id="passkey-add"'],
      "/settings/activity": ['id="activity"'],
    };
    for (const [path, selectors] of Object.entries(pages)) {
      const english = await browser.get(path);
      expect(english.status, path).toBe(200);
      expectPageHeaders(english.headers);
      expectSelfContained(english.text);
      expect(english.text).toContain('<nav class="settings-nav"');
      expect(english.text).toContain(`href="${path}" aria-current="page"`);
      expect(english.text).toContain('<li><a href="/scan">Scan a barcode</a></li>');
      for (const selector of selectors) expect(english.text, path).toContain(selector);
    }
    const keys = await browser.get("/settings/keys");
    for (const scope of ["library:read", "library:write", "library:delete", "play:read", "play:write", "play:delete", "games:read"]) {
      expect(keys.text).toContain(`name="scopes" value="${scope}"`);
    }
    expect(keys.text).toMatch(/<select name="expiresInDays"><option value="" selected>none<\/option><option value="30">/);
    const japanese = await browser.get("/settings/keys?lang=ja");
    expect(japanese.text).toContain('<html lang="ja">');
    for (const text of ["閲覧のみ", "標準", "個別設定", "パスキー", "アクティビティ", "日付を指定"]) {
      expect(japanese.text).toContain(text);
    }
    expect(japanese.text).toContain('action="/settings/keys?lang=ja#create"');
    expect((await browser.get("/settings?lang=ja")).text).toContain("プランと利用状況");
  });
});

describe("the usage chart", () => {
  const page: Page = { lang: "en", t: messagesOf("en"), href: (path) => path, otherLanguageHref: "/", timeZone: "UTC" };
  const days = (counts: number[]) => counts.map((used, i) => ({ date: `2026-11-${String(i + 1).padStart(2, "0")}`, used }));

  it("draws a bar a day, labelled ticks and dates, the quota as a dashed, labelled line", async () => {
    const svg = String(await usageChart(page, days([...Array(29).fill(0), 600]), 1_000));
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(30);
    expect(svg).toContain("<title>2026-11-30: 600</title>");
    expect(svg).toMatch(/<line class="quota" x1="88" x2="624" y1="40" y2="40" stroke-dasharray="8 4">/);
    expect(svg).toContain(">daily quota 1,000</text>");
    for (const label of [
      ">0</text>",
      ">500</text>",
      ">1,000</text>",
      ">11-01</text>",
      ">11-30</text>",
      ">date (UTC)</text>",
      ">calls</text>",
    ]) {
      expect(svg).toContain(label);
    }
    expect(svg).toContain("600 calls in 30 days; busiest day 600; daily quota 1,000.");
    expect(svg).toContain('<tr><td>2026-11-30</td><td class="number">600</td></tr>');
  });

  it("scales to the busiest day when the quota is far above it, and says the quota is off the scale", async () => {
    const svg = String(await usageChart(page, days([...Array(29).fill(0), 120]), 20_000));
    for (const label of [">100</text>", ">200</text>"]) expect(svg).toContain(label);
    expect(svg).not.toContain(">20,000</text>");
    expect(svg).toMatch(/<line class="quota"[^>]* y1="22" y2="22"/);
    expect(svg).toContain(">daily quota 20,000, far above this scale</text>");
    expect(String(await usageChart(page, days(Array(30).fill(0)), 1_000))).toContain(">10</text>");
  });

  it("raises the scale past the quota for a day over it, and keeps a sliver for a day of one call", async () => {
    const svg = String(await usageChart(page, days([1, ...Array(28).fill(0), 1_500]), 1_000));
    expect(svg).toContain(">2,000</text>");
    expect(svg).toMatch(/<line class="quota"[^>]* y1="124" y2="124"/);
    expect(svg).toMatch(/<rect class="bar" x="89" y="207" width="15.9" height="1">/);
  });
});

describe("errors on pages", () => {
  it("an unknown invite is a 404 page, in the person's language, with the request id", async () => {
    const reply = await new PagesBrowser().get("/invite/nothing-like-a-token", {
      "Accept-Language": "ja",
      "X-Request-Id": "req_pages_404",
    });
    expect(reply.status).toBe(404);
    expectPageHeaders(reply.headers);
    expect(reply.json).toBeUndefined();
    expect(reply.text).toContain("見つかりません");
    expect(reply.text).toContain("req_pages_404");
  });

  it.each([
    ["GET", "/settings/nothing"],
    ["POST", "/signin"],
    ["GET", "/invite/a/b"],
    ["PUT", "/settings"],
  ])("%s %s is a 404 page, not JSON", async (method, path) => {
    const reply = await new PagesBrowser().request(path, { method });
    expect(reply.status).toBe(404);
    expect(reply.headers.get("Content-Type")).toMatch(/^text\/html/);
  });

  it("a used invite link says so in a 410 page", async () => {
    const userId = await newUser();
    const { token } = await createInvite(db, userId);
    const first = new PagesBrowser();
    expect((await first.registerWithInvite(token)).status).toBe(200);
    const again = await new PagesBrowser().get(`/invite/${token}?lang=ja`);
    expect(again.status).toBe(410);
    expect(again.text).toContain("この招待リンクは使用済みです");
  });
});

describe("public/settings/", () => {
  it("serves the script and the stylesheet as static assets", async () => {
    const script = await assets.fetch("https://api.test/settings/passkeys.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("Content-Type")).toMatch(/javascript/);
    const code = await script.text();
    expect(code).toContain("parseCreationOptionsFromJSON");
    expect(code).not.toMatch(/https?:\/\/|import\s|eval\(|innerHTML/);
    const css = await assets.fetch("https://api.test/settings/pages.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("Content-Type")).toMatch(/text\/css/);
    expect(await css.text()).not.toMatch(/@import|url\(/);
  });
});
