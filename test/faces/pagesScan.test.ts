// The /scan page's server side over a tiny fictional master (ids 781000+, marker word スキャナ in
// every title, in-store EAN prefix 2): a code looked up for the signed-in person through the one
// pipeline, whether they own the game, the one-tap adds, an unknown code's title search, and the
// page's guards (session, CSRF, another person's data).
import { beforeAll, describe, expect, it } from "vitest";
import { SCAN_CSP } from "../../src/faces/pages/scan";
import { PLAN_LIMITS } from "../../src/platform/plans";
import { setUsedOn, usedToday } from "../support/accounting";
import { ean13, fictionalGame, importFixture, insertCustomGame, toNdjson } from "../support/master";
import { PagesBrowser, signedInPerson } from "../support/pagesBrowser";

const PLATFORM = 781001;
const OWNED_CODE = ean13("278100000001");
const OTHER_CODE = ean13("278100000002");
const UNKNOWN_CODE = ean13("278100000099");
const GAME = 781001;
const SECOND_GAME = 781002;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "スキャナ機", nameEn: "Scanner", shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson([
      fictionalGame({ gameId: GAME, title: "スキャナの冒険", platformId: PLATFORM, janCode: OWNED_CODE, releaseDate: "1994-07-15" }),
      fictionalGame({ gameId: SECOND_GAME, title: "スキャナの冒険2", platformId: PLATFORM, janCode: OTHER_CODE }),
    ]),
  });
});

