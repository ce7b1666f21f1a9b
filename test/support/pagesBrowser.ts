// A browser of the pages face (src/faces/pages/) over the real Worker: it keeps the session cookie
// as a browser does, sends Origin with its POSTs, posts forms with the CSRF token the last page
// carried, and runs passkey ceremonies with the software authenticator, as public/settings/passkeys.js
// does in a real browser.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createInvite } from "../../src/accounts/invites";
import { SESSION_COOKIE } from "../../src/accounts/sessions";
import { createApp } from "../../src/app";
import type { Bindings } from "../../src/bindings";
import { createDb } from "../../src/platform/db";
import type { Plan } from "../../src/platform/plans";
import { freshAddress, newUser } from "./accountsHarness";
import { SoftwareAuthenticator } from "./authenticator";
import { ORIGIN, textOf } from "./harness";

export const db = createDb(env.DB);
const app = createApp();

export interface PageReply {
  status: number;
  headers: Headers;
  /** The body as text: HTML for pages, JSON text for the ceremony steps. */
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
}

type FormFields = Record<string, string | readonly string[]>;

function formBody(fields: FormFields): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of typeof value === "string" ? [value] : value) form.append(name, one);
  return form;
}

/** The value of the first `name="csrf"` hidden field of a page. */
export const csrfOf = (html: string) => /name="csrf" value="([0-9a-f]+)"/.exec(html)?.[1];

export interface BrowserOptions {
  bindings?: Partial<Bindings>;
  authenticator?: SoftwareAuthenticator;
  address?: string;
  /** The Worker the browser reaches: the service as deployed unless a test built one (other services). */
  app?: ReturnType<typeof createApp>;
}

export class PagesBrowser {
  cookie: string | undefined;
  /** The CSRF token the last page showed (forms post it back). */
  csrf: string | undefined;
  /** The browser's passkeys (another browser of the same person may share them). */
  readonly authenticator: SoftwareAuthenticator;
  readonly address: string;

  constructor(readonly options: BrowserOptions = {}) {
    this.authenticator = options.authenticator ?? new SoftwareAuthenticator();
    this.address = options.address ?? freshAddress();
  }

  /** The browser's other cookies (the OAuth consent's binding cookie), by name. */
  readonly otherCookies = new Map<string, string>();

  /** The Cookie header the browser sends: the session cookie and every other one it holds. */
  cookieHeader(): string | undefined {
    const pairs = [...(this.cookie ? [this.cookie] : []), ...[...this.otherCookies].map(([name, value]) => `${name}=${value}`)];
    return pairs.length ? pairs.join("; ") : undefined;
  }

  private keepCookie(set: string) {
    const pair = set.split(";")[0]!;
    if (set.startsWith(`${SESSION_COOKIE}=`)) {
      this.cookie = pair === `${SESSION_COOKIE}=` ? undefined : pair;
      return;
    }
    const [name = "", value = ""] = pair.split(/=(.*)/s);
    if (value === "" || /;\s*Max-Age=0/i.test(set)) this.otherCookies.delete(name);
    else this.otherCookies.set(name, value);
  }

  async request(path: string, init: RequestInit = {}): Promise<PageReply> {
    const headers = new Headers(init.headers);
    const cookies = this.cookieHeader();
    if (cookies && !headers.has("Cookie")) headers.set("Cookie", cookies);
    headers.set("CF-Connecting-IP", this.address);
    const ctx = createExecutionContext();
    const response = await (this.options.app ?? app).request(
      `${ORIGIN}${path}`,
      { ...init, headers },
      { ...env, ...this.options.bindings },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    for (const set of response.headers.getSetCookie()) this.keepCookie(set);
    const text = await textOf(response);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const found = csrfOf(text);
    if (found) this.csrf = found;
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<PageReply> {
    return this.request(path, { headers });
  }

  /** A form post as a browser sends it; the page's CSRF token is added unless the fields name one. */
  postForm(path: string, fields: FormFields = {}, headers: Record<string, string> = {}): Promise<PageReply> {
    const withCsrf = "csrf" in fields || !this.csrf ? fields : { csrf: this.csrf, ...fields };
    return this.request(path, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body: formBody(withCsrf),
    });
  }

  postJson(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<PageReply> {
    return this.request(path, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  }

  /** A registration ceremony: options, the authenticator's new credential, the answer to `verifyPath`. */
  async register(
    optionsPath: string,
    verifyPath: string,
    headers: Record<string, string> = {},
    name?: string,
    authenticator = this.authenticator,
  ): Promise<PageReply> {
    const started = await this.postJson(optionsPath, {}, headers);
    if (started.status !== 200) return started;
    const response = await authenticator.createCredential(started.json.options, ORIGIN);
    return this.postJson(verifyPath, { ceremonyToken: started.json.ceremonyToken, response, ...(name ? { name } : {}) }, headers);
  }

  registerWithInvite(token: string, name?: string): Promise<PageReply> {
    return this.register(`/invite/${token}/options`, "/invite/verify", {}, name);
  }

  /** Adds a passkey of another authenticator (a phone, a security key) from the settings, the session's CSRF token in X-CSRF-Token. */
  addPasskey(name?: string, authenticator = new SoftwareAuthenticator()): Promise<PageReply> {
    const csrf = { "X-CSRF-Token": this.csrf ?? "" };
    return this.register("/settings/passkeys/options", "/settings/passkeys/verify", csrf, name, authenticator);
  }

  async signIn(): Promise<PageReply> {
    const started = await this.postJson("/signin/options");
    const response = await this.authenticator.getAssertion(started.json.options, ORIGIN);
    return this.postJson("/signin/verify", { ceremonyToken: started.json.ceremonyToken, response });
  }
}

/** A person the operator invited, who registered a passkey through the link and is signed in, on the settings page. */
export async function signedInPerson(
  plan: Plan = "PREMIUM",
  name = "collector",
  options: BrowserOptions = {},
): Promise<{ userId: string; browser: PagesBrowser }> {
  const userId = await newUser(plan, name);
  const browser = await invitedBrowser(userId, options);
  return { userId, browser };
}

/** A browser that registered a passkey for the user through a new invite, signed in and showing the settings. */
export async function invitedBrowser(userId: string, options: BrowserOptions = {}): Promise<PagesBrowser> {
  const { token } = await createInvite(db, userId);
  const browser = new PagesBrowser(options);
  const registered = await browser.registerWithInvite(token);
  if (registered.status !== 200) throw new Error(`registration failed: ${registered.text}`);
  const settings = await browser.get("/settings");
  if (settings.status !== 200) throw new Error(`settings failed: ${settings.status} ${settings.text}`);
  return browser;
}

/** The ids of the rows of the table `id` in a page (`data-key-id`, `data-passkey-id`, ...). */
export function rowIds(html: string, tableId: string, attribute: string): string[] {
  const table = new RegExp(`<table id="${tableId}"[^>]*>([\\s\\S]*?)</table>`).exec(html)?.[1] ?? "";
  return [...table.matchAll(new RegExp(`<tr ${attribute}="([^"]+)"`, "g"))].map((m) => m[1]!);
}
