// Romaji <-> kana for title readings: GameDataBase's curated Hepburn romanisation (with macrons)
// turned into kana, a comparison of kana that ignores what romanisation does not keep, and a
// rough sound key that tells whether a katakana word renders an English one.
import { toHiragana, toRomaji } from "wanakana";

const KATAKANA = /[\u30a1-\u30f6\u30fd\u30fe]/g;

/** Katakana become hiragana; ー and everything else stay. */
export const katakanaToHiragana = (text: string) => text.replace(KATAKANA, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60));

export const isHiraganaOnly = (text: string) => /^[\u3041-\u3096\u309d\u309e\u30fc]+$/.test(text);

const withoutAccents = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "");

// A long vowel written with a macron (or circumflex) and its kana spellings, the usual one first:
// ō is おう in Sino-Japanese words (じょう), おお in native ones (おおかみ); ē is mostly えい.
const LONG_VOWELS: Record<string, readonly string[]> = {
  ā: ["aa"],
  â: ["aa"],
  ī: ["ii"],
  î: ["ii"],
  ū: ["uu"],
  û: ["uu"],
  ē: ["ei", "ee"],
  ê: ["ei", "ee"],
  ō: ["ou", "oo"],
  ô: ["ou", "oo"],
};
const LONG_VOWEL = /[āâīîūûēêōô]/;

/** Every spelling of a word's long vowels, the usual one first. */
function spellings(word: string): string[] {
  const match = LONG_VOWEL.exec(word);
  if (!match) return [word];
  const head = word.slice(0, match.index);
  const tails = spellings(word.slice(match.index + 1));
  return (LONG_VOWELS[match[0]] ?? []).flatMap((vowels) => tails.map((tail) => head + vowels + tail));
}

/**
 * A lower-case word's macrons spelt out. GameDataBase's ID is a wapuro-style spelling of the
 * title (`akumajoudensetsu`, `ookami`) and says which spelling a word has when it contains it;
 * otherwise the usual one.
 */
export function spellOutLongVowels(word: string, id: string): string {
  const candidates = spellings(word);
  return candidates.find((candidate) => id.includes(candidate)) ?? candidates[0] ?? word;
}

// Upper-case roman numerals as titles use them; a lone X is a letter (ロックマンX).
const ROMAN_NUMERAL = /^(?:X{0,3}(?:IX|IV|V?I{0,3}))$/;
const ROMAN_VALUES: Record<string, number> = { I: 1, V: 5, X: 10 };

