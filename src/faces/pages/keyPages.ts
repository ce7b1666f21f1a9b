import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { type IssuedKeyAnswer, issueKeyFor, type KeyListItem, keyOf, listKeys, userKey } from "../../accounts/apiKeys";
import { revokeKey } from "../../accounts/connectedAssistants";
import { expiryOnDay, renameKey, rollKey } from "../../accounts/keyChanges";
import { grantHelpersFor } from "../../accounts/oauthServer";
import type { Session } from "../../accounts/sessions";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { formProblem, isFormRefusal } from "./formProblems";
import { settingsForm, settingsPage } from "./guards";
import {
  assistantsTable,
  createKeyForm,
  instantOr,
  KEYS_PER_PAGE,
  type KeyDraft,
  keyChoiceOf,
  keyDraftOf,
  keyPath,
  keysTable,
  newKeyPanel,
  ON_A_DATE,
  revokePath,
  stateText,
} from "./keys";
import {
  confirmationPage,
  csrfField,
  frame,
  type Html,
  htmlPage,
  instant,
  noticeOf,
  type Page,
  pageNumberOf,
  pathParam,
  redirectTo,
} from "./layout";
import { limitContextOf } from "./settings";

/** What the keys page shows besides the list: a key just made or rolled (its one showing), or a refused attempt to make one. */
interface KeysOutcome {
  issued?: { key: IssuedKeyAnswer; title: string };
  refused?: { draft: KeyDraft; problem: string; upgradeUrl?: string };
}

/** GET /settings/keys: the live keys, the ended ones folded away, the create form (where a form's answer lands: #create). */
async function keysView(c: Context<AppEnv>, page: Page, session: Session, outcome: KeysOutcome = {}): Promise<Html> {
  const db = createDb(c.env.DB);
  const at = { live: pageNumberOf(c, "keysPage"), ended: pageNumberOf(c, "endedPage") };
  const [live, ended] = await Promise.all([
    listKeys(c.env, db, session.userId, at.live, KEYS_PER_PAGE, "keys", "live"),
    listKeys(c.env, db, session.userId, at.ended, KEYS_PER_PAGE, "keys", "ended"),
  ]);
  const main = html`${noticeOf(c, { keyRevoked: page.t.keyRevoked })}
<div id="create">
${outcome.issued ? newKeyPanel(page, outcome.issued.key, outcome.issued.title) : ""}
</div>
<section id="keys-section">${keysTable(page, live, ended, at)}</section>
${createKeyForm(page, session.csrfToken, outcome.refused)}`;
  return frame(page, { title: page.t.keysTitle, main, script: true, nav: "keys" });
}

/** One of the person's keys made as keys; another's, an assistant's or an unknown id: 404. */
async function ownKey(c: Context<AppEnv>, session: Session): Promise<KeyListItem> {
  const key = await userKey(c.env, createDb(c.env.DB), session.userId, pathParam(c, "keyId"));
  if (!key || key.connectedTo !== null) throw notFound("The key");
  return key;
}

/** A key's page: what it is, renaming it, and for a live key rolling and revoking it. */
function keyView(
  c: Context<AppEnv>,
  page: Page,
  session: Session,
  key: KeyListItem,
  refusedName?: { typed: string; problem: string },
): Html {
  const { t } = page;
  const live = key.state === "active";
  const main = html`${noticeOf(c, { keyRenamed: t.keyRenamed })}
<dl class="facts">
<dt>${t.keyPrefix}</dt><dd><code>${key.displayPrefix}…</code></dd>
<dt>${t.keyScopes}</dt><dd>${key.scopes.join(", ")}</dd>
<dt>${t.created}</dt><dd>${instant(page, key.createdAt)}</dd>
<dt>${t.lastUsed}</dt><dd>${instantOr(page, key.lastUsedAt, t.notYet)}</dd>
<dt>${t.expires}</dt><dd>${instantOr(page, key.expiresAt, t.never)}</dd>
<dt>${t.state}</dt><dd id="key-state">${stateText(page, key.state)}</dd>
</dl>
<form id="rename-key" method="post" action="${page.href(`${keyPath(key.keyId)}/rename`)}">
<h2>${t.renameTitle}</h2>
${refusedName ? html`<p class="error" role="alert">${refusedName.problem}</p>` : ""}
${csrfField(session.csrfToken)}
<label>${t.newName} <input name="name" maxlength="100" required value="${refusedName?.typed ?? key.name ?? ""}" autocomplete="off"></label>
<p><button id="rename-key-submit" type="submit">${t.renameButton}</button></p>
</form>
${
  live
    ? html`<form id="roll-key" method="post" action="${page.href(`${keyPath(key.keyId)}/roll#create`)}">
<h2>${t.rollTitle}</h2>
<p>${t.rollExplain}</p>
${csrfField(session.csrfToken)}
<p><button id="roll-key-submit" type="submit">${t.rollButton}</button></p>
</form>
<p><a class="action revoke" href="${page.href(revokePath(key.keyId))}">${t.revoke}</a></p>`
    : ""
}
<p><a class="action" href="${page.href("/settings/keys")}">${t.nav.keys}</a></p>`;
  return frame(page, { title: t.keyTitle(key.name ?? key.displayPrefix), main, nav: "keys" });
}

