// Model numbers (型番, libretro's `serial`) from libretro-database, joined to master games by ROM
// hash: the same dumps carry the same hashes in libretro's DATs and in PigSaint's CSVs, so the
// join is exact. (Discs, which PigSaint gives no hashes for, are joined by title in
// serialsByTitle.ts.) Pure: scripts/master-serials.ts reads the files, the tests pass fixture text.
import { z } from "zod";
import { editionRow, gameRow } from "../../../src/tools/games/masterRows";
import { type ClrBlock, childBlocks, parseClrmamepro, romCrcs, splitSerials, stringField } from "../libretro";
import type { GameRow } from "../masterRows";
import { type SerialEntry, serialsByGameCode } from "./serialsByCode";

/** Each record maps a system's dat file name ("Nintendo - Game Boy.dat") to that file's text. */
export interface SerialDats {
  /** metadat/serial: model numbers by ROM CRC (the only hash these files give). */
  serial: Record<string, string>;
  /** metadat/no-intro and dat: the same ROMs with MD5 and SHA-1, which turn a serial's CRC into the hashes games list. */
  noIntro: Record<string, string>;
  dat: Record<string, string>;
  /** metadat/redump: a disc's serial inline, beside its identifying track's hashes. */
  redump: Record<string, string>;
}

/** Lower-case hex MD5 or SHA-1 -> the model numbers of that ROM, in libretro's order. */
export type SerialsByHash = Map<string, string[]>;

/**
 * Which ROM hashes carry which model numbers. The no-intro files' own inline `serial` is not
 * used: it is the code in the ROM header ("ADA", "BJBJ"), not the number on the box
 * ("SSD-ADA", "AGB-BJBJ-JPN") that metadat/serial gives for the same CRC.
 */
export function serialsByHash(dats: SerialDats): SerialsByHash {
  const index: SerialsByHash = new Map();
  for (const fileName of sortedKeys(dats.serial)) {
    const entries = serialEntries(dats.serial[fileName] as string);
    const serialsOfCrc = serialsByCrc(entries);
    const hashDats = [dats.noIntro[fileName], dats.dat[fileName]].filter((text) => text !== undefined);
    const dumps = hashDats.flatMap(readDumps);
    for (const dump of dumps) {
      const serials = dump.crcs.flatMap((crc) => serialsOfCrc.get(crc) ?? []);
      addSerials(index, dump.hashes, serials);
    }
    const dumpCrcs = new Set(dumps.flatMap((dump) => dump.crcs));
    const unmatched = entries.filter((entry) => !entry.crcs.some((crc) => dumpCrcs.has(crc)));
    for (const found of serialsByGameCode(unmatched, dumps)) addSerials(index, found.hashes, found.serials);
  }
  for (const fileName of sortedKeys(dats.redump)) {
    for (const game of gameBlocks(dats.redump[fileName] as string)) {
      const inline = [stringField(game, "serial"), ...childBlocks(game, "rom").map((rom) => stringField(rom, "serial"))];
      const hashes = romsOf(game).flatMap((rom) => rom.hashes);
      addSerials(index, hashes, modelNumbers(inline));
    }
  }
  return index;
}

function serialEntries(text: string): SerialEntry[] {
  return gameBlocks(text).map((game) => ({
    name: stringField(game, "comment") ?? "",
    crcs: romCrcs(game),
    serials: modelNumbers([stringField(game, "serial")]),
  }));
}

function serialsByCrc(entries: SerialEntry[]): Map<string, string[]> {
  const byCrc = new Map<string, string[]>();
  for (const entry of entries) {
    for (const crc of entry.crcs) byCrc.set(crc, unique([...(byCrc.get(crc) ?? []), ...entry.serials]));
  }
  return byCrc;
}

function addSerials(index: SerialsByHash, hashes: string[], serials: string[]): void {
  if (serials.length === 0) return;
  for (const hash of hashes) index.set(hash, unique([...(index.get(hash) ?? []), ...serials]));
}

const modelNumber = gameRow.shape.modelNumber.element;
/** libretro has a few release dates in the serial field ("9/28/90" for Hellfire (Japan)). */
const DATE = /^\d{1,2}\/\d{1,2}\/\d{2,4}$/;

