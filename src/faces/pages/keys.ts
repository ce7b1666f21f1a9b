import type { Hono } from "hono";
import { html } from "hono/html";
import {
  type IssuedKeyAnswer,
  KEY_EXPIRY_DAYS,
  KEY_PRESET_CHOICES,
  type KeyChoice,
  type KeyListItem,
  type KeyPresetChoice,
  keyOf,
  revokeKeyOf,
} from "../../accounts/apiKeys";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { type ApiError, notFound } from "../../platform/errors";
import { SCOPES, type Scope } from "../../platform/plans";
import { settingsForm, settingsPage } from "./guards";
import { confirmationPage, csrfField, type Html, htmlPage, type Page, pager, pathParam, redirectTo } from "./layout";
import { formatInstant } from "./messages";

/** Keys listed per page of the settings (`?keysPage=`). */
export const KEYS_PER_PAGE = 20;

/** What the create form was sent with, shown again when it is refused so nothing has to be typed twice. */
export interface KeyDraft {
  name: string;
  preset: string;
  scopes: readonly string[];
  expiresInDays: string;
}

const EMPTY_DRAFT: KeyDraft = { name: "", preset: "viewOnly", scopes: [], expiresInDays: "" };

/** The form's fields as the draft they are. */
export const keyDraftOf = (form: URLSearchParams): KeyDraft => ({
  name: form.get("name") ?? "",
  preset: form.get("preset") ?? "",
  scopes: form.getAll("scopes"),
  expiresInDays: form.get("expiresInDays") ?? "",
});

/**
 * The draft as issueKeyFor's choice: checkboxes count only with individual settings (the form
 * shows them for that choice alone), an empty name or expiry is none. issueKeyFor checks the rest
 * and names the field at fault.
 */
export function keyChoiceOf(draft: KeyDraft): KeyChoice {
  const preset = draft.preset as KeyPresetChoice;
  const name = draft.name.trim();
  return {
    preset,
    ...(preset === "individual" ? { scopes: draft.scopes as Scope[] } : {}),
    name: name === "" ? null : name,
    expiresInDays: draft.expiresInDays === "" ? null : (Number(draft.expiresInDays) as KeyChoice["expiresInDays"]),
  };
}

const stateText = (page: Page, state: KeyListItem["state"]) =>
  ({ active: page.t.stateActive, revoked: page.t.stateRevoked, expired: page.t.stateExpired })[state];

const keyRow = (page: Page, key: KeyListItem) => {
  const { t } = page;
  return html`<tr data-key-id="${key.keyId}" data-state="${key.state}">
<td>${key.name ?? t.unnamed}</td>
<td><code>${key.displayPrefix}…</code></td>
<td><ul class="scopes">${key.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul></td>
<td>${formatInstant(key.createdAt)}</td>
<td>${key.lastUsedAt ? formatInstant(key.lastUsedAt) : t.notYet}</td>
<td>${key.expiresAt ? formatInstant(key.expiresAt) : t.never}</td>
<td class="state-${key.state}">${stateText(page, key.state)}</td>
<td>${key.state === "active" ? html`<a class="revoke" href="${page.href(`/settings/keys/${encodeURIComponent(key.keyId)}/revoke`)}">${t.revoke}</a>` : ""}</td>
</tr>`;
};

/** The key list of the settings page (never a secret: names, prefixes, scopes, dates and states). */
export function keysTable(page: Page, keys: { items: KeyListItem[]; totalCount: number }, current: number): Html {
  const { t } = page;
  if (keys.totalCount === 0) return html`<h3>${t.yourKeys}</h3><p>${t.noKeys}</p>`;
  return html`<h3>${t.yourKeys}</h3>
<table id="keys">
<thead><tr><th scope="col">${t.keyName}</th><th scope="col">${t.keyPrefix}</th><th scope="col">${t.keyScopes}</th><th scope="col">${t.created}</th><th scope="col">${t.lastUsed}</th><th scope="col">${t.expires}</th><th scope="col">${t.state}</th><th scope="col"></th></tr></thead>
<tbody>${keys.items.map((key) => keyRow(page, key))}</tbody>
</table>
${pager(page, { current, totalCount: keys.totalCount, perPage: KEYS_PER_PAGE, hrefOf: (n) => `/settings?keysPage=${n}#keys-section` })}`;
}

