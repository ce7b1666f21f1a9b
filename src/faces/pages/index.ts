import type { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../platform/errors";
import { mountActivity } from "./activity";
import { mountConsent } from "./consent";
import { pageRoute } from "./guards";
import { mountInvites } from "./invite";
import { mountKeys } from "./keyPages";
import { mountPasskeys } from "./passkeys";
import { mountScan } from "./scan";
import { mountSettings } from "./settings";
import { mountSignIn } from "./signin";

/** Paths of the pages: anything else under them is a page too (a 404 in the person's language, not the API's JSON). */
const PAGE_PATHS = ["/signin/*", "/signup/*", "/invite/*", "/settings/*", "/scan/*"];

/**
 * The pages face: passkey sign-in, invites, and the settings where a person manages their keys and
 * sees their usage. HTML in Japanese and English, plus the JSON steps of the passkey ceremonies.
 * The session cookie is read by these routes alone: the API stays bearer-only.
 */
export function mountPages(app: Hono<AppEnv>): void {
  mountSignIn(app);
  mountInvites(app);
  mountSettings(app);
  mountKeys(app);
  mountConsent(app);
  mountPasskeys(app);
  mountActivity(app);
  mountScan(app);
  for (const path of PAGE_PATHS) {
    app.all(
      path,
      pageRoute(async (c) => {
        throw new ApiError("not_found", `Nothing is served at ${c.req.path}.`);
      }),
    );
  }
}
