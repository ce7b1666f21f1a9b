#!/usr/bin/env node
// `npm run bench:browse`: p50/p95 of browseGames over HTTP against the local runtime holding the
// synthetic master from `npm run gen:master -- --games 100000`, for the shapes of browsing:
// everything, by platforms, by publisher, by date range, each sort, early and later pages.
// A benchmark, not a test: numbers depend on the machine; docs/scaling.md shows one run.
import { loadGames, runBenchmark, samples } from "./lib/bench.mjs";

const games = loadGames();
const platformIds = [...new Set(games.map((g) => g.platformId))].sort((a, b) => a - b);
const publisherIds = [...new Set(games.map((g) => g.publisherId).filter((id) => id !== null))].sort((a, b) => a - b);
const browse = (args) => ["browseGames", { fields: [], ...args }];
/** `samples` calls, the i-th made by `make(i)`, cycling through pages 1-5. */
const calls = (make) => Array.from({ length: samples }, (_, i) => browse({ page: 1 + (i % 5), ...make(i) }));
const workloads = {
  "everything, release date": calls(() => ({})),
  "everything, title descending": calls(() => ({ sortBy: "title", sortOrder: "desc" })),
  "one platform, release date": calls((i) => ({ platformIds: [platformIds[i % platformIds.length]] })),
  "three platforms, title": calls((i) => ({
    platformIds: [0, 1, 2].map((k) => platformIds[(i + k) % platformIds.length]),
    sortBy: "title",
  })),
  "one publisher": calls((i) => ({ publisherId: publisherIds[i % publisherIds.length] })),
  "release date range, newest first": calls((i) => ({
    releaseDateFrom: `${1985 + (i % 15)}-01-01`,
    releaseDateTo: `${1990 + (i % 15)}-12-31`,
    sortOrder: "desc",
  })),
  "page 50 of everything": calls(() => ({ page: 50 })),
};

await runBenchmark(games.length, workloads, workloads["everything, release date"].slice(0, 20));
