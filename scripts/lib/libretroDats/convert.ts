// Turns the DATs of DAT_PLATFORMS into master rows: the Japanese releases, one game per title and
// platform with the discs of a release as one game and re-releases as its editions, serials as
// model numbers, ids from the id ledger. Pure: the CLI (scripts/master-from-libretro-dats.ts) reads the files.
import { assignIds, compareCodePoints, type IdLedger, idOf } from "../gamedatabase/idLedger";
import { type NicknameRow, nicknamesOf } from "../gamedatabase/nicknames";
import { childBlocks, indexMetadat, lookUp, parseClrmamepro, romCrcs, splitSerials, stringField } from "../libretro";
import type { CompanyRow, EditionRow, GameRow, GenreRow, PlatformRow } from "../masterRows";
import { genreIndex } from "./genres";
import { parseDumpName } from "./names";
import { type DatPlatform, platformRow } from "./platforms";

/** Where this source's ids start, so they never meet GameDataBase's, which count up from 1. */
export const FIRST_IDS = { platform: 101, game: 100_001, edition: 100_001 } as const;
const MAX_CODES = 10;
const MAX_EDITIONS = 50;

export interface PlatformDats {
  platform: DatPlatform;
  dat: string;
  /** metadat/publisher, metadat/genre and metadat/serial text for the platform, "" where libretro has none. */
  publisher: string;
  genre: string;
  serial: string;
}

export interface ConvertOptions {
  ledger: IdLedger;
  companies: CompanyRow[];
  genres: GenreRow[];
  nicknames: readonly NicknameRow[];
  /** The hiragana reading of a romanised title, or null where it cannot be read (readings.ts). */
  readingOf: (title: string) => string | null;
}

interface Release {
  serials: string[];
  publisher: string | null;
  genre: string | null;
}

interface Title {
  platform: DatPlatform;
  datTitle: string;
  title: string;
  /** edition label ("" = the plain release) -> its dumps' serials and publisher */
  releases: Map<string, Release>;
}

export function convertDats(sources: PlatformDats[], options: ConvertOptions): { platforms: PlatformRow[]; games: GameRow[] } {
  const { ledger } = options;
  assignIds(
    ledger,
    "platform",
    sources.map(({ platform }) => platform.key),
    FIRST_IDS.platform,
  );
  const platforms = sources.map(({ platform }) => platformRow(platform, idOf(ledger, "platform", platform.key)));
  const titles = sources.flatMap(titlesOf);
  assignIds(ledger, "game", titles.map(gameKey), FIRST_IDS.game);
  assignIds(
    ledger,
    "edition",
    titles.flatMap((title) => editionLabels(title).map((label) => editionKey(title, label))),
    FIRST_IDS.edition,
  );
  const lookUps = { companyOf: companyIndex(options.companies), genreOf: genreIndex(options.genres) };
  const games = titles.map((title) => gameRow(title, options, lookUps));
  return { platforms, games };
}

const gameKey = (title: Title) => `${title.platform.key}/${title.datTitle}`;
const editionKey = (title: Title, label: string) => `${gameKey(title)}#${label}`;
const editionLabels = (title: Title) => [...title.releases.keys()].filter((label) => label !== "").sort(compareCodePoints);

/** The platform's Japanese released titles in code-point order, each with its releases. */
function titlesOf({ platform, dat, publisher, genre, serial }: PlatformDats): Title[] {
  const publishers = indexMetadat(publisher, "publisher");
  const genres = indexMetadat(genre, "genre");
  const serials = indexMetadat(serial, "serial");
  const byTitle = new Map<string, Title>();
  for (const game of childBlocks(parseClrmamepro(dat), "game")) {
    const name = stringField(game, "name");
    if (name === undefined) continue;
    const dump = parseDumpName(name);
    if (!dump.japanese || dump.unreleased || dump.datTitle === "") continue;
    const crcs = romCrcs(game);
    const title = byTitle.get(dump.datTitle) ?? { platform, datTitle: dump.datTitle, title: dump.title, releases: new Map() };
    byTitle.set(dump.datTitle, title);
    const release = title.releases.get(dump.edition) ?? { serials: [], publisher: null, genre: null };
    title.releases.set(dump.edition, release);
    const found = [
      stringField(game, "serial"),
      ...childBlocks(game, "rom").map((rom) => stringField(rom, "serial")),
      lookUp(serials, name, crcs),
    ];
    release.serials.push(...found.flatMap(splitSerials).map(boxSerial));
    release.publisher ??= lookUp(publishers, name, crcs) ?? null;
    release.genre ??= lookUp(genres, name, crcs) ?? null;
  }
  return [...byTitle.values()].sort((a, b) => compareCodePoints(a.datTitle, b.datTitle));
}

