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
} from "../../accounts/apiKeys";
import { revokeKey } from "../../accounts/connectedAssistants";
import { grantHelpersFor } from "../../accounts/oauthServer";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { type ApiError, invalidInput, notFound } from "../../platform/errors";
import { KEY_PRESETS, SCOPES, type Scope } from "../../platform/plans";
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
 * The draft as issueKeyFor's choice. With a preset, the ticked checkboxes must be none or exactly
 * the preset's scopes (they agree); any other set is a 400 naming `scopes`, in the page's
 * language, so a delete scope posted with view only is never silently dropped. An empty name or
 * expiry is none. issueKeyFor checks the rest and names the field at fault.
 */
export function keyChoiceOf(page: Page, draft: KeyDraft): KeyChoice {
  const preset = draft.preset as KeyPresetChoice;
  const name = draft.name.trim();
  if (preset !== "individual" && draft.scopes.length > 0 && !samePresetScopes(preset, draft.scopes)) {
    const [label] = presetText(page, preset) ?? [preset];
    throw invalidInput("scopes", page.t.scopesDisagree(label, KEY_PRESETS[preset]?.join(", ") ?? ""));
  }
  return {
    preset,
    ...(preset === "individual" ? { scopes: draft.scopes as Scope[] } : {}),
    name: name === "" ? null : name,
    expiresInDays: draft.expiresInDays === "" ? null : (Number(draft.expiresInDays) as KeyChoice["expiresInDays"]),
  };
}

/**
 * The permission fields preset to these scopes: the preset they are exactly (so the page's
 * preset and its ticked boxes agree), else individual settings with them ticked; none: view only,
 * the narrowest choice.
 */
export function draftOfScopes(scopes: readonly Scope[]): Pick<KeyDraft, "preset" | "scopes"> {
  if (scopes.length === 0) return { preset: "viewOnly", scopes: [] };
  const preset = (["viewOnly", "standard"] as const).find((choice) => samePresetScopes(choice, scopes));
  return { preset: preset ?? "individual", scopes };
}

/** Whether the scopes are exactly a preset's (an unknown preset has none: issueKeyFor names it). */
function samePresetScopes(preset: KeyPresetChoice, scopes: readonly string[]): boolean {
  const presetScopes: readonly string[] | undefined = KEY_PRESETS[preset as keyof typeof KEY_PRESETS];
  const chosen = new Set(scopes);
  return presetScopes !== undefined && chosen.size === presetScopes.length && presetScopes.every((scope) => chosen.has(scope));
}

const revokePath = (keyId: string) => `/settings/keys/${encodeURIComponent(keyId)}/revoke`;

const stateText = (page: Page, state: KeyListItem["state"]) =>
  ({ active: page.t.stateActive, revoked: page.t.stateRevoked, expired: page.t.stateExpired })[state];

/** The kinds of key list the settings page shows: keys made as keys, and connected assistants. */
type ListKind = "keys" | "assistants";

/** A column of a key list: its heading and its cell for one key. */
type KeyColumn = [heading: string, cell: (key: KeyListItem) => Html | string];

/** The columns of a list before its state and revoke link: an assistant shows where it sends access instead of a prefix, and has no expiry. */
function columnsOf(page: Page, kind: ListKind): KeyColumn[] {
  const { t } = page;
  const instant = (iso: string | null, none: string) => (iso ? formatInstant(iso) : none);
  const keysOnly = kind === "keys";
  return [
    [keysOnly ? t.keyName : t.assistantName, (key) => key.name ?? t.unnamed],
    keysOnly ? [t.keyPrefix, (key) => html`<code>${key.displayPrefix}…</code>`] : [t.connectedTo, (key) => key.connectedTo ?? ""],
    [t.keyScopes, (key) => html`<ul class="scopes">${key.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul>`],
    [t.created, (key) => formatInstant(key.createdAt)],
    [t.lastUsed, (key) => instant(key.lastUsedAt, t.notYet)],
    ...(keysOnly ? [[t.expires, (key: KeyListItem) => instant(key.expiresAt, t.never)] satisfies KeyColumn] : []),
  ];
}

/** A page of one kind of the person's keys (never a secret), each active one with its revoke link. */
function keyList(page: Page, kind: ListKind, keys: { items: KeyListItem[]; totalCount: number }, current: number): Html {
  const { t } = page;
  const columns = columnsOf(page, kind);
  const row = (key: KeyListItem) => html`<tr data-key-id="${key.keyId}" data-state="${key.state}">
${columns.map(([, cell]) => html`<td>${cell(key)}</td>`)}
<td class="state-${key.state}">${stateText(page, key.state)}${key.endedReason ? html` <span class="ended-reason">(${t.endedReason[key.endedReason]})</span>` : ""}</td>
<td>${key.state === "active" ? html`<a class="revoke" href="${page.href(revokePath(key.keyId))}">${t.revoke}</a>` : ""}</td>
</tr>`;
  return html`<table id="${kind}">
<thead><tr>${columns.map(([heading]) => html`<th scope="col">${heading}</th>`)}<th scope="col">${t.state}</th><th scope="col"></th></tr></thead>
<tbody>${keys.items.map(row)}</tbody>
</table>
${pager(page, { current, totalCount: keys.totalCount, perPage: KEYS_PER_PAGE, hrefOf: (n) => `/settings?${kind}Page=${n}#${kind}-section` })}`;
}

