// The settings pages' steps of `npm run check:pages` (issue 38): rolling, renaming and a custom
// expiry date on the keys pages, a refused form in the page's language, and every settings page at
// 390 px and 1280 px in both languages: no sideways scrolling, tap targets of at least 44 px, the
// chart's labels legible, no text of the other language. With `--docs-screenshot` each page's
// picture goes to docs/images/ (the README shows them), else to tmp/check-pages/.
import { join } from "node:path";
import { projectRoot } from "./local.mjs";
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
} from "./pagesCheck.mjs";

const ROLLED_KEY = "check-pages rolled";
const RENAMED_KEY = "check-pages renamed";
const SETTINGS_PATHS = ["/settings", "/settings/keys", "/settings/assistants", "/settings/passkeys", "/settings/activity"];
const WIDTHS = [390, 1280];
/** The smallest tap target (WCAG 2.5.5) and the smallest chart label, in CSS pixels. */
const MIN_TARGET_PX = 44;
const MIN_LABEL_PX = 11;
const DOCS_SCREENSHOTS = process.argv.includes("--docs-screenshot");
/** Where a page's picture goes: the README's and docs' pictures (desktop in English, phone in Japanese) to docs/images/ with --docs-screenshot. */
const imagesDir = (width, lang) =>
  join(projectRoot, ...(DOCS_SCREENSHOTS && width > 400 === (lang === "en") ? ["docs", "images"] : ["tmp", "check-pages"]));

/** Every text of a language long enough to be told apart, which the other language writes differently. */
function textsOnlyIn(lang, other) {
  const flat = (value) => (typeof value === "string" ? [value] : typeof value === "object" ? Object.values(value).flatMap(flat) : []);
  const others = new Set(flat(messagesOf(other)));
  return flat(messagesOf(lang)).filter((text) => text.length >= 8 && !others.has(text));
}

/** The key's own page, reached from its name on the keys page. */
async function openKeyPage(page, baseUrl, name) {
  await page.goto(`${baseUrl}/settings/keys`);
  const link = await page.evaluateHandle(
    (wanted) => [...document.querySelectorAll("table#keys tr[data-key-id] td:first-child a")].find((a) => a.textContent === wanted),
    name,
  );
  expect(link.asElement(), `no key named "${name}" on /settings/keys ${await pageState(page)}`);
  await Promise.all([page.waitForNavigation(), link.asElement().click()]);
}

/** What a page breaks at its width: sideways scrolling, small tap targets, small chart labels. */
function layoutProblems(minTarget, minLabel) {
  const problems = [];
  const { scrollWidth } = document.documentElement;
  if (scrollWidth > innerWidth) problems.push(`${scrollWidth} px wide in a ${innerWidth} px window`);
  const targets =
    "main button, main select, main input:not([type=hidden]):not([type=checkbox]):not([type=radio]), summary, a.action, .settings-nav a";
  for (const element of document.querySelectorAll(targets)) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.height < minTarget - 0.5)
      problems.push(`${element.outerHTML.slice(0, 60)} is ${box.height.toFixed(1)} px high`);
  }
  const chart = document.querySelector("svg#usage-chart");
  if (chart) {
    const scale = chart.getBoundingClientRect().width / chart.viewBox.baseVal.width;
    for (const text of chart.querySelectorAll("text")) {
      const size = Number.parseFloat(getComputedStyle(text).fontSize) * scale;
      if (size < minLabel) problems.push(`chart label "${text.textContent}" is ${size.toFixed(1)} px`);
    }
  }
  return problems;
}

/** One width and language over every settings page (and a key's page): layout, language, a picture of each. */
function layoutStep(width, lang) {
  const other = lang === "ja" ? "en" : "ja";
  return [
    `layout-${width}-${lang}`,
    async ({ page, baseUrl }) => {
      const foreignTexts = textsOnlyIn(other, lang);
      await page.setViewport({ width, height: 900 });
      try {
        const keyPage = await page.evaluate(async () => {
          const html = await (await fetch("/settings/keys")).text();
          return /href="(\/settings\/keys\/key_[^"?/]+)/.exec(html)?.[1];
        });
        for (const path of [...SETTINGS_PATHS, keyPage]) {
          await page.goto(`${baseUrl}${path}?lang=${lang}`, { waitUntil: "networkidle0" });
          const problems = await page.evaluate(layoutProblems, MIN_TARGET_PX, MIN_LABEL_PX);
          expect(problems.length === 0, `${path} at ${width} px (${lang}): ${problems.slice(0, 5).join("; ")}`);
          const text = await page.evaluate(() => document.body.textContent);
          const foreign = foreignTexts.filter((known) => text.includes(known));
          expect(foreign.length === 0, `${path}?lang=${lang} reads ${other} texts: ${foreign.slice(0, 3).join(" | ")}`);
          if (path !== keyPage) {
            const name = `settings-${path.split("/")[2] ?? "overview"}-${width}-${lang}.png`;
            await page.screenshot({ path: join(imagesDir(width, lang), name), type: "png", fullPage: width > 400 });
          }
        }
      } finally {
        await page.setViewport({ width: 1000, height: 900 });
      }
      return `${SETTINGS_PATHS.join(", ")} and a key's page at ${width} px in ${lang}: no sideways scrolling, tap targets >= ${MIN_TARGET_PX} px, chart labels >= ${MIN_LABEL_PX} px, no ${other} text`;
    },
  ];
}

