// Headless Chromium for the checks that look at pages in a real browser (`npm run check:docs`,
// `npm run check:pages`): where it is, how it is launched, and the guard that keeps a page on
// this server alone. Needs Chromium (Debian: `apt-get install chromium`; else set CHROMIUM_PATH).
import { existsSync } from "node:fs";
import puppeteer from "puppeteer-core";

const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const LOCAL_PROTOCOLS = new Set(["data:", "blob:", "about:"]);

/** The browser to run: CHROMIUM_PATH, else the first one installed; throws saying how to get one. */
export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!path) throw new Error("no Chromium found: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH");
  return path;
}

/** Headless Chromium with a window of `width` x `height`, that resolves no host but this machine; `args`: more switches (a fake camera). */
export function launchChromium({ width, height, args = [] }) {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-background-networking", // no update or safe-browsing traffic of the browser's own
      // Belt and braces: no other host even resolves, besides the request guard below.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
      `--window-size=${width},${height}`,
      ...args,
    ],
    defaultViewport: { width, height },
  });
}

/**
 * Blocks every request of `page` to another host and records it, with every failed request and
 * page error. Resolves to `{ outside, failed }`, the lists it keeps filling while the page runs.
 */
export async function guardOrigins(page) {
  const outside = [];
  const failed = [];
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (LOCAL_PROTOCOLS.has(url.protocol) || LOOPBACK.has(url.hostname)) return request.continue();
    outside.push(request.url());
    return request.abort("blockedbyclient");
  });
  page.on("requestfailed", (request) => failed.push(`${request.url()} (${request.failure()?.errorText})`));
  page.on("pageerror", (error) => failed.push(`page error: ${error.message}`));
  return { outside, failed };
}
