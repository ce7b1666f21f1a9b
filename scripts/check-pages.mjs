#!/usr/bin/env node
// `npm run check:pages`: issues 24's and 25's "Done when" in a real browser. Starts its own
// `npm run dev` (fresh state, demo account), opens the invite link it prints in headless Chromium
// with a virtual authenticator (the DevTools protocol's WebAuthn domain), registers a passkey,
// creates a view-only and an individual-settings key on the settings page and uses them from Node
// as curl would, revokes one (401), signs out and in again with the same passkey, loads the page in
// English and Japanese. Then an assistant connects by OAuth 2.1 (scripts/lib/oauthCheck.mjs): from
// Node, discovery from /mcp/oauth's 401, dynamic registration of a public client whose redirect URI
// is a loopback server of this script's; in the browser, the authorization request (PKCE S256,
// state, resource) shows the consent page, View only, Allow, and the browser lands on that loopback
// callback; from Node, the code exchange and the MCP SDK client on /mcp/oauth (tools, a view-only
// refusal), and on /mcp with the demo key as before; the settings page lists the assistant and
// revokes it (the token 401, the refresh invalid_grant). Last, nothing was asked of an origin but
// the server's and the callback's. One line per step; a screenshot of each in
// tmp/check-pages/NN-step.png, the settings page in tmp/check-pages/settings.png and the consent
// page in tmp/check-pages/consent.png (`--docs-screenshot`: docs/settings.png and docs/consent.png,
// the README's pictures, and docs/images/ from scripts/lib/settingsSteps.mjs, whose steps run
// between revoking a key and signing out: roll, rename, a chosen expiry date, a refusal in words,
// every settings page at 390 px and 1280 px in both languages). Needs Chromium (Debian:
// `apt-get install chromium`; else set CHROMIUM_PATH). Run it through npm: the pages' texts it
// imports (messagesJa.ts, messagesEn.ts) need Node 24, which npm puts first.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "./lib/adminCli.mjs";
import { guardOrigins, launchChromium } from "./lib/chromium.mjs";
import { startDemoServer } from "./lib/demoServer.mjs";
import { projectRoot } from "./lib/local.mjs";
import {
  authorizationRequest,
  callTool,
  discoverFromResource,
  exchangeCode,
  mcpClient,
  refusalOfRefresh,
  registerClient,
  startCallbackServer,
} from "./lib/oauthCheck.mjs";
import {
  callApi,
  clickAndLoad,
  createKey,
  expect,
  expectElements,
  expectStatus,
  hideNewKey,
  messagesOf,
  pageState,
  revokeLinkOf,
  StepFailure,
  TIMEOUT_MS,
  waitForSettings,
} from "./lib/pagesCheck.mjs";
import { scanSteps } from "./lib/scanCheck.mjs";
import { SETTINGS_STEPS } from "./lib/settingsSteps.mjs";