/** libretro's serial strings, split, without what cannot be a model number. */
function modelNumbers(serials: Array<string | undefined>): string[] {
  return unique(serials.flatMap(splitSerials).filter(isModelNumber));
}

/** Whether a libretro serial can be a model number: not a date, and what the row format accepts. */
export function isModelNumber(serial: string): boolean {
  return !DATE.test(serial) && modelNumber.safeParse(serial).success;
}

// ---------------------------------------------------------------------------------------------
// Dumps of a no-intro style dat: one `game ( ... )`, or the two games that are one dump with and
// without a header.

interface Rom {
  fileName: string;
  /** The ROM header's game code that no-intro dats give inline (`NSMJ`). */
  code: string | undefined;
  size: number | undefined;
  crc: string | undefined;
  hashes: string[];
}

interface Dump {
  /** The dat's game name ("Super Mario 64 (Japan)"). */
  name: string;
  code: string | undefined;
  crcs: string[];
  hashes: string[];
}

function gameBlocks(text: string): ClrBlock[] {
  return childBlocks(parseClrmamepro(text), "game");
}

function romsOf(game: ClrBlock): Rom[] {
  return childBlocks(game, "rom").map((rom) => {
    const size = stringField(rom, "size");
    return {
      fileName: stringField(rom, "name") ?? "",
      code: stringField(rom, "serial"),
      size: size === undefined ? undefined : Number(size),
      crc: stringField(rom, "crc")?.toUpperCase(),
      hashes: ["sha1", "md5"].flatMap((key) => stringField(rom, key)?.toLowerCase() ?? []),
    };
  });
}

function readDumps(text: string): Dump[] {
  const romsByGameName = new Map<string, Rom[][]>();
  for (const game of gameBlocks(text)) {
    const name = stringField(game, "name") ?? "";
    romsByGameName.set(name, [...(romsByGameName.get(name) ?? []), romsOf(game)]);
  }
  return [...romsByGameName].flatMap(([name, games]) => {
    const pair = headerPair(games);
    return pair ? [dumpOf(name, pair)] : games.map((roms) => dumpOf(name, roms));
  });
}

/**
 * The iNES header. libretro's NES no-intro dat lists each cartridge twice under one name, with
 * the header (.nes, what PigSaint hashes) and without it (.unh, whose CRC metadat/serial names).
 */
const HEADER_BYTES = 16;

/** The two single-file games of one name whose files differ only by extension and by a header. */
function headerPair(games: Rom[][]): Rom[] | undefined {
  if (games.length !== 2 || !games.every((roms) => roms.length === 1)) return undefined;
  const [a, b] = games.flat() as [Rom, Rom];
  const sameBaseName = withoutExtension(a.fileName) === withoutExtension(b.fileName);
  const sizes = a.size !== undefined && b.size !== undefined && Math.abs(a.size - b.size) === HEADER_BYTES;
  return sameBaseName && sizes ? [a, b] : undefined;
}

function withoutExtension(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, "");
}

function dumpOf(name: string, roms: Rom[]): Dump {
  return {
    name,
    code: roms.find((rom) => rom.code !== undefined)?.code,
    crcs: roms.flatMap((rom) => rom.crc ?? []),
    hashes: roms.flatMap((rom) => rom.hashes),
  };
}

// ---------------------------------------------------------------------------------------------
// The join: rom-hashes.ndjson (one line per game and per edition, written by the converter)
// -> serials.ndjson (one line per game or edition that has a model number).

