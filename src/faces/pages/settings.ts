import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { type AccountSummary, accountSummary } from "../../accounts/accountSummary";
import { type IssuedKeyAnswer, issueKeyFor, listKeys } from "../../accounts/apiKeys";
import { listEvents } from "../../accounts/events";
import { listPasskeys } from "../../accounts/passkeys";
import { endAllSessions, endSession, type Session } from "../../accounts/sessions";
import { setTimeZone } from "../../accounts/timeZone";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { upgradeUrlOf } from "../../platform/plans";
import { publicOrigin } from "../../platform/publicOrigin";
import { findUser } from "../../tools/account/queries";
import { activityTable, RECENT_EVENTS } from "./activity";
import { settingsForm, settingsPage } from "./guards";
import { assistantsTable, createKeyForm, KEYS_PER_PAGE, type KeyDraft, keyChoiceOf, keyDraftOf, keysTable, newKeyPanel } from "./keys";
import { csrfField, frame, type Html, htmlPage, noticeOf, type Page, pageNumberOf, redirectTo } from "./layout";
import { formatCount, formatInstant } from "./messages";
import { passkeysSection } from "./passkeys";
import { usageChart } from "./usageChart";

/** What the settings page shows besides the account: a key just made, a refused attempt to make one, or a refused time zone. */
interface Outcome {
  issued?: IssuedKeyAnswer;
  refused?: { draft: KeyDraft; error: ApiError };
  refusedTimeZone?: { typed: string; error: ApiError };
}

/** Every time zone Intl knows, offered as the field's suggestions (any IANA name it accepts is taken). */
const timeZoneChoices = () =>
  html`<datalist id="time-zones">${Intl.supportedValuesOf("timeZone").map((zone) => html`<option value="${zone}"></option>`)}</datalist>`;

/** The account's time zone (its "today"), and the form that changes it. */
function timeZoneSection(
  c: Context<AppEnv>,
  page: Page,
  account: AccountSummary,
  csrfToken: string,
  refused?: Outcome["refusedTimeZone"],
): Html {
  const { t } = page;
  return html`<section id="timezone-section" aria-labelledby="timezone-title">
<h2 id="timezone-title">${t.timeZoneTitle}</h2>
${noticeOf(c, { timeZoneSaved: t.timeZoneSaved })}
<p class="help">${t.timeZoneHelp(account.today)}</p>
<form id="time-zone-form" method="post" action="${page.href("/settings/timezone")}#timezone-section">${csrfField(csrfToken)}
<label for="time-zone">${t.timeZoneLabel}</label>
<input id="time-zone" name="timeZone" value="${refused?.typed ?? account.timeZone}" list="time-zones" required maxlength="64" autocomplete="off">
${timeZoneChoices()}
${refused ? html`<p class="error" role="alert">${refused.error.message}</p>` : ""}
<button id="save-time-zone" type="submit">${t.timeZoneSave}</button>
</form>
</section>`;
}

const limitText = (page: Page, limit: number | null) =>
  limit === null ? page.t.noLimit : limit === 0 ? page.t.notInPlan : formatCount(limit);

/** Plan, today's usage with its reset, the burst limit, registered counts against the plan's limits, the 30-day chart. */
function accountSection(page: Page, account: AccountSummary): Html {
  const { t } = page;
  const { usage, rate } = account;
  const registered = Object.entries(account.registered).map(
    ([resource, { count, limit }]) =>
      html`<tr><th scope="row">${t.resourceName[resource as keyof typeof t.resourceName] ?? resource}</th><td class="number">${formatCount(count)}</td><td class="number">${limitText(page, limit)}</td></tr>`,
  );
  return html`<section id="account" aria-labelledby="account-title">
<h2 id="account-title">${t.planAndUsage}</h2>
<dl class="facts">
<dt>${t.plan}</dt><dd id="plan">${account.plan}</dd>
<dt>${t.usageToday}</dt><dd id="usage-today">${t.usedOf(formatCount(usage.used), formatCount(usage.limit))} <meter min="0" max="${usage.limit}" value="${usage.used}"></meter> (${t.resetsAt(formatInstant(usage.resetAt))})</dd>
<dt>${t.burstLimit}</dt><dd id="burst-limit">${t.burstPerKey(formatCount(rate.burstLimit), String(rate.burstWindowSec))}</dd>
</dl>
${usageChart(page, account.usageHistory, usage.limit)}
<table id="registered">
<caption>${t.registered}</caption>
<thead><tr><th scope="col">${t.resource}</th><th scope="col" class="number">${t.count}</th><th scope="col" class="number">${t.limit}</th></tr></thead>
<tbody>${registered}</tbody>
</table>
</section>`;
}

/** Sign out here, or end every session of the account (a lost or shared device). */
const signOutSection = (page: Page, csrfToken: string) => html`<section id="signout-section">
<form method="post" action="${page.href("/settings/signout")}">${csrfField(csrfToken)}<button id="signout" type="submit">${page.t.signOut}</button></form>
<form method="post" action="${page.href("/settings/signout-everywhere")}">${csrfField(csrfToken)}<button id="signout-everywhere" type="submit">${page.t.signOutEverywhere}</button></form>
</section>`;