const OUT_DIR = join(projectRoot, "tmp", "check-pages");
const DOCS_SCREENSHOTS = process.argv.includes("--docs-screenshot");
const SETTINGS_SHOT = join(projectRoot, ...(DOCS_SCREENSHOTS ? ["docs"] : ["tmp", "check-pages"]), "settings.png");
const CONSENT_SHOT = join(projectRoot, ...(DOCS_SCREENSHOTS ? ["docs"] : ["tmp", "check-pages"]), "consent.png");
const VIEWPORT = { width: 1000, height: 900 };
const LOG_TAIL_LINES = 40;
const SESSION_COOKIE = "rgc_session";
const VIEW_ONLY_KEY = "check-pages view-only";
const INDIVIDUAL_KEY = "check-pages individual";
const INDIVIDUAL_SCOPES = ["games:read", "library:write", "library:delete"];
const ASSISTANT_NAME = "check-pages assistant";
const MCP_OAUTH_PATH = "/mcp/oauth";
/** tools/list names what the key can call: a view-only grant reads, a standard key also writes, neither deletes. */
const listed = (tools, name) => tools.some((tool) => tool.name === name);
/** Headings of the settings overview, as src/faces/pages/messagesJa.ts and messagesEn.ts write them. */
const HEADINGS = ["planAndUsage", "timeZoneTitle", "signOutEverywhere", "keysTitle", "activityTitle"];
/** The settings page from its top (plan, usage, chart), in English, as the README shows it. */
async function settingsShot(page, baseUrl) {
  await page.goto(`${baseUrl}/settings?lang=en`, { waitUntil: "networkidle0" });
  await page.screenshot({ path: SETTINGS_SHOT, type: "png" });
}
const textsIn = (lang) => HEADINGS.map((name) => messagesOf(lang)[name]);
const quoted = (texts) => texts.map((text) => `"${text}"`).join(", ");

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
 * Records each request of `page` to an http(s) origin not in `allowed` (a Set the run may add to),
 * stricter than guardOrigins, which lets any loopback port through: the server's origin, and from
 * the OAuth steps on the assistant's callback server, are the only ones a page may ask.
 */
function recordOrigins(page, allowed) {
  const strays = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if ((url.protocol === "http:" || url.protocol === "https:") && !allowed.has(url.origin)) strays.push(request.url());
  });
  return strays;
}

const shortId = (id) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/** Runs `work` (an MCP call expected to fail), answering the error it failed with. */
async function failureOf(work) {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new StepFailure("the MCP call succeeded, though it should have been refused");
}

/**
 * The steps after the server's start, in order: each gets the shared state (page, baseUrl, ...),
 * may add to it, and answers the line it prints. A screenshot of the page follows each.
 */
/** The documented whole-account restore order (docs/exports-and-imports.md, Imports). */
const RESTORE_ORDER = ["customGames", "consoles", "library", "wishlist", "playRecords", "playLogs", "tags", "collections"];
const LOGGED_CONSOLE = "check-pages 本体";
const LOG_TITLE = "check-pages 電池交換";

