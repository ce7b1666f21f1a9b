// Joins libretro-database's model numbers to the master games by ROM hash, and with
// --gamedatabase the disc platforms' games by title:
//   npm run master:serials -- <libretro-database dir> [--gamedatabase <GameDataBase dir>]
//     [--master seed/master] [--joins <tsv>] [--import]
// Reads <master>/rom-hashes.ndjson, games.ndjson and (for the title join) gamedatabase-ids.tsv,
// writes <master>/serials.ndjson and prints, per platform, how many games have a model number.
// --joins writes each title join (for checking by hand). --import sends the games whose model
// numbers changed against the previous serials.ndjson, merged into their full rows, to the
// running server.
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { romanisedTitles } from "./lib/gamedatabase/convert";
import { PLATFORM_FILES } from "./lib/gamedatabase/platforms";
import {
  changedGameRows,
  combineSerialRows,
  countByPlatform,
  isModelNumber,
  joinSerials,
  mergeSerials,
  serialsByHash,
} from "./lib/gamedatabase/serials";
import { joinByTitle, TITLE_JOIN_SYSTEMS, type TitleJoin, titleJoinRows } from "./lib/gamedatabase/serialsByTitle";
import {
  GAMES_FILE,
  importGameRows,
  ROM_HASHES_FILE,
  readGamesFile,
  readRomHashesFile,
  readSerialDats,
  readSerialsFile,
  SERIALS_FILE,
} from "./lib/gamedatabase/serialsFiles";
import { toNdjsonChunks } from "./lib/masterRows";
import { usageFailure } from "./lib/usage";

const USAGE =
  "usage: npm run master:serials -- <libretro-database dir> [--gamedatabase <GameDataBase dir>] [--master <dir, default seed/master>] [--joins <tsv>] [--import]";

const fail: (message: string) => never = usageFailure(USAGE);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    master: { type: "string", default: join("seed", "master") },
    import: { type: "boolean", default: false },
    gamedatabase: { type: "string" },
    joins: { type: "string" },
  },
});
const libretroDir = positionals[0];
if (libretroDir === undefined) fail("missing the libretro-database directory");
if (!existsSync(join(libretroDir, "metadat", "serial"))) {
  fail(`no metadat/serial folder in ${libretroDir}: expected a libretro-database checkout`);
}
const masterDir = values.master;
for (const file of [ROM_HASHES_FILE, GAMES_FILE]) {
  if (!existsSync(join(masterDir, file))) fail(`no ${file} in ${masterDir}: run the GameDataBase converter first`);
}

const dats = readSerialDats(libretroDir);
const index = serialsByHash(dats);
const titleJoins = values.gamedatabase === undefined ? [] : joinDiscTitles(values.gamedatabase);
const serials = combineSerialRows([
  ...joinSerials(readRomHashesFile(join(masterDir, ROM_HASHES_FILE)), index),
  ...titleJoinRows(titleJoins),
]);
const serialsPath = join(masterDir, SERIALS_FILE);
const previous = readSerialsFile(serialsPath);
const games = readGamesFile(join(masterDir, GAMES_FILE));
const changed = changedGameRows(previous, serials, games);

for (const count of countByPlatform(mergeSerials(games, serials))) {
  const name = count.platformName ?? `platform ${count.platformId}`;
  console.log(`${name}: ${count.withModelNumber} of ${count.games} games have a model number`);
}
const knownGames = new Set(games.map((game) => game.gameId));
const strays = serials.filter((row) => !knownGames.has(row.gameId)).length;
if (strays > 0) console.warn(`${strays} serial rows name a game that is not in ${GAMES_FILE}: rom-hashes and games are out of step`);
console.log(
  `${index.size} ROM hashes with a model number; ${titleJoins.length} disc titles joined; ${serials.length} games and editions matched`,
);
if (values.gamedatabase === undefined) console.log("(no --gamedatabase: the disc platforms' games were not joined by title)");
if (values.joins !== undefined) {
  await writeFile(values.joins, joinsTsv(titleJoins));
  console.log(`wrote ${titleJoins.length} title joins to ${values.joins}`);
}
console.log(`${changed.length} games changed against the previous ${SERIALS_FILE}${previous.length === 0 ? " (none before)" : ""}`);

// The file is written after a successful import, so that a failed one is sent again next time.
if (values.import) await importChanged();
await writeFile(serialsPath, toNdjsonChunks(serials));
console.log(`wrote ${serials.length} rows to ${serialsPath}`);

function joinDiscTitles(gameDatabaseDir: string): TitleJoin[] {
  const ledgerPath = join(masterDir, "gamedatabase-ids.tsv");
  if (!existsSync(join(gameDatabaseDir, "tags.yml"))) fail(`no tags.yml in ${gameDatabaseDir}: expected a PigSaint GameDataBase checkout`);
  if (!existsSync(ledgerPath)) fail(`no gamedatabase-ids.tsv in ${masterDir}: the title join needs the converter's id ledger`);
  const csvFiles = Object.fromEntries(
    PLATFORM_FILES.filter((file) => existsSync(join(gameDatabaseDir, file))).map((file) => [
      file,
      readFileSync(join(gameDatabaseDir, file), "utf8"),
    ]),
  );
  const input = { csvFiles, tagsYml: readFileSync(join(gameDatabaseDir, "tags.yml"), "utf8"), idLedger: readFileSync(ledgerPath, "utf8") };
  return joinByTitle(dats.redump, romanisedTitles(input, Object.values(TITLE_JOIN_SYSTEMS)), isModelNumber);
}

function joinsTsv(joins: TitleJoin[]): string {
  const lines = joins.map((row) =>
    [row.platformKey, row.gameId, row.gameEditionId ?? "", row.title, row.libretroTitle, row.modelNumber.join(" ")].join("\t"),
  );
  return `${["platform", "gameId", "gameEditionId", "PigSaint title", "libretro title", "serials"].join("\t")}\n${lines.map((line) => `${line}\n`).join("")}`;
}

async function importChanged(): Promise<void> {
  if (changed.length === 0) {
    console.log("nothing to import");
    return;
  }
  try {
    console.log(JSON.stringify(await importGameRows(changed), null, 2));
  } catch (error) {
    console.error(`${(error as Error).message}\n(${SERIALS_FILE} is left as it was, so the next run sends these games again)`);
    process.exit(1);
  }
}
