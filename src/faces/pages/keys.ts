import { html } from "hono/html";
import {
  type IssuedKeyAnswer,
  KEY_EXPIRY_DAYS,
  KEY_PRESET_CHOICES,
  type KeyChoice,
  type KeyListItem,
  type KeyPresetChoice,
} from "../../accounts/apiKeys";
import { invalidInput } from "../../platform/errors";
import { KEY_PRESETS, SCOPES, type Scope } from "../../platform/plans";
import { dayAfter, dayIn } from "../../platform/time";
import { csrfField, type Html, instant, type Page, pager } from "./layout";

/** Keys listed per page of the settings (`?keysPage=`). */
export const KEYS_PER_PAGE = 20;

/** What the create form was sent with, shown again when it is refused so nothing has to be typed twice. */
export interface KeyDraft {
  name: string;
  preset: string;
  scopes: readonly string[];
  /** "" (never), a number of days, or "date": the day in expiresOn. */
  expiresInDays: string;
  expiresOn: string;
}

const EMPTY_DRAFT: KeyDraft = { name: "", preset: "viewOnly", scopes: [], expiresInDays: "", expiresOn: "" };

/** The choice of the expiry field that takes the date field's day. */
export const ON_A_DATE = "date";

/** The form's fields as the draft they are. */
export const keyDraftOf = (form: URLSearchParams): KeyDraft => ({
  name: form.get("name") ?? "",
  preset: form.get("preset") ?? "",
  scopes: form.getAll("scopes"),
  expiresInDays: form.get("expiresInDays") ?? "",
  expiresOn: form.get("expiresOn") ?? "",
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
    throw invalidInput("scopes", page.t.scopesDisagree(presetLabel(page, preset), KEY_PRESETS[preset]?.join(", ") ?? ""));
  }
  return {
    preset,
    ...(preset === "individual" ? { scopes: draft.scopes as Scope[] } : {}),
    name: name === "" ? null : name,
    expiresInDays:
      draft.expiresInDays === "" || draft.expiresInDays === ON_A_DATE ? null : (Number(draft.expiresInDays) as KeyChoice["expiresInDays"]),
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

export const keyPath = (keyId: string) => `/settings/keys/${encodeURIComponent(keyId)}`;
export const revokePath = (keyId: string) => `${keyPath(keyId)}/revoke`;

export const stateText = (page: Page, state: KeyListItem["state"]) =>
  ({ active: page.t.stateActive, revoked: page.t.stateRevoked, expired: page.t.stateExpired })[state];

/** The kinds of key list the settings show: keys made as keys (live or ended), and connected assistants. */
type ListKind = "keys" | "ended" | "assistants";

/** A column of a key list: its heading and its cell for one key. */
type KeyColumn = [heading: string, cell: (key: KeyListItem) => Html | string];

/** A key's instant, or the word for none. */
export const instantOr = (page: Page, iso: string | null, none: string) => (iso ? instant(page, iso) : none);

/** The columns of a list before its state and actions: an assistant shows where it sends access instead of a prefix, and has no expiry. */
function columnsOf(page: Page, kind: ListKind): KeyColumn[] {
  const { t } = page;
  const keysOnly = kind !== "assistants";
  return [
    [
      keysOnly ? t.keyName : t.assistantName,
      (key) => (keysOnly ? html`<a href="${page.href(keyPath(key.keyId))}">${key.name ?? t.unnamed}</a>` : (key.name ?? t.unnamed)),
    ],
    keysOnly ? [t.keyPrefix, (key) => html`<code>${key.displayPrefix}…</code>`] : [t.connectedTo, (key) => key.connectedTo ?? ""],
    [t.keyScopes, (key) => html`<ul class="scopes">${key.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul>`],
    [t.created, (key) => instant(page, key.createdAt)],
    [t.lastUsed, (key) => instantOr(page, key.lastUsedAt, t.notYet)],
    ...(keysOnly ? [[t.expires, (key: KeyListItem) => instantOr(page, key.expiresAt, t.never)] satisfies KeyColumn] : []),
  ];
}

/** What a key's row offers: a live key its page (rename, roll) and its revocation; an assistant its revocation. */
function actionsOf(page: Page, kind: ListKind, key: KeyListItem): Html {
  const { t } = page;
  const manage = kind === "assistants" ? "" : html`<a class="action" href="${page.href(keyPath(key.keyId))}">${t.manage}</a>`;
  const revoke = key.state === "active" ? html`<a class="action revoke" href="${page.href(revokePath(key.keyId))}">${t.revoke}</a>` : "";
  return html`${manage}${revoke}`;
}

/** A page of one kind of the person's keys (never a secret), as a table on a wide screen and as cards on a phone. */
function keyList(page: Page, kind: ListKind, keys: { items: KeyListItem[]; totalCount: number }, current: number): Html {
  const { t } = page;
  const columns = columnsOf(page, kind);
  const row = (key: KeyListItem) => html`<tr data-key-id="${key.keyId}" data-state="${key.state}">
${columns.map(([heading, cell]) => html`<td data-label="${heading}">${cell(key)}</td>`)}
<td data-label="${t.state}" class="state-${key.state}">${stateText(page, key.state)}${key.endedReason ? html` <span class="ended-reason">(${t.endedReason[key.endedReason]})</span>` : ""}</td>
<td class="actions">${actionsOf(page, kind, key)}</td>
</tr>`;
  const path = kind === "assistants" ? "/settings/assistants" : "/settings/keys";
  return html`<table id="${kind}" class="cards">
<thead><tr>${columns.map(([heading]) => html`<th scope="col">${heading}</th>`)}<th scope="col">${t.state}</th><th scope="col"></th></tr></thead>
<tbody>${keys.items.map(row)}</tbody>
</table>
${pager(page, { current, totalCount: keys.totalCount, perPage: KEYS_PER_PAGE, hrefOf: (n) => `${path}?${kind}Page=${n}#${kind}` })}`;
}

type KeyPage = { items: KeyListItem[]; totalCount: number };

/** The person's keys: the live ones listed, the revoked and expired ones folded away (open when their pager is used). */
export function keysTable(page: Page, live: KeyPage, ended: KeyPage, at: { live: number; ended: number }): Html {
  const { t } = page;
  const endedList =
    ended.totalCount === 0
      ? ""
      : html`<details id="ended-keys"${at.ended > 1 ? " open" : ""}><summary>${t.endedKeys(ended.totalCount)}</summary>${keyList(page, "ended", ended, at.ended)}</details>`;
  return html`<h2>${t.yourKeys}</h2>${live.totalCount === 0 ? html`<p>${t.noKeys}</p>` : keyList(page, "keys", live, at.live)}${endedList}`;
}

/** The connected assistants: the keys OAuth consents made, with where each sends access. */
export function assistantsTable(page: Page, keys: KeyPage, current: number): Html {
  return keys.totalCount === 0 ? html`<p>${page.t.noAssistants}</p>` : keyList(page, "assistants", keys, current);
}

/** The one time a key's secret is shown: in the answer to the form that made it, never in a URL. */
export function newKeyPanel(page: Page, issued: IssuedKeyAnswer, title = page.t.newKeyTitle): Html {
  const { t } = page;
  return html`<div class="new-key" role="alert">
<h2>${title}</h2>
<p class="warning">${t.newKeyWarning}</p>
<p><code id="new-key">${issued.apiKey}</code> <button id="copy-new-key" type="button" hidden data-copied="${t.copied}">${t.copy}</button></p>
<p>${t.keyScopes}: ${issued.scopes.join(", ")} · ${t.expires}: ${instantOr(page, issued.expiresAt, t.never)}</p>
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

/** A preset's name in the page's language (an unknown one as sent). */
export const presetLabel = (page: Page, preset: string) => presetText(page, preset as KeyPresetChoice)?.[0] ?? preset;

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

/** The days a chosen expiry date may be, in the account's time zone: tomorrow to a year from today. */
export function expiryDayRange(page: Page, now = new Date()): { from: string; to: string } {
  const today = dayIn(now, page.timeZone);
  return { from: dayAfter(today), to: dayAfter(today, 365) };
}

/** The expiry fields: never, 30, 90 or 365 days, or a date of the person's choice up to a year ahead. */
function expiryFields(page: Page, draft: KeyDraft): Html {
  const { t } = page;
  const { from, to } = expiryDayRange(page);
  return html`<label>${t.expires} <select name="expiresInDays">${expiryOption(draft, "", t.expiryNone)}${KEY_EXPIRY_DAYS.map((days) =>
    expiryOption(draft, String(days), t.expiryDays(days)),
  )}${expiryOption(draft, ON_A_DATE, t.expiryOnDate)}</select></label>
<label>${t.expiresOnLabel} <input type="date" name="expiresOn" min="${from}" max="${to}" value="${draft.expiresOn}"></label>`;
}

/** The create-key form with the spec's choices; a refused attempt comes back with its problem, in the page's language, and what was entered. */
export function createKeyForm(page: Page, csrfToken: string, refused?: { draft: KeyDraft; problem: string; upgradeUrl?: string }): Html {
  const { t } = page;
  const draft = refused?.draft ?? EMPTY_DRAFT;
  return html`<form id="create-key" method="post" action="${page.href("/settings/keys#create")}">
<h2>${t.createKeyTitle}</h2>
${refused ? html`<p class="error" role="alert">${refused.problem}${refused.upgradeUrl ? html` <a href="${refused.upgradeUrl}">${t.upgrade}</a>` : ""}</p>` : ""}
${csrfField(csrfToken)}
<label>${t.keyName} <input name="name" maxlength="100" value="${draft.name}" autocomplete="off"></label>
${permissionFields(page, draft)}
${expiryFields(page, draft)}
<p><button id="create-key-submit" type="submit">${t.createKeyButton}</button></p>
</form>`;
}
