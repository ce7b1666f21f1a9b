import type { Context } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../../env";
import type { ApiError } from "../../platform/errors";
import { frame, htmlPage, type Page } from "./layout";

/** Where a person goes from an error: sign in again after a refused session, else back to the settings. */
function wayOn(page: Page, error: ApiError) {
  const { t } = page;
  const upgradeUrl = typeof error.details.upgradeUrl === "string" ? error.details.upgradeUrl : undefined;
  return html`<p class="actions">
${upgradeUrl ? html`<a href="${upgradeUrl}">${t.upgrade}</a>` : ""}
${error.status === 401 ? html`<a href="${page.href("/signin")}">${t.goToSignIn}</a>` : html`<a href="${page.href("/settings")}">${t.backToSettings}</a>`}
</p>`;
}

/**
 * A failure on a page, answered as a page in the person's language with the error's status (never
 * the API's JSON): a headline of our own by the error's code, the service's message (what exactly
 * went wrong, as the API would say it) and the request id to quote.
 */
export function errorPage(c: Context<AppEnv>, page: Page, error: ApiError): Promise<Response> {
  const { t } = page;
  const title = t.errorTitle[error.code] ?? t.errorFallback;
  const requestId = c.get("requestId");
  if (error.details.retryAfterSec !== undefined) c.header("Retry-After", String(error.details.retryAfterSec));
  const main = html`<p class="error" role="alert">${error.message}</p>
<p class="status">${t.errorStatus(error.status)} · ${t.requestId}: <code>${requestId}</code></p>
${wayOn(page, error)}`;
  return htmlPage(c, frame(page, { title, main }), error.status);
}
