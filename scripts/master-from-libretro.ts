// Converts a libretro-database checkout into master rows:
//   npm run master:from-libretro -- <dir> [--out <outDir>]
// Reads <dir>/dat/*.dat and <dir>/metadat/{publisher,releaseyear,releasemonth,serial}/*.dat and
// writes platforms.ndjson, companies.ndjson and games.ndjson (default: <dir>/master-ndjson).
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readDatFolder } from "./lib/datFolder";
import { convertLibretro, METADAT_FIELDS } from "./lib/libretro";
import { toNdjsonChunks } from "./lib/masterRows";
import { usageFailure } from "./lib/usage";

const USAGE =
  "usage: npm run master:from-libretro -- <libretro-database dir> [--out <outDir>]" +
  " [--first-platform-id N] [--first-company-id N] [--first-game-id N]";

const fail: (message: string) => never = usageFailure(USAGE);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: "string" },
    "first-platform-id": { type: "string", default: "1" },
    "first-company-id": { type: "string", default: "1" },
    "first-game-id": { type: "string", default: "1" },
  },
});
/** Ids start where the operator says, so converted rows can sit beside existing master data. */
function firstId(name: "first-platform-id" | "first-company-id" | "first-game-id"): number {
  const id = Number(values[name]);
  if (!Number.isSafeInteger(id) || id < 1) fail(`--${name} must be a whole number >= 1`);
  return id;
}
const dir = positionals[0];
if (dir === undefined) fail("missing the libretro-database directory");
const datFolder = join(dir, "dat");
if (!existsSync(datFolder)) fail(`no dat folder at ${datFolder}: expected a libretro-database layout (dat/*.dat, metadat/<field>/*.dat)`);

const dats = readDatFolder(datFolder);
if (Object.keys(dats).length === 0) fail(`no .dat files in ${datFolder}`);
const platformFiles = new Set(Object.keys(dats));
const metadat = Object.fromEntries(METADAT_FIELDS.map((field) => [field, readDatFolder(join(dir, "metadat", field), platformFiles)]));
const master = convertLibretro(
  { dats, metadat },
  { firstPlatformId: firstId("first-platform-id"), firstCompanyId: firstId("first-company-id"), firstGameId: firstId("first-game-id") },
);

const outDir = values.out ?? join(dir, "master-ndjson");
await mkdir(outDir, { recursive: true });
await writeFile(join(outDir, "platforms.ndjson"), toNdjsonChunks(master.platforms));
await writeFile(join(outDir, "companies.ndjson"), toNdjsonChunks(master.companies));
// The row format has no place for a year or month without a day, so those stay out of the file
// (releaseDate stays null); the count below says how many games that concerns.
const games = master.games.map(({ releaseYearMonth: _, ...row }) => row);
const yearMonthOnly = master.games.filter((game) => game.releaseYearMonth !== null).length;
await writeFile(join(outDir, "games.ndjson"), toNdjsonChunks(games));
console.log(
  `wrote ${master.platforms.length} platforms, ${master.companies.length} companies, ${games.length} games to ${outDir}` +
    ` (${yearMonthOnly} games have only a release year/month, so releaseDate stays null)`,
);
