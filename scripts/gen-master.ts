// Writes clearly synthetic master data for benchmarks and load tests:
//   npm run gen:master -- --games 100000 [--out bench-data/master] [--seed 1]
// Output: platforms.ndjson, companies.ndjson, genres.ndjson, games.ndjson in the master row format.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { toNdjsonChunks } from "./lib/masterRows";
import { generateSyntheticMaster } from "./lib/syntheticMaster";
import { usageFailure } from "./lib/usage";

const USAGE = "usage: npm run gen:master -- --games <count> [--out bench-data/master] [--seed 1]";

const fail: (message: string) => never = usageFailure(USAGE);

function integerOption(value: string | undefined, name: string, min: number): number {
  const number = Number(value);
  if (value === undefined || !Number.isSafeInteger(number) || number < min) fail(`--${name} must be an integer >= ${min}`);
  return number;
}

const { values } = parseArgs({
  options: {
    games: { type: "string" },
    out: { type: "string", default: "bench-data/master" },
    seed: { type: "string", default: "1" },
  },
});
const gameCount = integerOption(values.games, "games", 1);
const seed = integerOption(values.seed, "seed", 0);
const outDir = values.out;

const startedAt = performance.now();
const master = generateSyntheticMaster({ games: gameCount, seed });
await mkdir(outDir, { recursive: true });
const datasets: Array<[name: string, rows: Iterable<object>]> = [
  ["platforms", master.platforms],
  ["companies", master.companies],
  ["genres", master.genres],
  ["games", master.games],
];
for (const [name, rows] of datasets) {
  await writeFile(join(outDir, `${name}.ndjson`), toNdjsonChunks(rows));
}
const seconds = ((performance.now() - startedAt) / 1000).toFixed(2);
console.log(
  `wrote ${master.platforms.length} platforms, ${master.companies.length} companies, ${master.genres.length} genres, ` +
    `${gameCount} games (seed ${seed}) to ${outDir} in ${seconds} s`,
);
