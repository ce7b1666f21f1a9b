import type { Context, Handler } from "hono";
import { z } from "zod";
import { type CurrentSession, checkCsrf, currentSession, type Session, sameOriginPosts } from "../../accounts/sessions";
import type { AppEnv } from "../../env";
import { ApiError, asApiError } from "../../platform/errors";
import { readJsonObject, readTextBody } from "../../platform/requestBody";
import { parseWith, refuseMalformedText } from "../../platform/validation";
import { errorPage } from "./errorPage";
import { inTimeZone, type Page, pageOf, redirectTo } from "./layout";

/** A form of these pages holds a few short fields. */
const FORM_BYTES = 16_384;
/** A WebAuthn answer is a few kilobytes (an attestation may carry a certificate chain). */
const CEREMONY_BYTES = 65_536;

const sameOrigin = sameOriginPosts();

/** Refuses a POST whose Origin names another site (part of the CSRF defence, with the token and SameSite=Lax). */
async function refuseForeignOrigin(c: Context<AppEnv>): Promise<void> {
  await sameOrigin(c, async () => {});
}

/** The signed-in person's session; a missing, ended or tampered one is refused (401). */
async function signedIn(c: Context<AppEnv>): Promise<CurrentSession> {
  const session = await currentSession(c);
  if (!session) throw new ApiError("unauthorized", "You are not signed in, or your session ended: sign in again.");
  return session;
}

type PageWork = (c: Context<AppEnv>, page: Page) => Promise<Response>;
type SettingsWork = (c: Context<AppEnv>, page: Page, session: Session) => Promise<Response>;
type FormWork = (c: Context<AppEnv>, page: Page, session: Session, form: URLSearchParams) => Promise<Response>;

/** A page: whatever fails is answered as a page in the person's language with its status, never JSON. */
export const pageRoute =
  (work: PageWork): Handler<AppEnv> =>
  async (c) => {
    const page = pageOf(c);
    try {
      return await work(c, page);
    } catch (error) {
      return errorPage(c, page, asApiError(error, c.get("requestId")));
    }
  };

/** A settings page (GET): the signed-in person's own; without a session, a redirect to sign-in. */
export const settingsPage = (work: SettingsWork) =>
  pageRoute(async (c, page) => {
    const session = await currentSession(c);
    return session ? work(c, inTimeZone(page, session.timeZone), session) : redirectTo(c, page.href("/signin"));
  });

/**
 * A settings form (POST): from this origin, by a signed-in person, carrying their session's CSRF
 * token in its `csrf` field; anything else is refused before the form does anything.
 */
export const settingsForm = (work: FormWork) =>
  pageRoute(async (c, page) => {
    await refuseForeignOrigin(c);
    const session = await signedIn(c);
    const form = new URLSearchParams(await readTextBody(c.req.raw, FORM_BYTES));
    checkCsrf(session, form.get("csrf") ?? undefined);
    return work(c, inTimeZone(page, session.timeZone), session, form);
  });

const ceremonyAnswer = z.object({
  ceremonyToken: z.string().min(1),
  // The authenticator's answer: its shape is checked here, its content by the verification.
  response: z.looseObject({ id: z.string(), type: z.string(), response: z.looseObject({}) }),
  name: z.string().optional(),
});
export type CeremonyAnswer = z.output<typeof ceremonyAnswer>;

type CeremonyWork = (c: Context<AppEnv>, body: Record<string, unknown>) => Promise<Response>;

/**
 * A JSON step of a passkey ceremony (the script's calls): from this origin and sent as JSON, which
 * a page of another site cannot do without a CORS preflight these paths never grant. Failures answer
 * the service's JSON error (app.onError), which the script shows.
 */
export const ceremonyRoute =
  (work: CeremonyWork): Handler<AppEnv> =>
  async (c) => {
    await refuseForeignOrigin(c);
    if (!/^application\/json\s*(;|$)/i.test(c.req.header("Content-Type") ?? "")) {
      throw new ApiError("invalid_input", "Send this step as JSON (Content-Type: application/json).", { field: "(body)" });
    }
    const body = await readJsonObject(c.req.raw, CEREMONY_BYTES);
    refuseMalformedText(body);
    return work(c, body);
  };

/** A ceremony step of the signed-in person (adding a passkey): their session, and its CSRF token in X-CSRF-Token. */
export const settingsCeremony = (work: (c: Context<AppEnv>, body: Record<string, unknown>, session: Session) => Promise<Response>) =>
  ceremonyRoute(async (c, body) => {
    const session = await signedIn(c);
    checkCsrf(session, c.req.header("X-CSRF-Token"));
    return work(c, body, session);
  });

/** The browser's answer to a ceremony, as the completion functions take it. */
export function ceremonyAnswerOf<R>(body: Record<string, unknown>): { ceremonyToken: string; response: R; name?: string } {
  const { ceremonyToken, response, name } = parseWith(ceremonyAnswer, body);
  return { ceremonyToken, response: response as R, ...(name === undefined ? {} : { name }) };
}