/** The settings page of the signed-in person: everything read for their user id alone, in parallel. */
async function settingsView(c: Context<AppEnv>, page: Page, session: Session, outcome: Outcome = {}): Promise<Html> {
  const db = createDb(c.env.DB);
  const keysPage = pageNumberOf(c, "keysPage");
  const assistantsPage = pageNumberOf(c, "assistantsPage");
  const [account, keys, assistants, passkeys, events] = await Promise.all([
    accountSummary(c.env, db, session.userId, new Date()),
    listKeys(c.env, db, session.userId, keysPage, KEYS_PER_PAGE, "keys"),
    listKeys(c.env, db, session.userId, assistantsPage, KEYS_PER_PAGE, "assistants"),
    listPasskeys(db, session.userId),
    listEvents(db, session.userId, 1, RECENT_EVENTS),
  ]);
  const { t } = page;
  // A form's answer lands where its action points (#keys-section, #create, #passkeys-section): its notice, new key or refusal comes first there.
  const main = html`${accountSection(page, account)}
${timeZoneSection(c, page, account, session.csrfToken, outcome.refusedTimeZone)}
<section id="keys-section" aria-labelledby="keys-title">
<h2 id="keys-title">${t.keysTitle}</h2>
${noticeOf(c, { keyRevoked: t.keyRevoked })}
${keysTable(page, keys, keysPage)}
<div id="create">
${outcome.issued ? newKeyPanel(page, outcome.issued) : ""}
${createKeyForm(page, session.csrfToken, outcome.refused)}
</div>
</section>
<section id="assistants-section" aria-labelledby="assistants-title">
<h2 id="assistants-title">${t.assistantsTitle}</h2>
<p class="help">${t.assistantsIntro}</p>
${noticeOf(c, { assistantRevoked: t.assistantRevoked })}
${assistantsTable(page, assistants, assistantsPage)}
</section>
<section id="passkeys-section" aria-labelledby="passkeys-title">
<h2 id="passkeys-title">${t.passkeysTitle}</h2>
${noticeOf(c, { passkeyRemoved: t.passkeyRemoved, passkeyAdded: t.passkeyAdded })}
${passkeysSection(page, session.csrfToken, passkeys)}
</section>
<section id="activity-section" aria-labelledby="activity-title">
<h2 id="activity-title">${t.activityTitle}</h2>
${activityTable(page, events.items)}
<p><a href="${page.href("/settings/activity")}">${t.allActivity}</a></p>
</section>
${signOutSection(page, session.csrfToken)}`;
  return frame(page, { title: t.settingsTitle, main, script: true });
}

/** The plan-limit context of the signed-in person's key creation. */
export async function limitContextOf(c: Context<AppEnv>, userId: string) {
  const user = await findUser(createDb(c.env.DB), userId);
  if (!user) throw new ApiError("unauthorized", "This account no longer exists.");
  return { userId, plan: user.plan, upgradeUrl: upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url)) };
}

/** Refusals of the form itself (a choice that does not fit, the plan's key limit), shown beside the form it came from. */
export const isFormRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.code === "invalid_input" || error.code === "plan_required");

/** GET /settings, key creation (its answer shows the new key once), signing out. */
export function mountSettings(app: Hono<AppEnv>): void {
  app.get(
    "/settings",
    settingsPage(async (c, page, session) => htmlPage(c, settingsView(c, page, session))),
  );
  app.post(
    "/settings/keys",
    settingsForm(async (c, page, session, form) => {
      const draft = keyDraftOf(form);
      try {
        const issued = await issueKeyFor(createDb(c.env.DB), await limitContextOf(c, session.userId), keyChoiceOf(page, draft));
        return htmlPage(c, settingsView(c, page, session, { issued }), 201);
      } catch (error) {
        if (!isFormRefusal(error)) throw error;
        return htmlPage(c, settingsView(c, page, session, { refused: { draft, error } }), error.status);
      }
    }),
  );
  app.post(
    "/settings/timezone",
    settingsForm(async (c, page, session, form) => {
      const typed = form.get("timeZone") ?? "";
      try {
        await setTimeZone(createDb(c.env.DB), session.userId, typed);
        return redirectTo(c, page.href("/settings?notice=timeZoneSaved#timezone-section"));
      } catch (error) {
        if (!isFormRefusal(error)) throw error;
        return htmlPage(c, settingsView(c, page, session, { refusedTimeZone: { typed, error } }), error.status);
      }
    }),
  );
  app.post(
    "/settings/signout",
    settingsForm(async (c, page, session) => {
      await endSession(c, session);
      return redirectTo(c, page.href("/signin?notice=signedOut"));
    }),
  );
  app.post(
    "/settings/signout-everywhere",
    settingsForm(async (c, page, session) => {
      await endAllSessions(createDb(c.env.DB), session.userId);
      await endSession(c, session);
      return redirectTo(c, page.href("/signin?notice=signedOut"));
    }),
  );
}
