import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../../env";
import { clockIn } from "../../platform/time";
import { chooseLang, formatUtc, type Lang, type Messages, messagesOf } from "./messages";

/** A piece of rendered HTML: hono/html's `html` escapes every value put into it. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * Everything these pages load is this Worker's own (public/settings/: the stylesheet and the one
 * script); no inline script or style, no frames, forms post only here. public/_headers sets the
 * same policy on those files.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The headers of every page and redirect: never cached (a page may show a new key once, and
 * always shows one person's account), never framed. Referer only to this origin: an invite token
 * in the address never reaches another site, while the Origin of our own form posts stays real
 * (under no-referrer a browser sends `Origin: null`, which the same-origin check must refuse).
 */
const PAGE_HEADERS: Record<string, string> = {
  "Content-Security-Policy": PAGE_CSP,
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
};

/** The reader of a page: their language and its texts. */
export interface Page {
  lang: Lang;
  t: Messages;
  /** A path of these pages, carrying `?lang=` when the person chose a language that way. */
  href(path: string): string;
  /** The same page in the other language. */
  otherLanguageHref: string;
  /** The IANA time zone the page shows times in: the signed-in account's, else UTC. */
  timeZone: string;
}

/** The page read in the account's time zone (pages of a signed-in person). */
export const inTimeZone = (page: Page, timeZone: string): Page => ({ ...page, timeZone });

/** An instant as the pages show it: on the clocks of the page's time zone, with UTC on hover. */
export const instant = (page: Page, iso: string): Html =>
  html`<time datetime="${iso}" title="${formatUtc(iso)}">${clockIn(new Date(iso), page.timeZone)}${page.timeZone === "UTC" ? " UTC" : ""}</time>`;

/** The cookie that remembers the language last chosen with `?lang=` (a page preference, no account data). */
const LANG_COOKIE = "rgc_lang";
const LANG_COOKIE_DAYS = 365;

/** `path` (which may hold a query and a fragment) with one query parameter set. */
function withParam(path: string, name: string, value: string): string {
  const url = new URL(path, "https://pages.invalid");
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The page's reader, from `?lang=`, the remembered choice, or Accept-Language. A page answered to a POST switches language on the settings. */
export function pageOf(c: Context<AppEnv>): Page {
  const url = new URL(c.req.url);
  const { lang, chosen } = chooseLang(
    url.searchParams.get("lang") ?? undefined,
    getCookie(c, LANG_COOKIE),
    c.req.header("Accept-Language"),
  );
  const here = c.req.method === "GET" ? `${url.pathname}${url.search}` : "/settings";
  return {
    lang,
    t: messagesOf(lang),
    href: (path) => (chosen ? withParam(path, "lang", lang) : path),
    otherLanguageHref: withParam(here, "lang", lang === "ja" ? "en" : "ja"),
    timeZone: "UTC",
  };
}

/** Remembers a language chosen with `?lang=` for the next pages (and the next visit), in a cookie of the pages alone. */
function rememberLang(c: Context<AppEnv>): void {
  const chosen = c.req.query("lang");
  if ((chosen === "ja" || chosen === "en") && getCookie(c, LANG_COOKIE) !== chosen) {
    const local = ["localhost", "127.0.0.1", "[::1]"].includes(new URL(c.req.url).hostname);
    setCookie(c, LANG_COOKIE, chosen, { path: "/", sameSite: "Lax", httpOnly: true, secure: !local, maxAge: LANG_COOKIE_DAYS * 86_400 });
  }
}

/** The settings pages, each with its own address, in the order the navigation lists them. */
export const SETTINGS_PAGES = ["overview", "keys", "assistants", "passkeys", "activity"] as const;
export type SettingsPageName = (typeof SETTINGS_PAGES)[number];

const settingsPathOf = (name: SettingsPageName) => (name === "overview" ? "/settings" : `/settings/${name}`);

/** The navigation between the settings pages, the current one marked; and the time zone times are shown in. */
function settingsNav(page: Page, current: SettingsPageName): Html {
  const { t } = page;
  const link = (name: SettingsPageName) =>
    html`<li><a href="${page.href(settingsPathOf(name))}"${name === current ? html` aria-current="page"` : ""}>${t.nav[name]}</a></li>`;
  const scan = html`<li><a href="${page.href("/scan")}">${t.nav.scan}</a></li>`;
  return html`<nav class="settings-nav" aria-label="${t.settingsTitle}"><ul>${SETTINGS_PAGES.map(link)}${scan}</ul></nav>
<p class="help times-in">${t.timesIn(page.timeZone)}</p>`;
}

/** The frame of every page: the stylesheet, the ceremonies' script where a page needs it, the language switch, the settings navigation. */
export function frame(page: Page, content: { title: string; main: Html; script?: boolean; assets?: Html; nav?: SettingsPageName }): Html {
  const { t } = page;
  return html`<!doctype html>
<html lang="${page.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${content.title} · ${t.siteName}</title>
<link rel="stylesheet" href="/settings/pages.css">
${content.script ? html`<script src="/settings/passkeys.js" defer></script>` : ""}
${content.assets ?? ""}
</head>
<body>
<header class="site">
<a class="site-name" href="${page.href("/settings")}">${t.siteName}</a>
<a class="language" href="${page.otherLanguageHref}" lang="${page.lang === "ja" ? "en" : "ja"}">${t.otherLanguage}</a>
</header>
${content.nav ? settingsNav(page, content.nav) : ""}
<main>
<h1>${content.title}</h1>
${content.main}
</main>
</body>
</html>`;
}

/** A page as the answer, with the pages' headers; a page that runs WebAssembly (/scan) widens its own policy alone. */
export async function htmlPage(c: Context<AppEnv>, body: Html | Promise<Html>, status: ContentfulStatusCode = 200, csp = PAGE_CSP) {
  rememberLang(c);
  return c.html(await body, status, { ...PAGE_HEADERS, "Content-Security-Policy": csp });
}

/** A redirect after a form or to sign-in (303: the browser follows it with GET), with the pages' headers. */
export function redirectTo(c: Context<AppEnv>, location: string): Response {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value);
  rememberLang(c);
  return c.redirect(location, 303);
}