/** A fresh PREMIUM account and a key with every scope, through the operator API. */
async function freshAccount(server) {
  const admin = async (path, body) => {
    const response = await fetch(`${server.url}/admin/v1${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${server.adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status === 201, `POST /admin/v1${path}: HTTP ${response.status}`);
    return response.json();
  };
  const { userId } = await admin("/users", { plan: "PREMIUM", name: "check-pages restore" });
  const { apiKey } = await admin(`/users/${userId}/keys`, { preset: "individual", scopes: SCOPES });
  return apiKey;
}

/** One dataset's export file (JSON), as the documented loop downloads it. */
async function exportedFile(baseUrl, key, dataset) {
  const body = { dataset, format: "json", ...(dataset === "playRecords" ? { includeHistory: true } : {}) };
  const link = await callApi(baseUrl, key, "exportMyData", { method: "POST", body });
  expectStatus(link, 200, `exportMyData ${dataset}`);
  const file = await fetch(link.body.url);
  expect(file.status === 200, `downloading the ${dataset} export: HTTP ${file.status}`);
  return file.text();
}

/** Uploads one export file into the account of `key` and waits for the job: its final status. */
async function importedFile(baseUrl, key, dataset, file) {
  const job = await callApi(baseUrl, key, "importMyData", { method: "POST", body: {} });
  expectStatus(job, 200, `importMyData for ${dataset}`);
  let status = await (await fetch(job.body.uploadUrl, { method: "PUT", body: file })).json();
  for (let i = 0; i < 100 && status.state === "processing"; i++) {
    const reply = await callApi(baseUrl, key, "getImportStatus", { method: "POST", body: { jobId: job.body.jobId } });
    expectStatus(reply, 200, `getImportStatus for ${dataset}`);
    status = reply.body;
  }
  expect(status.finished === true && status.rowsFailed === 0, `importing ${dataset}: ${JSON.stringify(status).slice(0, 300)}`);
  return status;
}

/**
 * API only: a console with a maintenance log on the demo account, the whole account exported and
 * restored in the documented order into a fresh account, where the console has its log again.
 */
async function maintenanceLogsRoundTrip({ server, baseUrl }) {
  const key = server.keys.full;
  const added = await callApi(baseUrl, key, "addConsole", { method: "POST", body: { name: LOGGED_CONSOLE } });
  expectStatus(added, 200, "addConsole");
  const log = { consoleId: added.body.item.consoleId, title: LOG_TITLE, status: "DONE", completedDate: "2024-03-01" };
  expectStatus(await callApi(baseUrl, key, "addConsoleMaintenanceLog", { method: "POST", body: log }), 200, "addConsoleMaintenanceLog");
  const restoredKey = await freshAccount(server);
  let rows = 0;
  for (const dataset of RESTORE_ORDER) {
    rows += (await importedFile(baseUrl, restoredKey, dataset, await exportedFile(baseUrl, key, dataset))).rowsAdded;
  }
  const consoles = await callApi(baseUrl, restoredKey, "getConsoles", { query: { name: LOGGED_CONSOLE } });
  expectStatus(consoles, 200, "getConsoles in the restored account");
  const restored = consoles.body.items.find((item) => item.name === LOGGED_CONSOLE);
  expect(restored, `the restored account has no console "${LOGGED_CONSOLE}"`);
  const logs = await callApi(baseUrl, restoredKey, "getConsoleMaintenanceLogs", { query: { consoleId: restored.consoleId } });
  expectStatus(logs, 200, "getConsoleMaintenanceLogs in the restored account");
  const back = logs.body.items.find((item) => item.title === LOG_TITLE);
  expect(back?.status === "DONE" && back.completedDate === "2024-03-01", `the restored console's logs: ${JSON.stringify(logs.body.items)}`);
  return `the whole account exported (${RESTORE_ORDER.length} datasets) and imported into a fresh PREMIUM account in the documented order (${rows} rows): console "${LOGGED_CONSOLE}" has its maintenance log "${LOG_TITLE}" (DONE, 2024-03-01) again`;
}

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
      await page.goto(`${baseUrl}/settings/keys`);
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
  ...SETTINGS_STEPS,
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
  // English last: the language is remembered (a cookie), and the consent page's screenshot is in English.
  ...[
    ["ja", "en"],
    ["en", "ja"],
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
    "oauth-discovery",
    async (state) => {
      state.callback = await startCallbackServer();
      state.allowedOrigins.add(state.callback.origin);
      state.resourceUrl = `${state.baseUrl}${MCP_OAUTH_PATH}`;
      const { resourceMetadataUrl, resource, as } = await discoverFromResource(state.resourceUrl);
      expect(as.issuer === state.baseUrl, `the authorization server's issuer is ${as.issuer}, not ${state.baseUrl}`);
      const missing = ["authorization_endpoint", "token_endpoint", "registration_endpoint"].filter((name) => !as[name]);
      expect(missing.length === 0, `the authorization server's metadata lacks ${missing.join(", ")}: ${JSON.stringify(as)}`);
      expect(
        as.code_challenge_methods_supported?.includes("S256"),
        `the metadata offers PKCE ${as.code_challenge_methods_supported}, not S256`,
      );
      state.as = as;
      const metadataPath = new URL(resourceMetadataUrl).pathname;
      return `POST ${MCP_OAUTH_PATH} without a token: 401 naming resource_metadata ${metadataPath}; it names ${resource.resource} and the issuer ${as.issuer}, whose metadata has the authorize, token and registration endpoints and PKCE S256`;
    },
  ],
  [
    "oauth-register",
    async (state) => {
      const { as, callback } = state;
      state.client = await registerClient(as, { clientName: ASSISTANT_NAME, redirectUri: callback.redirectUri });
      const { client_id: clientId, client_secret: secret, token_endpoint_auth_method: method } = state.client;
      expect(clientId && !secret, `the registration answered ${JSON.stringify({ clientId, secret: secret && "(a secret)" })}`);
      expect(method === "none", `the registered client authenticates with ${method}, not none`);
      return `"${ASSISTANT_NAME}" registered by RFC 7591 (public, token_endpoint_auth_method none, redirect ${callback.redirectUri}): client_id ${shortId(clientId)}`;
    },
  ],
  [
    "oauth-consent",
    async (state) => {
      const { page, as, client, callback, resourceUrl } = state;
      state.authorization = await authorizationRequest(as, client, { redirectUri: callback.redirectUri, resource: resourceUrl });
      await page.setExtraHTTPHeaders({ "Accept-Language": "en" }); // the consent page in English, like settings.png
      try {
        const response = await page.goto(state.authorization.url, { waitUntil: "networkidle0" });
        expect(response?.status() === 200, `the authorization URL answered ${response?.status()} ${await pageState(page)}`);
        await expectElements(page, [
          "form#consent",
          "#client-name",
          "#redirect-host",
          "input[name=preset][value=viewOnly]",
          "#consent-allow",
          "#consent-deny",
        ]);
        const shown = await page.evaluate(() => ({
          name: document.querySelector("#client-name").textContent.trim(),
          host: document.querySelector("#redirect-host").textContent.trim(),
          loopbackWarning: Boolean(document.querySelector("#loopback-warning")),
        }));
        const { host } = new URL(callback.origin);
        expect(shown.name === ASSISTANT_NAME, `the consent page names the client "${shown.name}", not "${ASSISTANT_NAME}"`);
        expect(shown.host === host, `the consent page sends access to "${shown.host}", not ${host}`);
        await page.screenshot({ path: CONSENT_SHOT, type: "png", fullPage: true });
        if (CONSENT_SHOT !== join(OUT_DIR, "consent.png"))
          await page.screenshot({ path: join(OUT_DIR, "consent.png"), type: "png", fullPage: true });
        const warning = shown.loopbackWarning ? ", with #loopback-warning" : "";
        return `the authorization URL (PKCE S256, state, resource) shows the consent page: #client-name "${shown.name}", #redirect-host "${shown.host}"${warning}`;
      } finally {
        await page.setExtraHTTPHeaders({});
      }
    },
  ],
  [
    "oauth-allow",
    async (state) => {
      const { page, callback, authorization, as } = state;
      await page.$eval("input[name=preset][value=viewOnly]", (radio) => radio.click());
      const policyErrors = [];
      const onConsole = (message) => {
        if (/Content.Security.Policy|form-action/i.test(message.text())) policyErrors.push(message.text());
      };
      page.on("console", onConsole);
      try {
        await Promise.all([page.waitForNavigation({ timeout: TIMEOUT_MS }), page.click("#consent-allow")]);
        await page.waitForFunction((origin) => location.origin === origin, { timeout: TIMEOUT_MS }, callback.origin).catch(() => {});
      } catch (error) {
        throw new StepFailure(`Allow did not lead anywhere (${error.message}); ${policyErrors.join(" ")} ${await pageState(page)}`);
      } finally {
        page.off("console", onConsole);
      }
      const blocked = policyErrors.length ? ` Chromium said: ${policyErrors.join(" ")}` : "";
      expect(
        callback.received.length === 1 && new URL(page.url()).origin === callback.origin,
        `after Allow the browser is not on the callback (the consent page's CSP form-action may hold the redirect):${blocked} ${callback.received.length} callback requests; ${await pageState(page)}`,
      );
      const [callbackUrl] = callback.received;
      const { searchParams } = callbackUrl;
      expect(searchParams.get("code"), `the callback got no code: ${callbackUrl.search}`);
      expect(searchParams.get("state") === authorization.state, `the callback's state is ${searchParams.get("state")}, not the request's`);
      expect(searchParams.get("iss") === as.issuer, `the callback's iss is ${searchParams.get("iss")}, not ${as.issuer}`);
      state.callbackUrl = callbackUrl;
      return `View only, #consent-allow: the browser lands on ${callback.redirectUri} with a code, the request's state and iss ${as.issuer} (CSP form-action let the redirect through)`;
    },
  ],
  [
    "oauth-token",
    async (state) => {
      const { as, client, authorization, callbackUrl, callback, resourceUrl } = state;
      state.tokens = await exchangeCode(as, client, authorization, callbackUrl, {
        redirectUri: callback.redirectUri,
        resource: resourceUrl,
      });
      const { access_token: access, refresh_token: refresh, token_type: type, expires_in: expiresIn, scope } = state.tokens;
      expect(access && refresh, `the token response lacks ${access ? "a refresh token" : "an access token"}`);
      expect(type.toLowerCase() === "bearer", `the token type is ${type}, not bearer`);
      return `the code exchanged with the PKCE verifier: a bearer access token (expires_in ${expiresIn} s), a refresh token, scope "${scope}"`;
    },
  ],
  [
    "oauth-mcp",
    async (state) => {
      const { client, lastResponse } = await mcpClient(state.resourceUrl, state.tokens.access_token);
      state.oauthMcp = { client, lastResponse };
      const { tools } = await client.listTools();
      expect(
        listed(tools, "getAccount") && listed(tools, "searchGames") && !listed(tools, "addToLibrary"),
        `tools/list on ${MCP_OAUTH_PATH} (view only) lists ${tools.map((tool) => tool.name).join(", ")}`,
      );
      const account = await callTool(client, "getAccount");
      expect(!account.isError, `getAccount on ${MCP_OAUTH_PATH} failed: ${JSON.stringify(account.body).slice(0, 300)}`);
      const write = await callTool(client, "addToLibrary", { gameId: 1 });
      expect(
        write.isError && write.body.code === "insufficient_scope",
        `addToLibrary on ${MCP_OAUTH_PATH} (view only): ${JSON.stringify(write)}`,
      );
      return `the MCP SDK client on ${MCP_OAUTH_PATH} with the access token: tools/list ${tools.length} tools, getAccount ok, addToLibrary isError insufficient_scope`;
    },
  ],
  [
    "mcp-key",
    async ({ server }) => {
      const key = server.keys.standard;
      expect(key, `npm run dev printed no standard demo key (found: ${Object.keys(server.keys).join(", ") || "none"})`);
      const bare = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      await bare.body?.cancel();
      const challenge = bare.headers.get("WWW-Authenticate") ?? "";
      expect(
        bare.status === 401 && !challenge.includes("resource_metadata"),
        `/mcp without a key: ${bare.status}, WWW-Authenticate: ${challenge}`,
      );
      const { client } = await mcpClient(`${server.url}/mcp`, key);
      try {
        const { tools } = await client.listTools();
        expect(
          listed(tools, "addToLibrary") && !listed(tools, "removeFromLibrary"),
          `tools/list on /mcp (standard key) lists ${tools.map((tool) => tool.name).join(", ")}`,
        );
        const account = await callTool(client, "getAccount");
        expect(!account.isError, `getAccount on /mcp with the standard key failed: ${JSON.stringify(account.body).slice(0, 300)}`);
        return `/mcp unchanged: without a key 401 "${challenge}" (no OAuth advertised); the SDK client with the demo standard key: tools/list ${tools.length} tools, getAccount ok`;
      } finally {
        await client.close();
      }
    },
  ],
  [
    "assistant-listed",
    async ({ page, baseUrl }) => {
      await page.goto(`${baseUrl}/settings/assistants`);
      await expectElements(page, ["#assistants-section", "table#assistants tr[data-key-id]"]);
      const link = await revokeLinkOf(page, ASSISTANT_NAME, "assistants");
      expect(link, `no row of table#assistants names "${ASSISTANT_NAME}" with an a.revoke link ${await pageState(page)}`);
      await link.scrollIntoView();
      await page.screenshot({ path: join(OUT_DIR, "assistants.png") });
      await Promise.all([page.waitForNavigation({ timeout: TIMEOUT_MS }), link.click()]);
      await expectElements(page, ["button#confirm-revoke"]);
      return `table#assistants lists "${ASSISTANT_NAME}" (tmp/check-pages/assistants.png); its a.revoke asks for confirmation (button#confirm-revoke)`;
    },
  ],
  [
    "assistant-revoke",
    async ({ page, oauthMcp, as, client, tokens }) => {
      await clickAndLoad(page, "button#confirm-revoke");
      expect(
        !(await revokeLinkOf(page, ASSISTANT_NAME, "assistants")),
        `the row of "${ASSISTANT_NAME}" still offers a.revoke ${await pageState(page)}`,
      );
      const error = await failureOf(() => oauthMcp.client.listTools());
      const response = oauthMcp.lastResponse();
      const challenge = response?.headers.get("WWW-Authenticate") ?? "";
      expect(response?.status === 401, `tools/list with the revoked assistant's token: HTTP ${response?.status} (${error.message})`);
      expect(challenge.includes("invalid_token"), `the 401 challenges with "${challenge}", not invalid_token`);
      await oauthMcp.client.close().catch(() => {});
      const refusal = await refusalOfRefresh(as, client, tokens.refresh_token);
      expect(refusal === "invalid_grant", `refreshing the revoked grant: ${refusal ?? "new tokens"}, not invalid_grant`);
      const names = challenge.includes("resource_metadata") ? ", resource_metadata" : "";
      return `button#confirm-revoke: the next tools/list with the access token gets HTTP 401 (error="invalid_token"${names}), the refresh token invalid_grant`;
    },
  ],
  ["maintenance-logs-round-trip", maintenanceLogsRoundTrip],
  [
    "same-origin",
    async ({ guard, strays, callback }) => {
      expect(guard.outside.length === 0, `requests to other origins (blocked): ${guard.outside.join(", ")}`);
      expect(strays.length === 0, `requests to other loopback origins: ${strays.join(", ")}`);
      expect(guard.failed.length === 0, `failed: ${guard.failed.join("; ")}`);
      return `no request to another origin than the server's (and the assistant's callback ${callback.origin}), none failed, no page error during the whole run`;
    },
  ],
  ...scanSteps({ outDir: OUT_DIR, timeoutMs: TIMEOUT_MS }),
];

/** Runs the steps; on a failure names the step, saves its screenshot and prints the server's log tail. */
async function main() {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  let current = "01-server";
  let server;
  let browser;
  let page;
  let state;
  try {
    server = await startDemoServer({ withInvite: true });
    console.log(`ok ${current}: npm run dev on ${server.url} printed the demo account's invite link`);
    browser = await launchChromium(VIEWPORT);
    page = await browser.newPage();
    const baseUrl = new URL(server.inviteUrl).origin;
    const allowedOrigins = new Set([baseUrl]);
    state = { page, server, baseUrl, allowedOrigins, guard: await guardOrigins(page), strays: recordOrigins(page, allowedOrigins) };
    for (const [index, [name, run]] of STEPS.entries()) {
      current = `${String(index + 2).padStart(2, "0")}-${name}`;
      const line = await run(state);
      await page.screenshot({ path: join(OUT_DIR, `${current}.png`) });
      console.log(`ok ${current}: ${line}`);
    }
    console.log(
      `check:pages ok: screenshots in tmp/check-pages/, the settings page in ${SETTINGS_SHOT}, the consent page in ${CONSENT_SHOT}`,
    );
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
    await state?.callback?.stop();
    await server?.stop();
  }
}

await main();