/** A serial as the spine prints it: `SLPS_012.34` or `SLPS 01234` (disc file forms) -> `SLPS-01234`. */
export function boxSerial(serial: string): string {
  const disc = /^([A-Z]{4})[ _-]?(\d{3})\.?(\d{2})$/.exec(serial);
  return disc ? `${disc[1]}-${disc[2]}${disc[3]}` : serial;
}

/** Publishers as libretro spells them (`Bandai`) -> the catalog's company, by its English or own name; unknown ones stay null. */
function companyIndex(companies: CompanyRow[]): (publisher: string | null) => CompanyRow | undefined {
  const byName = new Map<string, CompanyRow>();
  for (const company of companies) for (const name of [company.nameEn, company.name]) if (name) byName.set(name.toLowerCase(), company);
  return (publisher) => (publisher === null ? undefined : byName.get(publisher.toLowerCase()));
}

/**
 * A release's serials, sorted. Redump lists some discs a second time with a disc index appended
 * (`SLPS-00700-0` beside `SLPS-00700`); the box prints only the first, so the indexed one goes.
 */
function codes(serials: string[]): string[] {
  const all = new Set(serials);
  const printed = [...all].filter((serial) => !(/-\d$/.test(serial) && all.has(serial.slice(0, -2))));
  return printed.sort(compareCodePoints).slice(0, MAX_CODES);
}

interface LookUps {
  companyOf: ReturnType<typeof companyIndex>;
  genreOf: ReturnType<typeof genreIndex>;
}

/** A fact of the plain release, else of the first edition that has it. */
function releaseFact(title: Title, fact: "publisher" | "genre"): string | null {
  return title.releases.get("")?.[fact] ?? [...title.releases.values()].find((release) => release[fact])?.[fact] ?? null;
}

function gameRow(title: Title, { ledger, nicknames, readingOf }: ConvertOptions, { companyOf, genreOf }: LookUps): GameRow {
  const labels = editionLabels(title);
  const publisher = companyOf(releaseFact(title, "publisher"));
  const genre = genreOf(releaseFact(title, "genre"));
  const titleReading = readingOf(title.title);
  const titleEn = [title.title];
  const editions: EditionRow[] = labels.slice(0, MAX_EDITIONS).map((label) => ({
    gameEditionId: idOf(ledger, "edition", editionKey(title, label)),
    title: `${title.title} (${label})`.slice(0, 200),
    modelNumber: codes(title.releases.get(label)?.serials ?? []),
    releaseDate: null,
    price: null,
    janCode: null,
  }));
  return {
    gameId: idOf(ledger, "game", gameKey(title)),
    title: title.title,
    titleReading,
    titleEn,
    aliases: nicknamesOf(nicknames, { title: title.title, titleEn, titleReading, platformKey: title.platform.key }),
    platformId: idOf(ledger, "platform", title.platform.key),
    platformName: title.platform.name,
    publisherId: publisher?.companyId ?? null,
    publisherName: publisher?.name ?? null,
    genreId: genre?.genreId ?? null,
    genreName: genre?.genreName ?? null,
    genreSubId: null,
    genreKey: genre?.genreKey ?? null,
    releaseDate: null,
    janCode: null,
    modelNumber: codes(title.releases.get("")?.serials ?? []),
    price: null,
    mediaId: null,
    gpsId: null,
    dbId: null,
    dbSlug: null,
    dbCoverId: null,
    editions,
  };
}
