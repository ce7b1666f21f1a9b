// check:pages' /scan steps (src/faces/pages/scan.ts): a phone-sized Chromium (360 px) whose camera
// is a fake one playing a video of an EAN-13 barcode (drawn by bwip-js, written as Y4M frames), the
// signed-in person's session copied from the main browser. The camera reads the code (zxing-wasm's
// reader: headless Chromium on Linux has no BarcodeDetector), the code is unknown, a title search
// finds the game and the person suggests the code for it; their own search then finds it, not
// owned; one tap adds it to the library; the camera reads it again: owned. The game is fictional,
// imported through the operator API into this run's throwaway state: no real game gets a made-up code.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import bwipjs from "bwip-js/node";
import { guardOrigins, launchChromium } from "./chromium.mjs";

const PHONE = { width: 360, height: 740 };
const FRAME = { width: 640, height: 480 };
/** Controls of a page held in one hand: at least this tall and wide (WCAG 2.5.5). */
const TAP_TARGET_PX = 44;
const PLATFORM_ID = 9901;
const GAME = { gameId: 9_900_001, title: "チェック用スキャンの試作" };

/** EAN-13 with its check digit computed from the first 12 digits. */
function ean13(first12) {
  const sum = [...first12]
    .map(Number)
    .reverse()
    .reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return `${first12}${(10 - (sum % 10)) % 10}`;
}

/** A JAN of GS1 Japan's 49 prefix (the suggestion tool takes Japanese codes), given to the fictional game only. */
export const SCAN_CODE = ean13("490000099001");

class StepFailure extends Error {}

function expect(condition, message) {
  if (!condition) throw new StepFailure(message);
}

/** The RGBA pixels of the PNG bwip-js draws (8-bit RGBA, no interlace, filter 0 on every row, as it writes them). */
function pixelsOf(png) {
  const chunks = [];
  let header;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") header = data;
    if (type === "IDAT") chunks.push(data);
    at += 12 + length;
  }
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect(header[8] === 8 && header[9] === 6 && header[12] === 0, "bwip-js drew a PNG that is not 8-bit RGBA without interlace");
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 4 + 1;
  const luma = (x, y) => {
    const at = y * stride + 1 + x * 4;
    expect(raw[y * stride] === 0, "bwip-js drew a PNG row with a filter");
    const grey = 0.299 * raw[at] + 0.587 * raw[at + 1] + 0.114 * raw[at + 2];
    const alpha = raw[at + 3] / 255;
    return grey * alpha + 255 * (1 - alpha);
  };
  return { width, height, luma };
}

/**
 * A Y4M video (I420) of the barcode on a white label on a grey box, a little noise in each frame,
 * as Chromium's fake camera plays it (--use-file-for-fake-video-capture).
 */
async function writeBarcodeVideo(path, code) {
  const png = await bwipjs.toBuffer({
    bcid: "ean13",
    text: code,
    scale: 3,
    height: 22,
    includetext: true,
    paddingwidth: 12,
    paddingheight: 8,
    backgroundcolor: "FFFFFF",
  });
  const label = pixelsOf(png);
  const { width, height } = FRAME;
  const left = Math.floor((width - label.width) / 2);
  const top = Math.floor((height - label.height) / 2);
  const frames = [];
  for (let frame = 0; frame < 4; frame++) {
    const y = Buffer.alloc(width * height);
    for (let row = 0; row < height; row++) {
      for (let column = 0; column < width; column++) {
        const inside = column >= left && column < left + label.width && row >= top && row < top + label.height;
        const value = inside ? label.luma(column - left, row - top) : 150;
        const noise = ((column * 31 + row * 17 + frame * 13) % 9) - 4;
        y[row * width + column] = Math.max(16, Math.min(235, Math.round(16 + (value * 219) / 255 + noise)));
      }
    }
    const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
    frames.push(Buffer.from("FRAME\n"), y, chroma);
  }
  writeFileSync(path, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), ...frames]));
}

/** The fictional platform and game, through the operator API (NDJSON), with no JAN: the person's suggestion brings it. */
async function importFictionalGame(server) {
  const send = async (dataset, row) => {
    const response = await fetch(`${server.url}/admin/v1/master/${dataset}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${server.adminToken}`, "Content-Type": "application/x-ndjson" },
      body: `${JSON.stringify(row)}\n`,
    });
    expect(response.ok, `importing the fictional ${dataset} row: HTTP ${response.status} ${await response.text()}`);
  };
  await send("platforms", { platformId: PLATFORM_ID, name: "チェック機", nameEn: null, shortName: null, maker: null, releaseDate: null });
  await send("games", {
    ...GAME,
    titleReading: null,
    titleEn: [],
    aliases: [],
    platformId: PLATFORM_ID,
    publisherId: null,
    genreId: null,
    genreSubId: null,
    releaseDate: null,
    janCode: null,
    modelNumber: [],
    price: null,
    mediaId: null,
    gpsId: null,
    dbId: null,
    dbSlug: null,
    dbCoverId: null,
    editions: [],
  });
}

/** The page's answer after a navigation: the result's state and the code in the field. */
const resultOf = (page) =>
  page.evaluate(() => ({
    state: document.querySelector("#scan-result")?.dataset.state ?? null,
    code: document.querySelector("#code")?.value ?? null,
    cameraError: document.querySelector("#camera-section")?.dataset.error ?? null,
  }));