export const SETTINGS_STEPS = [
  [
    "roll",
    async (state) => {
      const { page, baseUrl, server } = state;
      const oldKey = await createKey(page, baseUrl, { name: ROLLED_KEY, preset: "standard" });
      await hideNewKey(page);
      await openKeyPage(page, baseUrl, ROLLED_KEY);
      await expectElements(page, ["form#roll-key", "button#roll-key-submit", "form#rename-key"]);
      await clickAndLoad(page, "button#roll-key-submit");
      const newKey = await page.$eval("code#new-key", (code) => code.textContent.trim()).catch(() => null);
      expect(newKey?.startsWith("rgc_") && newKey !== oldKey, `no new key shown after rolling ${await pageState(page)}`);
      await hideNewKey(page);
      expectStatus(await callApi(server.url, oldKey, "getAccount"), 401, "getAccount with the rolled key's old secret");
      expectStatus(await callApi(server.url, newKey, "getAccount"), 200, "getAccount with the rolled key's new secret");
      state.rolledKey = newKey;
      return `"${ROLLED_KEY}" rolled on its page (button#roll-key-submit): the new secret shown once, getAccount 200 with it, 401 with the old one`;
    },
  ],
  [
    "rename",
    async ({ page, baseUrl }) => {
      await openKeyPage(page, baseUrl, ROLLED_KEY);
      await page.$eval("form#rename-key input[name=name]", (input, value) => (input.value = value), RENAMED_KEY);
      await clickAndLoad(page, "button#rename-key-submit");
      await page.goto(`${baseUrl}/settings/keys`);
      const names = await page.$$eval("table#keys tr[data-key-id] td:first-child a", (links) => links.map((a) => a.textContent));
      expect(names.includes(RENAMED_KEY) && !names.includes(ROLLED_KEY), `after renaming, the keys are named ${names.join(", ")}`);
      return `renamed "${ROLLED_KEY}" to "${RENAMED_KEY}" on its page (form#rename-key); the list says so`;
    },
  ],
  [
    "custom-expiry",
    async ({ page, baseUrl, server }) => {
      await page.goto(`${baseUrl}/settings/keys`);
      const lastDay = await page.$eval("form#create-key input[name=expiresOn]", (input) => input.max);
      const key = await createKey(page, baseUrl, { name: "check-pages dated", preset: "viewOnly", expiresOn: lastDay });
      await hideNewKey(page);
      const dayAfter = new Date(Date.parse(`${lastDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const shown = await page.$eval(".new-key time", (time) => time.textContent).catch(() => "");
      expect(shown === `${dayAfter} 00:00`, `a key dated ${lastDay} shows its expiry as "${shown}", not "${dayAfter} 00:00"`);
      expectStatus(await callApi(server.url, key, "getAccount"), 200, "getAccount with the dated key");
      return `a key expiring on ${lastDay} (the furthest day offered, a year ahead) ends at ${dayAfter} 00:00 in the account's time zone; getAccount 200`;
    },
  ],
  [
    "refusal-in-words",
    async ({ page, baseUrl }) => {
      const said = {};
      for (const lang of ["ja", "en"]) {
        await page.goto(`${baseUrl}/settings/keys?lang=${lang}`);
        await page.$eval("input[name=preset][value=individual]", (radio) => radio.click());
        await page.$$eval("form#create-key input[name=scopes]", (boxes) => {
          for (const box of boxes) if (box.checked) box.click();
        });
        await clickAndLoad(page, "button#create-key-submit");
        said[lang] = await page.$eval("form#create-key .error", (p) => p.textContent.trim()).catch(() => "");
        expect(said[lang] === messagesOf(lang).problemScopesNone, `no scope ticked (${lang}) says "${said[lang]}"`);
      }
      return `individual settings with no scope ticked: "${said.ja}" / "${said.en}"`;
    },
  ],
  ...WIDTHS.flatMap((width) => ["ja", "en"].map((lang) => layoutStep(width, lang))),
];