/** The attributes of the result's article of one game, `data-*` by name. */
function gameCard(html: string, gameId: number): Record<string, string> | undefined {
  const tag = new RegExp(`<article class="game" data-game-id="${gameId}"([^>]*)>`).exec(html)?.[1];
  if (tag === undefined) return undefined;
  return Object.fromEntries([...tag.matchAll(/data-([a-z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

const stateOf = (html: string) => /<section id="scan-result" data-state="([a-zA-Z]+)"/.exec(html)?.[1];

describe("/scan: a code looked up for the signed-in person", () => {
  it("answers not owned for a catalog game, adds it to the library in one tap, then answers owned with its copies", async () => {
    const { browser } = await signedInPerson();
    const before = await browser.get(`/scan?code=${OWNED_CODE}`);
    expect(before.status).toBe(200);
    expect(stateOf(before.text)).toBe("notOwned");
    expect(gameCard(before.text, GAME)).toEqual({ "in-library": "false", "on-wishlist": "false", copies: "" });
    expect(before.text).toContain("スキャナの冒険");
    expect(before.text).toMatch(/<form method="post" action="\/scan\/library"><input type="hidden" name="csrf"/);
    const added = await browser.postForm("/scan/library", { gameId: String(GAME), code: OWNED_CODE });
    expect(added.status).toBe(303);
    expect(added.headers.get("Location")).toBe(`/scan?code=${OWNED_CODE}&notice=addedToLibrary#scan-result`);
    const after = await browser.get(`/scan?code=${OWNED_CODE}&notice=addedToLibrary`);
    expect(stateOf(after.text)).toBe("owned");
    expect(gameCard(after.text, GAME)).toMatchObject({ "in-library": "true", copies: "0" });
    expect(after.text).toContain("Added to your library.");
    expect(after.text).not.toContain('action="/scan/library"');
  });

  it("adds to the wishlist in one tap and shows it there; a second add is refused beside the result, not an error page", async () => {
    const { browser } = await signedInPerson();
    await browser.get(`/scan?code=${OTHER_CODE}`);
    expect((await browser.postForm("/scan/wishlist", { gameId: String(SECOND_GAME), code: OTHER_CODE })).status).toBe(303);
    const after = await browser.get(`/scan?code=${OTHER_CODE}`);
    expect(stateOf(after.text)).toBe("notOwned");
    expect(gameCard(after.text, SECOND_GAME)).toMatchObject({ "in-library": "false", "on-wishlist": "true" });
    expect(after.text).not.toContain('action="/scan/wishlist"');
    const again = await browser.postForm("/scan/wishlist", { gameId: String(SECOND_GAME), code: OTHER_CODE });
    expect(again.status).toBe(409);
    expect(again.text).toMatch(/<section id="scan-result"[\s\S]*class="error" role="alert">/);
  });

  it("lets one of two taps racing to add the same game through; the other is a 409", async () => {
    const { browser } = await signedInPerson();
    await browser.get(`/scan?code=${OWNED_CODE}`);
    const taps = await Promise.all([1, 2].map(() => browser.postForm("/scan/library", { gameId: String(GAME), code: OWNED_CODE })));
    expect(taps.map((tap) => tap.status).sort()).toEqual([303, 409]);
  });

  it("hides the copies on a plan that keeps none, and still answers owned", async () => {
    const { browser } = await signedInPerson("FREE");
    await browser.get("/scan");
    expect((await browser.postForm("/scan/library", { gameId: String(GAME), code: OWNED_CODE })).status).toBe(303);
    const after = await browser.get(`/scan?code=${OWNED_CODE}`);
    expect(stateOf(after.text)).toBe("owned");
    expect(gameCard(after.text, GAME)).toMatchObject({ "in-library": "true", copies: "" });
  });

  it("answers an unknown code with a title search whose games each offer to suggest the code", async () => {
    const { browser } = await signedInPerson();
    const unknown = await browser.get(`/scan?code=${UNKNOWN_CODE}`);
    expect(stateOf(unknown.text)).toBe("unknown");
    expect(unknown.text).toContain('<form id="title-form" method="get" action="/scan">');
    expect(unknown.text).toContain(`<input type="hidden" name="code" value="${UNKNOWN_CODE}">`);
    const searched = await browser.get(`/scan?code=${UNKNOWN_CODE}&title=${encodeURIComponent("スキャナの冒険")}`);
    expect(searched.text).toMatch(new RegExp(`<li class="game" data-game-id="${GAME}">`));
    expect(searched.text).toMatch(/action="\/scan\/suggest">/);
    const nothing = await browser.get(`/scan?code=${UNKNOWN_CODE}&title=zzzqqq`);
    expect(nothing.text).toContain('id="no-title-match"');
  });

  it("says what a JAN code is for digits that are none, typed with spaces and hyphens forgiven", async () => {
    const { browser } = await signedInPerson();
    const bad = await browser.get("/scan?code=12345");
    expect(stateOf(bad.text)).toBe("badCode");
    expect(bad.text).toContain("A JAN code is 8 or 13 digits.");
    const spaced = `${OWNED_CODE.slice(0, 1)} ${OWNED_CODE.slice(1, 7)}-${OWNED_CODE.slice(7)}`;
    const typed = await browser.get(`/scan?code=${encodeURIComponent(spaced)}`);
    expect(gameCard(typed.text, GAME)).toBeDefined();
  });

  it("speaks Japanese, keeps a chosen language in its GET forms, and loads nothing but its own files", async () => {
    const { browser } = await signedInPerson();
    const ja = await browser.get(`/scan?code=${OWNED_CODE}`, { "Accept-Language": "ja" });
    expect(ja.text).toContain('<html lang="ja">');
    expect(ja.text).toContain("ライブラリに追加");
    expect(ja.text).not.toContain('name="lang"');
    const chosen = await browser.get("/scan?lang=ja");
    expect(chosen.text).toContain('<input type="hidden" name="lang" value="ja">');
    expect(ja.text).toContain('<script src="/scan/scan.js" defer></script>');
    expect(ja.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(ja.text).not.toMatch(/<script>|<style|style="/);
  });

  it("widens the policy for WebAssembly on /scan alone", async () => {
    const { browser } = await signedInPerson();
    const scan = await browser.get("/scan");
    expect(scan.headers.get("Content-Security-Policy")).toBe(SCAN_CSP);
    expect(SCAN_CSP).toContain("script-src 'self' 'wasm-unsafe-eval';");
    const settings = await browser.get("/settings");
    expect(settings.headers.get("Content-Security-Policy")).not.toContain("wasm-unsafe-eval");
  });
});

describe("/scan: suggesting an unknown code for the game picked", () => {
  it("suggests the code; the person's scan then finds the game (not owned), another person's scan does not", async () => {
    const code = ean13("490078100001");
    const { browser } = await signedInPerson();
    const stranger = await signedInPerson();
    await browser.get(`/scan?code=${code}&title=${encodeURIComponent("スキャナの冒険2")}`);
    const suggested = await browser.postForm("/scan/suggest", { gameId: String(SECOND_GAME), code });
    expect(suggested.status).toBe(303);
    expect(suggested.headers.get("Location")).toBe(`/scan?code=${code}&notice=suggested#scan-result`);
    const after = await browser.get(`/scan?code=${code}&notice=suggested`);
    expect(stateOf(after.text)).toBe("notOwned");
    expect(gameCard(after.text, SECOND_GAME)).toMatchObject({ "in-library": "false", "on-wishlist": "false" });
    expect(after.text).toContain("Suggested. Until the operator reviews it, only your own searches find the game by this code.");
    const seen = await stranger.browser.get(`/scan?code=${code}`);
    expect(stateOf(seen.text)).toBe("unknown");
    expect(seen.text).not.toContain('data-game-id="781002"');
  });

  it("refuses a code whose check digit is wrong beside the result (400), and a second open suggestion with a 409", async () => {
    const code = ean13("490078100002");
    const wrong = `${code.slice(0, 12)}${(Number(code[12]) + 1) % 10}`;
    const { browser } = await signedInPerson();
    await browser.get(`/scan?code=${wrong}`);
    const refused = await browser.postForm("/scan/suggest", { gameId: String(GAME), code: wrong });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('class="error" role="alert">A JAN code has a wrong check digit');
    expect(stateOf((await browser.get(`/scan?code=${wrong}`)).text)).toBe("unknown");
    expect((await browser.postForm("/scan/suggest", { gameId: String(GAME), code })).status).toBe(303);
    const again = await browser.postForm("/scan/suggest", { gameId: String(GAME), code: ean13("490078100003") });
    expect(again.status).toBe(409);
    expect(again.text).toMatch(/<section id="scan-result"[\s\S]*class="error" role="alert">/);
  });

  it("refuses a suggestion without the session's CSRF token, and stores none", async () => {
    const code = ean13("490078100004");
    const { browser } = await signedInPerson();
    await browser.get("/scan");
    expect((await browser.postForm("/scan/suggest", { gameId: String(GAME), code, csrf: "" })).status).toBe(401);
    expect(stateOf((await browser.get(`/scan?code=${code}`)).text)).toBe("unknown");
  });
});

describe("/scan: the person's calls go through the pipeline", () => {
  it("charges each lookup to the person's daily quota, and answers a used-up quota with its 429 page, adding nothing", async () => {
    const { browser, userId } = await signedInPerson("FREE");
    const before = await usedToday(userId);
    await browser.get(`/scan?code=${UNKNOWN_CODE}`);
    expect(await usedToday(userId)).toBe(before + 1);
    await browser.get(`/scan?code=${OWNED_CODE}`);
    expect(await usedToday(userId)).toBe(before + 4);
    await setUsedOn(userId, PLAN_LIMITS.FREE.dailyQuota);
    const refused = await browser.get(`/scan?code=${OWNED_CODE}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Content-Type")).toContain("text/html");
    const add = await browser.postForm("/scan/library", { gameId: String(GAME), code: OWNED_CODE });
    expect(add.status).toBe(429);
    await setUsedOn(userId, 0);
    expect(gameCard((await browser.get(`/scan?code=${OWNED_CODE}`)).text, GAME)).toMatchObject({ "in-library": "false" });
  });
});

describe("/scan: its guards", () => {
  it("sends a browser without a session to sign in, and refuses its forms", async () => {
    const browser = new PagesBrowser();
    const page = await browser.get(`/scan?code=${OWNED_CODE}`);
    expect(page.status).toBe(303);
    expect(page.headers.get("Location")).toBe("/signin");
    expect((await browser.postForm("/scan/library", { csrf: "0".repeat(64), gameId: String(GAME), code: OWNED_CODE })).status).toBe(401);
  });

  it("refuses a form without the session's CSRF token, with another session's, or from another origin, and adds nothing", async () => {
    const { browser } = await signedInPerson();
    const other = await signedInPerson();
    await browser.get("/scan");
    const fields = { gameId: String(GAME), code: OWNED_CODE };
    expect((await browser.postForm("/scan/library", { ...fields, csrf: "" })).status).toBe(401);
    expect((await browser.postForm("/scan/wishlist", { ...fields, csrf: other.browser.csrf! })).status).toBe(401);
    expect((await browser.postForm("/scan/library", fields, { Origin: "https://evil.example" })).status).toBe(401);
    const after = await browser.get(`/scan?code=${OWNED_CODE}`);
    expect(gameCard(after.text, GAME)).toMatchObject({ "in-library": "false", "on-wishlist": "false" });
  });

  it("never shows another person's holdings or custom games", async () => {
    const owner = await signedInPerson();
    const stranger = await signedInPerson();
    await owner.browser.get("/scan");
    expect((await owner.browser.postForm("/scan/library", { gameId: String(GAME), code: OWNED_CODE })).status).toBe(303);
    const customCode = ean13("278100000050");
    await insertCustomGame(owner.userId, { title: "スキャナの自作", platformId: PLATFORM, janCode: customCode });
    expect(stateOf((await owner.browser.get(`/scan?code=${customCode}`)).text)).toBe("notOwned");
    const seen = await stranger.browser.get(`/scan?code=${OWNED_CODE}`);
    expect(gameCard(seen.text, GAME)).toMatchObject({ "in-library": "false" });
    const custom = await stranger.browser.get(`/scan?code=${customCode}`);
    expect(stateOf(custom.text)).toBe("unknown");
    expect(custom.text).not.toContain("スキャナの自作");
  });

  it("refuses a game id that is none, naming it, as the result's refusal", async () => {
    const { browser } = await signedInPerson();
    await browser.get("/scan");
    const refused = await browser.postForm("/scan/library", { gameId: "abc", code: OWNED_CODE });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/class="error" role="alert">[^<]*gameId/);
  });
});
