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
 * searchForm adds the folding of spelling variants (foldVariants below) on top: the form stored in
 * the search columns and asked by queries. normalizeSearchText alone is the reading-order sort key
 * and what publisher names are searched by.
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

// Kana spelling variants: ヴ (ゔ after toHiragana) is read as ブ; the small vowels of loanwords
// (ァ ィ ゥ ェ ォ) as their large forms, while っ ゃ ゅ ょ, which change the word, stay.
const VU = /ゔ([ぁぃぇぉ])?/g;
const VU_AS_BU: Record<string, string> = { ぁ: "ば", ぃ: "び", ぇ: "べ", ぉ: "ぼ" };
const SMALL_VOWELS = /[ぁぃぅぇぉゎゕゖ]/g;
const LARGE_OF: Record<string, string> = { ぁ: "あ", ぃ: "い", ぅ: "う", ぇ: "え", ぉ: "お", ゎ: "わ", ゕ: "か", ゖ: "け" };
// ファイヤー = ファイアー (likewise ワイヤー, ダイヤー): the y-glide of the loanword's ia.
const IA_GLIDE = /いやー/g;
/** The vowel of each hiragana with a plain one, by row: かあ, きい, くう... */
const VOWEL_OF = new Map<string, string>();
for (const [vowel, row] of Object.entries({
  あ: "あかがさざただなはばぱまやらわ",
  い: "いきぎしじちぢにひびぴみり",
  う: "うくぐすずつづぬふぶぷむゆる",
  え: "えけげせぜてでねへべぺめれ",
  お: "おこごそぞとどのほぼぽもよろを",
})) {
  for (const kana of row) VOWEL_OF.set(kana, vowel);
}

/**
 * A vowel kana that repeats the vowel of the kana before it is a long vowel: かあびい = かーびー,
 * つう = つー. Only the same vowel: おう and えい are how readings spell とう and せい, and folding
 * them would join words (のうみ of …の海 would lose the う that a query "うみ" starts with).
 */
function kanaLongVowels(word: string): string {
  let folded = "";
  let lastVowel: string | undefined;
  for (const ch of word) {
    const isLong = ch === "ー" || (lastVowel !== undefined && VOWEL_OF.get(ch) === lastVowel && "あいうえお".includes(ch));
    folded += isLong ? "ー" : ch;
    if (!isLong) lastVowel = VOWEL_OF.get(ch);
  }
  return folded;
}

/** Romanised long vowels: ō (already o) = ou = oo = o, ū = uu = u (Akumajou = Akumajō = Akumajo). */
const romajiLongVowels = (word: string) => word.replace(/o[ou]+/g, "o").replace(/uu+/g, "u");

/** The spelling variants one word of a search form folds together (see searchForm). */
const foldVariants = (word: string) =>
  romajiLongVowels(
    kanaLongVowels(
      word
        .replace(VU, (_, small: string | undefined) => (small ? VU_AS_BU[small]! : "ぶ"))
        .replace(SMALL_VOWELS, (ch) => LARGE_OF[ch]!)
        .replace(IA_GLIDE, "いあー"),
    ),
  );

function normalizedWords(text: string): string[] {
  const lower = plainLatin(toHiragana(text.normalize("NFKC").toLowerCase())).replace(LONG_VOWEL_RUN, longVowels);
  // Numerals are read per word before spaces and punctuation disappear, so "final fantasy vi"
  // sees "vi" and イースI・II stays 1 and 2 rather than becoming III.
  return lower.split(NOT_LETTER_OR_DIGIT).map((word) => word.replace(ROMAN_RUN, (run) => String(romanToNumber(run) ?? run)));
}

/** Normalises one word (no spaces expected) or a whole title: the sort key, and publishers' search text. */
export const normalizeSearchText = (text: string): string => normalizedWords(text).join("");

/**
 * The form games are searched by, stored and queried alike: normalizeSearchText plus the folding
 * of spelling variants, word by word (a word never folds into the next one): ヴ = ブ, ァ = ア
 * (small vowels), ファイヤー = ファイアー, a repeated kana vowel = ー (かあびい = かーびー, つう = つー),
 * and romanised long vowels (ou = oo = o, uu = u).
 */
export const searchForm = (text: string): string => normalizedWords(text).map(foldVariants).join("");

/** Splits a query on spaces (any width) into terms in search form; empty terms are dropped. */
export function searchTerms(query: string): string[] {
  return query
    .normalize("NFKC")
    .split(/\s+/)
    .map(searchForm)
    .filter((term) => term.length > 0);
}

/** Codes (JAN, model numbers) compare without hyphens, spaces or case: "SHVC-MW" = "shvcmw". */
export const normalizeCode = (code: string) => code.normalize("NFKC").toLowerCase().replace(NOT_LETTER_OR_DIGIT, "");

/** Places (shop names) compare as substrings regardless of width and case, in any script. */
export const normalizePlace = (place: string) => place.normalize("NFKC").toLowerCase();

/** The searchable form of a place, stored beside it. */
export const placeKey = (place: string | null) => (place === null ? null : normalizePlace(place));