/** The value of an upper-case roman numeral, or null (a lone X, an ordinary word). */
export function romanNumeralValue(word: string): number | null {
  if (word === "" || word === "X" || !ROMAN_NUMERAL.test(word)) return null;
  let total = 0;
  for (let i = 0; i < word.length; i++) {
    const value = ROMAN_VALUES[word[i] ?? ""] ?? 0;
    const next = ROMAN_VALUES[word[i + 1] ?? ""] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/** The ID's letters and digits, as spellings are looked up in it. */
export const idLetters = (id: string) => withoutAccents(id.toLowerCase()).replace(/[^a-z0-9]/g, "");

/**
 * A romanised title's words as the exact title is aligned with them: each Japanese word in
 * hiragana (`Akumajō Densetsu` -> あくま じょう でんせつ), numerals in digits, and any word that
 * is not Hepburn (English, `Mahjong`) in plain lower-case letters.
 */
export function romanisedWords(romanised: string, id: string): string[] {
  const letters = idLetters(id);
  const words = romanised.normalize("NFKC").match(/[\p{L}\p{M}']+|[0-9]+/gu) ?? [];
  return words.map((word) => wordSpelling(word, letters));
}

function wordSpelling(word: string, id: string): string {
  if (/^[0-9]+$/.test(word)) return word;
  const numeral = romanNumeralValue(word);
  if (numeral !== null) return String(numeral);
  const spelled = spellOutLongVowels(word.toLowerCase(), id);
  return hepburnAsKana(spelled) ?? withoutAccents(spelled).replace(/[^a-z]/g, "");
}

// Hepburn syllables (ka, shi, chi, tsu, kyo, ...), n, and a consonant doubled for っ (kk, tch).
// No l, q, v or x, which wanakana would read as small kana, nor si, ti or di.
const HEPBURN =
  /^(?:[kgnhbpmr]y?[aiueo]|s[aueo]|sh[aiueo]|z[aueo]|j[aiueo]|t[aeo]|ch[aiueo]|ts[aiueo]|d[aeo]|y[auo]|w[ao]|f[aiueo]|[aiueo]|n'?|([kgsztdhbpf])(?=\1)|[ct](?=ch))+$/;

/** Hiragana for letters that read as Hepburn romaji (`Fukkatsu` -> ふっかつ), else null. */
export function hepburnAsKana(letters: string): string | null {
  const lower = letters.toLowerCase();
  if (!HEPBURN.test(lower)) return null;
  const kana = toHiragana(lower);
  return isHiraganaOnly(kana) ? kana : null;
}

// Kana that romanisation writes alike: particles (は wa, へ e, を o), ぢ/づ (ji/zu), old and small
// vowels, and the second half of a long vowel (おう = おお = ō, えい = ええ = ē); ー is any vowel.
const ALIKE = new Set(
  ["はわ", "へえ", "をお", "ぢじ", "づず", "ゐい", "ゑえ", "ぁあ", "ぃい", "ぅう", "ぇえ", "ぉお", "うお", "いえ"].flatMap((pair) => [
    pair,
    [...pair].reverse().join(""),
  ]),
);
const VOWELS = new Set(["あ", "い", "う", "え", "お"]);

function sameKanaChar(a: string, b: string): boolean {
  if (a === b) return true;
  if (a === "ー") return VOWELS.has(b);
  if (b === "ー") return VOWELS.has(a);
  return ALIKE.has(a + b);
}

/** Whether two hiragana strings read the same as far as a romanisation can tell. */
export function sameKana(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameKanaChar(a[i]!, b[i]!)) return false;
  return true;
}

/** 0 when two kana strings read the same as sameKana compares, up to 1 when they share nothing. */
export function kanaDistance(a: string, b: string): number {
  return sameKana(a, b) ? 0 : Math.min(1, editDistance(a, b, sameKanaChar) / Math.max(a.length, b.length, 1));
}

// The vowel kana that lengthen a kana ending in each vowel (おう, おお, えい, ...).
const LENGTHENING: Record<string, string> = { a: "あー", i: "いー", u: "うー", e: "えいー", o: "おうー" };

/** Kana with its long vowels made short (りゅう -> りゅ, おおかみ -> おかみ), never two kana in a row (王 おう stays). */
function withShortVowels(kana: string): string {
  let short = "";
  let shortened = false;
  for (const ch of kana) {
    const vowel = toRomaji(short.slice(-1)).slice(-1);
    shortened = !shortened && (LENGTHENING[vowel] ?? "").includes(ch);
    if (!shortened) short += ch;
  }
  return short;
}

/** Whether two kana strings read the same once long vowels are made short (りゅう = りゅ). */
export function sameIgnoringLongVowels(a: string, b: string): boolean {
  return withShortVowels(a) === withShortVowels(b);
}

/** Whether `part` occurs in `text` as sameKana compares. */
export function containsKana(text: string, part: string): boolean {
  for (let start = 0; start + part.length <= text.length; start++) {
    if (sameKana(text.slice(start, start + part.length), part)) return true;
  }
  return false;
}

// Sound keys. English spellings are first brought towards what katakana keeps (an r or h after
// a vowel is a long vowel: Dark ダーク, Mahjong マージャン).
const ENGLISH_REWRITES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^of$/, "ob"],
  [/^kn/, "n"],
  [/tion/g, "shon"],
  [/tu(?=r)/g, "chu"],
  [/([aeiouy])[rh](?![aeiouy])/g, "$1"],
  [/ph/g, "f"],
  [/gh/g, ""],
  [/ck/g, "k"],
  [/dg/g, "j"],
  [/th/g, "s"],
  [/c(?=[eiy])/g, "s"],
  [/c(?!h)/g, "k"],
  [/q/g, "k"],
  [/x/g, "ks"],
];
// Then, doubled consonants made single (kk, ll), the consonants katakana does not tell apart are
// merged (l/r, b/v, s/z/sh/j, m/n, ts/t); vowels, y and w carry no weight.
const SOUND_REWRITES: ReadonlyArray<readonly [RegExp, string]> = [
  [/ts/g, "t"],
  [/ch/g, "C"],
  [/sh|[zj]/g, "s"],
  [/v/g, "b"],
  [/l/g, "r"],
  [/m/g, "n"],
  [/[aeiouyw]/g, ""],
];

const rewritten = (word: string, rewrites: ReadonlyArray<readonly [RegExp, string]>) =>
  rewrites.reduce((key, [pattern, replacement]) => key.replace(pattern, replacement), word);

/** A rough consonant key of how a text sounds, from English letters, kana, or both. */
export function soundKey(text: string): string {
  const runs = text.toLowerCase().match(/[\u3041-\u30ff]+|[\p{Script=Latin}]+/gu) ?? [];
  return runs
    .map((run) => (/^[\u3041-\u30ff]/.test(run) ? toRomaji(run) : rewritten(withoutAccents(run).replace(/[^a-z]/g, ""), ENGLISH_REWRITES)))
    .map((letters) => rewritten(letters.replace(/[^a-z]/g, "").replace(/([^aeiou])\1+/g, "$1"), SOUND_REWRITES))
    .join("");
}

/** Whether `key` is found in `text` with at most `tolerance` changes. */
export function soundsWithin(key: string, text: string, tolerance: number): boolean {
  return editDistanceWithin(key, text) <= tolerance;
}

/** 0 when two sound keys are alike, up to 1 when they share nothing. */
export function soundDistance(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : editDistance(a, b) / longest;
}

const identical = (x: string, y: string) => x === y;

function editDistance(a: string, b: string, same = identical): number {
  return editDistanceRows(a, b, (j) => j, same).at(-1)!;
}

/** The least edit distance between `pattern` and any part of `text`. */
function editDistanceWithin(pattern: string, text: string): number {
  return Math.min(...editDistanceRows(pattern, text, () => 0, identical));
}

/** The last row of the edit-distance table of `a` against `b`; `start` fills the first row, `same` compares characters. */
function editDistanceRows(a: string, b: string, start: (j: number) => number, same: (x: string, y: string) => boolean): number[] {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => start(j));
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (same(a[i - 1]!, b[j - 1]!) ? 0 : 1));
    }
    previous = current;
  }
  return previous;
}

