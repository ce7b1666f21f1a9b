#!/usr/bin/env node
// `npm run bench:export`: how long a library export takes to produce and download, as CSV and as
// JSON, at 5,000 and 50,000 entries, and how much memory the local runtime (workerd) needs for it;
// plus the master games export of the largest synthetic platform. A benchmark, not a test:
// numbers depend on the machine; docs/scaling.md shows one run.
//
//   npm run gen:master -- --games 100000
//   npm run bench:export            # --state bench-data/state --port 8798 --data bench-data/master
//
// Filling: the synthetic master is imported through the operator API (skipped when unchanged).
// Each bench user's first library entry is added with addToLibrary; the rest are copies of that
// row for other official games, written straight into the local D1 with one INSERT ... SELECT
// (`wrangler d1 execute --local`, the server stopped meanwhile): 50,000 addToLibrary calls would
// exceed PREMIUM's daily quota of 20,000. Users are found again by name, so a second run reuses
// the filled libraries.
//
// Memory: the peak resident set (VmHWM in /proc/<pid>/status, reset through clear_refs before each
// download, with VmRSS sampled every 10 ms as a fallback) of the workerd process that wrangler dev
// runs. It holds the Worker and the local D1/R2 simulators, so compare sizes, not absolutes.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations, startWrangler, waitUntilServing } from "./lib/devServer.mjs";
import { adminFetch, projectRoot, wranglerBin } from "./lib/local.mjs";
import { importNdjsonFile, MASTER_DATASETS } from "./lib/masterImport.mjs";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "bench-data/master" },
    state: { type: "string", default: "bench-data/state" },
    port: { type: "string", default: "8798" },
    traces: { type: "boolean", default: false },
  },
});
if (!values.traces) process.env.X_LOCAL_OBSERVABILITY = "false";

const SIZES = [5_000, 50_000];
const FORMATS = ["csv", "json"];
const dataDir = join(projectRoot, values.data);
const baseUrl = `http://127.0.0.1:${values.port}`;
process.env.RGC_BASE_URL = baseUrl;
const admin = { token: randomBytes(18).toString("base64url") };
const exportSigningSecret = randomBytes(32).toString("base64url");

if (!existsSync(join(dataDir, "games.ndjson"))) {
  console.error(`No ${values.data}/games.ndjson: run \`npm run gen:master -- --games 100000\` first.`);
  process.exit(1);
}

// ---- the server ----

let child = null;
async function startServer() {
  child = startWrangler({ port: values.port, stateDir: values.state, adminToken: admin.token, exportSigningSecret, quiet: true });
  await waitUntilServing(child, baseUrl);
}
async function stopServer() {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Runs SQL on the local D1 of the bench state (the server must be stopped). */
function d1(command) {
  const file = join(projectRoot, values.state, "bench-export.sql");
  writeFileSync(file, command);
  const result = spawnSync(
    process.execPath,
    [wranglerBin(), "d1", "execute", "DB", "--local", "--persist-to", values.state, "--json", "--file", file],
    { cwd: projectRoot, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`d1 execute failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout)[0].results;
}

async function call(apiKey, tool, args) {
  const response = await fetch(`${baseUrl}/rest/v1/${tool}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`${tool} ${JSON.stringify(args)} -> ${response.status} ${JSON.stringify(body)}`);
  return body;
}

// ---- memory of the workerd process ----

const readProc = (pid, file) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return "";
  }
};
const statusKb = (pid, field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readProc(pid, "status"))?.[1] ?? 0);

/** The largest workerd process among the descendants of the wrangler process. */
function workerdPid() {
  const parentOf = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(entry, "stat");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    parentOf.set(Number(entry), ppid);
  }
  const descends = (pid) => {
    for (let p = pid; p > 1; p = parentOf.get(p) ?? 0) if (p === child.pid) return true;
    return false;
  };
  const candidates = [...parentOf.keys()].filter((pid) => descends(pid) && readProc(pid, "cmdline").includes("workerd"));
  return candidates.sort((a, b) => statusKb(b, "VmRSS") - statusKb(a, "VmRSS"))[0];
}

