// Converts libretro-database clrmamepro files (dat/ plus metadat/) into master rows.
// Pure: the CLI reads the files, the tests pass fixture text.
import type { CompanyRow, GameRow, PlatformRow } from "./masterRows";

/** Each record maps a platform's dat file name ("Nintendo - Game Boy.dat") to that file's text. */
export interface LibretroInput {
  dats: Record<string, string>;
  metadat: Partial<Record<MetadatField, Record<string, string>>>;
}

export type MetadatField = "publisher" | "releaseyear" | "releasemonth" | "serial";

export interface LibretroOptions {
  firstGameId?: number;
  firstPlatformId?: number;
  firstCompanyId?: number;
}

/**
 * libretro knows release year and month but never the day, and `releaseDate` is a full date
 * that must not be invented, so it stays null; `releaseYearMonth` ("YYYY-MM" or "YYYY") keeps
 * what is known.
 */
export interface LibretroGameRow extends GameRow {
  releaseYearMonth: string | null;
}

export interface LibretroMaster {
  platforms: PlatformRow[];
  companies: CompanyRow[];
  games: LibretroGameRow[];
}

export function convertLibretro(input: LibretroInput, options: LibretroOptions = {}): LibretroMaster {
  const firstPlatformId = options.firstPlatformId ?? 1;
  const fileNames = Object.keys(input.dats).sort(compareCodePoints);
  const platforms = fileNames.map((fileName, index) => platformFromFileName(fileName, firstPlatformId + index));

  const titles = fileNames.flatMap((fileName, index) => {
    const platform = platforms[index] as PlatformRow;
    const dumps = readDumps(input.dats[fileName] ?? "", metadatFor(input, fileName));
    return groupByCleanTitle(dumps).map((group) => mergeDumps(platform, group));
  });
  titles.sort((a, b) => a.platform.platformId - b.platform.platformId || compareCodePoints(a.title, b.title));

  const companies = companiesInOrder(titles, options.firstCompanyId ?? 1);
  const companyIdByName = new Map(companies.map((company) => [company.name, company.companyId]));
  const firstGameId = options.firstGameId ?? 1;
  const games = titles.map((title, index) => gameRow(title, firstGameId + index, companyIdByName));
  return { platforms, companies, games };
}

// ---------------------------------------------------------------------------------------------
// clrmamepro parsing: `key value` pairs where a value is a quoted string, a bare token or a
// parenthesised block of further pairs. These files never escape quotes. Exported for the
// model-number join (gamedatabase/serials.ts), which reads the same files.

type ClrValue = string | ClrBlock;
export type ClrBlock = Array<[key: string, value: ClrValue]>;
type Token = { kind: "open" } | { kind: "close" } | { kind: "word"; text: string };

const TOKEN = /"([^"]*)"|([()])|([^\s()"]+)/g;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const [, quoted, paren, bare] = match;
    if (paren === "(") tokens.push({ kind: "open" });
    else if (paren === ")") tokens.push({ kind: "close" });
    else tokens.push({ kind: "word", text: quoted ?? bare ?? "" });
  }
  return tokens;
}

export function parseClrmamepro(text: string): ClrBlock {
  return parseBlock(tokenize(text), { index: 0 });
}

function parseBlock(tokens: Token[], cursor: { index: number }): ClrBlock {
  const block: ClrBlock = [];
  while (cursor.index < tokens.length) {
    const token = tokens[cursor.index++] as Token;
    if (token.kind === "close") return block;
    if (token.kind === "open") continue; // a block without a key carries nothing we can name
    const next = tokens[cursor.index];
    if (next?.kind === "open") {
      cursor.index += 1;
      block.push([token.text, parseBlock(tokens, cursor)]);
    } else if (next?.kind === "word") {
      cursor.index += 1;
      block.push([token.text, next.text]);
    }
  }
  return block;
}

export function stringField(block: ClrBlock, key: string): string | undefined {
  const entry = block.find(([entryKey, value]) => entryKey === key && typeof value === "string");
  return entry?.[1] as string | undefined;
}

export function childBlocks(block: ClrBlock, key: string): ClrBlock[] {
  return block.flatMap(([entryKey, value]) => (entryKey === key && typeof value !== "string" ? [value] : []));
}

