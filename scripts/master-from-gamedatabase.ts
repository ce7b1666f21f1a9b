// Converts a PigSaint GameDataBase checkout into master rows:
//   npm run master:from-gamedatabase -- <checkout> [--out seed/master] [--ids seed/master/gamedatabase-ids.tsv] [--regions japan|all]
// Reads <checkout>/*.csv and tags.yml, the id ledger (--ids, created when missing), and writes
// platforms, companies, genres, games and rom-hashes NDJSON to --out and the extended ledger back.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { loadAnalyser } from "./lib/gamedatabase/analyser";
import { type ConversionSummary, convertGameDatabase, type GameDatabaseMaster, masterRowProblems } from "./lib/gamedatabase/convert";
import { parseCorrections } from "./lib/gamedatabase/corrections";
import { loanwordsFrom, parseLoanwords } from "./lib/gamedatabase/loanwords";
import { nicknamesOf, parseNicknameTable } from "./lib/gamedatabase/nicknames";
import { PLATFORM_FILES } from "./lib/gamedatabase/platforms";
import { readingFor } from "./lib/gamedatabase/readings";
import { toNdjsonChunks } from "./lib/masterRows";
import { usageFailure } from "./lib/usage";

const USAGE =
  "usage: npm run master:from-gamedatabase -- <GameDataBase checkout> [--out <dir, default seed/master>]" +
  " [--ids <ledger, default seed/master/gamedatabase-ids.tsv>] [--regions japan|all]" +
  " [--loanwords <default seed/master/loanwords.tsv>] [--corrections <default seed/master/corrections.tsv>]" +
  " [--nicknames <default seed/master/nicknames.tsv>]";

const fail: (message: string) => never = usageFailure(USAGE);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string", default: join("seed", "master") },
    ids: { type: "string", default: join("seed", "master", "gamedatabase-ids.tsv") },
    regions: { type: "string", default: "japan" },
    loanwords: { type: "string", default: join("seed", "master", "loanwords.tsv") },
    corrections: { type: "string", default: join("seed", "master", "corrections.tsv") },
    nicknames: { type: "string", default: join("seed", "master", "nicknames.tsv") },
  },
});
const checkout = positionals[0];
if (checkout === undefined) fail("missing the GameDataBase checkout directory");
if (!existsSync(join(checkout, "tags.yml"))) fail(`no tags.yml in ${checkout}: expected a PigSaint GameDataBase checkout`);
const regions = values.regions;
if (regions !== "japan" && regions !== "all") fail("--regions must be japan or all");

const csvNames = readdirSync(checkout).filter((name) => name.endsWith(".csv"));
const unknownFiles = csvNames.filter((name) => !PLATFORM_FILES.includes(name));
if (unknownFiles.length > 0) console.warn(`not converted (no platform in platforms.ts): ${unknownFiles.join(", ")}`);
const missingFiles = PLATFORM_FILES.filter((name) => !csvNames.includes(name));
if (missingFiles.length > 0) console.warn(`not in the checkout: ${missingFiles.join(", ")}`);

const startedAt = performance.now();
console.error("loading the morphological analyser ...");
const analyser = await loadAnalyser();
const nicknames = parseNicknameTable(readFileSync(values.nicknames, "utf8"));
const loanwords = loanwordsFrom(parseLoanwords(readFileSync(values.loanwords, "utf8")));
const progress = await gameProgress();
const master = convertGameDatabase(
  {
    csvFiles: Object.fromEntries(
      csvNames.filter((name) => PLATFORM_FILES.includes(name)).map((name) => [name, readFileSync(join(checkout, name), "utf8")]),
    ),
    tagsYml: readFileSync(join(checkout, "tags.yml"), "utf8"),
    idLedger: existsSync(values.ids) ? readFileSync(values.ids, "utf8") : "",
  },
  {
    regions,
    readingOf: (title) => readingFor(title, analyser, loanwords),
    corrections: parseCorrections(readFileSync(values.corrections, "utf8")),
    nicknamesOf: (game, platformKey) => nicknamesOf(nicknames, { ...game, platformKey }),
    onProgress: progress.onProgress,
  },
);
progress.stop();

