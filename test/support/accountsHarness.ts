// The accounts core (src/accounts) driven through a real request Context: a small Hono app of thin
// test routes around its functions (the pages face's own routes are tested by their owner), and a
// browser that keeps the session cookie between requests.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { type Context, Hono } from "hono";
import { createInvite } from "../../src/accounts/invites";
import {
  checkCsrf,
  currentSession,
  endAllSessions,
  endSession,
  SESSION_COOKIE,
  type Session,
  sameOriginPosts,
  startSession,
} from "../../src/accounts/sessions";
import { guardAttempts } from "../../src/accounts/throttle";
import { completeRegistration, completeSignIn, registrationOptions, signInOptions } from "../../src/accounts/webauthn";
import type { Bindings } from "../../src/bindings";
import type { AppEnv } from "../../src/env";
import { errorResponse } from "../../src/faces/httpHeaders";
import { createDb } from "../../src/platform/db";
import { ApiError, asApiError } from "../../src/platform/errors";
import type { Plan } from "../../src/platform/plans";
import { SoftwareAuthenticator } from "./authenticator";
import { admin, type Reply, textOf } from "./harness";

export const db = createDb(env.DB);

async function signedIn(c: Context<AppEnv>): Promise<Session> {
  const session = await currentSession(c);
  if (!session) throw new ApiError("unauthorized", "not signed in");
  return session;
}

/** A signed-in POST: the session and its CSRF token (the X-CSRF-Token header), as the pages check them. */
async function checkedPost(c: Context<AppEnv>): Promise<Session> {
  const session = await signedIn(c);
  checkCsrf(session, c.req.header("X-CSRF-Token"));
  return session;
}

const sessionView = ({ userId, csrfToken, expiresAt }: Session) => ({ userId, csrfToken, expiresAt });

function accountsApp() {
  const app = new Hono<AppEnv>();
  app.use("*", sameOriginPosts());
  app.post("/register/options", async (c) => c.json(await registrationOptions(c, await c.req.json())));
  // As the pages do: one completion route per place a registration begins (webauthn.ts CompletedAs).
  app.post("/register/verify", async (c) => c.json(await completeRegistration(c, await c.req.json(), { kind: "invite" })));
  app.post("/signup/verify", async (c) => c.json(await completeRegistration(c, await c.req.json(), { kind: "signup" })));
  app.post("/passkeys/verify", async (c) => {
    const { userId } = await checkedPost(c);
    return c.json(await completeRegistration(c, await c.req.json(), { kind: "signedIn", userId }));
  });
  app.post("/invite/options", async (c) => {
    const { token } = await c.req.json();
    return c.json(await guardAttempts(c, "invite", () => registrationOptions(c, { kind: "invite", token })));
  });
  app.post("/passkeys/options", async (c) =>
    c.json(await registrationOptions(c, { kind: "signedIn", userId: (await checkedPost(c)).userId })),
  );
  app.post("/signin/options", async (c) => c.json(await signInOptions(c)));
  app.post("/signin/verify", async (c) => {
    const body = await c.req.json();
    const { userId } = await guardAttempts(c, "signIn", () => completeSignIn(c, body));
    return c.json(sessionView(await startSession(c, userId)));
  });
  app.post("/session/start", async (c) => c.json(sessionView(await startSession(c, (await c.req.json()).userId))));
  app.get("/session", async (c) => c.json(sessionView(await signedIn(c))));
  app.post("/checked", async (c) => c.json(sessionView(await checkedPost(c))));
  app.post("/signout", async (c) => {
    await endSession(c, await checkedPost(c));
    return c.body(null, 204);
  });
  app.post("/signout-everywhere", async (c) => {
    await endAllSessions(db, (await checkedPost(c)).userId);
    return c.body(null, 204);
  });
  app.onError((error, _c) => errorResponse(asApiError(error, "req_test"), "req_test"));
  return app;
}

const app = accountsApp();

