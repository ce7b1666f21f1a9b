// The helpers of `npm run check:pages` (scripts/check-pages.mjs) and its step modules: a step's
// failure, calling the API as curl would, reading a page, clicking, and making a key on the keys page.

import { en } from "../../src/faces/pages/messagesEn.ts";
import { ja } from "../../src/faces/pages/messagesJa.ts";

export const TIMEOUT_MS = 30_000;

/** The pages' texts in a language (the per-language files import only types, so Node 24 runs them as they are). */
export const messagesOf = (lang) => ({ ja, en })[lang];
const HIDDEN_SECRET = "rgc_••••••••••••••••••••••••••••••••••••••••••••••••";

export class StepFailure extends Error {}

/** Throws a StepFailure (the step's own message) unless `condition` holds. */
export function expect(condition, message) {
  if (!condition) throw new StepFailure(message);
}

/** Calls the API from Node as curl would: `{ status, body }`. */
export async function callApi(baseUrl, key, tool, { method = "GET", query, body } = {}) {
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

export function expectStatus(reply, status, what) {
  const code = reply.body?.code ? ` ${reply.body.code}` : "";
  expect(reply.status === status, `${what}: expected ${status}, got ${reply.status}${code}: ${JSON.stringify(reply.body).slice(0, 300)}`);
}

/** What the page says, for a failure message: its address and the start of its visible text. */
export async function pageState(page) {
  const text = await page.evaluate(() => document.body?.textContent ?? "").catch(() => "");
  return `at ${page.url()}, the page reads: ${text.replace(/\s+/g, " ").trim().slice(0, 400) || "(nothing)"}`;
}

/** Waits until the settings page is shown, after a ceremony the page's script finishes by itself. */
export async function waitForSettings(page, after) {
  try {
    await page.waitForFunction(() => location.pathname === "/settings" && document.querySelector("#plan"), { timeout: TIMEOUT_MS });
  } catch {
    throw new StepFailure(`the settings page did not appear ${after}; ${await pageState(page)}`);
  }
}

/** Clicks `selector` and waits for the page it leads to. */
export async function clickAndLoad(page, selector) {
  const button = await page.$(selector);
  expect(button, `no ${selector} ${await pageState(page)}`);
  await Promise.all([page.waitForNavigation({ timeout: TIMEOUT_MS }), button.click()]);
}

export async function expectElements(page, selectors) {
  const missing = [];
  for (const selector of selectors) if (!(await page.$(selector))) missing.push(selector);
  expect(missing.length === 0, `missing ${missing.join(", ")} ${await pageState(page)}`);
}

/** Fills form#create-key (a name, a preset, for individual settings the scopes) and reads the key shown once. */
export async function createKey(page, baseUrl, { name, preset, scopes, expiresOn }) {
  await page.goto(`${baseUrl}/settings/keys`);
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
  if (expiresOn) {
    await page.select("form#create-key select[name=expiresInDays]", "date");
    await page.$eval("form#create-key input[name=expiresOn]", (input, value) => (input.value = value), expiresOn);
  }
  await clickAndLoad(page, "button#create-key-submit");
  const apiKey = await page.$eval("code#new-key", (code) => code.textContent.trim()).catch(() => null);
  expect(apiKey?.startsWith("rgc_"), `no new key in code#new-key after creating "${name}" ${await pageState(page)}`);
  await expectElements(page, ["#copy-new-key"]);
  return apiKey;
}

/** The a.revoke link of the row naming `name` in table#keys (or the table `table`, e.g. "assistants"), or null. */
export async function revokeLinkOf(page, name, table = "keys") {
  const handle = await page.evaluateHandle(
    (wanted, id) =>
      [...document.querySelectorAll(`table#${id} tr[data-key-id]`)]
        .find((row) => row.textContent.includes(wanted))
        ?.querySelector("a.revoke"),
    name,
    table,
  );
  return handle.asElement();
}

/** Replaces the secret just shown, so that no screenshot holds it. */
export async function hideNewKey(page) {
  await page.$eval("code#new-key", (code, hidden) => (code.textContent = hidden), HIDDEN_SECRET);
}