const problems = masterRowProblems(master);
if (problems.length > 0) {
  console.error(`${problems.length} rows the master import would refuse; nothing written:\n${problems.slice(0, 20).join("\n")}`);
  process.exit(1);
}
const written = await writeMaster(master, values.out, values.ids);
printSummary(master.summary, written, (performance.now() - startedAt) / 1000);

interface WrittenFile {
  path: string;
  rows: number | null;
}

/**
 * The ledger first: should a later write fail, the ledger holds ids no file uses yet, which the
 * next run gives the same keys again; never files with ids the ledger does not know.
 */
async function writeMaster(result: GameDatabaseMaster, outDir: string, ledgerPath: string): Promise<WrittenFile[]> {
  await mkdir(dirname(ledgerPath), { recursive: true });
  await writeFile(ledgerPath, result.idLedger);
  await mkdir(outDir, { recursive: true });
  const datasets: Array<[file: string, rows: object[]]> = [
    ["platforms.ndjson", result.platforms],
    ["companies.ndjson", result.companies],
    ["genres.ndjson", result.genres],
    ["games.ndjson", result.games],
    ["rom-hashes.ndjson", result.romHashes],
  ];
  const written: WrittenFile[] = [{ path: ledgerPath, rows: null }];
  for (const [file, rows] of datasets) {
    await writeFile(join(outDir, file), toNdjsonChunks(rows));
    written.push({ path: join(outDir, file), rows: rows.length });
  }
  return written;
}

/** A bar over the games (their readings are the slow part), in the master import's progress display. */
async function gameProgress() {
  // @ts-expect-error: a plain ES module without type declarations
  const { importProgress } = (await import("./lib/progress.mjs")) as {
    importProgress: () => {
      onProgress: (progress: { dataset: string; done: number; total: number; elapsedMs: number }) => void;
      stop: () => void;
    };
  };
  const display = importProgress();
  const since = performance.now();
  return {
    onProgress: (done: number, total: number) => {
      if (done === total || done % 500 === 0) display.onProgress({ dataset: "games", done, total, elapsedMs: performance.now() - since });
    },
    stop: display.stop,
  };
}

function printSummary(summary: ConversionSummary, files: WrittenFile[], seconds: number): void {
  for (const platform of summary.platforms) {
    console.log(`${platform.name}: ${n(platform.games)} games, ${n(platform.editions)} editions`);
  }
  const games = summary.platforms.reduce((total, platform) => total + platform.games, 0);
  const editions = summary.platforms.reduce((total, platform) => total + platform.editions, 0);
  console.log(`total: ${n(games)} games, ${n(editions)} editions on ${summary.platforms.length} platforms`);
  const { none, refused } = summary.readings;
  const japanese = Object.values(summary.readings).reduce((total, count) => total + count, 0);
  const read = japanese - none - refused;
  const share = japanese === 0 ? "-" : `${((read * 100) / japanese).toFixed(1)}%`;
  console.log(`readings: ${n(read)} of ${n(japanese)} Japanese games (${share}); ${counts(summary.readings)}`);
  console.log(`rows left out: ${counts(summary.skippedRows)}`);
  if (Object.keys(summary.unknownGenres).length > 0)
    console.log(`#genre values not in tags.yml (left out): ${counts(summary.unknownGenres)}`);
  if (summary.untranslatedGenres.length > 0)
    console.log(`genres with no Japanese name yet (genres.ts): ${summary.untranslatedGenres.join(", ")}`);
  console.log(`new ids: ${counts(summary.newIds)}`);
  console.log(`done in ${seconds.toFixed(1)} s, wrote:`);
  for (const file of files) {
    const rows = file.rows === null ? "" : ` (${n(file.rows)} rows)`;
    console.log(`  ${file.path}${rows}, ${(statSync(file.path).size / 1024).toFixed(0)} KiB`);
  }
}

function n(value: number): string {
  return value.toLocaleString("en-US");
}

/** "kana 2,641, romanisation 2,434, ..." */
function counts(record: Record<string, number>): string {
  return Object.entries(record)
    .map(([name, count]) => `${name} ${n(count)}`)
    .join(", ");
}