/** A client address (an IPv6 /64) no other browser uses, so the throttles of failed attempts never meet. */
const RUN = crypto.getRandomValues(new Uint16Array(1))[0]!.toString(16);
let nextBlock = 0;
export const freshAddress = () => `2001:db8:${RUN}:${(nextBlock++).toString(16)}::1`;

async function replyOf(response: Response): Promise<Reply> {
  const text = await textOf(response);
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/**
 * A browser at `origin`: it sends its session cookie (the last one set) with every request, as a
 * browser does, and an Origin header with every POST unless told otherwise.
 */
export class TestBrowser {
  cookie: string | undefined;

  constructor(
    readonly origin = "https://api.test",
    readonly bindings: Partial<Bindings> = {},
    readonly address = freshAddress(),
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Reply> {
    const headers = new Headers(init.headers);
    if (this.cookie && !headers.has("Cookie")) headers.set("Cookie", this.cookie);
    headers.set("CF-Connecting-IP", this.address);
    const ctx = createExecutionContext();
    const response = await app.request(`${this.origin}${path}`, { ...init, headers }, { ...env, ...this.bindings }, ctx);
    await waitOnExecutionContext(ctx);
    const set = response.headers.get("Set-Cookie");
    if (set?.startsWith(`${SESSION_COOKIE}=`)) this.cookie = set.split(";")[0];
    return replyOf(response);
  }

  post(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request(path, {
      method: "POST",
      headers: { Origin: this.origin, "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  }

  /** A signed-in POST carrying the session's CSRF token. */
  checked(path: string, csrfToken: string, body: unknown = {}): Promise<Reply> {
    return this.post(path, body, { "X-CSRF-Token": csrfToken });
  }

  /** Registers a new passkey of `authenticator` through the options at `optionsPath`, completed at `verifyPath`; answers the completion's reply. */
  async register(
    authenticator: SoftwareAuthenticator,
    optionsPath: string,
    optionsBody: unknown,
    extra: Record<string, string> = {},
    verifyPath = "/register/verify",
  ) {
    const started = await this.post(optionsPath, optionsBody, extra);
    if (started.status !== 200) return started;
    const response = await authenticator.createCredential(started.body.options, this.origin);
    return this.post(verifyPath, { ceremonyToken: started.body.ceremonyToken, response });
  }

  registerWithInvite(authenticator: SoftwareAuthenticator, token: string) {
    return this.register(authenticator, "/invite/options", { token });
  }

  /** Signs in with the authenticator's last passkey (or `credentialId`); the session cookie is kept. */
  async signIn(authenticator: SoftwareAuthenticator, credentialId?: string): Promise<Reply> {
    const started = await this.post("/signin/options");
    const response = await authenticator.getAssertion(started.body.options, this.origin, credentialId);
    return this.post("/signin/verify", { ceremonyToken: started.body.ceremonyToken, response });
  }
}

/** A new user made by the operator API (no passkey yet). */
export async function newUser(plan: Plan = "FREE", name = "collector"): Promise<string> {
  const reply = await admin("POST", "/users", { plan, name });
  if (reply.status !== 201) throw new Error(`user creation failed: ${JSON.stringify(reply.body)}`);
  return reply.body.userId as string;
}

export const suspend = (userId: string) => admin("PATCH", `/users/${userId}`, { suspended: true });

export interface Member {
  userId: string;
  authenticator: SoftwareAuthenticator;
  browser: TestBrowser;
  /** The CSRF token of the browser's session. */
  csrfToken: string;
}

/** A user with one passkey (registered through an invite), signed in on a browser of their own. */
export async function member(plan: Plan = "FREE"): Promise<Member> {
  const userId = await newUser(plan);
  const { token } = await createInvite(db, userId);
  const browser = new TestBrowser();
  const authenticator = new SoftwareAuthenticator();
  const registered = await browser.registerWithInvite(authenticator, token);
  if (registered.status !== 200) throw new Error(`registration failed: ${JSON.stringify(registered.body)}`);
  const signedIn = await browser.signIn(authenticator);
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(signedIn.body)}`);
  return { userId, authenticator, browser, csrfToken: signedIn.body.csrfToken };
}
