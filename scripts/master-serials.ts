// Joins libretro-database's model numbers to the master games by ROM hash:
//   npm run master:serials -- <libretro-database dir> [--master seed/master] [--import]
// Reads <master>/rom-hashes.ndjson and games.ndjson, writes <master>/serials.ndjson and prints,
// per platform, how many games have a model number. --import sends the games whose model numbers
// changed against the previous serials.ndjson, merged into their full rows, to the running server.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { changedGameRows, countByPlatform, joinSerials, mergeSerials, serialsByHash } from "./lib/gamedatabase/serials";
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

const USAGE = "usage: npm run master:serials -- <libretro-database dir> [--master <dir, default seed/master>] [--import]";

const fail: (message: string) => never = usageFailure(USAGE);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    master: { type: "string", default: join("seed", "master") },
    import: { type: "boolean", default: false },
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

const index = serialsByHash(readSerialDats(libretroDir));
const serials = joinSerials(readRomHashesFile(join(masterDir, ROM_HASHES_FILE)), index);
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
console.log(`${index.size} ROM hashes with a model number; ${serials.length} games and editions matched`);
console.log(`${changed.length} games changed against the previous ${SERIALS_FILE}${previous.length === 0 ? " (none before)" : ""}`);

// The file is written after a successful import, so that a failed one is sent again next time.
if (values.import) await importChanged();
await writeFile(serialsPath, toNdjsonChunks(serials));
console.log(`wrote ${serials.length} rows to ${serialsPath}`);

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
