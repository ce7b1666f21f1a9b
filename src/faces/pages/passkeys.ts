import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { listPasskeys, type PasskeySummary, removePasskey, renamePasskey } from "../../accounts/passkeys";
import type { Session } from "../../accounts/sessions";
import { completeRegistration, registrationOptions } from "../../accounts/webauthn";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { formProblem, isFormRefusal } from "./formProblems";
import { ceremonyAnswerOf, settingsCeremony, settingsForm, settingsPage } from "./guards";
import {
  confirmationPage,
  csrfField,
  frame,
  type Html,
  htmlPage,
  instant,
  noticeOf,
  type Page,
  pageOf,
  pathParam,
  redirectTo,
} from "./layout";

const removePath = (passkeyId: string) => `/settings/passkeys/${encodeURIComponent(passkeyId)}/remove`;

const renamePath = (passkeyId: string) => `/settings/passkeys/${encodeURIComponent(passkeyId)}/rename`;

/** A passkey: its name (renamable in place), when it was added and last used, and its removal. */
const passkeyRow = (page: Page, csrfToken: string, passkey: PasskeySummary) => html`<tr data-passkey-id="${passkey.passkeyId}">
<td data-label="${page.t.keyName}"><form class="rename-passkey" method="post" action="${page.href(renamePath(passkey.passkeyId))}">${csrfField(csrfToken)}<input name="name" aria-label="${page.t.newName}" maxlength="100" required value="${passkey.name}" autocomplete="off"> <button type="submit">${page.t.renameButton}</button></form></td>
<td data-label="${page.t.added}">${instant(page, passkey.createdAt)}</td>
<td data-label="${page.t.lastUsed}">${passkey.lastUsedAt ? instant(page, passkey.lastUsedAt) : page.t.notYet}</td>
<td class="actions"><a class="action remove" href="${page.href(removePath(passkey.passkeyId))}">${page.t.remove}</a></td>
</tr>`;

/**
 * The button and status line of a passkey ceremony, run by public/settings/passkeys.js: it asks
 * `options` for the browser's options, lets the authenticator answer, sends the answer to `verify`
 * and follows the redirect it gets back. Its status line (`#<id>-status`) speaks the page's language.
 */
export function ceremonyButton(
  page: Page,
  button: { id: string; ceremony: "register" | "signIn"; options: string; verify: string; label: string; csrfToken?: string },
): Html {
  const { t } = page;
  return html`<p><button id="${button.id}" type="button" data-ceremony="${button.ceremony}" data-options="${page.href(button.options)}" data-verify="${page.href(button.verify)}"${button.csrfToken ? html` data-csrf="${button.csrfToken}"` : ""}>${button.label}</button></p>
<p id="${button.id}-status" class="ceremony-status" role="status" aria-live="polite" data-working="${t.ceremonyWorking}" data-failed="${t.ceremonyFailed}" data-unsupported="${t.ceremonyUnsupported}"></p>
<noscript><p class="error">${t.needsScript}</p></noscript>`;
}

/** The optional name of a passkey being registered (the script sends it with the answer). */
export const passkeyNameField = (page: Page) =>
  html`<label>${page.t.passkeyNameLabel} <input id="passkey-name" name="passkeyName" maxlength="100" autocomplete="off"></label>`;

/** GET /settings/passkeys: the person's passkeys, each renamable and removable after a confirmation, and the button that adds another. */
async function passkeysView(c: Context<AppEnv>, page: Page, session: Session, refusedRename?: string): Promise<Html> {
  const { t } = page;
  const passkeys = await listPasskeys(createDb(c.env.DB), session.userId);
  const main = html`<section id="passkeys-section">
${noticeOf(c, { passkeyRemoved: t.passkeyRemoved, passkeyAdded: t.passkeyAdded, passkeyRenamed: t.passkeyRenamed })}
${refusedRename ? html`<p class="error" role="alert">${refusedRename}</p>` : ""}
<table id="passkeys" class="cards">
<thead><tr><th scope="col">${t.keyName}</th><th scope="col">${t.added}</th><th scope="col">${t.lastUsed}</th><th scope="col"></th></tr></thead>
<tbody>${passkeys.map((passkey) => passkeyRow(page, session.csrfToken, passkey))}</tbody>
</table>
${passkeyNameField(page)}
${ceremonyButton(page, {
  id: "passkey-add",
  ceremony: "register",
  options: "/settings/passkeys/options",
  verify: "/settings/passkeys/verify",
  label: t.addPasskeyButton,
  csrfToken: session.csrfToken,
})}
</section>`;
  return frame(page, { title: t.passkeysTitle, main, script: true, nav: "passkeys" });
}

/** Adding a passkey (JSON, for the script) and removing one (a confirmation page, then its form). */
export function mountPasskeys(app: Hono<AppEnv>): void {
  app.get(
    "/settings/passkeys",
    settingsPage(async (c, page, session) => htmlPage(c, passkeysView(c, page, session))),
  );
  app.post(
    "/settings/passkeys/:passkeyId/rename",
    settingsForm(async (c, page, session, form) => {
      try {
        await renamePasskey(createDb(c.env.DB), session.userId, pathParam(c, "passkeyId"), form.get("name") ?? "");
        return redirectTo(c, page.href("/settings/passkeys?notice=passkeyRenamed"));
      } catch (error) {
        if (!isFormRefusal(error)) throw error;
        return htmlPage(c, passkeysView(c, page, session, formProblem(page, error)), error.status);
      }
    }),
  );
  app.post(
    "/settings/passkeys/options",
    settingsCeremony(async (c, _body, session) => c.json(await registrationOptions(c, { kind: "signedIn", userId: session.userId }))),
  );
  app.post(
    "/settings/passkeys/verify",
    settingsCeremony(async (c, body, session) => {
      await completeRegistration(c, ceremonyAnswerOf<RegistrationResponseJSON>(body), { kind: "signedIn", userId: session.userId });
      return c.json({ redirect: pageOf(c).href("/settings/passkeys?notice=passkeyAdded") });
    }),
  );
  app.get(
    "/settings/passkeys/:passkeyId/remove",
    settingsPage(async (c, page, session) => {
      const passkeyId = pathParam(c, "passkeyId");
      const passkey = (await listPasskeys(createDb(c.env.DB), session.userId)).find((p) => p.passkeyId === passkeyId);
      if (!passkey) throw new ApiError("not_found", "This passkey was not found among yours.");
      const { t } = page;
      return htmlPage(
        c,
        confirmationPage(page, {
          title: t.removePasskeyTitle,
          explain: t.removePasskeyExplain(passkey.name),
          action: removePath(passkeyId),
          csrfToken: session.csrfToken,
          buttonId: "confirm-remove",
          buttonLabel: t.confirmRemovePasskey,
          back: "/settings/passkeys",
        }),
      );
    }),
  );
  app.post(
    "/settings/passkeys/:passkeyId/remove",
    settingsForm(async (c, page, session) => {
      await removePasskey(createDb(c.env.DB), session.userId, pathParam(c, "passkeyId"));
      return redirectTo(c, page.href("/settings/passkeys?notice=passkeyRemoved"));
    }),
  );
}
