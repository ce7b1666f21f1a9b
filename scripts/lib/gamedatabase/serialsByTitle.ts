// Model numbers of discs by title. PigSaint gives no hashes for the disc platforms, so their
// games are joined to libretro's Redump-derived dats (metadat/redump, a disc's serial inline) by
// platform and romanised title: both romanise the Japanese title in the same way, give or take
// long vowels (ō = ou), punctuation, spacing and articles. Only Japanese retail discs count, and a
// join is made only when it is unique: one PigSaint game and one libretro title have the key.
// Pure; scripts/master-serials.ts reads the files.
import { childBlocks, parseClrmamepro, splitSerials, stringField } from "../libretro";
import type { SerialRow } from "./serials";

/** The redump dats joined by title, by the platform key of the GameDataBase converter. */
export const TITLE_JOIN_SYSTEMS: Record<string, string> = {
  "NEC - PC Engine CD - TurboGrafx-CD.dat": "pcecd",
  "NEC - PC-FX.dat": "pcfx",
  "Sega - Mega-CD - Sega CD.dat": "mcd",
  "Sega - Saturn.dat": "ss",
};

/** A game (gameEditionId null) or edition of a disc platform with its romanised title. */
export interface RomanisedTitle {
  platformKey: string;
  gameId: number;
  gameEditionId: number | null;
  title: string;
  /** The edition's `#reboxed` subtag ("satakore"), "" for a bare `#reboxed`, null when not reboxed. */
  reboxed: string | null;
}

/** One join, for the report and the hand-checked sample. */
export interface TitleJoin extends RomanisedTitle {
  libretroTitle: string;
  modelNumber: string[];
}

const LONG_VOWELS: Record<string, string> = { ā: "aa", ī: "ii", ū: "uu", ē: "ee", ō: "ou", â: "aa", î: "ii", û: "uu", ê: "ee", ô: "ou" };

/**
 * The join key of a romanised title: lower case, long vowels spelt out, a trailing article put
 * first ("Secret of Monkey Island, The"), the particle を as "o", and nothing but letters and digits.
 */
export function titleKey(title: string): string {
  const spelt = [...title.toLowerCase()].map((char) => LONG_VOWELS[char] ?? char).join("");
  const plain = spelt.normalize("NFKD").replace(/\p{M}/gu, "");
  const articleFirst = plain.replace(/^(.*), (the|a|an)$/, "$2 $1");
  return articleFirst
    .split(/[^a-z0-9]+/)
    .map((word) => (word === "wo" ? "o" : word))
    .join("");
}

