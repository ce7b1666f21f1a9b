import { AuthorizationError, CimdFetchError, type ConsentDescription } from "@cloudflare/workers-oauth-provider";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { redirectTargetOf } from "../../accounts/apiKeys";
import { denyConsent, grantConsent, startConsent, takeConsent } from "../../accounts/connectedAssistants";
import { AUTHORIZE_PATH, canonicalRequest, oauthHelpersFor } from "../../accounts/oauthServer";
import { currentSession, type Session } from "../../accounts/sessions";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { SCOPES, type Scope } from "../../platform/plans";
import { formProblem, isFormRefusal } from "./formProblems";
import { pageRoute, settingsForm } from "./guards";
import { draftOfScopes, type KeyDraft, keyChoiceOf, keyDraftOf, permissionFields } from "./keys";
import { csrfField, frame, type Html, htmlPage, type Page, redirectTo } from "./layout";
import { limitContextOf } from "./settings";

/**
 * What the client asked for, as the person may grant it: the service's scopes among those asked
 * (every person may grant each of them; a delete scope only when asked for), and the names asked
 * for that are no scope here (ignored, and the page says so).
 */
function askedScopes(consent: ConsentDescription): { known: Scope[]; ignored: string[] } {
  const asked = new Set(consent.scope);
  const known = SCOPES.filter((scope) => asked.has(scope));
  return { known, ignored: [...asked].filter((scope) => !known.includes(scope as Scope)) };
}

/** The form as first shown: exactly the scopes the client asked for, which the person may change; none asked: view only. */
const firstDraft = (consent: ConsentDescription): KeyDraft => ({
  name: "",
  expiresInDays: "",
  expiresOn: "",
  ...draftOfScopes(askedScopes(consent).known),
});

interface ConsentForm {
  consent: ConsentDescription;
  handle: string;
  consentToken: string;
  session: Session;
  draft: KeyDraft;
  /** Why the last answer was refused, in the page's language. */
  refusal?: string;
}

/** A loopback address or a desktop app's own scheme: whoever listens there on this computer gets the code. */
const toThisComputer = (consent: ConsentDescription) =>
  consent.redirectIsLoopback || !/^https?:$/.test(new URL(consent.redirectUri).protocol);

/** The form-action source that lets Allow's redirect reach the client: its origin, or a desktop app's scheme. */
function redirectSource(uri: string): string {
  const url = new URL(uri);
  return url.origin === "null" ? url.protocol : url.origin;
}

/**
 * Who is asking and where the access goes, as the MCP authorization guidance asks a consent page
 * to show; the host with its port, as the settings list it (an app on this computer is one port).
 */
function clientFacts(page: Page, consent: ConsentDescription): Html {
  const { t } = page;
  return html`<dl class="facts" id="client">
<dt>${t.consentClient}</dt><dd id="client-name">${consent.clientName}</dd>
<dt>${t.consentPublisher}</dt><dd id="client-domain">${consent.clientDomain ?? t.consentSelfRegistered}</dd>
<dt>${t.consentRedirect}</dt><dd id="redirect-host"><strong>${redirectTargetOf(consent.redirectUri)}</strong></dd>
</dl>
${toThisComputer(consent) ? html`<p class="warning" id="loopback-warning">${t.consentLoopback}</p>` : ""}`;
}

/** What the client asked for, preselected below; scope names that are none of ours, ignored. */
function askedNote(page: Page, consent: ConsentDescription): Html {
  const { known, ignored } = askedScopes(consent);
  const { t } = page;
  return html`<p class="help" id="asked-scopes">${known.length > 0 ? t.consentAsked(known.join(", ")) : t.consentAskedNone}</p>
${ignored.length > 0 ? html`<p class="warning" id="ignored-scopes">${t.consentIgnored(ignored.join(", "))}</p>` : ""}`;
}

function consentPage(page: Page, form: ConsentForm): Html {
  const { t } = page;
  const main = html`<p>${t.consentIntro(form.consent.clientName)}</p>
${clientFacts(page, form.consent)}
<form id="consent" method="post" action="${page.href(AUTHORIZE_PATH)}">
${form.refusal ? html`<p class="error" role="alert">${form.refusal}</p>` : ""}
${csrfField(form.session.csrfToken)}
<input type="hidden" name="consent" value="${form.consentToken}">
<input type="hidden" name="handle" value="${form.handle}">
${askedNote(page, form.consent)}
${permissionFields(page, form.draft)}
<p class="help">${t.consentKeyNote}</p>
<p><button id="consent-allow" type="submit" name="decision" value="approve">${t.consentAllow}</button>
<button id="consent-deny" class="secondary" type="submit" name="decision" value="deny">${t.consentDeny}</button></p>
</form>`;
  return frame(page, { title: t.consentTitle, main, script: true });
}

