import type { Hono } from "hono";
import { html } from "hono/html";
import { type AccountEvent, listEvents } from "../../accounts/events";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { settingsPage } from "./guards";
import { frame, type Html, htmlPage, instant, type Page, pageNumberOf, pager } from "./layout";

/** Events on a page of /settings/activity. */
const EVENTS_PER_PAGE = 25;

/** What an event was about: the key's or passkey's name, else its id (the prefix for a key, which the key list shows too). */
const subjectOf = (detail: AccountEvent["detail"]) => detail.name ?? detail.displayPrefix ?? detail.keyId ?? detail.passkeyId ?? "";

const eventRow = (page: Page, event: AccountEvent) => html`<tr data-kind="${event.kind}">
<td data-label="${page.t.when}">${instant(page, event.createdAt)}</td>
<td data-label="${page.t.what}">${page.t.event[event.kind]}</td>
<td data-label="${page.t.keyName}">${subjectOf(event.detail)}</td>
</tr>`;

/** The activity list: keys created and revoked, passkeys added and removed, sign-ins, newest first. */
function activityTable(page: Page, events: readonly AccountEvent[]): Html {
  const { t } = page;
  if (events.length === 0) return html`<p id="activity">${t.noActivity}</p>`;
  return html`<table id="activity" class="cards">
<thead><tr><th scope="col">${t.when}</th><th scope="col">${t.what}</th><th scope="col">${t.keyName}</th></tr></thead>
<tbody>${events.map((event) => eventRow(page, event))}</tbody>
</table>`;
}

/** GET /settings/activity?page=N: the whole list, a page at a time. */
export function mountActivity(app: Hono<AppEnv>): void {
  app.get(
    "/settings/activity",
    settingsPage(async (c, page, session) => {
      const current = pageNumberOf(c, "page");
      const events = await listEvents(createDb(c.env.DB), session.userId, current, EVENTS_PER_PAGE);
      const main = html`${activityTable(page, events.items)}
${pager(page, { current, totalCount: events.totalCount, perPage: EVENTS_PER_PAGE, hrefOf: (n) => `/settings/activity?page=${n}` })}`;
      return htmlPage(c, frame(page, { title: page.t.activityTitle, main, nav: "activity" }));
    }),
  );
}
