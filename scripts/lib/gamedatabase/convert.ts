// Converts a PigSaint GameDataBase checkout (one CSV per platform, tags.yml) into master rows.
// Pure: scripts/master-from-gamedatabase.ts reads the files and passes the kana readings in
// (`readingOf`), the tests pass fixture text and a stub.
import { z } from "zod";
import { MASTER_DATASETS } from "../../../src/tools/games/masterRows";
import type { CompanyRow, GameRow, GenreRow, PlatformRow } from "../masterRows";
import { companyKey, companyRows } from "./companies";
import { type Corrections, unusedCorrections } from "./corrections";
import { readGameDatabaseCsv, type SourceRow } from "./csv";
import { type Product, productTitles } from "./editions";
import { draftGame, englishTitlesOf, type GameDraft, gameRow, romHashRows } from "./games";
import { type GenreSpec, genreRows, genreSpecs } from "./genres";
import { assignIds, compareCodePoints, formatIdLedger, type IdKind, type IdLedger, idOf, parseIdLedger } from "./idLedger";
import { marketsOf, PLATFORM_FILES, PLATFORMS, type PlatformSpec, platformFor } from "./platforms";
import type { Reading, ReadingSource, TitleForReading } from "./readings";
import type { RomHashRow } from "./serials";
import type { RomanisedTitle } from "./serialsByTitle";
import { hasTag, readTagTaxonomy, type TagTaxonomy, tagsNamed } from "./tags";

export interface GameDatabaseInput {
  /** CSV file name -> text, for the files the platform table knows (PLATFORM_FILES); others are ignored. */
  csvFiles: Record<string, string>;
  tagsYml: string;
  /** The id ledger's text, "" when there is none yet. */
  idLedger: string;
}

export interface ConvertOptions {
  /** "japan": Japanese releases only; "all": overseas releases too, on their own platforms. */
  regions: "japan" | "all";
  /** readings.ts' readingFor with the analyser, or a stub in tests. */
  readingOf: (title: TitleForReading) => Reading;
  /** The project's corrections to the source (corrections.ts), by game key. */
  corrections?: Corrections;
  /** The nicknames collectors use for a game (nicknames.ts), which become its aliases. */
  nicknamesOf?: (game: GameRow, platformKey: string) => string[];
  /** Called after each game row, with how many there are. */
  onProgress?: (done: number, total: number) => void;
}

export interface GameDatabaseMaster {
  platforms: PlatformRow[];
  companies: CompanyRow[];
  genres: GenreRow[];
  games: GameRow[];
  romHashes: RomHashRow[];
  /** The ledger's new text: the input's with this run's new keys added. */
  idLedger: string;
  summary: ConversionSummary;
}

/** A reading's source; "none": no reading, "refused": not hiragana, so left null. */
export type ReadingCount = ReadingSource | "corrected" | "none" | "refused";

export type SkipReason = "unfinished" | "rerelease" | "unlicensedCopy" | "noId" | "noRegion" | "overseas" | "noOverseasPlatform";

export interface ConversionSummary {
  /** Per platform, by id: its games and editions. */
  platforms: Array<{ platformId: number; name: string; games: number; editions: number }>;
  /** Japanese games by where their reading came from. */
  readings: Record<ReadingCount, number>;
  /** CSV rows that made no game or edition, by why. */
  skippedRows: Record<SkipReason, number>;
  /** `#genre` values the taxonomy does not know (typos), with how many games carry them. */
  unknownGenres: Record<string, number>;
  /** Genres named by tags.yml's English description: GENRE_NAMES_JA has no Japanese name for them yet. */
  untranslatedGenres: string[];
  /** Keys this run added to the ledger, by kind. */
  newIds: Record<IdKind, number>;
}

const SKIP_REASONS: SkipReason[] = ["unfinished", "rerelease", "unlicensedCopy", "noId", "noRegion", "overseas", "noOverseasPlatform"];

