/**
 * Search normalisation, applied identically to stored terms and to queries, so that what a
 * collector types matches what is printed on the box:
 * - NFKC: full-width latin and digits become half-width, half-width kana full-width, Ⅲ becomes III;
 * - lower case; katakana become hiragana; latin letters lose their diacritics, so a romanised
 *   title typed without macrons matches (Akumajō = akumajo; kana keep their dakuten);
 * - a long-vowel mark after kana in any form (ー ｰ, or a hyphen or dash typed for it) is ー:
 *   スーパー = すーぱー = ス-パ-; the same marks elsewhere, wave dashes (〜 ～, decoration in titles),
 *   spaces, punctuation and symbols are dropped (R-TYPE = rtype). Keeping ー keeps words long
 *   enough for the trigram index;
 * - a roman numeral standing apart from other latin letters becomes its digits
 *   (ドラゴンクエストIII = ドラゴンクエスト3, "Final Fantasy VI" = "final fantasy 6"); a lone X stays a letter.
 */

const KATAKANA = /[\u30a1-\u30f6]/g;
// A run of marks that can stand for a long vowel (ｰ is already ー after NFKC), and the kana before it.
const LONG_VOWEL_RUN = /([\u3041-\u309f])?([ー\u2010-\u2015\u2212-]+)/g;
const longVowels = (_: string, kana: string | undefined, run: string) => (kana ? kana + "ー".repeat(run.length) : "");
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;
// A run of roman-numeral letters with no latin letter or digit on either side.
const ROMAN_RUN = /(?<![a-z0-9])[ivx]+(?![a-z0-9])/g;
const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10 };
const CANONICAL_ROMAN = /^x{0,3}(ix|iv|v?i{0,3})$/;

/** A lone "x" is left alone: in titles (ロックマンX) it is far more often a letter than ten. */
function romanToNumber(numeral: string): number | null {
  if (numeral === "x" || !CANONICAL_ROMAN.test(numeral)) return null;
  let total = 0;
  for (let i = 0; i < numeral.length; i++) {
    const value = ROMAN_VALUES[numeral[i]!]!;
    const next = ROMAN_VALUES[numeral[i + 1] ?? ""] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

const toHiragana = (text: string) => text.replace(KATAKANA, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60));
// Latin letters that may carry a diacritic (Latin-1 Supplement to Latin Extended Additional); only
// these are decomposed, since decomposing kana would split が into か and a sound mark.
const LATIN_WITH_MARKS = /[\u00c0-\u024f\u1e00-\u1eff]/g;
const COMBINING_MARKS = /\p{M}/gu;
const plainLatin = (text: string) => text.replace(LATIN_WITH_MARKS, (ch) => ch.normalize("NFD").replace(COMBINING_MARKS, ""));

/** Normalises one word (no spaces expected) or a whole title into its search form. */
export function normalizeSearchText(text: string): string {
  const lower = plainLatin(toHiragana(text.normalize("NFKC").toLowerCase())).replace(LONG_VOWEL_RUN, longVowels);
  // Numerals are read per word before spaces and punctuation disappear, so "final fantasy vi"
  // sees "vi" and イースI・II stays 1 and 2 rather than becoming III.
  return lower
    .split(NOT_LETTER_OR_DIGIT)
    .map((word) => word.replace(ROMAN_RUN, (run) => String(romanToNumber(run) ?? run)))
    .join("");
}

/** Splits a query on spaces (any width) into normalised terms; empty terms are dropped. */
export function searchTerms(query: string): string[] {
  return query
    .normalize("NFKC")
    .split(/\s+/)
    .map(normalizeSearchText)
    .filter((term) => term.length > 0);
}

/** Codes (JAN, model numbers) compare without hyphens, spaces or case: "SHVC-MW" = "shvcmw". */
export const normalizeCode = (code: string) => code.normalize("NFKC").toLowerCase().replace(NOT_LETTER_OR_DIGIT, "");

/** Places (shop names) compare as substrings regardless of width and case, in any script. */
export const normalizePlace = (place: string) => place.normalize("NFKC").toLowerCase();

/** The searchable form of a place, stored beside it. */
export const placeKey = (place: string | null) => (place === null ? null : normalizePlace(place));