/** Runs `work` while watching the workerd process's resident memory; returns its result and the peak. */
async function withPeakMemory(work) {
  const pid = workerdPid();
  let resetPeak = false;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    resetPeak = true;
  } catch {
    // not allowed here: the sampled VmRSS is the measure
  }
  const baselineKb = statusKb(pid, "VmRSS");
  let sampledKb = baselineKb;
  const timer = setInterval(() => (sampledKb = Math.max(sampledKb, statusKb(pid, "VmRSS"))), 10);
  try {
    const result = await work();
    const peakKb = Math.max(sampledKb, resetPeak ? statusKb(pid, "VmHWM") : 0);
    return { result, baselineMb: baselineKb / 1024, peakMb: peakKb / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** GETs a download URL, counting the bytes as they arrive (the body is never held). */
async function download(url) {
  const started = performance.now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`download -> ${response.status} ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  return { seconds: (performance.now() - started) / 1000, bytes };
}

// ---- the bench users ----

async function findUser(name) {
  for (let page = 1; ; page++) {
    const list = await adminFetch(`/users?page=${page}&limit=100`, admin);
    const found = list.items.find((user) => user.name === name);
    if (found || !list.hasMore) return found;
  }
}

/** A PREMIUM user named for `size` with a fresh key; the library is filled later if short. */
async function benchUser(size, games) {
  const name = `bench-export-${size}`;
  const user = (await findUser(name)) ?? (await adminFetch("/users", { method: "POST", body: { plan: "PREMIUM", name }, ...admin }));
  const { apiKey, keyId } = await adminFetch(`/users/${user.userId}/keys`, {
    method: "POST",
    body: { preset: "individual", scopes: ["library:read", "library:write", "play:read", "games:read"] },
    ...admin,
  });
  const account = await call(apiKey, "getAccount", {});
  const first = games[0];
  if (account.registered.library.count === 0) {
    await call(apiKey, "addToLibrary", {
      gameId: first.gameId,
      rating: 4,
      buyDate: "2021-04-01",
      buyPrice: 3980,
      buyPlace: "駿河屋 秋葉原店, 2F",
      memo: '箱に小傷あり。"美品"\n説明書付き',
      attributes: ["box", "manual"],
    });
  }
  return { size, userId: user.userId, apiKey, keyId, templateGameId: first.gameId, count: Math.max(1, account.registered.library.count) };
}

/** Copies the user's first entry onto official games until the library holds `size` entries. */
function fillLibrary(user, columns) {
  const varying = {
    game_id: "g.id",
    rating: "(g.id % 5) + 1",
    buy_price: "500 + (g.id % 80) * 100",
    buy_date: "date('2015-01-01', '+' || (g.id % 3000) || ' days')",
    revision: "lower(hex(randomblob(6)))",
  };
  const select = columns.map((column) => varying[column] ?? `l.${column}`).join(", ");
  d1(`
    INSERT INTO library_entries (${columns.join(", ")})
    SELECT ${select} FROM library_entries l
    JOIN (SELECT id FROM games WHERE owner_user_id IS NULL AND id NOT IN (SELECT game_id FROM library_entries WHERE user_id = '${user.userId}')
          ORDER BY id LIMIT ${user.size - user.count}) g
    WHERE l.user_id = '${user.userId}' AND l.game_id = ${user.templateGameId};`);
}

// ---- the run ----

const games = readFileSync(join(dataDir, "games.ndjson"), "utf8")
  .trim()
  .split("\n")
  .slice(0, 10)
  .map((line) => JSON.parse(line));
applyMigrations(values.state);
try {
  await startServer();
  const importStarted = performance.now();
  for (const dataset of MASTER_DATASETS) {
    const result = await importNdjsonFile(dataset, join(dataDir, `${dataset}.ndjson`), admin);
    console.log(`import ${dataset}: ${result.received} rows, ${result.upserted} written`);
  }
  console.log(`import took ${((performance.now() - importStarted) / 1000).toFixed(1)} s (unchanged rows are skipped)`);

  const users = [];
  for (const size of SIZES) users.push(await benchUser(size, games));
  const short = users.filter((user) => user.count < user.size);
  if (short.length > 0) {
    await stopServer();
    const columns = d1("PRAGMA table_info(library_entries)").map((column) => column.name);
    for (const user of short) {
      const started = performance.now();
      fillLibrary(user, columns);
      console.log(`filled the library of ${user.size} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await startServer();
  }

  const rows = [];
  for (const user of users) {
    for (const format of FORMATS) {
      const issued = await call(user.apiKey, "exportMyData", { dataset: "library", format });
      if (issued.rowCount !== user.size) throw new Error(`expected ${user.size} rows, the export counts ${issued.rowCount}`);
      const first = await withPeakMemory(() => download(issued.url));
      const again = await download(issued.url);
      rows.push(
        `| library ${format} | ${user.size.toLocaleString("en")} | ${(first.result.bytes / 1048576).toFixed(1)} | ${first.result.seconds.toFixed(2)} | ` +
          `${again.seconds.toFixed(2)} | ${first.baselineMb.toFixed(0)} | ${first.peakMb.toFixed(0)} | ${(first.peakMb - first.baselineMb).toFixed(0)} |`,
      );
      console.log(rows.at(-1));
    }
  }

  // The master games file of the platform with the most games: the first user builds the shared
  // official part, the second reuses it.
  const platformCounts = new Map();
  for (const line of readFileSync(join(dataDir, "games.ndjson"), "utf8").split("\n")) {
    const match = /"platformId":(\d+)/.exec(line);
    if (match) platformCounts.set(Number(match[1]), (platformCounts.get(Number(match[1])) ?? 0) + 1);
  }
  const [platformId, gameCount] = [...platformCounts].sort((a, b) => b[1] - a[1])[0];
  for (const [label, user] of [
    ["first user (builds the part)", users[0]],
    ["second user (reuses it)", users[1]],
  ]) {
    const issued = await call(user.apiKey, "exportMasterData", { dataset: "games", platformId });
    const first = await withPeakMemory(() => download(issued.url));
    const again = await download(issued.url);
    rows.push(
      `| master games, ${label} | ${gameCount.toLocaleString("en")} | ${(first.result.bytes / 1048576).toFixed(1)} | ${first.result.seconds.toFixed(2)} | ` +
        `${again.seconds.toFixed(2)} | ${first.baselineMb.toFixed(0)} | ${first.peakMb.toFixed(0)} | ${(first.peakMb - first.baselineMb).toFixed(0)} |`,
    );
    console.log(rows.at(-1));
  }

  // Keys are capped per plan: the next run issues new ones.
  for (const user of users) await adminFetch(`/keys/${user.keyId}`, { method: "DELETE", ...admin });

  console.log(
    "\n| export | rows | MiB | first download s (produce + transfer) | again s (from R2) | workerd RSS before MiB | peak MiB | peak - before MiB |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  await stopServer();
}
