// The files around the model-number join (Node): libretro-database's dat folders in, the master
// folder's rom-hashes.ndjson, games.ndjson and serials.ndjson. Shared by scripts/master-serials.ts
// and the demo seed, which imports games.ndjson with serials.ndjson merged in.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readDatFolder } from "../datFolder";
import { type GameRow, toNdjson } from "../masterRows";
import { mergeSerials, parseNdjsonRows, type RomHashRow, romHashRow, type SerialDats, type SerialRow, serialRow } from "./serials";

export const SERIALS_FILE = "serials.ndjson";
export const ROM_HASHES_FILE = "rom-hashes.ndjson";
export const GAMES_FILE = "games.ndjson";

/**
 * The dats the join reads from a libretro-database checkout. no-intro and dat files are read only
 * for systems that have a serial file, since they serve only to turn its CRCs into hashes.
 */
export function readSerialDats(libretroDir: string): SerialDats {
  const serial = readDatFolder(join(libretroDir, "metadat", "serial"));
  const systems = new Set(Object.keys(serial));
  return {
    serial,
    noIntro: readDatFolder(join(libretroDir, "metadat", "no-intro"), systems),
    dat: readDatFolder(join(libretroDir, "dat"), systems),
    redump: readDatFolder(join(libretroDir, "metadat", "redump")),
  };
}

export function readRomHashesFile(path: string): RomHashRow[] {
  return parseNdjsonRows(readFileSync(path, "utf8"), romHashRow, path);
}

/** The rows of a serials file; none when there is no such file (nothing joined yet). */
export function readSerialsFile(path: string): SerialRow[] {
  return existsSync(path) ? parseNdjsonRows(readFileSync(path, "utf8"), serialRow, path) : [];
}

/** Game rows as the master file holds them; the import checks them against the row format. */
export function readGamesFile(path: string): GameRow[] {
  return readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as GameRow);
}

/**
 * The games of a master folder as they should be imported, as NDJSON text: games.ndjson with the
 * model numbers of serials.ndjson beside it merged in (the two files keep their own licences).
 */
export function gamesWithSerials(masterDir: string): string {
  const gamesPath = join(masterDir, GAMES_FILE);
  const serials = readSerialsFile(join(masterDir, SERIALS_FILE));
  if (serials.length === 0) return readFileSync(gamesPath, "utf8");
  return toNdjson(mergeSerials(readGamesFile(gamesPath), serials));
}

/** Sends game rows to the running server's operator import, as `npm run admin -- master import games` does (progress on stderr). */
export async function importGameRows(rows: GameRow[]): Promise<object> {
  // @ts-expect-error: a plain ES module without type declarations
  const { adminToken, baseUrl } = (await import("../local.mjs")) as { adminToken: () => string | undefined; baseUrl: () => string };
  // @ts-expect-error: likewise
  const { importNdjsonLines, ndjsonLinesOf } = (await import("../masterImport.mjs")) as {
    ndjsonLinesOf: (text: string, name: string) => object;
    importNdjsonLines: (dataset: string, lines: object, options: { onProgress: (progress: object) => void }) => Promise<object>;
  };
  // @ts-expect-error: likewise
  const { importProgress } = (await import("../progress.mjs")) as {
    importProgress: () => { onProgress: (progress: object) => void; stop: () => void };
  };
  if (!adminToken())
    throw new Error("no operator token: set ADMIN_TOKEN, or run `npm run dev` once (it generates one in .wrangler/local-secrets.env)");
  const progress = importProgress();
  try {
    return await importNdjsonLines("games", ndjsonLinesOf(toNdjson(rows), "changed games"), { onProgress: progress.onProgress });
  } catch (error) {
    const { message, cause } = error as Error & { cause?: { code?: string } };
    throw new Error(`import to ${baseUrl()}: ${message}${cause?.code ? ` (${cause.code})` : ""}`);
  } finally {
    progress.stop(); // ends the bar's line before anything else is printed
  }
}
