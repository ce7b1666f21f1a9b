import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { type FoundInvite, inviteByToken, invitePath } from "../../accounts/invites";
import { guardAttempts } from "../../accounts/throttle";
import { completeRegistration, registrationOptions } from "../../accounts/webauthn";
import type { AppEnv } from "../../env";
import { createDb } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { ceremonyAnswerOf, ceremonyRoute, pageRoute } from "./guards";
import { frame, type Html, htmlPage, type Page, pathParam } from "./layout";
import { formatUtc } from "./messages";
import { ceremonyButton, passkeyNameField } from "./passkeys";
import { signedInAs } from "./signin";

/** The invite a link names, when it can still be used; an unknown, used or expired one is refused (what the throttle counts). */
async function liveInviteOf(c: Context<AppEnv>, token: string): Promise<FoundInvite> {
  const invite = await inviteByToken(createDb(c.env.DB), token);
  if (!invite) {
    throw new ApiError("not_found", "This invite link is not valid: check that it was copied whole, or ask the operator for a new one.");
  }
  if (invite.state !== "live") {
    const what = invite.state === "used" ? "was already used" : "has expired";
    throw new ApiError("link_expired", `This invite link ${what}: ask the operator for a new one.`, { state: invite.state });
  }
  return invite;
}

/** A used or expired link, said in the person's language (410: it will not work again). */
function staleInvite(c: Context<AppEnv>, page: Page, error: ApiError) {
  const { t } = page;
  const main = html`<p class="error" role="alert">${error.details.state === "used" ? t.inviteUsed : t.inviteExpired}</p>`;
  return htmlPage(c, frame(page, { title: t.inviteTitle, main }), error.status);
}

/** A live invite: whose account it is for, when it expires, and the button that registers the passkey. */
function liveInvite(page: Page, invite: FoundInvite, token: string): Html {
  const { t } = page;
  return html`<p>${invite.userName ? t.inviteFor(invite.userName) : t.inviteForUnnamed}</p>
<p>${t.inviteOnce(formatUtc(invite.expiresAt))}</p>
${passkeyNameField(page)}
${ceremonyButton(page, {
  id: "passkey-register",
  ceremony: "register",
  options: `${invitePath(token)}/options`,
  verify: "/invite/verify",
  label: t.registerButton,
})}`;
}

/**
 * GET /invite/:token (the link the operator hands out), its registration ceremony, and a session
 * once the passkey is registered. A used or expired link says so (410); an unknown one is a 404.
 */
export function mountInvites(app: Hono<AppEnv>): void {
  app.get(
    "/invite/:token",
    pageRoute(async (c, page) => {
      const token = pathParam(c, "token");
      try {
        const invite = await guardAttempts(c, "invite", () => liveInviteOf(c, token));
        return htmlPage(c, frame(page, { title: page.t.inviteTitle, main: liveInvite(page, invite, token), script: true }));
      } catch (error) {
        if (error instanceof ApiError && error.code === "link_expired") return staleInvite(c, page, error);
        throw error;
      }
    }),
  );
  app.post(
    "/invite/:token/options",
    ceremonyRoute(async (c) =>
      c.json(await guardAttempts(c, "invite", () => registrationOptions(c, { kind: "invite", token: pathParam(c, "token") }))),
    ),
  );
  app.post(
    "/invite/verify",
    ceremonyRoute(async (c, body) => {
      const { userId } = await completeRegistration(c, ceremonyAnswerOf<RegistrationResponseJSON>(body), { kind: "invite" });
      return signedInAs(c, userId);
    }),
  );
}