/** A notice named in the query (`?notice=`), shown once on the page a form redirected to; only known names show. */
export function noticeOf(c: Context<AppEnv>, known: Record<string, string>): Html {
  const name = c.req.query("notice");
  const text = name && Object.hasOwn(known, name) ? known[name] : undefined;
  return text ? html`<p class="notice" role="status">${text}</p>` : html``;
}

/** The page number of a `?name=N` parameter: a positive integer, else the first page. */
export function pageNumberOf(c: Context<AppEnv>, name: string): number {
  const value = Number(c.req.query(name));
  return Number.isSafeInteger(value) && value >= 1 ? value : 1;
}

/** Previous / next links of a paged list, with "page n of m". */
export function pager(page: Page, at: { current: number; totalCount: number; perPage: number; hrefOf(n: number): string }): Html {
  const pages = Math.max(1, Math.ceil(at.totalCount / at.perPage));
  if (pages === 1 && at.current === 1) return html``;
  const { t } = page;
  return html`<nav class="pager">
${at.current > 1 ? html`<a rel="prev" href="${page.href(at.hrefOf(at.current - 1))}">${t.previous}</a>` : ""}
<span>${t.pageOf(at.current, pages)}</span>
${at.current < pages ? html`<a rel="next" href="${page.href(at.hrefOf(at.current + 1))}">${t.next}</a>` : ""}
</nav>`;
}

/** A parameter of the route's path (the pages' handlers are typed for any path, so Hono cannot promise it is there). */
export const pathParam = (c: Context<AppEnv>, name: string) => c.req.param(name) ?? "";

/** The hidden field that carries the session's CSRF token in every form. */
export const csrfField = (csrfToken: string) => html`<input type="hidden" name="csrf" value="${csrfToken}">`;

/**
 * A page that asks before a removal: what it does, a form that does it (POST with the CSRF token),
 * and a way back. Revoking a key and removing a passkey both ask through it.
 */
export function confirmationPage(
  page: Page,
  ask: { title: string; explain: Html | string; action: string; csrfToken: string; buttonId: string; buttonLabel: string; back: string },
): Html {
  const main = html`<p>${ask.explain}</p>
<form method="post" action="${page.href(ask.action)}">
${csrfField(ask.csrfToken)}
<button id="${ask.buttonId}" class="danger" type="submit">${ask.buttonLabel}</button>
<a href="${page.href(ask.back)}">${page.t.cancel}</a>
</form>`;
  return frame(page, { title: ask.title, main });
}
