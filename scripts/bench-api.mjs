#!/usr/bin/env node
import { spawnSync } from "node:child_process";
// `npm run bench:api`: the project's tools against a bare Hono Worker (bench/baseline: GET /json,
// GET /d1 = `SELECT 1` on a local D1), both under wrangler dev on this machine, measured in
// alternation (kind, baseline, baseline, kind, ... over several rounds) at concurrency 1 and 8.
// Prints p50/p95/req/s per kind and its req/s as a ratio of the baseline's /d1 measured beside it.
// A benchmark, not a test: numbers depend on the machine; docs/scaling.md shows one run.
//   npm run gen:master -- --games 100000      (once)
//   npm run bench:api [-- --quick] [--rounds 3] [--profile] [--explain] [--only <regex>]
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createFixtures, loadFixtures, pick, resetBenchUsage } from "./lib/benchFixtures.mjs";
import { BASELINE_CONFIG, buildSnapshot, PROJECT_CONFIG, startServer, stopServer, waitForPath } from "./lib/benchServers.mjs";
import { profileDuring, profileReport, summarizeProfile } from "./lib/cpuProfile.mjs";
import { applyMigrations } from "./lib/devServer.mjs";
import { request, runBlock, summarize } from "./lib/load.mjs";
import { projectRoot } from "./lib/local.mjs";
import { d1File } from "./lib/localState.mjs";
import { importNdjsonFile, MASTER_DATASETS } from "./lib/masterImport.mjs";
import { cpuDelta, processTree, treeCpu } from "./lib/procCpu.mjs";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    calls: { type: "string", description: "calls per block at concurrency 1 (8x that at concurrency 8 is capped by --calls8)" },
    calls8: { type: "string" },
    only: { type: "string" },
    data: { type: "string", default: "bench-data/master" },
    state: { type: "string", default: "bench-data/api-state" },
    "baseline-state": { type: "string", default: "bench-data/baseline-state" },
    port: { type: "string", default: "8797" },
    "baseline-port": { type: "string", default: "8796" },
    "inspector-port": { type: "string", default: "9329" },
    "baseline-inspector-port": { type: "string", default: "9330" },
    profile: { type: "boolean", default: false },
    "profile-calls": { type: "string", default: "400" },
    explain: { type: "boolean", default: false },
    "write-load": { type: "boolean", default: false },
    traces: { type: "boolean", default: false },
  },
});
// As bench:search: wrangler dev's local trace recorder is a cost of the development tool, off
// unless --traces keeps it on (for both Workers alike).
if (!values.traces) process.env.X_LOCAL_OBSERVABILITY = "false";

const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
const calls1 = Number(values.calls ?? (values.quick ? 20 : 60));
const calls8 = Number(values.calls8 ?? (values.quick ? 80 : 240));
const stateDir = join(projectRoot, values.state);
const baselineState = join(projectRoot, values["baseline-state"]);
const dataDir = join(projectRoot, values.data);
const apiUrl = `http://127.0.0.1:${values.port}`;
const baselineUrl = `http://127.0.0.1:${values["baseline-port"]}`;
const adminOptions = { token: randomBytes(18).toString("base64url") };
process.env.RGC_BASE_URL = apiUrl;

if (!existsSync(join(dataDir, "games.ndjson"))) {
  console.error(`No ${values.data}/games.ndjson: run \`npm run gen:master -- --games 100000\` first.`);
  process.exit(1);
}
const games = readFileSync(join(dataDir, "games.ndjson"), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));

// ---------------------------------------------------------------------------------------------
// What is measured.

/** As bench:search: `length` letters or digits from the middle of a title. */
const middle = (text, length) => {
  const chars = [...text].filter((ch) => /[\p{L}\p{N}]/u.test(ch));
  let start = Math.max(0, Math.floor(chars.length / 2) - Math.floor(length / 2));
  while (start > 0 && chars[start] === "ー") start--;
  return chars.slice(start, start + length).join("");
};
const cycle = (list) => (i) => list[i % list.length];
const withReading = games.filter((g) => g.titleReading);
const search = (args) => ({ ...args, fields: [] });

/**
 * Each kind: tool, the user whose keys call it (`master`: every bench user's keys, for data that
 * is not per user), args per call, the target it is held to, and the expected totalCount checked
 * at warm-up (when known).
 */
