#!/usr/bin/env node
// `npm run bench:search`: p50/p95 of searchGames over HTTP against the local runtime (wrangler
// dev, local D1) holding the synthetic master from `npm run gen:master -- --games 100000`.
// A benchmark, not a test: numbers depend on the machine; the README shows one run.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations, startWrangler, waitUntilServing } from "./lib/devServer.mjs";
import { MASTER_DATASETS, adminFetch, importNdjsonFile, projectRoot } from "./lib/local.mjs";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "bench-data/master" },
    state: { type: "string", default: "bench-data/state" },
    port: { type: "string", default: "8799" },
    samples: { type: "string", default: "300" },
    traces: { type: "boolean", default: false },
  },
});
// wrangler dev writes a trace of every call to a local SQLite store (its X_LOCAL_OBSERVABILITY
// feature, on by default): a cost of the development tool, not of the API, which production does
// not pay in the request path. The benchmark turns it off unless --traces asks to keep it.
if (!values.traces) process.env.X_LOCAL_OBSERVABILITY = "false";
const dataDir = join(projectRoot, values.data);
if (!existsSync(join(dataDir, "games.ndjson"))) {
  console.error(`No ${values.data}/games.ndjson: run \`npm run gen:master -- --games 100000\` first.`);
  process.exit(1);
}
const samples = Number(values.samples);
const baseUrl = `http://127.0.0.1:${values.port}`;
const token = randomBytes(18).toString("base64url");
const adminOptions = { token };
process.env.RGC_BASE_URL = baseUrl;

const games = readFileSync(join(dataDir, "games.ndjson"), "utf8").trim().split("\n").map((line) => JSON.parse(line));

// Deterministic picks so runs compare: every k-th game.
const pick = (list, count) => Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);
/**
 * `length` letters or digits from the middle of a title, as someone would type part of it:
 * punctuation and spaces are skipped (they are not searched), and the fragment does not start with
 * a long-vowel mark, which only lengthens the kana before it and is dropped on its own.
 */
const middle = (text, length) => {
  const chars = [...text].filter((ch) => /[\p{L}\p{N}]/u.test(ch));
  let start = Math.max(0, Math.floor(chars.length / 2) - Math.floor(length / 2));
  while (start > 0 && chars[start] === "ー") start--;
  return chars.slice(start, start + length).join("");
};
const search = (args) => ["searchGames", { ...args, fields: [] }];
const workloads = {
  "getAccount (auth + quota baseline)": Array.from({ length: samples }, () => ["getAccount", {}]),
  "reading (full hiragana)": pick(games.filter((g) => g.titleReading), samples).map((g) => search({ query: g.titleReading })),
  "reading prefix (4 chars)": pick(games.filter((g) => g.titleReading), samples).map((g) => search({ query: [...g.titleReading].slice(0, 4).join("") })),
  "title fragment (3 chars)": pick(games, samples).map((g) => search({ query: middle(g.title, 3) })),
  "title fragment (2 chars)": pick(games, samples).map((g) => search({ query: middle(g.title, 2) })),
  "JAN (exact)": pick(games.filter((g) => g.janCode), samples).map((g) => search({ janCode: g.janCode })),
  "model number (partial)": pick(games.filter((g) => g.modelNumber.length), samples).map((g) => search({ modelNumber: g.modelNumber[0].slice(-5) })),
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// Calls rotate over several keys of one account, so the per-key burst limit never makes the
// benchmark wait; a 429 that happens anyway is waited out (per Retry-After) and not timed.
const KEYS = 20;
let calls = 0;
async function time(apiKeys, tool, args) {
  for (;;) {
    const apiKey = apiKeys[calls++ % apiKeys.length];
    const started = performance.now();
    const response = await fetch(`${baseUrl}/rest/v1/${tool}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(args),
    });
    const body = await response.json();
    const elapsed = performance.now() - started;
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("Retry-After")) * 1000));
      continue;
    }
    if (!response.ok) throw new Error(`${tool} ${JSON.stringify(args)} -> ${response.status} ${JSON.stringify(body)}`);
    return { elapsed, total: body.totalCount ?? 0 };
  }
}

applyMigrations(values.state);
const child = startWrangler({ port: values.port, stateDir: values.state, adminToken: token, quiet: true });
try {
  await waitUntilServing(child, baseUrl);
  const user = await adminFetch("/users", { method: "POST", body: { plan: "PREMIUM", name: "bench" }, ...adminOptions });
  const apiKeys = [];
  for (let i = 0; i < KEYS; i++) {
    const key = await adminFetch(`/users/${user.userId}/keys`, {
      method: "POST",
      body: { preset: "individual", scopes: ["games:read"] },
      ...adminOptions,
    });
    apiKeys.push(key.apiKey);
  }
  const importStarted = performance.now();
  for (const dataset of MASTER_DATASETS) {
    const result = await importNdjsonFile(dataset, join(dataDir, `${dataset}.ndjson`), adminOptions);
    console.log(`import ${dataset}: ${result.received} rows, ${result.upserted} written`);
  }
  console.log(`import took ${((performance.now() - importStarted) / 1000).toFixed(1)} s (unchanged rows are skipped)\n`);

  for (const [tool, args] of workloads["reading (full hiragana)"].slice(0, 20)) await time(apiKeys, tool, args); // warm-up
  const traces = process.env.X_LOCAL_OBSERVABILITY === "false" ? "off" : "on";
  console.log(`Over HTTP to wrangler dev (local trace recorder ${traces}), ${games.length} games, ${samples} calls per kind, one at a time:\n`);
  console.log("| query kind | p50 ms | p95 ms | max ms | mean hits |");
  console.log("|---|---|---|---|---|");
  for (const [kind, queries] of Object.entries(workloads)) {
    const runs = [];
    for (const [tool, args] of queries) runs.push(await time(apiKeys, tool, args));
    const sorted = runs.map((r) => r.elapsed).sort((a, b) => a - b);
    const hits = runs.reduce((sum, r) => sum + r.total, 0) / runs.length;
    console.log(`| ${kind} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} | ${sorted.at(-1).toFixed(1)} | ${hits.toFixed(1)} |`);
  }
} finally {
  child.kill("SIGTERM");
}
