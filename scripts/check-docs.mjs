#!/usr/bin/env node
// `npm run check:docs`: checks the documentation against the real server. Starts its own
// `npm run dev` (fresh state, demo account), then
// - examples: runs every example of README.md and docs/*.md (scripts/lib/docExamples.mjs; the
//   rules are in docs/README.md, "How the pages are checked"; output in tmp/check-docs/);
// - reference: opens /docs in headless Chromium with every request to another host blocked and
//   checks that the API reference renders from this server alone: the tool list is on the page,
//   and nothing was asked of any other origin. Leaves tmp/check-docs.png (the screenshot) and
//   tmp/check-docs.html (the rendered DOM). Needs Chromium (Debian: `apt-get install chromium`;
//   else set CHROMIUM_PATH).
// `--only examples|reference` runs one of the two; `--url http://127.0.0.1:8787` checks the
// reference page of a running server (examples need a fresh demo account, so only a server of
// their own). Run it through npm: the docPages.ts it imports needs Node 24, which npm puts first.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromiumPath, guardOrigins, launchChromium } from "./lib/chromium.mjs";
import { startDemoServer } from "./lib/demoServer.mjs";
import { runExamples } from "./lib/docExamples.mjs";
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

const CHECKS = ["examples", "reference"];

const { values } = parseArgs({
  options: { url: { type: "string" }, only: { type: "string" }, timeout: { type: "string", default: "60000" } },
});
const timeout = Number(values.timeout);
const outDir = join(projectRoot, "tmp");
const checks = values.url ? ["reference"] : values.only ? [values.only] : CHECKS;
if (!checks.every((check) => CHECKS.includes(check)) || (values.url && values.only === "examples")) {
  console.error("usage: npm run check:docs -- [--only examples|reference] | --url <server> (reference only)");
  process.exit(2);
}

async function checkReference(baseUrl) {
  const browser = await launchChromium({ width: 1400, height: 1000 });
  try {
    const page = await browser.newPage();
    const { outside, failed } = await guardOrigins(page);

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

if (checks.includes("reference")) {
  try {
    chromiumPath(); // fail now, not after the examples ran
  } catch (error) {
    console.error(`check:docs: ${error.message}; \`--only examples\` needs none`);
    process.exit(1);
  }
}
const server = values.url ? { url: values.url.replace(/\/$/, ""), stop: async () => {} } : await startDemoServer();
const problems = [];
try {
  if (checks.includes("examples")) problems.push(...(await runExamples(server)));
  if (checks.includes("reference")) problems.push(...(await checkReference(server.url)));
} finally {
  await server.stop();
}
if (problems.length) {
  console.error(
    `check:docs FAILED\n- ${problems.join("\n- ")}\nexamples: tmp/check-docs/examples.log; reference: tmp/check-docs.png, tmp/check-docs.html`,
  );
  process.exit(1);
}
if (checks.includes("examples"))
  console.log("check:docs ok: every example of README.md and docs/ ran as its page says (tmp/check-docs/examples.log).");
if (checks.includes("reference")) {
  console.log(`check:docs ok: /docs lists ${EXPECTED_TOOLS.join(", ")} with no request to another origin.`);
  console.log("screenshot: tmp/check-docs.png, DOM: tmp/check-docs.html");
}