export function convertGameDatabase(input: GameDatabaseInput, options: ConvertOptions): GameDatabaseMaster {
  const taxonomy = readTagTaxonomy(input.tagsYml);
  const ledger = parseIdLedger(input.idLedger);
  const files = PLATFORM_FILES.filter((file) => input.csvFiles[file] !== undefined);
  const platforms = PLATFORMS.filter(
    (platform) => files.includes(platform.file) && (options.regions === "all" || platform.region === "japan"),
  );
  const skippedRows = emptyCounts(SKIP_REASONS);
  const drafts = files.flatMap((file) => draftsOfFile(file, input.csvFiles[file] as string, options.regions, taxonomy, skippedRows));
  const unused = unusedCorrections(options.corrections ?? new Map(), new Set(drafts.map((draft) => draft.key)));
  if (unused.length > 0) throw new Error(`corrections for games the source does not have: ${unused.join(", ")}`);
  const genres = genreSpecs(taxonomy);
  const newIds = assignNewIds(ledger, platforms, genres, drafts);

  const platformRows = platforms
    .map((platform) => platformRow(platform, idOf(ledger, "platform", platform.key)))
    .sort((a, b) => a.platformId - b.platformId);
  const genreRowsOut = genreRows(genres, (key) => idOf(ledger, "genre", key));
  const companies = companyRows(publisherSpellings(drafts), (key) => idOf(ledger, "company", key));
  const built = buildGames(drafts, ledger, { taxonomy, genres: genreRowsOut, companies, options });

  return {
    platforms: platformRows,
    companies,
    genres: genreRowsOut,
    games: built.games,
    romHashes: built.romHashes,
    idLedger: formatIdLedger(ledger),
    summary: {
      platforms: platformRows.map((platform) => {
        const games = built.games.filter((game) => game.platformId === platform.platformId);
        const editions = games.reduce((total, game) => total + game.editions.length, 0);
        return { platformId: platform.platformId, name: platform.name, games: games.length, editions };
      }),
      readings: built.readings,
      skippedRows,
      unknownGenres: countValues(drafts.flatMap((draft) => draft.genres.unknown)),
      untranslatedGenres: genres.filter((genre) => !genre.translated).map((genre) => genre.key),
      newIds,
    },
  };
}

/**
 * The romanised title of each Japanese game and edition of the given platforms, with the ids the
 * ledger gave them: what the model-number join by title (serialsByTitle.ts) matches. Keys the
 * ledger does not know (a newer checkout than the catalog's) are left out.
 */
export function romanisedTitles(input: GameDatabaseInput, platformKeys: string[]): RomanisedTitle[] {
  const taxonomy = readTagTaxonomy(input.tagsYml);
  const ledger = parseIdLedger(input.idLedger);
  const files = [...new Set(PLATFORMS.filter((platform) => platformKeys.includes(platform.key)).map((platform) => platform.file))];
  const drafts = files
    .filter((file) => input.csvFiles[file] !== undefined)
    .flatMap((file) => draftsOfFile(file, input.csvFiles[file] as string, "japan", taxonomy, emptyCounts(SKIP_REASONS)))
    .filter((draft) => platformKeys.includes(draft.platform.key));
  return drafts.flatMap((draft) => {
    const gameId = ledger.game.get(draft.key);
    if (gameId === undefined) return [];
    const platformKey = draft.platform.key;
    const editions = draft.editions.flatMap((product) => {
      const gameEditionId = ledger.edition.get(editionKey(draft, product));
      const title = productTitles(product).romanised;
      return gameEditionId === undefined ? [] : [{ platformKey, gameId, gameEditionId, title, reboxed: product.reboxed }];
    });
    return [{ platformKey, gameId, gameEditionId: null, title: draft.romanised, reboxed: null }, ...editions];
  });
}

/**
 * Ids for the keys the ledger lacks, by kind; how many each kind got. Platforms and genres are
 * numbered in their tables' order (the API lists platforms by id: Japanese ones first, a maker's
 * machines together), the others in code-point order of their keys.
 */
function assignNewIds(ledger: IdLedger, platforms: PlatformSpec[], genres: GenreSpec[], drafts: GameDraft[]): Record<IdKind, number> {
  const companyKeys = drafts.flatMap((draft) => (draft.publisher === null ? [] : [companyKey(draft.publisher)]));
  const editionKeys = drafts.flatMap((draft) => draft.editions.map((product) => editionKey(draft, product)));
  return {
    platform: assignIds(
      ledger,
      "platform",
      platforms.map((platform) => platform.key),
    ),
    company: assignIds(ledger, "company", sortedKeys(companyKeys)),
    genre: assignIds(
      ledger,
      "genre",
      genres.map((genre) => genre.key),
    ),
    game: assignIds(ledger, "game", sortedKeys(drafts.map((draft) => draft.key))),
    edition: assignIds(ledger, "edition", sortedKeys(editionKeys)),
  };
}