function kindsOf(fixtures) {
  const lib = (extra) => () => ({ limit: 100, ...extra });
  const kinds = [
    { name: "listGenres", tool: "listGenres", user: "master", args: () => ({}), target: { c: 8, ratio: 0.6 } },
    { name: "getAccount", tool: "getAccount", user: "lib5k", args: () => ({}) },
    {
      name: "getLibrary 5,000, default fields, page 1",
      tool: "getLibrary",
      user: "lib5k",
      args: lib({}),
      total: 5000,
      target: { c: 1, ratio: 0.4, p95: 15 },
    },
    {
      name: "getLibrary 5,000, page 40",
      tool: "getLibrary",
      user: "lib5k",
      args: lib({ page: 40 }),
      total: 5000,
      target: { c: 1, ratio: 0.3 },
    },
    {
      name: "getLibrary 5,000, fields []",
      tool: "getLibrary",
      user: "lib5k",
      args: lib({ fields: [] }),
      total: 5000,
      target: { c: 1, ratio: 0.3 },
    },
    ...["buyDate", "buyPrice", "title", "rating", "releaseDate"].map((sortBy) => ({
      name: `getLibrary 5,000, sortBy ${sortBy}`,
      tool: "getLibrary",
      user: "lib5k",
      args: lib({ sortBy }),
      total: 5000,
      target: { c: 1, ratio: 0.3 },
    })),
    { name: "getLibrary 500 (scaling)", tool: "getLibrary", user: "lib500", args: lib({}), total: 500, scaling: 500 },
    { name: "getLibrary 50,000 (scaling)", tool: "getLibrary", user: "lib50k", args: lib({}), total: 50000, scaling: 50000 },
    { name: "getWishlist 5,000", tool: "getWishlist", user: "wish", args: lib({}), total: 5000, target: { c: 1, ratio: 0.3 } },
    { name: "getPlayRecords 5,000", tool: "getPlayRecords", user: "lib5k", args: lib({}), total: 5000, target: { c: 1, ratio: 0.3 } },
    { name: "getConsoles 500", tool: "getConsoles", user: "wish", args: lib({}), total: 500, target: { c: 1, ratio: 0.3 } },
    {
      name: "getCollectionGames 1,000 (PLATFORM)",
      tool: "getCollectionGames",
      user: "lib5k",
      args: () => ({ collectionId: fixtures.collectionId, limit: 100 }),
      total: fixtures.collectionSize,
      target: { c: 1, ratio: 0.3 },
    },
    {
      name: "searchGames reading",
      tool: "searchGames",
      user: "master",
      args: cycle(pick(withReading, 300).map((g) => search({ query: g.titleReading }))),
    },
    {
      name: "searchGames 2-char fragment",
      tool: "searchGames",
      user: "master",
      args: cycle(pick(games, 300).map((g) => search({ query: middle(g.title, 2) }))),
    },
    {
      name: "searchGames JAN",
      tool: "searchGames",
      user: "master",
      args: cycle(
        pick(
          games.filter((g) => g.janCode),
          300,
        ).map((g) => search({ janCode: g.janCode })),
      ),
      target: { c: 8, ratio: 0.6 },
    },
    {
      name: "searchGames model number",
      tool: "searchGames",
      user: "master",
      args: cycle(
        pick(
          games.filter((g) => g.modelNumber.length),
          300,
        ).map((g) => search({ modelNumber: g.modelNumber[0].slice(-5) })),
      ),
    },
    { name: "browseGames", tool: "browseGames", user: "master", args: (i) => ({ fields: [], page: 1 + (i % 5) }) },
  ];
  return values.only ? kinds.filter((k) => new RegExp(values.only, "i").test(k.name)) : kinds;
}

// ---------------------------------------------------------------------------------------------
// Keys in rotation: each user's 25 keys in turn (PREMIUM allows 80 calls per 10 s per key), so
// no key meets the burst limit below 200 calls/s per user; master kinds rotate over every user.

function keyRotation(fixtures) {
  const pools = Object.fromEntries(Object.entries(fixtures.users).map(([name, u]) => [name, u.keys]));
  pools.master = Object.values(fixtures.users).flatMap((u) => u.keys);
  const turns = {};
  return (user) => {
    const pool = pools[user];
    turns[user] = (turns[user] ?? 0) + 1;
    return pool[turns[user] % pool.length];
  };
}

const toolRequest = (nextKey, kind) => (i) => ({
  url: `${apiUrl}/rest/v1/${kind.tool}`,
  method: "POST",
  headers: { Authorization: `Bearer ${nextKey(kind.user)}` },
  body: kind.args(i),
});
const baselineRequest = (path) => () => ({ url: `${baselineUrl}${path}` });