// How katakana spells out Latin letters (SD -> エスディー).
const LETTER_NAMES: Record<string, readonly string[]> = {
  a: ["えー", "えい"],
  b: ["びー"],
  c: ["しー"],
  d: ["でぃー", "でー"],
  e: ["いー"],
  f: ["えふ"],
  g: ["じー"],
  h: ["えいち", "えっち"],
  i: ["あい"],
  j: ["じぇー", "じぇい"],
  k: ["けー", "けい"],
  l: ["える"],
  m: ["えむ"],
  n: ["えぬ"],
  o: ["おー"],
  p: ["ぴー"],
  q: ["きゅー"],
  r: ["あーる"],
  s: ["えす"],
  t: ["てぃー"],
  u: ["ゆー"],
  v: ["ぶい"],
  w: ["だぶりゅー", "だぶる"],
  x: ["えっくす"],
  y: ["わい"],
  z: ["ぜっと", "ぜーた"],
};

/** A word read letter by letter, each by its usual name (NBA -> えぬびーえー), or null for a character that is no letter. */
export function letterNamesOf(word: string): string | null {
  const names = [...word.toLowerCase()].map((letter) => LETTER_NAMES[letter]?.[0]);
  return names.every((name) => name !== undefined) ? names.join("") : null;
}

/** Whether the reading spells out each letter of a word by its name (GB -> じーびー). */
export function spelledOutIn(word: string, reading: string): boolean {
  return [...word.toLowerCase()].every((letter) => (LETTER_NAMES[letter] ?? []).some((name) => reading.includes(name)));
}

// English numbers as katakana renders them (8 Eyes エイト・アイズ).
const NUMBER_NAMES = ["ぜろ", "わん", "つー", "すりー", "ふぉー", "ふぁいぶ", "しっくす", "せぶん", "えいと", "ないん", "てん"];

/** Whether the reading says a number in English (8 -> えいと). */
export function numberSaidIn(digits: string, reading: string): boolean {
  const name = NUMBER_NAMES[Number(digits)];
  return name !== undefined && reading.includes(name);
}