/**
 * The page's answer with the library's headers (the cookie that binds the consent to this
 * browser) and a form-action that lets the allowed form's redirect reach the client: browsers hold
 * a form's redirects to the page's form-action too.
 */
async function consentResponse(c: Context<AppEnv>, page: Page, form: ConsentForm, headers: Headers, status: 200 | 400 | 403 = 200) {
  const response = await htmlPage(c, consentPage(page, form), status);
  for (const [name, value] of headers) if (name.toLowerCase() === "set-cookie") response.headers.append(name, value);
  const policy = response.headers.get("Content-Security-Policy") ?? "";
  response.headers.set(
    "Content-Security-Policy",
    policy.replace("form-action 'self'", `form-action 'self' ${redirectSource(form.consent.redirectUri)}`),
  );
  return response;
}

/**
 * A request the library refused: back to the client with the error when the library vouches for
 * the redirect URI (it names it only after checking the client and the URI), else a page here.
 */
function refusedRequest(error: unknown): Response {
  if (error instanceof AuthorizationError && error.redirectTo)
    return new Response(null, { status: 302, headers: { Location: error.redirectTo } });
  if (error instanceof AuthorizationError)
    throw new ApiError("invalid_input", `This connection request is not valid: ${error.description}`);
  if (error instanceof CimdFetchError)
    throw new ApiError("invalid_input", "This application could not be verified: its client metadata document could not be read.");
  throw error;
}

/** The address of the sign-in that comes back here. */
const signInFirst = (c: Context<AppEnv>, page: Page) => {
  const url = new URL(c.req.url);
  return redirectTo(c, page.href(`/signin?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`));
};

/**
 * GET /oauth/authorize: an assistant asks to connect. The library checks the request (client,
 * exact redirect URI, PKCE S256, resource); the person signs in with their passkey, sees who asks
 * and where the access goes, and chooses the permissions as for a key. POST: their answer.
 */
export function mountConsent(app: Hono<AppEnv>): void {
  app.get(
    AUTHORIZE_PATH,
    pageRoute(async (c, page) => {
      const oauth = oauthHelpersFor(c.env, c.req.url);
      const request = await oauth.parseAuthRequest(canonicalRequest(c.env, c.req.raw)).catch(refusedRequest);
      if (request instanceof Response) return request;
      const session = await currentSession(c);
      if (!session) return signInFirst(c, page);
      const consent = await oauth.describeConsent(request).catch(refusedRequest);
      if (consent instanceof Response) return consent;
      const { handle, headers } = await oauth.beginConsent(request);
      const consentToken = await startConsent(createDb(c.env.DB), session.userId, handle, consent);
      return consentResponse(c, page, { consent, handle, consentToken, session, draft: firstDraft(consent) }, headers);
    }),
  );
  app.post(
    AUTHORIZE_PATH,
    settingsForm(async (c, page, session, form) => {
      const db = createDb(c.env.DB);
      const handle = form.get("handle") ?? "";
      const consent = await takeConsent(db, form.get("consent") ?? "", session.userId, handle);
      const answer = { env: c.env, db, request: c.req.raw, userId: session.userId, consent, handle };
      if (form.get("decision") !== "approve") return denyConsent(answer);
      try {
        return await grantConsent(answer, await limitContextOf(c, session.userId), keyChoiceOf(page, keyDraftOf(form)));
      } catch (error) {
        if (!isFormRefusal(error)) throw error;
        // The choice does not fit, or the plan's key limit: the same consent, asked again with the reason.
        const consentToken = await startConsent(db, session.userId, handle, consent);
        const draft = keyDraftOf(form);
        const plan = error.code === "plan_required" ? (await limitContextOf(c, session.userId)).plan : undefined;
        return consentResponse(
          c,
          page,
          { consent, handle, consentToken, session, draft, refusal: formProblem(page, error, { draft, plan }) },
          new Headers(),
          error.status as 400 | 403,
        );
      }
    }),
  );
}
