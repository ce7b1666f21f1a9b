import type { Context, Hono } from "hono";
import type { Session } from "../../accounts/sessions";
import type { AppEnv } from "../../env";
import { suggestGameIdentifier } from "../../tools/identifiers/suggestGameIdentifier";
import { addToLibrary } from "../../tools/library/addToLibrary";
import { addToWishlist } from "../../tools/wishlist/addToWishlist";
import { callerOf, isRefusal, type PersonCall } from "./asPerson";
import { settingsForm, settingsPage } from "./guards";
import { frame, htmlPage, noticeOf, PAGE_CSP, type Page, redirectTo } from "./layout";
import { gamesByTitle, gamesWithCode, isCodeFormatError } from "./scanLookup";
import { scanMessagesOf } from "./scanMessages";
import { type ScanResult, scanAssets, scanMain } from "./scanView";

/**
 * The scan page's policy: the pages' own, plus compiling WebAssembly (the barcode decoder served
 * from this origin, for browsers without BarcodeDetector). Every other page keeps the strict one.
 */
export const SCAN_CSP = PAGE_CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'");

/** A typed code as the search takes it: the digits, with the spaces and hyphens people copy from a box dropped. */
const typedCode = (raw: string) => raw.replace(/[\s-]/g, "");

/** What the page's query asks: a code to look up (and, for an unknown one, a title to search by). */
async function resultOf(call: PersonCall, code: string, title: string): Promise<ScanResult> {
  if (code === "") return { kind: "none" };
  try {
    const games = await gamesWithCode(call, code);
    if (games.length > 0) return { kind: "found", code, games };
  } catch (error) {
    if (isCodeFormatError(error)) return { kind: "badCode", code };
    throw error;
  }
  return { kind: "unknown", code, title, matches: title.trim() === "" ? null : await gamesByTitle(call, title) };
}

async function scanPage(c: Context<AppEnv>, page: Page, session: Session, code: string, refused?: { message: string; status: number }) {
  const s = scanMessagesOf(page.lang);
  const result = await resultOf(callerOf(c, session), code, c.req.query("title") ?? "");
  const notice = noticeOf(c, { addedToLibrary: s.addedToLibrary, addedToWishlist: s.addedToWishlist, suggested: s.suggested });
  const main = scanMain({ page, s, csrfToken: session.csrfToken, result, notice, refused: refused?.message });
  const status = refused ? (refused.status as 400) : 200;
  return htmlPage(c, frame(page, { title: s.scanTitle, main, assets: scanAssets }), status, SCAN_CSP);
}

type GameAction = (call: PersonCall, gameId: number, code: string) => Promise<unknown>;

/**
 * A one-tap form of the page: the tool runs for the person; done, back to the code's result with
 * a notice; refused (already there, a plan limit, a bad code), the result again with the reason.
 */
const gameForm = (action: GameAction, notice: string) =>
  settingsForm(async (c, page, session, form) => {
    const code = typedCode(form.get("code") ?? "");
    try {
      await action(callerOf(c, session), Number(form.get("gameId")), code);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return scanPage(c, page, session, code, error);
    }
    return redirectTo(c, page.href(`/scan?code=${encodeURIComponent(code)}&notice=${notice}#scan-result`));
  });

/** GET /scan (the camera, the typed code and its result), and its one-tap forms: add to the library or wishlist, suggest an unknown code for a game. */
export function mountScan(app: Hono<AppEnv>): void {
  app.get(
    "/scan",
    settingsPage(async (c, page, session) => scanPage(c, page, session, typedCode(c.req.query("code") ?? ""))),
  );
  app.post(
    "/scan/library",
    gameForm((call, gameId) => call(addToLibrary, { gameId }), "addedToLibrary"),
  );
  app.post(
    "/scan/wishlist",
    gameForm((call, gameId) => call(addToWishlist, { gameId }), "addedToWishlist"),
  );
  app.post(
    "/scan/suggest",
    gameForm((call, gameId, code) => call(suggestGameIdentifier, { gameId, kind: "janCode", value: code }), "suggested"),
  );
}