const gameId = gameRow.shape.gameId;
const gameEditionId = editionRow.shape.gameEditionId.nullable();
const hexHash = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`), `must be ${length} lower-case hex digits`);

export const romHashRow = z.strictObject({
  gameId,
  gameEditionId,
  sha1: z.array(hexHash(40)),
  md5: z.array(hexHash(32)),
});
export type RomHashRow = z.infer<typeof romHashRow>;

export const serialRow = z.strictObject({ gameId, gameEditionId, modelNumber: gameRow.shape.modelNumber });
export type SerialRow = z.infer<typeof serialRow>;

/** The rows, parsed and checked; an error names the line. */
export function parseNdjsonRows<T>(text: string, schema: z.ZodType<T>, label: string): T[] {
  return text.split(/\r?\n/).flatMap((line, index) => {
    if (line.trim() === "") return [];
    const parsed = schema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`${label} line ${index + 1}: ${z.prettifyError(parsed.error)}`);
    return [parsed.data];
  });
}

/** The model numbers of each game and edition whose ROM hashes libretro knows, sorted by game then edition. */
export function joinSerials(romHashes: RomHashRow[], index: SerialsByHash): SerialRow[] {
  const rows = new Map<string, SerialRow>();
  for (const row of romHashes) {
    const key = rowKey(row.gameId, row.gameEditionId);
    const found = [...row.sha1, ...row.md5].flatMap((hash) => index.get(hash) ?? []);
    const modelNumber = unique([...(rows.get(key)?.modelNumber ?? []), ...found]);
    if (modelNumber.length > 0) rows.set(key, { gameId: row.gameId, gameEditionId: row.gameEditionId, modelNumber });
  }
  return [...rows.values()].sort(bySerialRowKey);
}

/** Rows of several joins as one file's rows: one per game or edition, its numbers in the joins' order. */
export function combineSerialRows(rows: SerialRow[]): SerialRow[] {
  const byKey = new Map<string, SerialRow>();
  for (const row of rows) {
    const key = rowKey(row.gameId, row.gameEditionId);
    byKey.set(key, { ...row, modelNumber: unique([...(byKey.get(key)?.modelNumber ?? []), ...row.modelNumber]) });
  }
  return [...byKey.values()].sort(bySerialRowKey);
}

/** The games with each one's and each edition's own model numbers added after those it has (duplicates dropped). */
export function mergeSerials<T extends GameRow>(games: T[], serials: SerialRow[]): T[] {
  const byKey = new Map(serials.map((row) => [rowKey(row.gameId, row.gameEditionId), row.modelNumber]));
  const withSerials = (modelNumbers: string[], key: string) => unique([...modelNumbers, ...(byKey.get(key) ?? [])]);
  return games.map((game) => ({
    ...game,
    modelNumber: withSerials(game.modelNumber, rowKey(game.gameId, null)),
    editions: game.editions.map((edition) => ({
      ...edition,
      modelNumber: withSerials(edition.modelNumber, rowKey(game.gameId, edition.gameEditionId)),
    })),
  }));
}

/**
 * The games whose model numbers differ between two serials files (one gained, lost or changed for
 * the game or an edition), merged with `next`: what a re-import must send, and nothing else.
 */
export function changedGameRows<T extends GameRow>(previous: SerialRow[], next: SerialRow[], games: T[]): T[] {
  const before = serialsByGame(previous);
  const after = serialsByGame(next);
  return mergeSerials(
    games.filter((game) => before.get(game.gameId) !== after.get(game.gameId)),
    next,
  );
}

/** Game id -> its rows of the file in one comparable string. */
function serialsByGame(rows: SerialRow[]): Map<number, string> {
  const byGame = new Map<number, SerialRow[]>();
  for (const row of rows) byGame.set(row.gameId, [...(byGame.get(row.gameId) ?? []), row]);
  return new Map([...byGame].map(([id, gameRows]) => [id, JSON.stringify(gameRows.sort(bySerialRowKey))]));
}

export interface PlatformSerialCount {
  platformId: number;
  platformName: string | null;
  games: number;
  /** Games with a model number of their own or on an edition. */
  withModelNumber: number;
}

export function countByPlatform(games: GameRow[]): PlatformSerialCount[] {
  const counts = new Map<number, PlatformSerialCount>();
  for (const game of games) {
    const count = counts.get(game.platformId) ?? {
      platformId: game.platformId,
      platformName: game.platformName ?? null,
      games: 0,
      withModelNumber: 0,
    };
    count.games += 1;
    if ([game, ...game.editions].some((row) => row.modelNumber.length > 0)) count.withModelNumber += 1;
    counts.set(game.platformId, count);
  }
  return [...counts.values()].sort((a, b) => a.platformId - b.platformId);
}

function rowKey(id: number, editionId: number | null): string {
  return `${id}:${editionId ?? ""}`;
}

/** By game, the game's own row (edition null) before its editions. */
function bySerialRowKey(a: SerialRow, b: SerialRow): number {
  return a.gameId - b.gameId || (a.gameEditionId ?? 0) - (b.gameEditionId ?? 0);
}

function sortedKeys(record: Record<string, string>): string[] {
  return Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
