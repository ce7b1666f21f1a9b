#!/usr/bin/env node
// `npm run check:docs`: opens /docs in headless Chromium with every request to another host
// blocked and checks that the API reference renders from this server alone: the tool list is on
// the page, and nothing was asked of any other origin. Starts its own `wrangler dev` on a free port
// (or checks a running server: `npm run check:docs -- --url http://127.0.0.1:8787`).
// Needs Chromium (Debian: `apt-get install chromium`; else set CHROMIUM_PATH). Leaves
// tmp/check-docs.png (the screenshot) and tmp/check-docs.html (the rendered DOM).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import puppeteer from "puppeteer-core";
import { startWrangler, waitUntilServing } from "./lib/devServer.mjs";
import { projectRoot } from "./lib/local.mjs";

/** Tools the rendered reference must list (by title and link), one or more per family. */
const EXPECTED_TOOLS = [
  "getAccount",
  "searchGames",
  "addToLibrary",
  "getWishlist",
  "getPlayRecords",
  "addConsole",
  "getTags",
  "exportMyData",
];
const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

const { values } = parseArgs({ options: { url: { type: "string" }, timeout: { type: "string", default: "60000" } } });
const timeout = Number(values.timeout);
const outDir = join(projectRoot, "tmp");

function chromiumPath() {
  const path = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!path) throw new Error("no Chromium found: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH");
  return path;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A `wrangler dev` of its own (no seeding: /docs and the OpenAPI document need no data). */
async function startServer() {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "rgc-docs-"));
  const child = startWrangler({ port, stateDir, adminToken: "check-docs", quiet: true });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(child, url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

async function check(baseUrl) {
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Belt and braces: no other host even resolves, besides the request filter below.
    args: ["--no-sandbox", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--window-size=1400,1000"],
    defaultViewport: { width: 1400, height: 1000 },
  });
  const outside = [];
  const failed = [];
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (["data:", "blob:", "about:"].includes(url.protocol) || LOOPBACK.has(url.hostname)) return request.continue();
      outside.push(request.url());
      return request.abort("blockedbyclient");
    });
    page.on("requestfailed", (request) => failed.push(`${request.url()} (${request.failure()?.errorText})`));
    page.on("pageerror", (error) => failed.push(`page error: ${error.message}`));

    const response = await page.goto(`${baseUrl}/docs`, { waitUntil: "networkidle0", timeout });
    if (response?.status() !== 200) throw new Error(`/docs answered ${response?.status()}`);
    const settled = (promise) =>
      promise.then(
        () => true,
        () => false,
      );
    const rendered = await settled(page.waitForSelector("li[data-sidebar-id] button[aria-expanded]", { timeout }));
    // Open every group of the sidebar: each family (tag) then lists its tools.
    await page.$$eval("li[data-sidebar-id] button[aria-expanded='false']", (buttons) => {
      for (const button of buttons) button.click();
    });
    const { tools } = await (await fetch(`${baseUrl}/rest/v1/tools`)).json();
    const expected = tools.filter((tool) => EXPECTED_TOOLS.includes(tool.name));
    const listed = (wanted) =>
      wanted.every(({ name, title }) =>
        [...document.querySelectorAll(`a[href$="/rest/v1/${name}"]`)].some((link) => link.textContent.includes(title)),
      );
    const shown = rendered && (await settled(page.waitForFunction(listed, { timeout }, expected)));

    mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: join(outDir, "check-docs.png") });
    writeFileSync(join(outDir, "check-docs.html"), await page.content());

    const problems = [];
    if (expected.length !== EXPECTED_TOOLS.length) problems.push(`the catalog lacks some of ${EXPECTED_TOOLS.join(", ")}`);
    if (!rendered) problems.push("the reference did not render (no sidebar)");
    else if (!shown) {
      const absent = [];
      for (const tool of expected) if (!(await page.evaluate(listed, [tool]))) absent.push(`${tool.name} (${tool.title})`);
      problems.push(`not listed on the rendered page: ${absent.join(", ")}`);
    }
    if (outside.length) problems.push(`requests to other origins (blocked): ${outside.join(", ")}`);
    if (failed.length) problems.push(`failed: ${failed.join("; ")}`);
    return problems;
  } finally {
    await browser.close();
  }
}

const server = values.url ? { url: values.url.replace(/\/$/, ""), stop: async () => {} } : await startServer();
let problems;
try {
  problems = await check(server.url);
} finally {
  await server.stop();
}
if (problems.length) {
  console.error(`check:docs FAILED\n- ${problems.join("\n- ")}\nscreenshot: tmp/check-docs.png, DOM: tmp/check-docs.html`);
  process.exit(1);
}
console.log(`check:docs ok: /docs lists ${EXPECTED_TOOLS.join(", ")} with no request to another origin.`);
console.log("screenshot: tmp/check-docs.png, DOM: tmp/check-docs.html");
