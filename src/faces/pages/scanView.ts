import { html } from "hono/html";
import { csrfField, type Html, type Page } from "./layout";
import { formatCount } from "./messages";
import type { Game, ScannedGame } from "./scanLookup";
import type { ScanMessages } from "./scanMessages";

/** What the page shows under its form: nothing yet, the games of a code, or a code no game has (with a title search). */
export type ScanResult =
  | { kind: "none" }
  | { kind: "badCode"; code: string }
  | { kind: "found"; code: string; games: ScannedGame[] }
  | { kind: "unknown"; code: string; title: string; matches: Game[] | null };

/** A refusal of one of the page's forms (a limit, a game already there), shown at the top of the result. */
export interface ScanView {
  page: Page;
  s: ScanMessages;
  csrfToken: string;
  result: ScanResult;
  notice: Html;
  refused?: string;
}

/** The `lang` of a GET form: its action's query is dropped by the browser, so a chosen language rides in a field. */
function langField(page: Page): Html {
  return page.href("/scan") === "/scan" ? html`` : html`<input type="hidden" name="lang" value="${page.lang}">`;
}

/** The camera (shown by the script where the browser has one) and the typed-code form, which the camera fills and sends. */
function codeForm(view: ScanView, code: string): Html {
  const { page, s } = view;
  return html`<section id="camera-section" hidden data-unavailable="${s.cameraUnavailable}" data-stop="${s.stopCamera}" data-start="${s.startCamera}">
<button id="start-camera" class="primary" type="button">${s.startCamera}</button>
<div class="viewfinder" hidden><video id="camera" muted playsinline></video></div>
<p id="camera-status" class="help" role="status">${s.cameraHelp}</p>
</section>
<form id="code-form" method="get" action="/scan">${langField(page)}
<label for="code">${s.codeLabel}</label>
<div class="inline-field">
<input id="code" name="code" value="${code}" inputmode="numeric" autocomplete="off" required maxlength="20">
<button id="look-up" type="submit">${s.lookUp}</button>
</div>
</form>`;
}

const gameMeta = (s: ScanMessages, game: Game) =>
  html`<p class="meta">${game.platform.name ?? ""}${game.releaseDate ? html` · ${s.released} ${game.releaseDate}` : ""}</p>`;

/** A one-tap form of the result: POST with the CSRF token, the game and the code to come back to. */
function gameForm(view: ScanView, action: string, id: string, label: string, gameId: number, code: string): Html {
  return html`<form method="post" action="${view.page.href(action)}">${csrfField(view.csrfToken)}
<input type="hidden" name="gameId" value="${gameId}"><input type="hidden" name="code" value="${code}">
<button class="${id}" type="submit">${label}</button>
</form>`;
}

/** A found game: where the person has it, and the adds that still make sense. */
function foundGame(view: ScanView, found: ScannedGame, code: string): Html {
  const { s } = view;
  const { game, inLibrary, onWishlist, copies } = found;
  const holding = (yes: boolean, has: string, hasNot: string) => html`<li class="${yes ? "yes" : "no"}">${yes ? has : hasNot}</li>`;
  return html`<article class="game" data-game-id="${game.gameId}" data-in-library="${String(inLibrary)}" data-on-wishlist="${String(onWishlist)}" data-copies="${copies ?? ""}">
<h3>${game.title}</h3>
${gameMeta(s, game)}
<ul class="holdings">
${holding(inLibrary, s.inLibrary, s.notInLibrary)}
${copies === null ? "" : html`<li class="copies">${s.copies(formatCount(copies))}</li>`}
${holding(onWishlist, s.onWishlist, s.notOnWishlist)}
</ul>
<div class="actions">
${inLibrary ? "" : gameForm(view, "/scan/library", "add-library", s.addToLibrary, game.gameId, code)}
${inLibrary || onWishlist ? "" : gameForm(view, "/scan/wishlist", "add-wishlist", s.addToWishlist, game.gameId, code)}
</div>
</article>`;
}

/** A code no game has: search by title, then suggest the code for the game picked. */
function unknownCode(view: ScanView, result: Extract<ScanResult, { kind: "unknown" }>): Html {
  const { page, s } = view;
  const matches = result.matches;
  return html`<p>${s.unknownCode}</p>
<form id="title-form" method="get" action="/scan">${langField(page)}
<input type="hidden" name="code" value="${result.code}">
<label for="title">${s.titleLabel}</label>
<div class="inline-field">
<input id="title" name="title" value="${result.title}" required maxlength="100" autocomplete="off">
<button id="search-title" type="submit">${s.searchTitle}</button>
</div>
</form>
${matches !== null && matches.length === 0 ? html`<p id="no-title-match">${s.noTitleMatch}</p>` : ""}
${
  matches?.length
    ? html`<p class="help">${s.suggestionTerms}</p>
<ul id="title-matches" class="matches">${matches.map(
        (game) => html`<li class="game" data-game-id="${game.gameId}"><h3>${game.title}</h3>${gameMeta(s, game)}
${gameForm(view, "/scan/suggest", "suggest", s.suggestCode, game.gameId, result.code)}</li>`,
      )}</ul>`
    : ""
}`;
}

/** The state check:pages and a reader's tools can tell apart: owned, not owned, unknown. */
function stateOf(result: ScanResult): string {
  if (result.kind !== "found") return result.kind;
  return result.games.some((found) => found.inLibrary) ? "owned" : "notOwned";
}

function resultSection(view: ScanView): Html {
  const { result, s } = view;
  if (result.kind === "none" && !view.refused) return view.notice;
  const body =
    result.kind === "badCode"
      ? html`<p class="error" role="alert">${s.badCode}</p>`
      : result.kind === "found"
        ? html`<h2>${s.resultsFor(result.code)}</h2>${result.games.map((found) => foundGame(view, found, result.code))}`
        : result.kind === "unknown"
          ? unknownCode(view, result)
          : "";
  return html`<section id="scan-result" data-state="${stateOf(result)}" aria-live="polite">
${view.notice}
${view.refused ? html`<p class="error" role="alert">${view.refused}</p>` : ""}
${body}
</section>`;
}

/** The whole /scan page's main part. */
export function scanMain(view: ScanView): Html {
  const code = view.result.kind === "none" ? "" : view.result.code;
  return html`<div class="scan">
<p class="help">${view.s.scanIntro}</p>
${codeForm(view, code)}
${resultSection(view)}
</div>`;
}

/** The scan page's own stylesheet and script, after the pages' stylesheet. */
export const scanAssets = html`<link rel="stylesheet" href="/scan/scan.css">
<script src="/scan/scan.js" defer></script>`;