/** "Desire (Japan) (Disc 1) (2M)" -> "Desire"; PigSaint's "Desire (Premium Pack)" -> "Desire". */
function withoutTags(name: string): string {
  return name.replace(/\s*\(.*$/, "").trim();
}

const JAPAN = /\((?:[^()]*, )?Japan(?:, [^()]*)?\)/;
/** Discs that are no retail product: the converter leaves these out of the catalog too. */
const NOT_RETAIL = /\((?:Beta|Proto|Demo[^()]*|Sample|Taikenban[^()]*|Hibaihin|Promo)\)/i;

/**
 * A disc's number on the box: Saturn, Mega-CD and PC-FX discs add the disc's own suffix to the
 * box's number (T-21301G-0 and T-21301G-1 in the box T-21301G).
 */
export function boxNumber(serial: string): string {
  return serial.replace(/^([A-Z]+-?\d+[A-Z]?)-{1,2}\d{1,2}$/, "$1");
}

/** The numbers without a disc's form of another one of them (610-6621-0 beside 610-6621). */
export function withoutDiscForms(serials: string[]): string[] {
  const listed = new Set(serials);
  return serials.filter((serial) => {
    const base = serial.replace(/-{1,2}\d{1,2}$/, "");
    return base === serial || !listed.has(base);
  });
}

/**
 * Redump's name for a reissue in its own box -> PigSaint's `#reboxed` subtag for the same: the
 * numbers of such discs belong to that edition, not to the first release.
 */
const REISSUE_TAGS: Record<string, string> = { Satakore: "satakore", Genteiban: "genteiban", "Shokai Genteiban": "genteiban" };

/** The box numbers of one libretro title's Japanese retail discs: "" for the release, else by reissue subtag. */
type NumbersByReissue = Map<string, string[]>;

/** Join key -> libretro title -> its numbers. */
function libretroTitles(redumpText: string): Map<string, Map<string, NumbersByReissue>> {
  const byKey = new Map<string, Map<string, NumbersByReissue>>();
  for (const game of childBlocks(parseClrmamepro(redumpText), "game")) {
    const name = stringField(game, "name") ?? "";
    if (!JAPAN.test(name) || NOT_RETAIL.test(name)) continue;
    const title = withoutTags(name);
    const reissue = Object.keys(REISSUE_TAGS).find((tag) => name.includes(`(${tag})`));
    const subtag = reissue === undefined ? "" : (REISSUE_TAGS[reissue] as string);
    const serials = splitSerials(stringField(game, "serial")).map(boxNumber);
    const titles = byKey.get(titleKey(title)) ?? new Map<string, NumbersByReissue>();
    const numbers = titles.get(title) ?? new Map<string, string[]>();
    numbers.set(subtag, [...new Set([...(numbers.get(subtag) ?? []), ...serials])]);
    titles.set(title, numbers);
    byKey.set(titleKey(title), titles);
  }
  return byKey;
}

/**
 * The joins of each platform's titles. A key with two libretro titles or two PigSaint games is
 * left out; within the game, the numbers go to the game when its own title has the key, else to
 * the one edition that has it (a re-release under its own title), else nowhere. The numbers of a
 * reissue redump names (Satakore, Genteiban) go to the game's one edition of that kind when there
 * is one, else with the others.
 */
export function joinByTitle(
  redump: Record<string, string>,
  titles: RomanisedTitle[],
  isModelNumber: (serial: string) => boolean,
): TitleJoin[] {
  const joins: TitleJoin[] = [];
  for (const [fileName, platformKey] of Object.entries(TITLE_JOIN_SYSTEMS)) {
    const text = redump[fileName];
    if (text === undefined) continue;
    const libretro = libretroTitles(text);
    const ours = new Map<string, RomanisedTitle[]>();
    for (const title of titles.filter((row) => row.platformKey === platformKey)) {
      const key = titleKey(withoutTags(title.title));
      ours.set(key, [...(ours.get(key) ?? []), title]);
    }
    for (const [key, candidates] of ours) {
      const found = libretro.get(key);
      if (found === undefined || found.size !== 1 || new Set(candidates.map((row) => row.gameId)).size !== 1) continue;
      const target = candidates.find((row) => row.gameEditionId === null) ?? (candidates.length === 1 ? candidates[0] : undefined);
      if (target === undefined) continue;
      const [libretroTitle, numbers] = [...found][0] as [string, NumbersByReissue];
      const byTarget = new Map<RomanisedTitle, string[]>();
      for (const [subtag, serials] of [...numbers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const editions = candidates.filter((row) => subtag !== "" && row.gameEditionId !== null && row.reboxed === subtag);
        const to = editions.length === 1 ? (editions[0] as RomanisedTitle) : target;
        byTarget.set(to, withoutDiscForms([...new Set([...(byTarget.get(to) ?? []), ...serials.filter(isModelNumber)])]));
      }
      for (const [to, modelNumber] of byTarget) {
        if (modelNumber.length > 0) joins.push({ ...to, libretroTitle, modelNumber });
      }
    }
  }
  return joins.sort((a, b) => a.gameId - b.gameId || (a.gameEditionId ?? 0) - (b.gameEditionId ?? 0));
}

/** The joins as rows of serials.ndjson. */
export function titleJoinRows(joins: TitleJoin[]): SerialRow[] {
  return joins.map((join) => ({ gameId: join.gameId, gameEditionId: join.gameEditionId, modelNumber: join.modelNumber }));
}
