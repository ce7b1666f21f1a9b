#!/usr/bin/env node
// `npm run check:pages`: issue 24's "Done when" in a real browser. Starts its own `npm run dev`
// (fresh state, demo account), opens the invite link it prints in headless Chromium with a virtual
// authenticator (the DevTools protocol's WebAuthn domain), registers a passkey, creates a view-only
// and an individual-settings key on the settings page and uses them from Node as curl would,
// revokes one (401), signs out and in again with the same passkey, loads the page in English and
// Japanese, and checks that nothing was asked of another origin. One line per step; a screenshot of
// each in tmp/check-pages/NN-step.png, and the settings page in tmp/check-pages/settings.png
// (`--docs-screenshot`: in docs/settings.png, the README's picture). Needs Chromium (Debian: `apt-get install chromium`; else set CHROMIUM_PATH).
// Run it through npm: the pages' messages.ts it imports needs Node 24, which npm puts first.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { messagesOf } from "../src/faces/pages/messages.ts";
import { guardOrigins, launchChromium } from "./lib/chromium.mjs";
import { startDemoServer } from "./lib/demoServer.mjs";
import { projectRoot } from "./lib/local.mjs";

const OUT_DIR = join(projectRoot, "tmp", "check-pages");
const SETTINGS_SHOT = process.argv.includes("--docs-screenshot")
  ? join(projectRoot, "docs", "settings.png")
  : join(projectRoot, "tmp", "check-pages", "settings.png");
const VIEWPORT = { width: 1000, height: 900 };
const TIMEOUT_MS = 30_000;
const LOG_TAIL_LINES = 40;
const SESSION_COOKIE = "rgc_session";
const VIEW_ONLY_KEY = "check-pages view-only";
const INDIVIDUAL_KEY = "check-pages individual";
const INDIVIDUAL_SCOPES = ["games:read", "library:write", "library:delete"];
const HIDDEN_SECRET = "rgc_••••••••••••••••••••••••••••••••••••••••••••••••";
/** Headings of the settings page, as src/faces/pages/messages.ts writes them in each language. */
const HEADINGS = ["planAndUsage", "keysTitle", "createKeyTitle", "passkeysTitle", "activityTitle"];
/** The settings page from its top (plan, usage, chart), in English, as the README shows it. */
async function settingsShot(page, baseUrl) {
  await page.goto(`${baseUrl}/settings?lang=en`, { waitUntil: "networkidle0" });
  await page.screenshot({ path: SETTINGS_SHOT, type: "png" });
}
const textsIn = (lang) => HEADINGS.map((name) => messagesOf(lang)[name]);
const quoted = (texts) => texts.map((text) => `"${text}"`).join(", ");

class StepFailure extends Error {}

/** Throws a StepFailure (the step's own message) unless `condition` holds. */
function expect(condition, message) {
  if (!condition) throw new StepFailure(message);
}

