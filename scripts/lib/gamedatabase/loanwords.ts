// How Japanese collectors say the Latin words of titles (`Rockman` ろっくまん, `Dr.` どくたー,
// `Fighter` ふぁいたー): the project's own table, seed/master/loanwords.tsv, one word a line with
// its reading in kana. readings.ts reads a Latin word by it where the title's own kana does not
// render the word; a word the table lacks keeps its letters, and a title of Latin words alone gets
// a reading only when the table reads every word. Pure: the CLI reads the file.
import { containsKana, katakanaToHiragana, letterNamesOf } from "./romanisation";

export interface Loanwords {
  /**
   * The reading of a run of Latin words in hiragana, or null when a word has none. Words whose
   * reading `saidAlready` contains are left out: the title's kana says them (`Psycho Dream サイコ
   * ドリーム` is read once).
   */
  readingOf(words: string[], saidAlready?: string): string | null;
}

export const NO_LOANWORDS: Loanwords = { readingOf: () => null };

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
    readingOf(words, saidAlready = "") {
      const readings = words.map(wordReading);
      if (readings.some((reading) => reading === null)) return null;
      const said = (reading: string) => reading.length >= MIN_SAID_ALREADY && containsKana(saidAlready, reading);
      return (readings as string[]).filter((reading) => !said(reading)).join("");
    },
  };
}
