import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { AUTHORIZE_PATH } from "../../accounts/oauthServer";
import { currentSession, startSession } from "../../accounts/sessions";
import { guardAttempts } from "../../accounts/throttle";
import { completeRegistration, completeSignIn, registrationOptions, signInOptions, signupOpen } from "../../accounts/webauthn";
import type { AppEnv } from "../../env";
import { ceremonyAnswerOf, ceremonyRoute, pageRoute } from "./guards";
import { frame, type Html, htmlPage, noticeOf, type Page, pageOf, redirectTo } from "./layout";
import { ceremonyButton, passkeyNameField } from "./passkeys";

/**
 * Where a sign-in goes on to: back to an assistant's connection request (`?next=`, only ever this
 * origin's authorization page, so the parameter cannot send anyone elsewhere), else the settings.
 */
function nextOf(c: Context<AppEnv>): string | undefined {
  const next = c.req.query("next");
  if (!next?.startsWith("/")) return undefined;
  const base = "https://pages.invalid";
  const url = new URL(next, base);
  return url.origin === base && url.pathname === AUTHORIZE_PATH ? `${url.pathname}${url.search}` : undefined;
}

/** A ceremony step's address, carrying where the sign-in goes on to. */
const withNext = (path: string, next: string | undefined) => (next ? `${path}?next=${encodeURIComponent(next)}` : path);

/** Open sign-up shows its button; otherwise the page says how accounts are made. */
function signUpSection(page: Page, open: boolean, next: string | undefined): Html {
  const { t } = page;
  if (!open) return html`<p class="help">${t.inviteOnly}</p>`;
  return html`<section id="signup" aria-labelledby="signup-title">
<h2 id="signup-title">${t.signUpTitle}</h2>
<p>${t.signUpIntro}</p>
${passkeyNameField(page)}
${ceremonyButton(page, { id: "passkey-register", ceremony: "register", options: "/signup/options", verify: withNext("/signup/verify", next), label: t.signUpButton })}
</section>`;
}

function signInPage(c: Context<AppEnv>, page: Page): Html {
  const { t } = page;
  const next = nextOf(c);
  const main = html`${noticeOf(c, { signedOut: t.signedOut })}
<p>${next ? t.signInToConnect : t.signInIntro}</p>
${ceremonyButton(page, { id: "passkey-signin", ceremony: "signIn", options: "/signin/options", verify: withNext("/signin/verify", next), label: t.signInButton })}
${signUpSection(page, signupOpen(c.env), next)}`;
  return frame(page, { title: t.signInTitle, main, script: true });
}

/** A ceremony that ends signed in: a new session for the user, and where to go on (the settings, or the connection request). */
export async function signedInAs(c: Context<AppEnv>, userId: string): Promise<Response> {
  await startSession(c, userId);
  return c.json({ redirect: nextOf(c) ?? pageOf(c).href("/settings") });
}

/** GET /signin, the sign-in ceremony, and open sign-up's (SIGNUP_MODE=open; closed, its steps are 404). */
export function mountSignIn(app: Hono<AppEnv>): void {
  app.get(
    "/signin",
    pageRoute(async (c, page) =>
      (await currentSession(c)) ? redirectTo(c, nextOf(c) ?? page.href("/settings")) : htmlPage(c, signInPage(c, page)),
    ),
  );
  app.post(
    "/signin/options",
    ceremonyRoute(async (c) => c.json(await signInOptions(c))),
  );
  app.post(
    "/signin/verify",
    ceremonyRoute(async (c, body) => {
      const answer = ceremonyAnswerOf<AuthenticationResponseJSON>(body);
      const { userId } = await guardAttempts(c, "signIn", () => completeSignIn(c, answer));
      return signedInAs(c, userId);
    }),
  );
  app.post(
    "/signup/options",
    ceremonyRoute(async (c) => c.json(await registrationOptions(c, { kind: "signup" }))),
  );
  app.post(
    "/signup/verify",
    ceremonyRoute(async (c, body) => {
      const { userId } = await completeRegistration(c, ceremonyAnswerOf<RegistrationResponseJSON>(body), { kind: "signup" });
      return signedInAs(c, userId);
    }),
  );
}
