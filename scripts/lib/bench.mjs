// The harness behind `npm run bench:*`: starts wrangler dev on its own state folder, imports the
// synthetic master from `npm run gen:master`, then times tool calls over HTTP one at a time and
// prints p50/p95 per kind. Benchmarks, not tests: numbers depend on the machine.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations, startWrangler, waitUntilServing } from "./devServer.mjs";
import { adminFetch, projectRoot } from "./local.mjs";
import { importNdjsonFile, MASTER_DATASETS } from "./masterImport.mjs";

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
// not pay in the request path. Benchmarks turn it off unless --traces asks to keep it.
if (!values.traces) process.env.X_LOCAL_OBSERVABILITY = "false";

export const samples = Number(values.samples);
const dataDir = join(projectRoot, values.data);
const baseUrl = `http://127.0.0.1:${values.port}`;
const adminOptions = { token: randomBytes(18).toString("base64url") };
process.env.RGC_BASE_URL = baseUrl;

/** The generated games, to draw queries from. */
export function loadGames() {
  if (!existsSync(join(dataDir, "games.ndjson"))) {
    console.error(`No ${values.data}/games.ndjson: run \`npm run gen:master -- --games 100000\` first.`);
    process.exit(1);
  }
  return readFileSync(join(dataDir, "games.ndjson"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** Deterministic picks so runs compare: every k-th item. */
export const pick = (list, count) => Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// Calls rotate over several keys of one account, so the per-key burst limit never makes the
// benchmark wait; a 429 that happens anyway is waited out (per Retry-After) and not timed.
const KEYS = 20;
let calls = 0;

async function time(apiKeys, [tool, args]) {
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

async function premiumKeys(count) {
  const user = await adminFetch("/users", { method: "POST", body: { plan: "PREMIUM", name: "bench" }, ...adminOptions });
  const keys = [];
  for (let i = 0; i < count; i++) {
    const key = await adminFetch(`/users/${user.userId}/keys`, {
      method: "POST",
      body: { preset: "individual", scopes: ["games:read"] },
      ...adminOptions,
    });
    keys.push(key.apiKey);
  }
  return keys;
}

/** Runs each kind's [tool, args] calls (after a warm-up) and prints a markdown table of timings. */
export async function runBenchmark(gameCount, workloads, warmUp) {
  applyMigrations(values.state);
  const child = startWrangler({ port: values.port, stateDir: values.state, adminToken: adminOptions.token, quiet: true });
  try {
    await waitUntilServing(child, baseUrl);
    const apiKeys = await premiumKeys(KEYS);
    const importStarted = performance.now();
    for (const dataset of MASTER_DATASETS) {
      const result = await importNdjsonFile(dataset, join(dataDir, `${dataset}.ndjson`), adminOptions);
      console.log(`import ${dataset}: ${result.received} rows, ${result.upserted} written`);
    }
    console.log(`import took ${((performance.now() - importStarted) / 1000).toFixed(1)} s (unchanged rows are skipped)\n`);

    for (const call of warmUp) await time(apiKeys, call);
    const traces = process.env.X_LOCAL_OBSERVABILITY === "false" ? "off" : "on";
    console.log(
      `Over HTTP to wrangler dev (local trace recorder ${traces}), ${gameCount} games, ${samples} calls per kind, one at a time:\n`,
    );
    console.log("| kind | p50 ms | p95 ms | max ms | mean totalCount |");
    console.log("|---|---|---|---|---|");
    for (const [kind, calls] of Object.entries(workloads)) {
      const runs = [];
      for (const call of calls) runs.push(await time(apiKeys, call));
      const sorted = runs.map((r) => r.elapsed).sort((a, b) => a - b);
      const hits = runs.reduce((sum, r) => sum + r.total, 0) / runs.length;
      console.log(
        `| ${kind} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} | ${sorted.at(-1).toFixed(1)} | ${hits.toFixed(1)} |`,
      );
    }
  } finally {
    child.kill("SIGTERM");
  }
}