// ---------------------------------------------------------------------------------------------
// Dumps: one `game ( ... )` of a dat file, with its metadat values attached.

interface Dump {
  name: string;
  cleanTitle: string;
  isJapan: boolean;
  tagCount: number;
  publisher: string | undefined;
  releaseYear: string | undefined;
  releaseMonth: string | undefined;
  serials: string[];
}

/** A metadat file's values, findable by dump name (`name`, or `comment` in libretro's files) or ROM CRC. */
export interface MetadatIndex {
  byName: Map<string, string>;
  byCrc: Map<string, string>;
}

type PlatformMetadat = Record<MetadatField, MetadatIndex>;

export const METADAT_FIELDS: MetadatField[] = ["publisher", "releaseyear", "releasemonth", "serial"];

function metadatFor(input: LibretroInput, fileName: string): PlatformMetadat {
  const entries = METADAT_FIELDS.map((field) => [field, indexMetadat(input.metadat[field]?.[fileName] ?? "", field)]);
  return Object.fromEntries(entries) as PlatformMetadat;
}

/** A metadat file's values of one field, by game name and by ROM CRC (also the DAT converter's). */
export function indexMetadat(text: string, field: string): MetadatIndex {
  const index: MetadatIndex = { byName: new Map(), byCrc: new Map() };
  for (const game of childBlocks(parseClrmamepro(text), "game")) {
    const value = stringField(game, field);
    if (value === undefined) continue;
    const name = stringField(game, "name") ?? stringField(game, "comment");
    if (name !== undefined) index.byName.set(name, value);
    for (const crc of romCrcs(game)) index.byCrc.set(crc, value);
  }
  return index;
}

/** A game's value in a metadat index: by its name, else by the first of its ROMs' CRCs found. */
export function lookUp(index: MetadatIndex, name: string, crcs: string[]): string | undefined {
  const byName = index.byName.get(name);
  if (byName !== undefined) return byName;
  for (const crc of crcs) {
    const byCrc = index.byCrc.get(crc);
    if (byCrc !== undefined) return byCrc;
  }
  return undefined;
}

export function romCrcs(game: ClrBlock): string[] {
  return childBlocks(game, "rom").flatMap((rom) => {
    const crc = stringField(rom, "crc");
    return crc === undefined ? [] : [crc.toUpperCase()];
  });
}

function readDumps(datText: string, metadat: PlatformMetadat): Dump[] {
  return childBlocks(parseClrmamepro(datText), "game").flatMap((game) => {
    const name = stringField(game, "name");
    // BIOS images are system files, not games.
    if (name === undefined || name.startsWith("[BIOS]")) return [];
    const crcs = romCrcs(game);
    const { title, tags } = splitTrailingTags(name);
    const serialSources = [
      lookUp(metadat.serial, name, crcs),
      stringField(game, "serial"),
      ...childBlocks(game, "rom").map((rom) => stringField(rom, "serial")),
    ];
    return [
      {
        name,
        cleanTitle: title,
        isJapan: stringField(game, "region") === "Japan" || tags.some(namesJapan),
        tagCount: tags.length,
        publisher: lookUp(metadat.publisher, name, crcs),
        releaseYear: lookUp(metadat.releaseyear, name, crcs),
        releaseMonth: lookUp(metadat.releasemonth, name, crcs),
        serials: unique(serialSources.flatMap(splitSerials)),
      },
    ];
  });
}

const TRAILING_TAG = /\s*(\([^()]*\)|\[[^[\]]*\])\s*$/;

/** "Super Mario World (USA) (Rev 1)" -> title "Super Mario World", tags ["(USA)", "(Rev 1)"]. */
function splitTrailingTags(name: string): { title: string; tags: string[] } {
  let title = name.trim();
  const tags: string[] = [];
  for (let match = TRAILING_TAG.exec(title); match && match.index > 0; match = TRAILING_TAG.exec(title)) {
    tags.unshift(match[1] as string);
    title = title.slice(0, match.index);
  }
  return { title, tags };
}

