// A slice of seed/master's real rows for tests that start a real server: all its platforms,
// companies and genres, but only the games whose title holds a word. The whole catalog would cost
// its import (a request per 2,000 rows, most of a minute of CPU) for nothing those tests read.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SEED_MASTER = join(import.meta.dirname, "..", "..", "seed", "master");
/** The datasets of a master folder, in import order (MASTER_DATASETS in scripts/lib/masterImport.mjs). */
export const SLICE_DATASETS = ["platforms", "companies", "genres", "games"] as const;

/** One dataset's NDJSON lines of the slice: games only where the title holds `word`. */
export function masterSliceLines(dataset: (typeof SLICE_DATASETS)[number], word: string): string[] {
  const lines = readFileSync(join(SEED_MASTER, `${dataset}.ndjson`), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return dataset === "games" ? lines.filter((line) => (JSON.parse(line) as { title: string }).title.includes(word)) : lines;
}

/** The slice written as a master folder (`dir`), as `npm run admin -- master import` and `setup:cloudflare --master` read one. */
export function writeMasterSlice(dir: string, word: string): string {
  mkdirSync(dir, { recursive: true });
  for (const dataset of SLICE_DATASETS) writeFileSync(join(dir, `${dataset}.ndjson`), `${masterSliceLines(dataset, word).join("\n")}\n`);
  return dir;
}
