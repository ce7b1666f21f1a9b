#!/usr/bin/env node
// `npm run bench:search-quality`: how often searchGames finds the game a Japanese collector means.
// Runs the project's query set (bench/search-quality/queries.tsv, see its README) against a fresh
// `npm run dev` on its own state (the embedded default catalog), or against a running server with
// --url and --key, and prints recall@1, recall@5 and MRR per kind of query and overall.
// A benchmark, not a test: low recall is reported, not failed; only errors exit non-zero.
import { parseArgs } from "node:util";
import { startDemoServer } from "./lib/demoServer.mjs";
import { KINDS, loadQueries, RESULT_LIMIT, rankOf, searchArgs, summarise } from "./lib/searchQuality.mjs";

const USAGE = `Usage: npm run bench:search-quality -- [--misses] [--json] [--url <base URL> --key <API key>] [--file <queries.tsv>] [--concurrency 4]
  --misses   also list every query whose game is not first: query, expected game, what came first
  --json     print the summary (and misses with --misses) as JSON instead of tables
  --url      a running server to query instead of starting a fresh \`npm run dev\` (needs --key, scope games:read)`;

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    key: { type: "string" },
    file: { type: "string" },
    misses: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    concurrency: { type: "string", default: "4" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const usageError = (message) => {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
};
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) usageError("--concurrency must be a positive integer");
if (values.url && !values.key) usageError("--url needs --key (an API key with scope games:read)");

/** One searchGames call over REST; a 429 is waited out (Retry-After), any other failure throws. */
async function search(baseUrl, apiKey, args) {
  for (;;) {
    const response = await fetch(`${baseUrl}/rest/v1/searchGames`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(args),
    });
    const body = await response.json();
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("Retry-After") ?? 1) * 1000));
      continue;
    }
    if (!response.ok) throw new Error(`searchGames ${JSON.stringify(args)} -> ${response.status} ${JSON.stringify(body)}`);
    return body.items;
  }
}

/** Runs every row, `concurrency` calls at a time, keeping the file's order in the results. */
async function runAll(rows, baseUrl, apiKey) {
  const results = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const index = next++;
      const row = rows[index];
      const items = await search(baseUrl, apiKey, searchArgs(row));
      const gameIds = items.map((item) => item.gameId);
      const rank = rankOf(row, gameIds);
      results[index] = { ...row, rank, first: items[0] ? `${items[0].gameId} ${items[0].title}` : "(nothing)" };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
  return results;
}

const percent = (ratio) => `${(ratio * 100).toFixed(1)}%`;

function printTable(summary) {
  console.log(`| kind | queries | recall@1 | recall@${RESULT_LIMIT} | MRR |`);
  console.log("|---|---|---|---|---|");
  const line = (name, s) =>
    console.log(`| ${name} | ${s.count} | ${percent(s.recallAt1)} | ${percent(s.recallAt5)} | ${s.mrr.toFixed(3)} |`);
  for (const kind of KINDS) if (summary.kinds[kind]) line(kind, summary.kinds[kind]);
  line("**overall**", summary.overall);
}

const missOf = (r) => ({ kind: r.kind, query: r.query, args: r.args, expected: `${r.gameId} ${r.note}`, rank: r.rank, first: r.first });

function printMisses(misses) {
  console.log(`\nMisses (expected game not first): ${misses.length}\n`);
  console.log("| kind | query | expected | rank | first result |");
  console.log("|---|---|---|---|---|");
  for (const m of misses) {
    const query = Object.keys(m.args).length ? `${m.query} ${JSON.stringify(m.args)}` : m.query;
    console.log(`| ${m.kind} | ${query} | ${m.expected} | ${m.rank ?? "-"} | ${m.first} |`);
  }
}

const rows = loadQueries(values.file);
const server = values.url ? null : await startDemoServer();
try {
  const baseUrl = values.url ?? server.url;
  const apiKey = values.key ?? server.keys.standard;
  const started = performance.now();
  const results = await runAll(rows, baseUrl, apiKey);
  const seconds = (performance.now() - started) / 1000;
  const summary = summarise(results);
  const misses = results.filter((r) => r.rank !== 1).map(missOf);
  if (values.json) {
    console.log(JSON.stringify({ queries: rows.length, limit: RESULT_LIMIT, ...summary, ...(values.misses ? { misses } : {}) }, null, 2));
  } else {
    console.log(
      `${rows.length} queries against ${values.url ?? "a fresh npm run dev"} in ${seconds.toFixed(1)} s (limit ${RESULT_LIMIT}):\n`,
    );
    printTable(summary);
    if (values.misses) printMisses(misses);
  }
} finally {
  await server?.stop();
}
