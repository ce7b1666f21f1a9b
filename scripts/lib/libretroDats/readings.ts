// Hiragana readings for the DATs' romanised titles, only where every word can be read: Hepburn
// romaji of Japanese words (`Tokimeki` ときめき), the loanword table's Latin words (`Memorial`
// めもりある), numerals. A title with any other word gets no reading (null), never a guess. A
// word that is both is read by the table (`Game` げーむ, not がめ) unless it is as short as a
// particle (`to`, `no`): then the way most of the title's other words are, as romaji in a Japanese
// title, by the table in an English one; a tie leaves the title unread.
import type { Loanwords } from "../gamedatabase/loanwords";
import { hepburnAsKana, romanNumeralValue } from "../gamedatabase/romanisation";

/** Particles romanised by sound (は wa, を o, へ e) are written as the title writes them, after its first word. */
const PARTICLES: Record<string, string> = { wa: "は", o: "を", e: "へ" };

const MAX_PARTICLE_LENGTH = 2;

interface WordReadings {
  romaji: string | null;
  loanword: string | null;
  fixed: string | null;
}

export function romajiReading(title: string, loanwords: Loanwords): string | null {
  const words = title
    .normalize("NFKC")
    .split(/[\s:;!?,~/・()"]+|(?<=\p{L})-(?=\p{L})/u)
    .filter((word) => word !== "" && word !== "-");
  if (words.length === 0) return null;
  const readings = words.map((word, index) => readingsOf(word, loanwords, index > 0));
  const japanese = readings.filter((r) => r.romaji !== null && r.loanword === null).length;
  const english = readings.filter((r) => r.romaji === null && r.loanword !== null).length;
  if (japanese === 0 && english === 0) return null;
  if (readings.some((r) => r.fixed === null && r.romaji !== null && r.loanword !== null) && japanese === english) return null;
  const parts = readings.map((r) => r.fixed ?? (japanese > english ? (r.romaji ?? r.loanword) : (r.loanword ?? r.romaji)));
  return parts.every((part) => part !== null) ? parts.join("") : null;
}

function readingsOf(word: string, loanwords: Loanwords, afterFirst: boolean): WordReadings {
  if (/^\d+$/.test(word)) return { romaji: null, loanword: null, fixed: word };
  const numeral = romanNumeralValue(word);
  if (numeral !== null) return { romaji: null, loanword: null, fixed: String(numeral) };
  const lower = word.toLowerCase();
  if (afterFirst && PARTICLES[lower] !== undefined && word === lower) return { romaji: null, loanword: null, fixed: PARTICLES[lower] };
  const letters = lower.replace(/[.’]/g, "");
  const romaji = /^[a-z']+$/.test(letters) ? hepburnAsKana(letters) : null;
  const loanword = loanwords.wordReadings([word])?.[0] ?? null;
  if (romaji !== null && loanword !== null && letters.length > MAX_PARTICLE_LENGTH) return { romaji: null, loanword, fixed: null };
  return { romaji, loanword, fixed: null };
}