// ---------------------------------------------------------------------------------------------
// Rows -> games

/**
 * Rows that are no product a collector can own are left out: prototypes, betas, demos and
 * samples (`#unfinished`), re-releases on another system (`#rerelease`: Virtual Console and
 * collection dumps, nothing physical of this platform) and bootlegs, hacks, clones and
 * translations. Unlicensed originals and aftermarket releases are real products and stay.
 */
function skipReasonOf(row: SourceRow): SkipReason | null {
  if (hasTag(row.tags, "unfinished")) return "unfinished";
  if (hasTag(row.tags, "rerelease")) return "rerelease";
  const unlicensed = tagsNamed(row.tags, "unlicensed").flatMap((tag) => tag.values.map((value) => value.value));
  if (unlicensed.some((kind) => kind !== "aftermarket")) return "unlicensedCopy";
  if (row.id === "") return "noId";
  return null;
}

/** The rows of each game, by game key (`sfc/akumajoudraculasuper`). */
type RowsByGame = Map<string, { platform: PlatformSpec; rows: SourceRow[] }>;

function draftsOfFile(
  file: string,
  text: string,
  regions: ConvertOptions["regions"],
  taxonomy: TagTaxonomy,
  skippedRows: Record<SkipReason, number>,
): GameDraft[] {
  const rowsByGame: RowsByGame = new Map();
  const overseasRowsById = new Map<string, SourceRow[]>();
  for (const row of readGameDatabaseCsv(file, text)) {
    const skipReason = skipReasonOf(row) ?? placeRow(file, row, regions, rowsByGame);
    if (skipReason !== null) skippedRows[skipReason] += 1;
    if (skipReason === null || skipReason === "overseas") {
      if (marketsOf(row.regions).includes("overseas")) pushTo(overseasRowsById, row.id, row);
    }
  }
  return [...rowsByGame.values()].map(({ platform, rows }) => {
    const sourceId = (rows[0] as SourceRow).id;
    const englishTitles = platform.region === "japan" ? englishTitlesOf(overseasRowsById.get(sourceId) ?? []) : [];
    return draftGame(platform, sourceId, rows, englishTitles, taxonomy);
  });
}

/** Puts the row on the platform of each market it was released in that this run converts; why not, if none. */
function placeRow(file: string, row: SourceRow, regions: ConvertOptions["regions"], rowsByGame: RowsByGame): SkipReason | null {
  const markets = marketsOf(row.regions);
  if (markets.length === 0) return "noRegion";
  const wanted = markets.filter((market) => regions === "all" || market === "japan");
  if (wanted.length === 0) return "overseas";
  const platforms = wanted.flatMap((market) => platformFor(file, market) ?? []);
  if (platforms.length === 0) return "noOverseasPlatform";
  for (const platform of platforms) {
    const key = `${platform.key}/${row.id}`;
    const game = rowsByGame.get(key);
    if (game) game.rows.push(row);
    else rowsByGame.set(key, { platform, rows: [row] });
  }
  return null;
}

function editionKey(draft: GameDraft, product: Product): string {
  return `${draft.key}#${product.identity}`;
}

function platformRow(platform: PlatformSpec, platformId: number): PlatformRow {
  return {
    platformId,
    name: platform.name,
    nameEn: platform.nameEn,
    shortName: platform.shortName,
    maker: platform.maker,
    releaseDate: platform.releaseDate,
    custom: false,
  };
}

function publisherSpellings(drafts: GameDraft[]): Map<string, string[]> {
  const spellings = new Map<string, string[]>();
  for (const draft of drafts) if (draft.publisher !== null) pushTo(spellings, companyKey(draft.publisher), draft.publisher);
  return spellings;
}

