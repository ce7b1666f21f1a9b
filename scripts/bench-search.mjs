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
  },
});
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
const middle = (text, length) => {
  const chars = [...text.replace(/\s/g, "")];
  const start = Math.max(0, Math.floor(chars.length / 2) - Math.floor(length / 2));
  return chars.slice(start, start + length).join("");
};
const search = (args) => ["searchGames", { ...args, fields: [] }];
const workloads = {
  "getAccount (auth + quota baseline)": Array.from({ length: samples }, () => ["getAccount", {}]),
  "reading (full hiragana)": pick(games.filter((g) => g.titleReading), samples).map((g) => search({ query: g.titleReading })),
  "reading prefix (4 chars)": pick(games.filter((g) => g.titleReading), samples).map((g) => search({ query: [...g.titleReading].slice(0, 4).join("") })),
  "title fragment (3 chars)": pick(games, samples).map((g) => search({ query: middle(g.title, 3) })),
  "JAN (exact)": pick(games.filter((g) => g.janCode), samples).map((g) => search({ janCode: g.janCode })),
  "model number (partial)": pick(games.filter((g) => g.modelNumber.length), samples).map((g) => search({ modelNumber: g.modelNumber[0].slice(-5) })),
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Times one call; a 429 from the burst limit is waited out (per Retry-After) and not timed. */
async function time(apiKey, tool, args) {
  for (;;) {
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
  const { apiKey } = await adminFetch(`/users/${user.userId}/keys`, {
    method: "POST",
    body: { preset: "individual", scopes: ["games:read"] },
    ...adminOptions,
  });
  const importStarted = performance.now();
  for (const dataset of MASTER_DATASETS) {
    const result = await importNdjsonFile(dataset, join(dataDir, `${dataset}.ndjson`), adminOptions);
    console.log(`import ${dataset}: ${result.received} rows, ${result.upserted} written`);
  }
  console.log(`import took ${((performance.now() - importStarted) / 1000).toFixed(1)} s (unchanged rows are skipped)\n`);

  for (const [tool, args] of workloads["reading (full hiragana)"].slice(0, 20)) await time(apiKey, tool, args); // warm-up
  console.log(`Over HTTP to wrangler dev, ${games.length} games, ${samples} calls per kind, one at a time:\n`);
  console.log("| query kind | p50 ms | p95 ms | max ms | mean hits |");
  console.log("|---|---|---|---|---|");
  for (const [kind, queries] of Object.entries(workloads)) {
    const runs = [];
    for (const [tool, args] of queries) runs.push(await time(apiKey, tool, args));
    const sorted = runs.map((r) => r.elapsed).sort((a, b) => a - b);
    const hits = runs.reduce((sum, r) => sum + r.total, 0) / runs.length;
    console.log(`| ${kind} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} | ${sorted.at(-1).toFixed(1)} | ${hits.toFixed(1)} |`);
  }
} finally {
  child.kill("SIGTERM");
}
