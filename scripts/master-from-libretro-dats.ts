// Converts the Japanese releases of the platforms GameDataBase lacks (PlayStation, Dreamcast, ...:
// scripts/lib/libretroDats/platforms.ts) from a libretro-database checkout into master rows:
//   npm run master:from-libretro-dats -- <libretro-database dir> [--master seed/master]
// Reads <master>/companies.ndjson, genres.ndjson, nicknames.tsv, loanwords.tsv and libretro-ids.tsv; writes
// libretro-platforms.ndjson, libretro-games.ndjson and libretro-ids.tsv there, and prints the
// games per platform. Deterministic: the same checkout and tables give the same files.
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatIdLedger, parseIdLedger } from "./lib/gamedatabase/idLedger";
import { loanwordsFrom, parseLoanwords } from "./lib/gamedatabase/loanwords";
import { parseNicknameTable } from "./lib/gamedatabase/nicknames";
import { convertDats } from "./lib/libretroDats/convert";
import { LIBRETRO_GAMES_FILE, LIBRETRO_IDS_FILE, LIBRETRO_PLATFORMS_FILE, readPlatformDats } from "./lib/libretroDats/files";
import { romajiReading } from "./lib/libretroDats/readings";
import { type CompanyRow, type GenreRow, toNdjsonChunks } from "./lib/masterRows";
import { usageFailure } from "./lib/usage";

const USAGE = "usage: npm run master:from-libretro-dats -- <libretro-database dir> [--master <dir, default seed/master>]";
const fail: (message: string) => never = usageFailure(USAGE);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { master: { type: "string", default: join("seed", "master") } },
});
const libretroDir = positionals[0];
if (libretroDir === undefined) fail("missing the libretro-database directory");
const masterDir = values.master;
const read = (file: string) => readFileSync(join(masterDir, file), "utf8");
for (const file of ["companies.ndjson", "genres.ndjson", "nicknames.tsv", "loanwords.tsv"]) {
  if (!existsSync(join(masterDir, file))) fail(`no ${file} in ${masterDir}`);
}

const { sources, missing } = readPlatformDats(libretroDir);
if (sources.length === 0)
  fail(`none of the DATs in ${libretroDir}: expected a libretro-database checkout (metadat/redump, metadat/no-intro)`);
const idsPath = join(masterDir, LIBRETRO_IDS_FILE);
const ledger = parseIdLedger(existsSync(idsPath) ? readFileSync(idsPath, "utf8") : "");
const loanwords = loanwordsFrom(parseLoanwords(read("loanwords.tsv")));
const rowsOf = <T>(file: string) =>
  read(file)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
const { platforms, games } = convertDats(sources, {
  ledger,
  companies: rowsOf<CompanyRow>("companies.ndjson"),
  genres: rowsOf<GenreRow>("genres.ndjson"),
  nicknames: parseNicknameTable(read("nicknames.tsv")),
  readingOf: (title) => romajiReading(title, loanwords),
});

await writeFile(join(masterDir, LIBRETRO_PLATFORMS_FILE), toNdjsonChunks(platforms));
await writeFile(join(masterDir, LIBRETRO_GAMES_FILE), toNdjsonChunks(games));
await writeFile(idsPath, formatIdLedger(ledger));
for (const platform of platforms) {
  const own = games.filter((game) => game.platformId === platform.platformId);
  const withSerial = own.filter((game) => game.modelNumber.length > 0 || game.editions.some((e) => e.modelNumber.length > 0)).length;
  const withReading = own.filter((game) => game.titleReading !== null).length;
  console.log(`${platform.nameEn}: ${own.length} games, ${withSerial} with a serial, ${withReading} with a reading`);
}
console.log(`wrote ${platforms.length} platforms and ${games.length} games to ${masterDir}`);
for (const dat of missing) console.warn(`not in the checkout, left out: ${dat}`);
