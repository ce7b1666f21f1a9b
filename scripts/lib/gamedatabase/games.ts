// One master game per (platform, PigSaint ID): its title, English titles, publisher, genres and
// release date from the product that is the game itself, its other products as editions.
import type { EditionRow, GameRow } from "../masterRows";
import { publisherOf } from "./companies";
import type { SourceRow } from "./csv";
import { baseProduct, editionTitle, groupProducts, type Product, productTitles } from "./editions";
import { type GameGenres, gameGenres } from "./genres";
import type { PlatformSpec } from "./platforms";
import type { RomHashRow } from "./serials";
import { type TagTaxonomy, tagsNamed } from "./tags";

/** A game before it has ids: everything the source says about it. */
export interface GameDraft {
  /** `sfc/akumajoudraculasuper`: the platform's key and PigSaint's ID. */
  key: string;
  platform: PlatformSpec;
  sourceId: string;
  base: Product;
  editions: Product[];
  title: string;
  romanised: string;
  titleEn: string[];
  publisher: string | null;
  genres: GameGenres;
  releaseDate: string | null;
}

/** The row format's limits on titleEn (src/tools/games/masterRows.ts). */
const MAX_TITLES_EN = 10;
const MAX_TITLE_EN_LENGTH = 200;

/**
 * `rows` are the game's rows on this platform, `englishTitles` what its overseas releases are
 * called (for a Japanese game: the titles it is known by abroad, which collectors search by too).
 */
export function draftGame(
  platform: PlatformSpec,
  sourceId: string,
  rows: SourceRow[],
  englishTitles: string[],
  taxonomy: TagTaxonomy,
): GameDraft {
  const products = groupProducts(rows, platform.region === "overseas");
  const base = baseProduct(products);
  const titles = productTitles(base);
  const first = base.rows[0] as SourceRow;
  return {
    key: `${platform.key}/${sourceId}`,
    platform,
    sourceId,
    base,
    editions: products.filter((product) => product !== base),
    title: titles.exact,
    romanised: titles.romanised,
    titleEn: [...new Set([titles.romanised, titles.screen, ...englishTitles])]
      .filter((title) => title !== "" && title.length <= MAX_TITLE_EN_LENGTH)
      .slice(0, MAX_TITLES_EN),
    publisher: publisherOf(first.publisher),
    genres: gameGenres(genreValues(base), taxonomy),
    releaseDate: fullDate(first.releaseDate),
  };
}

/** The English titles of an ID's overseas releases, one per product ("… (Disc 1)" and "… (Disc 2)" are one). */
export function englishTitlesOf(overseasRows: SourceRow[]): string[] {
  const inEnglish = overseasRows.filter((row) =>
    tagsNamed(row.tags, "lang").some((tag) => tag.values.some((value) => value.value === "en")),
  );
  return groupProducts(inEnglish, true).map((product) => productTitles(product).romanised);
}

/**
 * The genre values of the product's first row that is tagged as a game: a box's extra disc (an
 * opening movie, `#genre:notagame>media`) does not make the box something other than a game.
 */
function genreValues(product: Product) {
  const perRow = product.rows.map((row) => tagsNamed(row.tags, "genre").flatMap((tag) => tag.values));
  return perRow.find((values) => values[0] !== undefined && values[0].value !== "notagame") ?? perRow[0] ?? [];
}

/** A full calendar date YYYY-MM-DD, else null: a year or a month alone never becomes an invented day. */
export function fullDate(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date) ? date : null;
}

/** The ids and names a game row refers to, resolved by the converter. */
export interface GameRefs {
  gameId: number;
  /** The title a Japanese box prints (readings.ts' boxTitle), which editions titled after the game take too. */
  title: string;
  titleReading: string | null;
  platformId: number;
  publisher: { id: number; name: string } | null;
  genre: { id: number; name: string } | null;
  genreSubId: number | null;
  editionIdOf: (product: Product) => number;
  reboxedLabels: Map<string, string>;
}

export function gameRow(draft: GameDraft, refs: GameRefs): GameRow {
  return {
    gameId: refs.gameId,
    title: refs.title,
    titleReading: refs.titleReading,
    titleEn: draft.titleEn,
    aliases: [],
    platformId: refs.platformId,
    platformName: draft.platform.name,
    publisherId: refs.publisher?.id ?? null,
    publisherName: refs.publisher?.name ?? null,
    genreId: refs.genre?.id ?? null,
    genreName: refs.genre?.name ?? null,
    genreSubId: refs.genreSubId,
    genreKey: draft.genres.key,
    releaseDate: draft.releaseDate,
    janCode: null,
    modelNumber: [],
    price: null,
    mediaId: null,
    gpsId: null,
    dbId: null,
    dbSlug: null,
    dbCoverId: null,
    editions: draft.editions.map((product) => editionRow(product, draft.title, refs)).sort((a, b) => a.gameEditionId - b.gameEditionId),
  };
}

function editionRow(product: Product, gameTitle: string, refs: GameRefs): EditionRow {
  return {
    gameEditionId: refs.editionIdOf(product),
    title: boxedTitle(editionTitle(product, gameTitle, refs.reboxedLabels), gameTitle, refs.title),
    modelNumber: [],
    releaseDate: fullDate(product.rows[0]?.releaseDate ?? ""),
    price: null,
    janCode: null,
  };
}

/** An edition title that begins with the game's exact title begins with its box title instead. */
const boxedTitle = (title: string, exact: string, box: string) => (title.startsWith(exact) ? box + title.slice(exact.length) : title);

/** The game's and its editions' ROM hashes (lines of rom-hashes.ndjson), leaving out those with no dump. */
export function romHashRows(draft: GameDraft, gameId: number, editionIdOf: (product: Product) => number): RomHashRow[] {
  const rows = [
    hashesOf(draft.base, gameId, null),
    ...draft.editions
      .map((product) => hashesOf(product, gameId, editionIdOf(product)))
      .sort((a, b) => (a.gameEditionId ?? 0) - (b.gameEditionId ?? 0)),
  ];
  return rows.filter((row) => row.sha1.length > 0 || row.md5.length > 0);
}

function hashesOf(product: Product, gameId: number, gameEditionId: number | null): RomHashRow {
  const distinct = (hashes: string[]) => [...new Set(hashes.filter((hash) => hash !== ""))].sort();
  return {
    gameId,
    gameEditionId,
    sha1: distinct(product.rows.map((row) => row.sha1)),
    md5: distinct(product.rows.map((row) => row.md5)),
  };
}
