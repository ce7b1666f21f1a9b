// How many of GameDataBase's Japanese titles get a reading, and from which source:
//   npx tsx scripts/lib/gamedatabase/readingCoverage.ts <GameDataBase dir> [--out readings.tsv]
// Counts distinct (file, ID) pairs of rows whose Region is "Japan"; --out writes each title with
// its reading and source, for reading through.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import { loadAnalyser } from "./analyser";
import { type Reading, type ReadingSource, readingFor, type TitleForReading } from "./readings";

interface GameDataBaseRow {
  Title: string;
  "Title (exact)": string;
  ID: string;
  Region: string;
}

/** The distinct Japanese titles of one CSV file, by ID. */
function japaneseTitles(path: string): TitleForReading[] {
  const rows: GameDataBaseRow[] = parse(readFileSync(path, "utf8"), { columns: true, relax_quotes: true });
  const byId = new Map<string, TitleForReading>();
  for (const row of rows) {
    if (row.Region === "Japan" && !byId.has(row.ID)) {
      byId.set(row.ID, { exact: row["Title (exact)"], romanised: row.Title, sourceId: row.ID });
    }
  }
  return [...byId.values()];
}

const percent = (part: number, whole: number) => `${((part * 100) / Math.max(whole, 1)).toFixed(1)}%`;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: "string" } } });
const dir = positionals[0];
if (dir === undefined) {
  console.error("usage: npx tsx scripts/lib/gamedatabase/readingCoverage.ts <GameDataBase dir> [--out readings.tsv]");
  process.exit(1);
}

const analyser = await loadAnalyser();
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".csv"))
  .sort();
const results: Array<{ file: string; title: TitleForReading; reading: Reading }> = files.flatMap((file) =>
  japaneseTitles(join(dir, file)).map((title) => ({ file: basename(file, ".csv"), title, reading: readingFor(title, analyser) })),
);

const SOURCES: Array<ReadingSource | "none"> = ["kana", "romanisation", "analyser", "none"];
const counts = new Map(SOURCES.map((source) => [source, results.filter((result) => (result.reading.source ?? "none") === source).length]));
console.log(`${results.length} Japanese titles (distinct file and ID, Region "Japan")`);
for (const [source, count] of counts) console.log(`  ${source.padEnd(13)} ${String(count).padStart(6)}  ${percent(count, results.length)}`);
const withReading = results.length - (counts.get("none") ?? 0);
console.log(`  with a reading ${String(withReading).padStart(5)}  ${percent(withReading, results.length)}`);

if (values.out !== undefined) {
  const lines = results.map(({ file, title, reading }) =>
    [file, title.exact, title.romanised, title.sourceId, reading.reading ?? "", reading.source ?? ""].join("\t"),
  );
  writeFileSync(values.out, `${["file", "exact", "romanised", "id", "reading", "source"].join("\t")}\n${lines.join("\n")}\n`);
}