/** GET /settings/assistants: the connected assistants, each revocable. */
async function assistantsView(c: Context<AppEnv>, page: Page, session: Session): Promise<Html> {
  const current = pageNumberOf(c, "assistantsPage");
  const assistants = await listKeys(c.env, createDb(c.env.DB), session.userId, current, KEYS_PER_PAGE, "assistants");
  const main = html`<p class="help">${page.t.assistantsIntro}</p>
${noticeOf(c, { assistantRevoked: page.t.assistantRevoked })}
<section id="assistants-section">${assistantsTable(page, assistants, current)}</section>`;
  return frame(page, { title: page.t.assistantsTitle, main, nav: "assistants" });
}

/** The keys page, the assistants page, a key's page; making, renaming, rolling and revoking keys. */
export function mountKeys(app: Hono<AppEnv>): void {
  app.get(
    "/settings/keys",
    settingsPage(async (c, page, session) => htmlPage(c, keysView(c, page, session))),
  );
  app.get(
    "/settings/assistants",
    settingsPage(async (c, page, session) => htmlPage(c, assistantsView(c, page, session))),
  );
  app.post(
    "/settings/keys",
    settingsForm(async (c, page, session, form) => {
      const draft = keyDraftOf(form);
      const limit = await limitContextOf(c, session.userId);
      try {
        const choice = keyChoiceOf(page, draft);
        const expiresAt = draft.expiresInDays === ON_A_DATE ? expiryOnDay(draft.expiresOn, page.timeZone, new Date()) : undefined;
        const key = await issueKeyFor(createDb(c.env.DB), limit, choice, { expiresAt });
        return htmlPage(c, keysView(c, page, session, { issued: { key, title: page.t.newKeyTitle } }), 201);
      } catch (error) {
        if (!isFormRefusal(error)) throw error;
        const problem = formProblem(page, error, { draft, plan: limit.plan });
        const upgradeUrl = typeof error.details.upgradeUrl === "string" ? error.details.upgradeUrl : undefined;
        return htmlPage(c, keysView(c, page, session, { refused: { draft, problem, upgradeUrl } }), error.status);
      }
    }),
  );
  app.get(
    "/settings/keys/:keyId",
    settingsPage(async (c, page, session) => htmlPage(c, keyView(c, page, session, await ownKey(c, session)))),
  );
  app.post(
    "/settings/keys/:keyId/rename",
    settingsForm(async (c, page, session, form) => {
      const key = await ownKey(c, session);
      const typed = form.get("name") ?? "";
      try {
        await renameKey(createDb(c.env.DB), session.userId, key.keyId, typed);
        return redirectTo(c, page.href(`${keyPath(key.keyId)}?notice=keyRenamed`));
      } catch (error) {
        if (!isFormRefusal(error)) throw error;
        return htmlPage(c, keyView(c, page, session, key, { typed, problem: formProblem(page, error) }), error.status);
      }
    }),
  );
  app.post(
    "/settings/keys/:keyId/roll",
    settingsForm(async (c, page, session) => {
      const key = await rollKey(c.env, createDb(c.env.DB), session.userId, pathParam(c, "keyId"));
      return htmlPage(c, keysView(c, page, session, { issued: { key, title: page.t.rolledTitle } }), 201);
    }),
  );
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
            back: "/settings/assistants",
          }
        : {
            title: t.revokeTitle,
            explain: t.revokeExplain(key.name, key.displayPrefix),
            buttonLabel: t.confirmRevoke,
            back: "/settings/keys",
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
      return redirectTo(
        c,
        page.href(key?.connectedTo ? "/settings/assistants?notice=assistantRevoked" : "/settings/keys?notice=keyRevoked"),
      );
    }),
  );
}