/** "(Japan)", "(Japan, USA)" */
function namesJapan(tag: string): boolean {
  return (
    tag.startsWith("(") &&
    tag
      .slice(1, -1)
      .split(",")
      .some((region) => region.trim() === "Japan")
  );
}

/** "SHVC-AY2J-JPN, SHVC-AY2J" -> both; libretro separates a dump's serials with ", " or " / ". */
export function splitSerials(serial: string | undefined): string[] {
  if (serial === undefined) return [];
  return serial
    .split(/, | \/ /)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

// ---------------------------------------------------------------------------------------------
// Master rows

function platformFromFileName(fileName: string, platformId: number): PlatformRow {
  const base = fileName.replace(/\.dat$/i, "");
  const separator = base.indexOf(" - ");
  const nameEn = separator === -1 ? base : base.slice(separator + 3);
  return {
    platformId,
    name: nameEn, // libretro knows no Japanese name
    nameEn,
    shortName: null,
    maker: separator === -1 ? null : base.slice(0, separator),
    releaseDate: null,
    custom: false,
  };
}

interface MergedTitle {
  platform: PlatformRow;
  title: string;
  publisher: string | null;
  releaseYearMonth: string | null;
  modelNumber: string[];
}

function groupByCleanTitle(dumps: Dump[]): Dump[][] {
  const groups = new Map<string, Dump[]>();
  for (const dump of dumps) {
    const group = groups.get(dump.cleanTitle);
    if (group) group.push(dump);
    else groups.set(dump.cleanTitle, [dump]);
  }
  return [...groups.values()];
}

/**
 * Regional and revised dumps of one title become one master game. Metadata is taken from the
 * (Japan) dump first, then from the plainest dump (fewest tags: a release before its betas and
 * re-releases), so the result does not depend on the dat's order.
 */
function mergeDumps(platform: PlatformRow, group: Dump[]): MergedTitle {
  const preferred = [...group].sort(
    (a, b) => Number(b.isJapan) - Number(a.isJapan) || a.tagCount - b.tagCount || compareCodePoints(a.name, b.name),
  );
  const dated = preferred.find((dump) => isYear(dump.releaseYear));
  return {
    platform,
    title: (preferred[0] as Dump).cleanTitle,
    publisher: preferred.find((dump) => dump.publisher)?.publisher ?? null,
    releaseYearMonth: dated ? yearMonth(dated.releaseYear as string, dated.releaseMonth) : null,
    modelNumber: unique(preferred.flatMap((dump) => dump.serials)),
  };
}

function isYear(value: string | undefined): boolean {
  return value !== undefined && /^\d{4}$/.test(value.trim());
}

function yearMonth(year: string, month: string | undefined): string {
  const monthNumber = Number(month);
  const knownMonth = Number.isInteger(monthNumber) && monthNumber >= 1 && monthNumber <= 12;
  return knownMonth ? `${year.trim()}-${String(monthNumber).padStart(2, "0")}` : year.trim();
}

function companiesInOrder(titles: MergedTitle[], firstCompanyId: number): CompanyRow[] {
  const names = unique(titles.flatMap((title) => (title.publisher === null ? [] : [title.publisher])));
  return names.map((name, index) => ({
    companyId: firstCompanyId + index,
    name,
    nameKana: null,
    nameEn: name,
    custom: false,
  }));
}

function gameRow(title: MergedTitle, gameId: number, companyIdByName: Map<string, number>): LibretroGameRow {
  return {
    gameId,
    title: title.title, // libretro has no Japanese title
    titleReading: null,
    titleEn: [title.title],
    aliases: [],
    platformId: title.platform.platformId,
    platformName: title.platform.name,
    publisherId: title.publisher === null ? null : (companyIdByName.get(title.publisher) ?? null),
    publisherName: title.publisher,
    genreId: null,
    genreName: null,
    genreSubId: null,
    genreKey: null,
    releaseDate: null,
    releaseYearMonth: title.releaseYearMonth,
    janCode: null,
    modelNumber: title.modelNumber,
    price: null,
    mediaId: null,
    gpsId: null,
    dbId: null,
    dbSlug: null,
    dbCoverId: null,
    editions: [],
  };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** Plain code-point order, so ids never depend on the runtime's locale data. */
function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