/** The one time a key's secret is shown: in the answer to the form that made it, never in a URL. */
export function newKeyPanel(page: Page, issued: IssuedKeyAnswer): Html {
  const { t } = page;
  return html`<div class="new-key" role="alert">
<h3>${t.newKeyTitle}</h3>
<p class="warning">${t.newKeyWarning}</p>
<p><code id="new-key">${issued.apiKey}</code> <button id="copy-new-key" type="button" hidden data-copied="${t.copied}">${t.copy}</button></p>
<p>${t.keyScopes}: ${issued.scopes.join(", ")} · ${t.expires}: ${issued.expiresAt ? formatInstant(issued.expiresAt) : t.never}</p>
</div>`;
}

const presetText = (page: Page, preset: KeyPresetChoice) =>
  ({
    viewOnly: [page.t.presetViewOnly, page.t.presetViewOnlyHelp],
    standard: [page.t.presetStandard, page.t.presetStandardHelp],
    individual: [page.t.presetIndividual, page.t.presetIndividualHelp],
  })[preset];

const presetChoice = (page: Page, draft: KeyDraft, preset: KeyPresetChoice) => {
  const [label, help] = presetText(page, preset);
  return html`<label class="choice"><input type="radio" name="preset" value="${preset}"${draft.preset === preset ? " checked" : ""}> <strong>${label}</strong> <span class="help">${help}</span></label>`;
};

const scopeChoice = (page: Page, draft: KeyDraft, scope: Scope) =>
  html`<label class="choice"><input type="checkbox" name="scopes" value="${scope}"${draft.scopes.includes(scope) ? " checked" : ""}> <code>${scope}</code> <span class="help">${page.t.scope[scope]}</span></label>`;

const expiryOption = (draft: KeyDraft, value: string, label: string) =>
  html`<option value="${value}"${draft.expiresInDays === value ? " selected" : ""}>${label}</option>`;

/** The create-key form with the spec's choices; a refused attempt comes back with its error and what was entered. */
export function createKeyForm(page: Page, csrfToken: string, refused?: { draft: KeyDraft; error: ApiError }): Html {
  const { t } = page;
  const draft = refused?.draft ?? EMPTY_DRAFT;
  const upgradeUrl = refused?.error.details.upgradeUrl;
  return html`<form id="create-key" method="post" action="${page.href("/settings/keys#create")}">
<h3>${t.createKeyTitle}</h3>
${
  refused
    ? html`<p class="error" role="alert">${refused.error.message}${typeof upgradeUrl === "string" ? html` <a href="${upgradeUrl}">${t.upgrade}</a>` : ""}</p>`
    : ""
}
${csrfField(csrfToken)}
<label>${t.keyName} <input name="name" maxlength="100" value="${draft.name}" autocomplete="off"></label>
<fieldset><legend>${t.presetLegend}</legend>${KEY_PRESET_CHOICES.map((preset) => presetChoice(page, draft, preset))}</fieldset>
<fieldset class="scopes"><legend>${t.scopesLegend}</legend>${SCOPES.map((scope) => scopeChoice(page, draft, scope))}</fieldset>
<label>${t.expires} <select name="expiresInDays">${expiryOption(draft, "", t.expiryNone)}${KEY_EXPIRY_DAYS.map((days) =>
    expiryOption(draft, String(days), t.expiryDays(days)),
  )}</select></label>
<p><button id="create-key-submit" type="submit">${t.createKeyButton}</button></p>
</form>`;
}

const revokePath = (keyId: string) => `/settings/keys/${encodeURIComponent(keyId)}/revoke`;

/** Revoking asks first (GET: a confirmation page), then revokes (POST from that page). */
export function mountKeys(app: Hono<AppEnv>): void {
  app.get(
    "/settings/keys/:keyId/revoke",
    settingsPage(async (c, page, session) => {
      const keyId = pathParam(c, "keyId");
      const key = await keyOf(createDb(c.env.DB), keyId);
      if (key?.userId !== session.userId) throw notFound("The key");
      const { t } = page;
      return htmlPage(
        c,
        confirmationPage(page, {
          title: t.revokeTitle,
          explain: t.revokeExplain(key.name, key.displayPrefix),
          action: revokePath(keyId),
          csrfToken: session.csrfToken,
          buttonId: "confirm-revoke",
          buttonLabel: t.confirmRevoke,
          back: "/settings#keys-section",
        }),
      );
    }),
  );
  app.post(
    "/settings/keys/:keyId/revoke",
    settingsForm(async (c, page, session) => {
      await revokeKeyOf(createDb(c.env.DB), session.userId, pathParam(c, "keyId"));
      return redirectTo(c, page.href("/settings?notice=keyRevoked#keys-section"));
    }),
  );
}