/** Starts the camera and waits for the script to send the code it read. */
async function scanWithCamera(page, timeoutMs) {
  await page.waitForSelector("#camera-section:not([hidden]) #start-camera", { timeout: timeoutMs });
  await Promise.all([page.waitForNavigation({ timeout: timeoutMs }), page.click("#start-camera")]).catch(async (error) => {
    throw new StepFailure(`the camera read no code: ${error.message}; ${JSON.stringify(await resultOf(page))}`);
  });
  return resultOf(page);
}

async function clickAndLoad(page, selector, timeoutMs) {
  const button = await page.$(selector);
  expect(button, `no ${selector} on ${page.url()}`);
  await Promise.all([page.waitForNavigation({ timeout: timeoutMs }), button.click()]);
}

/** Nothing wider than the phone, and every visible control a thumb's size. */
async function phoneFit(page) {
  const fit = await page.evaluate((minimum) => {
    const small = [...document.querySelectorAll("button, input:not([type=hidden]), a.language")]
      .filter((element) => element.offsetParent !== null)
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ element, box }) => element.tagName !== "A" && (box.height < minimum || box.width < minimum))
      .map(
        ({ element, box }) => `${element.id || element.className || element.tagName} ${Math.round(box.width)}x${Math.round(box.height)}`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, small };
  }, TAP_TARGET_PX);
  expect(fit.scrollWidth <= PHONE.width, `/scan scrolls sideways at ${PHONE.width} px: ${fit.scrollWidth} px wide`);
  expect(fit.small.length === 0, `controls under ${TAP_TARGET_PX} px: ${fit.small.join(", ")}`);
}

/**
 * The /scan steps for check-pages.mjs's list: each takes the shared state (the signed-in main
 * page, the server) and answers its line. The phone browser is closed by the last step, or by the
 * step that fails.
 */
export function scanSteps({ outDir, timeoutMs }) {
  const shot = (state, name) => state.scan.page.screenshot({ path: join(outDir, `scan-${name}.png`), fullPage: true });
  const steps = [
    [
      "scan-camera",
      async (state) => {
        await importFictionalGame(state.server);
        const video = join(outDir, "barcode.y4m");
        await writeBarcodeVideo(video, SCAN_CODE);
        const args = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${video}`];
        const browser = await launchChromium({ ...PHONE, args });
        const page = await browser.newPage();
        state.scan = { browser, page, guard: await guardOrigins(page) };
        await page.setCookie(...(await state.page.cookies(state.baseUrl)));
        await page.goto(`${state.baseUrl}/scan`);
        await phoneFit(page);
        const read = await scanWithCamera(page, timeoutMs);
        expect(read.code === SCAN_CODE, `the camera sent ${read.code}, not ${SCAN_CODE}`);
        expect(read.state === "unknown", `the fictional game's code answered ${read.state}, not unknown`);
        await phoneFit(page);
        await shot(state, "unknown");
        return `a ${PHONE.width} px Chromium with a fake camera playing an EAN-13 (${SCAN_CODE}, bwip-js): #start-camera, zxing-wasm reads it, /scan answers unknown; no sideways scroll, controls >= ${TAP_TARGET_PX} px`;
      },
    ],
    [
      "scan-suggest",
      async ({ scan }) => {
        await scan.page.type("#title", GAME.title);
        await clickAndLoad(scan.page, "#search-title", timeoutMs);
        await clickAndLoad(scan.page, `li[data-game-id="${GAME.gameId}"] button.suggest`, timeoutMs);
        const after = await resultOf(scan.page);
        expect(after.state === "notOwned", `after suggesting the code, /scan answers ${after.state}, not notOwned`);
        await shot({ scan }, "suggested");
        return `#search-title finds "${GAME.title}", button.suggest: the person's own search finds it by the code, not owned`;
      },
    ],
    [
      "scan-own",
      async ({ scan, baseUrl }) => {
        await clickAndLoad(scan.page, `article[data-game-id="${GAME.gameId}"] button.add-library`, timeoutMs);
        expect(
          (await resultOf(scan.page)).state === "owned",
          `after button.add-library, /scan answers ${(await resultOf(scan.page)).state}`,
        );
        await scan.page.goto(`${baseUrl}/scan?lang=ja`);
        const again = await scanWithCamera(scan.page, timeoutMs);
        expect(again.state === "owned", `the camera's second read answers ${again.state}, not owned`);
        await phoneFit(scan.page);
        await shot({ scan }, "owned");
        expect(scan.guard.outside.length === 0, `/scan asked other origins: ${scan.guard.outside.join(", ")}`);
        expect(scan.guard.failed.length === 0, `/scan failed: ${scan.guard.failed.join("; ")}`);
        await scan.browser.close();
        return "button.add-library: owned; in Japanese the camera reads the box again: owned; nothing asked of another origin, no page error (tmp/check-pages/scan-*.png)";
      },
    ],
  ];
  return steps.map(([name, run]) => [
    name,
    async (state) => {
      try {
        return await run(state);
      } catch (error) {
        await state.scan?.browser.close().catch(() => {});
        throw error;
      }
    },
  ]);
}