/** Calls the API from Node as curl would: `{ status, body }`. */
async function callApi(baseUrl, key, tool, { method = "GET", query, body } = {}) {
  const url = new URL(`/rest/v1/${tool}`, baseUrl);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body && JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

function expectStatus(reply, status, what) {
  const code = reply.body?.code ? ` ${reply.body.code}` : "";
  expect(reply.status === status, `${what}: expected ${status}, got ${reply.status}${code}: ${JSON.stringify(reply.body).slice(0, 300)}`);
}

/** What the page says, for a failure message: its address and the start of its visible text. */
async function pageState(page) {
  const text = await page.evaluate(() => document.body?.textContent ?? "").catch(() => "");
  return `at ${page.url()}, the page reads: ${text.replace(/\s+/g, " ").trim().slice(0, 400) || "(nothing)"}`;
}

/** Waits until the settings page is shown, after a ceremony the page's script finishes by itself. */
async function waitForSettings(page, after) {
  try {
    await page.waitForFunction(() => location.pathname === "/settings" && document.querySelector("#plan"), { timeout: TIMEOUT_MS });
  } catch {
    throw new StepFailure(`the settings page did not appear ${after}; ${await pageState(page)}`);
  }
}

/** Clicks `selector` and waits for the page it leads to. */
async function clickAndLoad(page, selector) {
  const button = await page.$(selector);
  expect(button, `no ${selector} ${await pageState(page)}`);
  await Promise.all([page.waitForNavigation({ timeout: TIMEOUT_MS }), button.click()]);
}

async function expectElements(page, selectors) {
  const missing = [];
  for (const selector of selectors) if (!(await page.$(selector))) missing.push(selector);
  expect(missing.length === 0, `missing ${missing.join(", ")} ${await pageState(page)}`);
}

/** Fills form#create-key (a name, a preset, for individual settings the scopes) and reads the key shown once. */
async function createKey(page, baseUrl, { name, preset, scopes }) {
  await page.goto(`${baseUrl}/settings`);
  await expectElements(page, ["form#create-key", `input[name=preset][value=${preset}]`, "button#create-key-submit"]);
  await page.$eval("form#create-key input[name=name]", (input, value) => (input.value = value), name);
  await page.$eval(`input[name=preset][value=${preset}]`, (radio) => radio.click());
  if (scopes) {
    await page.$$eval(
      "form#create-key input[name=scopes]",
      (boxes, wanted) => {
        for (const box of boxes) if (box.checked !== wanted.includes(box.value)) box.click();
      },
      scopes,
    );
  }
  await clickAndLoad(page, "button#create-key-submit");
  const apiKey = await page.$eval("code#new-key", (code) => code.textContent.trim()).catch(() => null);
  expect(apiKey?.startsWith("rgc_"), `no new key in code#new-key after creating "${name}" ${await pageState(page)}`);
  await expectElements(page, ["#copy-new-key"]);
  return apiKey;
}

/** The a.revoke link of the keys table's row naming `name`, or null. */
async function revokeLinkOf(page, name) {
  const handle = await page.evaluateHandle(
    (wanted) =>
      [...document.querySelectorAll("table#keys tr[data-key-id]")]
        .find((row) => row.textContent.includes(wanted))
        ?.querySelector("a.revoke"),
    name,
  );
  return handle.asElement();
}

/** Replaces the secret just shown, so that no screenshot holds it. */
async function hideNewKey(page) {
  await page.$eval("code#new-key", (code, hidden) => (code.textContent = hidden), HIDDEN_SECRET);
}

/** A game of the default catalog, found as a client would: the first hit of a search. */
async function someGameId(baseUrl, key) {
  const reply = await callApi(baseUrl, key, "searchGames", { query: { query: "ドラゴンクエスト", limit: "1" } });
  expectStatus(reply, 200, "searchGames with the individual key");
  const gameId = reply.body.items?.[0]?.gameId;
  expect(Number.isInteger(gameId), `searchGames found no game: ${JSON.stringify(reply.body).slice(0, 300)}`);
  return gameId;
}

/** addToLibrary then the two-step removeFromLibrary (preview, then confirm with its token). */
async function addAndRemove(baseUrl, key, gameId) {
  expectStatus(await callApi(baseUrl, key, "addToLibrary", { method: "POST", body: { gameId } }), 200, `addToLibrary ${gameId}`);
  const preview = await callApi(baseUrl, key, "removeFromLibrary", { method: "POST", body: { gameId } });
  expectStatus(preview, 200, "removeFromLibrary (preview)");
  expect(preview.body.confirmToken, `removeFromLibrary answered no confirmToken: ${JSON.stringify(preview.body)}`);
  const confirmToken = preview.body.confirmToken;
  const removed = await callApi(baseUrl, key, "removeFromLibrary", { method: "POST", body: { gameId, confirmToken } });
  expectStatus(removed, 200, "removeFromLibrary (confirmed)");
  expect(removed.body.removed === true, `removeFromLibrary did not remove: ${JSON.stringify(removed.body)}`);
}

/** The session cookie as the issue asks for it: HttpOnly, SameSite=Lax (Secure but on localhost). */
async function expectSessionCookie(page) {
  const cookie = (await page.browserContext().cookies()).find((candidate) => candidate.name === SESSION_COOKIE);
  expect(cookie, `no ${SESSION_COOKIE} cookie after registering`);
  const { httpOnly, sameSite, secure } = cookie;
  expect(
    httpOnly && sameSite === "Lax",
    `${SESSION_COOKIE} is ${JSON.stringify({ httpOnly, sameSite, secure })}, not HttpOnly and SameSite=Lax`,
  );
}

/** The virtual authenticator's credentials (the DevTools protocol's view of what it holds). */
async function storedCredentials({ cdp, authenticatorId }) {
  return (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
}

/**
 * The steps after the server's start, in order: each gets the shared state (page, baseUrl, ...),
 * may add to it, and answers the line it prints. A screenshot of the page follows each.
 */
const STEPS = [
  [
    "authenticator",
    async (state) => {
      state.cdp = await state.page.createCDPSession();
      await state.cdp.send("WebAuthn.enable");
      const options = {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      };
      ({ authenticatorId: state.authenticatorId } = await state.cdp.send("WebAuthn.addVirtualAuthenticator", { options }));
      return "a virtual CTAP2 authenticator (resident keys, user verification) in headless Chromium";
    },
  ],
  [
    "invite",
    async ({ page, server }) => {
      const response = await page.goto(server.inviteUrl);
      expect(response?.status() === 200, `the invite link answered ${response?.status()}`);
      await expectElements(page, ["#passkey-register"]);
      return "the invite link npm run dev printed shows #passkey-register";
    },
  ],
  [
    "register",
    async (state) => {
      await state.page.click("#passkey-register");
      await waitForSettings(state.page, "after #passkey-register");
      await expectElements(state.page, ["#plan", "#usage-today", "svg#usage-chart"]);
      const credentials = await storedCredentials(state);
      expect(credentials.length === 1 && credentials[0].isResidentCredential, `the authenticator holds ${credentials.length} credentials`);
      await expectSessionCookie(state.page);
      const plan = await state.page.$eval("#plan", (element) => element.textContent.trim());
      return `a passkey registered (rpId ${credentials[0].rpId}), HttpOnly SameSite=Lax ${SESSION_COOKIE}; /settings shows #plan (${plan}), #usage-today, svg#usage-chart`;
    },
  ],
  [
    "view-only-key",
    async (state) => {
      const { page, server } = state;
      state.viewOnlyKey = await createKey(page, state.baseUrl, { name: VIEW_ONLY_KEY, preset: "viewOnly" });
      await hideNewKey(page);
      expectStatus(await callApi(server.url, state.viewOnlyKey, "getAccount"), 200, "getAccount with the view-only key");
      const write = await callApi(server.url, state.viewOnlyKey, "addToLibrary", { method: "POST", body: { gameId: 1 } });
      expectStatus(write, 403, "addToLibrary with the view-only key");
      expect(write.body.code === "insufficient_scope", `addToLibrary with the view-only key: ${write.body.code}, not insufficient_scope`);
      return "created and shown once in code#new-key; getAccount 200, addToLibrary 403 insufficient_scope";
    },
  ],
  [
    "individual-key",
    async (state) => {
      const { page, server } = state;
      state.individualKey = await createKey(page, state.baseUrl, { name: INDIVIDUAL_KEY, preset: "individual", scopes: INDIVIDUAL_SCOPES });
      await hideNewKey(page);
      const gameId = await someGameId(server.url, state.individualKey);
      await addAndRemove(server.url, state.individualKey, gameId);
      return `created with ${INDIVIDUAL_SCOPES.join(", ")}; searchGames, addToLibrary ${gameId}, removeFromLibrary preview + confirm`;
    },
  ],
  [
    "revoke-confirm",
    async ({ page, baseUrl }) => {
      await page.goto(`${baseUrl}/settings`);
      await expectElements(page, ["table#keys tr[data-key-id] a.revoke"]);
      const link = await revokeLinkOf(page, VIEW_ONLY_KEY);
      expect(link, `no row of table#keys names "${VIEW_ONLY_KEY}" with an a.revoke link`);
      await Promise.all([page.waitForNavigation({ timeout: TIMEOUT_MS }), link.click()]);
      await expectElements(page, ["button#confirm-revoke"]);
      return `a.revoke of "${VIEW_ONLY_KEY}" asks for confirmation (button#confirm-revoke)`;
    },
  ],
  [
    "revoke",
    async ({ page, server, viewOnlyKey, individualKey }) => {
      await clickAndLoad(page, "button#confirm-revoke");
      expect(!(await revokeLinkOf(page, VIEW_ONLY_KEY)), `the row of "${VIEW_ONLY_KEY}" still offers a.revoke ${await pageState(page)}`);
      expectStatus(await callApi(server.url, viewOnlyKey, "getAccount"), 401, "getAccount with the revoked key");
      expectStatus(await callApi(server.url, individualKey, "getAccount"), 200, "getAccount with the individual key (not revoked)");
      return "revoked: the view-only key now gets 401, the individual key still 200";
    },
  ],
  [
    "sign-out",
    async ({ page, baseUrl }) => {
      await page.goto(`${baseUrl}/settings`);
      await clickAndLoad(page, "button#signout");
      await page.goto(`${baseUrl}/settings`);
      expect(new URL(page.url()).pathname === "/signin", `/settings after signing out went to ${page.url()}, not /signin`);
      await expectElements(page, ["#passkey-signin"]);
      return "button#signout; /settings now leads to /signin";
    },
  ],
  [
    "sign-in",
    async (state) => {
      await state.page.click("#passkey-signin");
      await waitForSettings(state.page, "after #passkey-signin");
      const [credential] = await storedCredentials(state);
      await settingsShot(state.page, state.baseUrl); // after the run's calls: the chart has a bar
      return `signed in again with the same passkey (its counter now ${credential.signCount}); /settings shown`;
    },
  ],
  ...[
    ["en", "ja"],
    ["ja", "en"],
  ].map(([lang, other]) => [
    `lang-${lang}`,
    async ({ page, baseUrl }) => {
      await page.goto(`${baseUrl}/settings?lang=${lang}`);
      const text = await page.evaluate(() => document.body.textContent);
      const missing = textsIn(lang).filter((known) => !text.includes(known));
      expect(missing.length === 0, `/settings?lang=${lang} lacks ${quoted(missing)}; ${await pageState(page)}`);
      const foreign = textsIn(other).filter((known) => text.includes(known));
      expect(foreign.length === 0, `/settings?lang=${lang} reads ${quoted(foreign)} (${other})`);
      return `/settings?lang=${lang} reads ${quoted(textsIn(lang))}`;
    },
  ]),
  [
    "same-origin",
    async ({ guard }) => {
      expect(guard.outside.length === 0, `requests to other origins (blocked): ${guard.outside.join(", ")}`);
      expect(guard.failed.length === 0, `failed: ${guard.failed.join("; ")}`);
      return "no request to another origin, none failed, no page error during the whole run";
    },
  ],
];

/** Runs the steps; on a failure names the step, saves its screenshot and prints the server's log tail. */
async function main() {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  let current = "01-server";
  let server;
  let browser;
  let page;
  try {
    server = await startDemoServer({ withInvite: true });
    console.log(`ok ${current}: npm run dev on ${server.url} printed the demo account's invite link`);
    browser = await launchChromium(VIEWPORT);
    page = await browser.newPage();
    const state = { page, server, guard: await guardOrigins(page), baseUrl: new URL(server.inviteUrl).origin };
    for (const [index, [name, run]] of STEPS.entries()) {
      current = `${String(index + 2).padStart(2, "0")}-${name}`;
      const line = await run(state);
      await page.screenshot({ path: join(OUT_DIR, `${current}.png`) });
      console.log(`ok ${current}: ${line}`);
    }
    console.log(`check:pages ok: screenshots in tmp/check-pages/, the settings page in ${SETTINGS_SHOT}`);
  } catch (error) {
    await page?.screenshot({ path: join(OUT_DIR, `${current}.png`) }).catch(() => {});
    const message = error instanceof StepFailure ? error.message : (error.stack ?? String(error));
    const tail = server
      ? `\nThe server's log, last ${LOG_TAIL_LINES} lines:\n${server.log().trimEnd().split("\n").slice(-LOG_TAIL_LINES).join("\n")}`
      : "";
    console.error(`check:pages FAILED at step ${current}: ${message}${tail}`);
    process.exitCode = 1;
  } finally {
    await browser?.close();
    await server?.stop();
  }
}

await main();