/** A reading the game row can hold: hiragana, digits, ー and lower-case letters, no spaces. */
const READING = /^[\u3041-\u309f\u30fc0-9a-z]+$/;

function buildGames(
  drafts: GameDraft[],
  ledger: IdLedger,
  context: { taxonomy: TagTaxonomy; genres: GenreRow[]; companies: CompanyRow[]; options: ConvertOptions },
) {
  const genreByKey = new Map(context.genres.map((genre) => [genre.taxonomyKey, genre]));
  const companyById = new Map(context.companies.map((company) => [company.companyId, company]));
  const reboxedLabels = context.taxonomy.reboxed;
  const readings = emptyCounts<ReadingCount>(["kana", "romanisation", "analyser", "loanwords", "corrected", "none", "refused"]);
  const ordered = drafts.map((draft) => ({ draft, gameId: idOf(ledger, "game", draft.key) })).sort((a, b) => a.gameId - b.gameId);
  const games: GameRow[] = [];
  const romHashes: RomHashRow[] = [];
  for (const { draft, gameId } of ordered) {
    const editionIdOf = (product: Product) => idOf(ledger, "edition", editionKey(draft, product));
    const publisherId = draft.publisher === null ? null : idOf(ledger, "company", companyKey(draft.publisher));
    const publisher = publisherId === null ? undefined : companyById.get(publisherId);
    const genre = draft.genres.main === null ? undefined : genreByKey.get(draft.genres.main);
    const sub = draft.genres.sub === null ? undefined : genreByKey.get(draft.genres.sub);
    const read = draft.platform.region === "japan" ? gameReading(draft, context.options, readings) : null;
    const row = gameRow(draft, {
      gameId,
      title: read?.boxTitle ?? draft.title,
      titleReading: read?.reading ?? null,
      platformId: idOf(ledger, "platform", draft.platform.key),
      publisher: publisher ? { id: publisher.companyId, name: publisher.name } : null,
      genre: genre ? { id: genre.genreId, name: genre.name } : null,
      genreSubId: sub?.genreId ?? null,
      editionIdOf,
      reboxedLabels,
    });
    games.push({ ...row, aliases: context.options.nicknamesOf?.(row, draft.platform.key) ?? [] });
    romHashes.push(...romHashRows(draft, gameId, editionIdOf));
    context.options.onProgress?.(games.length, ordered.length);
  }
  return { games, romHashes, readings };
}

/**
 * The game's box title and reading, from its exact title as corrected; a reading by hand wins.
 * Counted by source; a reading the row format refuses is counted and left null.
 */
function gameReading(draft: GameDraft, options: ConvertOptions, counts: Record<ReadingCount, number>): Reading {
  const correction = options.corrections?.get(draft.key);
  const read = options.readingOf({ exact: correction?.exact ?? draft.title, romanised: draft.romanised, sourceId: draft.sourceId });
  if (correction?.reading !== undefined) {
    counts.corrected += 1;
    return { ...read, reading: correction.reading };
  }
  if (read.reading === null || read.source === null) {
    counts.none += 1;
    return read;
  }
  if (!READING.test(read.reading)) {
    counts.refused += 1;
    return { ...read, reading: null, source: null };
  }
  counts[read.source] += 1;
  return read;
}

// ---------------------------------------------------------------------------------------------
// The row format's own check, shared by the CLI (before it writes) and the tests.

/** Every row that the master import would refuse, as "<dataset> row <n> (<id>): <problem>"; [] when all pass. */
export function masterRowProblems(master: Pick<GameDatabaseMaster, "platforms" | "companies" | "genres" | "games">): string[] {
  return (Object.keys(MASTER_DATASETS) as Array<keyof typeof MASTER_DATASETS>).flatMap((dataset) =>
    (master[dataset] as object[]).flatMap((row, index) => {
      const parsed = MASTER_DATASETS[dataset].safeParse(row);
      return parsed.success
        ? []
        : [`${dataset} row ${index + 1} (${JSON.stringify(Object.values(row)[0])}): ${z.prettifyError(parsed.error)}`];
    }),
  );
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function emptyCounts<K extends string>(keys: K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

function countValues(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of sortedKeys(values)) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function sortedKeys(keys: string[]): string[] {
  return [...keys].sort(compareCodePoints);
}
