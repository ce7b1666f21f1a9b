// How Japanese collectors say the Latin words of titles (`Rockman` ろっくまん, `Dr.` どくたー,
// `Fighter` ふぁいたー): the project's own table, seed/master/loanwords.tsv, one word a line with
// its reading in kana. readings.ts reads a Latin word by it where the title's own kana does not
// render the word; a word the table lacks keeps its letters, and a title of Latin words alone gets
// a reading only when the table reads every word. Pure: the CLI reads the file.
import { containsKana, katakanaToHiragana, letterNamesOf } from "./romanisation";

export interface Loanwords {
  /** The reading of each of a run of Latin words in hiragana, or null when a word has none. */
  wordReadings(words: string[]): string[] | null;
}

export const NO_LOANWORDS: Loanwords = { wordReadings: () => null };

const KANA_READING = /^[\u3041-\u3096\u30a1-\u30faー]+$/;
/** Readings this short could be found in the title's kana by chance. */
const MIN_SAID_ALREADY = 3;
/** Upper-case words this short are read letter by letter when the table does not say otherwise (NBA えぬびーえー). */
const MAX_SPELLED_ACRONYM = 3;

/** A table key: the word in NFKC, lower case, without accents, apostrophes or a final full stop. */
export const loanwordKey = (word: string) =>
  word.normalize("NFKC").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/['’.]/g, "");

/** The table's entries: word -> hiragana. Throws on a malformed line, naming it. */
export function parseLoanwords(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [word = "", reading = ""] = line.split("\t");
    const key = loanwordKey(word);
    if (key === "" || !KANA_READING.test(reading)) {
      throw new Error(`loanwords line ${index + 1}: expected "<word>\\t<reading in kana>[\\t<note>]", got ${JSON.stringify(line)}`);
    }
    if (entries.has(key)) throw new Error(`loanwords line ${index + 1}: "${word}" is listed twice`);
    entries.set(key, katakanaToHiragana(reading));
  }
  return entries;
}

export function loanwordsFrom(entries: Map<string, string>): Loanwords {
  const wordReading = (word: string) => {
    const listed = entries.get(loanwordKey(word));
    if (listed !== undefined) return listed;
    const acronym = word.length <= MAX_SPELLED_ACRONYM && /^[A-Z]+$/.test(word);
    return acronym ? letterNamesOf(word) : null;
  };
  return {
    wordReadings(words) {
      const readings = words.map(wordReading);
      return readings.every((reading) => reading !== null) ? readings : null;
    },
  };
}

/**
 * A run's reading without its longest run of last words that the rest of the title says already
 * (`Psycho Dream サイコ ドリーム`, `SEGA Ages: Space Harrier スペースハリアー`: each said once). A
 * stretch of one- and two-kana words alone is too short to tell.
 */
export function unsaidReading(readings: string[], rest: string): string {
  for (let first = 0; first < readings.length; first++) {
    const tail = readings.slice(first);
    const telling = tail.some((reading) => reading.length >= MIN_SAID_ALREADY);
    if (telling && containsKana(rest, tail.join(""))) return readings.slice(0, first).join("");
  }
  return readings.join("");
}
