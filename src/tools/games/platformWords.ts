import { type SQL, sql } from "drizzle-orm";
import { platforms } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import { searchForm } from "../../platform/normalize";
import { rankedGame } from "./queries";

/**
 * The words collectors add to a title to say which machine they mean (`悪魔城ドラキュラ SFC`,
 * `ぷよぷよ通 MD`), each naming official platforms by their English name (platforms.nameEn), so the
 * words hold for any catalog that names its platforms that way. A family word covers the add-ons
 * and the compatible successor its games are sold and collected with: ファミコン the Disk System,
 * スーファミ the Satellaview and SuFami Turbo, ゲームボーイ the Game Boy Color (whose black
 * cartridges are Game Boy games too), PCエンジン the CD-ROM², N64 the 64DD; the narrower words
 * (ディスクシステム, GBC, CD-ROM², ...) name one platform. Custom platforms are a user's own and
 * are never named by a word. docs/games.md lists the words.
 */
const FAMICOM = ["Family Computer", "Famicom Disk System"];
const SUPER_FAMICOM = ["Super Famicom", "Satellaview", "SuFami Turbo"];
const GAME_BOY = ["Game Boy", "Game Boy Color"];
const PC_ENGINE = ["PC Engine", "PC Engine CD-ROM²"];
const N64 = ["Nintendo 64", "64DD"];
const ARCADE = ["Capcom", "Irem", "Konami", "Nichibutsu", "Nintendo", "Sega", "SNK", "Taito"].map((maker) => `Arcade (${maker})`);

const WORDS: [words: string[], nameEn: string[]][] = [
  [["ファミリーコンピュータ", "ファミリーコンピューター", "ファミコン", "FC", "Famicom"], FAMICOM],
  [["ディスクシステム", "ファミコンディスクシステム", "FDS"], ["Famicom Disk System"]],
  [["スーパーファミコン", "スーファミ", "SFC", "SNES"], SUPER_FAMICOM],
  [["サテラビュー", "Satellaview"], ["Satellaview"]],
  [["スーファミターボ"], ["SuFami Turbo"]],
  [["ゲームボーイ", "GB", "GameBoy"], GAME_BOY],
  [["ゲームボーイカラー", "GBC"], ["Game Boy Color"]],
  [["ゲームボーイアドバンス", "GBA"], ["Game Boy Advance"]],
  [["NINTENDO64", "ニンテンドー64", "ニンテンドウ64", "N64", "ロクヨン"], N64],
  [["64DD"], ["64DD"]],
  [["バーチャルボーイ", "VB", "VirtualBoy"], ["Virtual Boy"]],
  [["PCエンジン", "PCE", "PCEngine"], PC_ENGINE],
  [["CD-ROM²", "PCエンジンCD", "PCECD"], ["PC Engine CD-ROM²"]],
  [["PC-FX"], ["PC-FX"]],
  [["SG-1000"], ["SG-1000"]],
  [["セガ・マークIII", "マークIII", "MkIII", "MarkIII"], ["Sega Mark III"]],
  [["メガドライブ", "メガドラ", "MD", "MegaDrive"], ["Mega Drive"]],
  [["メガCD", "MCD", "MegaCD"], ["Mega-CD"]],
  [["スーパー32X", "32X"], ["Super 32X"]],
  [["セガサターン", "サターン", "SS", "Saturn"], ["Sega Saturn"]],
  [["ゲームギア", "GG", "GameGear"], ["Game Gear"]],
  [["ネオジオポケット", "ネオジオポケットカラー", "ネオポケ", "NGP", "NGPC"], ["Neo Geo Pocket"]],
  [["レーザーアクティブ", "LaserActive"], ["LaserActive"]],
  [["アーケード", "AC", "Arcade"], ARCADE],
  [["プレイステーション", "プレステ", "PS", "PS1", "PlayStation"], ["PlayStation"]],
];

/** Each word's search form, with the platforms (by English name) it names. */
export const PLATFORM_WORDS: ReadonlyMap<string, readonly string[]> = new Map(
  WORDS.flatMap(([words, names]) => words.map((word) => [searchForm(word), names] as const)),
);

/** Each search form's word as the table writes it, for hints. */
const WORD_AS_WRITTEN = new Map(WORDS.flatMap(([words]) => words.map((word) => [searchForm(word), word] as const)));

/** Whether two strings are at most one insertion, deletion or substitution apart. */
function withinOneEditOf(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [[...a], [...b]] : [[...b], [...a]];
  if (long.length - short.length > 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  const skip = short.length === long.length ? 1 : 0;
  return short.slice(i + skip).join("") === long.slice(i + 1).join("");
}

/** A platform word one edit from a term of three or more characters (SFCC, メガドラブ), as written. */
export function closestPlatformWord(term: string): string | undefined {
  if ([...term].length < 3 || PLATFORM_WORDS.has(term)) return undefined;
  const form = [...PLATFORM_WORDS.keys()].find((word) => withinOneEditOf(term, word));
  return form === undefined ? undefined : WORD_AS_WRITTEN.get(form);
}

export interface SplitTerms {
  /** Terms that name platforms and narrow the search to them. */
  platformTerms: string[];
  /** The rest, matched against the titles. */
  textTerms: string[];
}

/**
 * Splits a query's terms into platform words and title words. A platform word narrows only when
 * something else identifies the game (`othersIdentify`: another term, or a JAN/model number): a
 * query of platform words alone (ファミコン) is a title search, and a title holding the word
 * (ゲームボーイウォーズ) is one term, never split.
 */
export function splitPlatformTerms(terms: readonly string[], othersIdentify: boolean): SplitTerms {
  const platformTerms = terms.filter((term) => PLATFORM_WORDS.has(term));
  const textTerms = terms.filter((term) => !PLATFORM_WORDS.has(term));
  if (platformTerms.length === 0 || (textTerms.length === 0 && !othersIdentify)) return { platformTerms: [], textTerms: [...terms] };
  return { platformTerms, textTerms };
}

/** Game g is on an official platform one of the words names. */
export function onNamedPlatform(platformTerms: readonly string[]): SQL {
  const names = [...new Set(platformTerms.flatMap((term) => PLATFORM_WORDS.get(term) ?? []))];
  return sql`${rankedGame.platformId} IN (SELECT ${platforms.id} FROM ${platforms}
    WHERE ${platforms.ownerUserId} IS NULL AND ${inJsonArray(platforms.nameEn, names)})`;
}