// ---------------------------------------------------------------------------------------------

let api;
let baseline;

// Both Workers run a build taken now (see buildSnapshot): edits made in this tree during the run
// neither rebuild nor reload them.
const buildDir = join(projectRoot, "bench-data", "build");
let apiConfig;
let baselineConfig;

async function startApi({ inspect = false } = {}) {
  api = startServer({
    config: apiConfig,
    port: values.port,
    stateDir,
    vars: { ADMIN_TOKEN: adminOptions.token },
    inspectorPort: inspect ? values["inspector-port"] : undefined,
  });
  await waitForPath(api, `${apiUrl}/rest/v1/tools`);
}

async function importMaster() {
  const started = performance.now();
  for (const dataset of MASTER_DATASETS) {
    const result = await importNdjsonFile(dataset, join(dataDir, `${dataset}.ndjson`), adminOptions);
    if (result.upserted) console.log(`import ${dataset}: ${result.received} rows, ${result.upserted} written`);
  }
  console.log(`master data: ${games.length} games (import or check took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

async function warmUp(kinds, nextKey) {
  for (const kind of kinds) {
    for (let i = 0; i < 5; i++) {
      const spec = toolRequest(nextKey, kind)(i);
      const answer = await request(spec.url, spec);
      if (answer.status !== 200) throw new Error(`${kind.name}: ${answer.status} ${answer.body.slice(0, 300)}`);
      const body = JSON.parse(answer.body);
      if (kind.total !== undefined && i === 0 && body.totalCount !== kind.total) {
        throw new Error(`${kind.name}: totalCount ${body.totalCount}, expected ${kind.total} (stale fixtures? delete ${values.state})`);
      }
    }
  }
  for (let i = 0; i < 20; i++) await request(`${baselineUrl}/d1`);
}

const fmt = (n, digits = 1) => (n === undefined || Number.isNaN(n) ? "-" : n.toFixed(digits));

/** Runs a block and adds the CPU its server's processes (and this client) spent on it. */
async function cpuBlock(server, makeRequest, options) {
  const tree = processTree(server.pid);
  const before = treeCpu(tree);
  const client = process.cpuUsage();
  const block = await runBlock(makeRequest, options);
  const { user, system } = process.cpuUsage(client);
  return { ...block, cpu: { ...cpuDelta(before, treeCpu(tree)), client: (user + system) / 1000 } };
}

/** CPU ms per call of blocks, by process group. */
function cpuPerCall(blocks) {
  const calls = blocks.reduce((sum, b) => sum + b.latencies.length, 0);
  const sum = (key) => blocks.reduce((total, b) => total + (b.cpu?.[key] ?? 0), 0) / calls;
  return { workerd: sum("workerd"), wrangler: sum("wrangler"), client: sum("client") };
}

async function measure(kinds, nextKey) {
  const results = new Map(kinds.map((k) => [k.name, { 1: [], 8: [] }]));
  const paired = new Map(kinds.map((k) => [k.name, { 1: [], 8: [] }]));
  const bare = { "/json": { 1: [], 8: [] }, "/d1": { 1: [], 8: [] } };
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const concurrency of [1, 8]) {
      const count = concurrency === 1 ? calls1 : calls8;
      bare["/json"][concurrency].push(await cpuBlock(baseline, baselineRequest("/json"), { count, concurrency }));
      for (const [index, kind] of kinds.entries()) {
        // A B, then B A: neither side always runs first.
        const order = (round + index) % 2 === 0 ? ["api", "bare"] : ["bare", "api"];
        for (const side of order) {
          if (side === "api")
            results.get(kind.name)[concurrency].push(await cpuBlock(api, toolRequest(nextKey, kind), { count, concurrency }));
          else {
            const block = await cpuBlock(baseline, baselineRequest("/d1"), { count, concurrency });
            paired.get(kind.name)[concurrency].push(block);
            bare["/d1"][concurrency].push(block);
          }
        }
      }
    }
    console.log(`round ${round + 1}/${rounds} done (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  return { results, paired, bare };
}

function report(kinds, { results, paired, bare }) {
  const failures = [];
  const targetMisses = [];
  console.log(
    `\n${rounds} round(s); per round and concurrency, each kind ${calls1} calls at c=1 and ${calls8} at c=8, each beside a /d1 block of as many calls.`,
  );
  console.log("ratio = the kind's req/s / the req/s of the baseline's /d1 blocks run beside it.\n");
  console.log("| kind | c1 p50 ms | c1 p95 ms | c1 req/s | c1 ratio | c8 p50 ms | c8 p95 ms | c8 req/s | c8 ratio | target |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const path of ["/json", "/d1"]) {
    const [s1, s8] = [summarize(bare[path][1]), summarize(bare[path][8])];
    console.log(
      `| baseline GET ${path} | ${fmt(s1.p50)} | ${fmt(s1.p95)} | ${fmt(s1.reqPerSec, 0)} | - | ${fmt(s8.p50)} | ${fmt(s8.p95)} | ${fmt(s8.reqPerSec, 0)} | - | |`,
    );
  }
  const p50At = {};
  for (const kind of kinds) {
    const row = [kind.name];
    const stats = {};
    for (const c of [1, 8]) {
      const s = summarize(results.get(kind.name)[c]);
      const b = summarize(paired.get(kind.name)[c]);
      stats[c] = { ...s, ratio: s.reqPerSec / b.reqPerSec };
      row.push(fmt(s.p50), fmt(s.p95), fmt(s.reqPerSec, 0), fmt(stats[c].ratio, 2));
      if (Object.keys(s.failures).length) failures.push(`${kind.name} c=${c}: ${JSON.stringify(s.failures)}`);
    }
    let target = "";
    if (kind.target) {
      const t = kind.target;
      const got = stats[t.c];
      const met = got.ratio >= t.ratio && (t.p95 === undefined || got.p95 < t.p95);
      target = `${met ? "met" : "MISSED"}: >= ${t.ratio} at c=${t.c}${t.p95 ? `, p95 < ${t.p95} ms` : ""}`;
      if (!met) targetMisses.push(kind.name);
    }
    console.log(`| ${row.join(" | ")} | ${target} |`);
    if (kind.scaling) p50At[kind.scaling] = stats[1].p50;
    if (kind.name.startsWith("getLibrary 5,000, default")) p50At[5000] = stats[1].p50;
  }
  if (p50At[500] && p50At[5000] && p50At[50000]) {
    const growth = p50At[50000] / p50At[500];
    console.log(`\ngetLibrary (default fields, limit 100, page 1) p50 at c=1 as the library grows:\n`);
    console.log("| entries | 500 | 5,000 | 50,000 | 50,000 / 500 |");
    console.log("|---|---|---|---|---|");
    console.log(
      `| p50 ms | ${fmt(p50At[500])} | ${fmt(p50At[5000])} | ${fmt(p50At[50000])} | ${fmt(growth, 2)}x (target <= 1.5x: ${growth <= 1.5 ? "met" : "MISSED"}) |`,
    );
  }
  console.log("\nCPU per call at c=8 (ms, from /proc): the runtime (workerd: isolates, local D1), wrangler's own node process");
  console.log("(the dev tool: it reads every console line the Worker writes; production has no such process), the bench client.\n");
  console.log("| kind | workerd | wrangler | client | all |");
  console.log("|---|---|---|---|---|");
  const cpuRow = (name, blocks) => {
    const c = cpuPerCall(blocks);
    console.log(
      `| ${name} | ${fmt(c.workerd, 2)} | ${fmt(c.wrangler, 2)} | ${fmt(c.client, 2)} | ${fmt(c.workerd + c.wrangler + c.client, 2)} |`,
    );
  };
  for (const path of ["/json", "/d1"]) cpuRow(`baseline GET ${path}`, bare[path][8]);
  for (const kind of kinds) cpuRow(kind.name, results.get(kind.name)[8]);
  if (failures.length) console.log(`\nNon-2xx answers (the numbers above include them): ${failures.join("; ")}`);
  if (targetMisses.length) console.log(`\nTargets missed in this run: ${targetMisses.join(", ")}`);
}

async function profile(kinds, nextKey) {
  const count = Number(values["profile-calls"]);
  // The bare Worker under the same profiler: what the runtime and Hono cost with no project code.
  for (const path of ["/json", "/d1"]) {
    const raw = await profileDuring(values["baseline-inspector-port"], () => runBlock(baselineRequest(path), { count, concurrency: 1 }));
    console.log(`\n### CPU profile: baseline GET ${path} (${count} calls, one at a time)\n`);
    console.log(profileReport(summarizeProfile(raw), count, 8));
  }
  const profiled = kinds.filter((k) => ["listGenres", "getAccount"].includes(k.name) || k.name.startsWith("getLibrary 5,000, default"));
  for (const kind of profiled) {
    const raw = await profileDuring(values["inspector-port"], () => runBlock(toolRequest(nextKey, kind), { count, concurrency: 1 }));
    console.log(`\n### CPU profile: ${kind.name} (${count} calls, one at a time)\n`);
    console.log(profileReport(summarizeProfile(raw), count, 20));
  }
}

function explain(fixtures) {
  const result = spawnSync(
    process.execPath,
    [join(projectRoot, "node_modules", "tsx", "dist", "cli.mjs"), join(projectRoot, "scripts", "bench-api-explain.ts")],
    {
      cwd: projectRoot,
      stdio: "inherit",
      env: { ...process.env, BENCH_D1_FILE: d1File(stateDir), BENCH_FIXTURES: JSON.stringify(fixtures) },
    },
  );
  if (result.status !== 0) throw new Error("bench-api-explain failed");
}

/**
 * The per-call write alone (bench/baseline GET /charge: the user's accounting object admits one call
 * of a key, the project's class) at rising concurrency, beside GET /d1 (one read): req/s, latency
 * and the runtime's CPU. Keys rotate over 1,000 keys of 100 users, so calls spread over 100 objects.
 */
async function writeLoad() {
  console.log("\nThe per-call write on the users' accounting objects (127.0.0.1), at rising concurrency; /d1 (SELECT 1) beside it.\n");
  console.log("| concurrency | /d1 req/s | /charge req/s | /charge p50 ms | /charge p95 ms | workerd CPU ms per charge | not 2xx |");
  console.log("|---|---|---|---|---|---|---|");
  let k = 0;
  for (const concurrency of values.quick ? [1, 8, 32] : [1, 2, 4, 8, 16, 32, 64]) {
    const count = (values.quick ? 150 : 400) + 40 * concurrency;
    const read = await runBlock(baselineRequest("/d1"), { count, concurrency });
    const write = await cpuBlock(baseline, () => ({ url: `${baselineUrl}/charge?k=${k++}` }), { count, concurrency });
    const [r, w] = [summarize([read]), summarize([write])];
    const failed = Object.values(w.failures).reduce((a, b) => a + b, 0);
    console.log(
      `| ${concurrency} | ${fmt(r.reqPerSec, 0)} | ${fmt(w.reqPerSec, 0)} | ${fmt(w.p50)} | ${fmt(w.p95)} | ${fmt(write.cpu.workerd / count, 2)} | ${failed} |`,
    );
  }
}

baselineConfig = buildSnapshot(BASELINE_CONFIG, join(buildDir, "baseline"));
if (values["write-load"]) {
  try {
    baseline = startServer({ config: baselineConfig, port: values["baseline-port"], stateDir: baselineState });
    await waitForPath(baseline, `${baselineUrl}/json`);
    for (let i = 0; i < 50; i++) await request(`${baselineUrl}/charge?k=${i}`);
    await writeLoad();
  } finally {
    await stopServer(baseline);
  }
  process.exit(0);
}

applyMigrations(values.state);
resetBenchUsage(stateDir);
apiConfig = buildSnapshot(PROJECT_CONFIG, join(buildDir, "api"));
try {
  await startApi({ inspect: values.profile });
  baseline = startServer({
    config: baselineConfig,
    port: values["baseline-port"],
    stateDir: baselineState,
    inspectorPort: values.profile ? values["baseline-inspector-port"] : undefined,
  });
  await waitForPath(baseline, `${baselineUrl}/json`);
  await importMaster();
  let fixtures = loadFixtures(stateDir);
  if (!fixtures) {
    fixtures = await createFixtures({
      baseUrl: apiUrl,
      adminOptions,
      stateDir,
      games,
      restartServer: async (whileStopped) => {
        await stopServer(api);
        await whileStopped();
        await startApi({ inspect: values.profile });
      },
    });
    // Making the fixtures spent the bench users' quota of the day through the tools: give it back
    // before measuring, as every later run does at its start.
    await stopServer(api);
    resetBenchUsage(stateDir);
    await startApi({ inspect: values.profile });
  }
  const kinds = kindsOf(fixtures);
  const nextKey = keyRotation(fixtures);
  await warmUp(kinds, nextKey);
  if (values.explain) {
    await stopServer(api);
    explain(fixtures);
  } else if (values.profile) {
    await profile(kinds, nextKey);
  } else {
    const traces = values.traces ? "on" : "off";
    console.log(`\nOver HTTP to wrangler dev on 127.0.0.1 (local trace recorder ${traces}), ${rounds} round(s).`);
    report(kinds, await measure(kinds, nextKey));
  }
} finally {
  await Promise.all([api && stopServer(api), baseline && stopServer(baseline)]);
}
