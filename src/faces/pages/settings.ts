import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { type AccountSummary, accountSummary } from "../../accounts/accountSummary";
import { endAllSessions, endSession, type Session } from "../../accounts/sessions";
import { setTimeZone } from "../../accounts/timeZone";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { upgradeUrlOf } from "../../platform/plans";
import { publicOrigin } from "../../platform/publicOrigin";
import { findUser } from "../../tools/account/queries";
import { formProblem, isFormRefusal } from "./formProblems";
import { settingsForm, settingsPage } from "./guards";
import { csrfField, frame, type Html, htmlPage, noticeOf, type Page, redirectTo } from "./layout";
import { formatCount, formatUtc } from "./messages";
import { usageChart } from "./usageChart";

/** What the overview shows besides the account: a refused time zone, as typed, and why. */
interface Outcome {
  refusedTimeZone?: { typed: string; problem: string };
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
${refused ? html`<p class="error" role="alert">${refused.problem}</p>` : ""}
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
<dt>${t.usageToday}</dt><dd id="usage-today">${t.usedOf(formatCount(usage.used), formatCount(usage.limit))} <meter min="0" max="${usage.limit}" value="${usage.used}"></meter> (${t.resetsAt(formatUtc(usage.resetAt))})</dd>
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

/** The overview of the signed-in person's settings: plan, usage, counts, time zone, signing out. */
async function overviewView(c: Context<AppEnv>, page: Page, session: Session, refusedTimeZone?: Outcome["refusedTimeZone"]): Promise<Html> {
  const account = await accountSummary(c.env, createDb(c.env.DB), session.userId, new Date());
  const main = html`${accountSection(page, account)}
${timeZoneSection(c, page, account, session.csrfToken, refusedTimeZone)}
${signOutSection(page, session.csrfToken)}`;
  return frame(page, { title: page.t.settingsTitle, main, nav: "overview" });
}

/** The plan-limit context of the signed-in person's key creation. */
export async function limitContextOf(c: Context<AppEnv>, userId: string) {
  const user = await findUser(createDb(c.env.DB), userId);
  if (!user) throw new ApiError("unauthorized", "This account no longer exists.");
  return { userId, plan: user.plan, upgradeUrl: upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url)) };
}

/** GET /settings (the overview), the time zone, signing out. */
export function mountSettings(app: Hono<AppEnv>): void {
  app.get(
    "/settings",
    settingsPage(async (c, page, session) => htmlPage(c, overviewView(c, page, session))),
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
        const problem = formProblem(page, error, { typedTimeZone: typed.slice(0, 64) });
        return htmlPage(c, overviewView(c, page, session, { typed, problem }), error.status);
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