/** The key list of the settings page: names, prefixes, scopes, dates and states. */
export function keysTable(page: Page, keys: { items: KeyListItem[]; totalCount: number }, current: number): Html {
  const { t } = page;
  return html`<h3>${t.yourKeys}</h3>${keys.totalCount === 0 ? html`<p>${t.noKeys}</p>` : keyList(page, "keys", keys, current)}`;
}

/** The connected assistants of the settings page: the keys OAuth consents made, with where each sends access. */
export function assistantsTable(page: Page, keys: { items: KeyListItem[]; totalCount: number }, current: number): Html {
  return keys.totalCount === 0 ? html`<p>${page.t.noAssistants}</p>` : keyList(page, "assistants", keys, current);
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

type PresetText = [label: string, help: string];
const presetText = (page: Page, preset: KeyPresetChoice): PresetText | undefined =>
  (
    ({
      viewOnly: [page.t.presetViewOnly, page.t.presetViewOnlyHelp],
      standard: [page.t.presetStandard, page.t.presetStandardHelp],
      individual: [page.t.presetIndividual, page.t.presetIndividualHelp],
    }) satisfies Record<KeyPresetChoice, PresetText>
  )[preset];

const presetChoice = (page: Page, draft: Pick<KeyDraft, "preset">, preset: KeyPresetChoice) => {
  const [label, help] = presetText(page, preset)!;
  const scopes = KEY_PRESETS[preset as keyof typeof KEY_PRESETS];
  // The page's script ticks a preset's scopes when it is chosen, so the boxes never disagree with it.
  const scopesAttribute = scopes === undefined ? "" : ` data-scopes="${scopes.join(" ")}"`;
  return html`<label class="choice"><input type="radio"${scopesAttribute} name="preset" value="${preset}"${draft.preset === preset ? " checked" : ""}> <strong>${label}</strong> <span class="help">${help}</span></label>`;
};

const scopeChoice = (page: Page, draft: Pick<KeyDraft, "scopes">, scope: Scope) =>
  html`<label class="choice"><input type="checkbox" name="scopes" value="${scope}"${draft.scopes.includes(scope) ? " checked" : ""}> <code>${scope}</code> <span class="help">${page.t.scope[scope]}</span></label>`;

const expiryOption = (draft: KeyDraft, value: string, label: string) =>
  html`<option value="${value}"${draft.expiresInDays === value ? " selected" : ""}>${label}</option>`;

/** The spec's choice of a key's permissions (a preset, or individual settings): the create-key form's and the OAuth consent's. */
export const permissionFields = (page: Page, draft: Pick<KeyDraft, "preset" | "scopes">) =>
  html`<fieldset><legend>${page.t.presetLegend}</legend>${KEY_PRESET_CHOICES.map((preset) => presetChoice(page, draft, preset))}</fieldset>
<fieldset class="scopes"><legend>${page.t.scopesLegend}</legend>${SCOPES.map((scope) => scopeChoice(page, draft, scope))}</fieldset>`;

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
${permissionFields(page, draft)}
<label>${t.expires} <select name="expiresInDays">${expiryOption(draft, "", t.expiryNone)}${KEY_EXPIRY_DAYS.map((days) =>
    expiryOption(draft, String(days), t.expiryDays(days)),
  )}</select></label>
<p><button id="create-key-submit" type="submit">${t.createKeyButton}</button></p>
</form>`;
}

/** Revoking asks first (GET: a confirmation page), then revokes (POST from that page). */
export function mountKeys(app: Hono<AppEnv>): void {
  app.get(
    "/settings/keys/:keyId/revoke",
    settingsPage(async (c, page, session) => {
      const keyId = pathParam(c, "keyId");
      const key = await keyOf(createDb(c.env.DB), keyId);
      if (key?.userId !== session.userId) throw notFound("The key");
      const { t } = page;
      const ask = key.connectedTo
        ? {
            title: t.revokeAssistantTitle,
            explain: t.revokeAssistantExplain(key.name, key.connectedTo),
            buttonLabel: t.confirmRevokeAssistant,
            back: "/settings#assistants-section",
          }
        : {
            title: t.revokeTitle,
            explain: t.revokeExplain(key.name, key.displayPrefix),
            buttonLabel: t.confirmRevoke,
            back: "/settings#keys-section",
          };
      return htmlPage(
        c,
        confirmationPage(page, { ...ask, action: revokePath(keyId), csrfToken: session.csrfToken, buttonId: "confirm-revoke" }),
      );
    }),
  );
  app.post(
    "/settings/keys/:keyId/revoke",
    settingsForm(async (c, page, session) => {
      const keyId = pathParam(c, "keyId");
      const db = createDb(c.env.DB);
      const key = await keyOf(db, keyId);
      await revokeKey(c.env, db, grantHelpersFor(c.env, c.req.url), session.userId, keyId);
      const shown = key?.connectedTo ? "?notice=assistantRevoked#assistants-section" : "?notice=keyRevoked#keys-section";
      return redirectTo(c, page.href(`/settings${shown}`));
    }),
  );
}
