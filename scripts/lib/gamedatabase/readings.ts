// Hiragana readings (titleReading) of GameDataBase's Japanese titles, for searchGames' reading
// match. Pure: the morphological analyser is passed in (analyser.ts loads one in Node).
//
// The exact title is cut into segments: kanji runs, hiragana, katakana, numbers, Latin words.
// Kana is read as it is spelt. A kanji run takes its reading from the curated romanisation,
// aligned with the exact title around the kana; the analyser confirms it, or supplies it when
// the romanisation cannot be aligned. A Latin word stays out of the reading when the title
// renders it in kana (`Black Dragon ブラックドラゴン`), and so does a kanji run that the kana
// spells out (`Super 競艇2 スーパーきょうてい2`) or that the title repeats where the romanisation
// does not; a Latin word that nothing renders is kept as written, in lower-case letters
// (`電車でGO!64` でんしゃでgo64: a collector typing でんしゃで still finds it); anything else that
// cannot be read with confidence makes the reading null.
import { toRomaji } from "wanakana";
import { boxTitleOf, glossingSegments } from "./boxTitles";
import { type Loanwords, NO_LOANWORDS, unsaidReading } from "./loanwords";
import {
  containsKana,
  hepburnAsKana,
  idLetters,
  isHiraganaOnly,
  kanaDistance,
  katakanaToHiragana,
  numberSaidIn,
  romanisedWords,
  romanNumeralValue,
  sameIgnoringLongVowels,
  sameKana,
  soundDistance,
  soundKey,
  soundsWithin,
  spelledOutIn,
} from "./romanisation";

/** A GameDataBase row's titles: `Title (exact)`, `Title` and `ID`. */
export interface TitleForReading {
  exact: string;
  romanised: string;
  sourceId: string;
}
export type ReadingSource = "kana" | "romanisation" | "analyser" | "loanwords";
export interface Reading {
  reading: string | null;
  source: ReadingSource | null;
  /**
   * The title as a Japanese box prints it: the exact title without the Latin words that its own
   * kana renders (`Dragon Quest III ドラゴンクエストIII そして伝説へ…` -> `ドラゴンクエストIII そして伝説へ…`).
   */
  boxTitle: string;
}
/** A morphological analyser: the katakana (or hiragana) reading of a Japanese text, or null. */
export interface Analyser {
  readingOf(text: string): string | null;
}

/** What titleReading accepts: hiragana, ー, digits, and the letters of Latin words kept as written. */
const READING = /^[\u3041-\u309f\u30fc0-9a-z]+$/;

export function readingFor(title: TitleForReading, analyser?: Analyser, loanwords: Loanwords = NO_LOANWORDS): Reading {
  // GameDataBase writes "=" when the exact title is the romanised one.
  const exact = title.exact === "=" ? title.romanised : title.exact;
  const noReading: Reading = { reading: null, source: null, boxTitle: exact };
  const segments = segmentsOf(exact);
  if (!segments.some(isJapanese)) return { ...noReading, ...latinOnlyReading(segments, loanwords) };
  const analysed = analyser ? analysedKanji(segments, analyser) : new Map<number, string>();
  const romanisation: Romanisation = {
    spelling: spellingOf(romanisedWords(title.romanised, title.sourceId)),
    id: idLetters(title.sourceId),
  };
  const kanji = kanjiReadings(segments, analysed, spelledOutKanji(segments, analysed), romanisation);
  if (kanji === null) return noReading;
  const assembled = assemble(segments, kanji.leftOut, kanji.readings, loanwords);
  if (assembled === null) return noReading;
  const boxTitle = boxTitleOf(exact, segments, glossingSegments(segments, assembled));
  return READING.test(assembled.reading) ? { reading: assembled.reading, source: kanji.source, boxTitle } : { ...noReading, boxTitle };
}

/** A title in Latin letters alone is read only when every word has its Japanese reading (`Street Fighter II` すとりーとふぁいたー2). */
function latinOnlyReading(segments: Segment[], loanwords: Loanwords): Pick<Reading, "reading" | "source"> | null {
  const parts = segments.map((segment) =>
    segment.kind === "number"
      ? segment.digits
      : segment.kind === "latin"
        ? (loanwords.wordReadings(segment.words)?.join("") ?? null)
        : null,
  );
  if (!segments.some((segment) => segment.kind === "latin") || parts.some((part) => part === null)) return null;
  const reading = parts.join("");
  return READING.test(reading) ? { reading, source: "loanwords" } : null;
}

// ---------------------------------------------------------------------------------------------
// Segments

export type Segment = (
  | { kind: "kanji" | "hiragana" | "katakana"; text: string }
  | { kind: "number"; digits: string }
  | { kind: "latin"; words: string[] }
) & {
  /** The spaces and punctuation before the segment. */
  gap: string;
  /** Where the segment stands in the NFKC form of the title (see titleSpans). */
  start: number;
  end: number;
};

type JapaneseSegment = Extract<Segment, { text: string }>;

export const isJapanese = (segment: Segment): segment is JapaneseSegment => "text" in segment;
const isKana = (segment: Segment): segment is JapaneseSegment => segment.kind === "hiragana" || segment.kind === "katakana";

const KANA = "\\u3041-\\u3096\\u309d\\u309e\\u30a1-\\u30fa\\u30fd\\u30fe";
// A wave dash between kana is a long vowel (す〜ぱ〜なぞぷよ); elsewhere it is decoration.
const WAVE_DASH_IN_WORD = new RegExp(`(?<=[${KANA}])[〜～](?=[${KANA}])`, "g");
// ヶ reads as a kanji does (関ヶ原 せきがはら), so it joins kanji runs; ー joins the kana before it.
const TOKEN =
  /(?<kanji>[\p{Script=Han}々〆ヶ]+)|(?<hiragana>[\u3041-\u3096\u309d\u309e][\u3041-\u3096\u309d\u309eー]*)|(?<katakana>[\u30a1-\u30f5\u30f7-\u30fa\u30fd\u30fe][\u30a1-\u30f5\u30f7-\u30fa\u30fd\u30feー]*)|(?<number>[0-9]+)|(?<latin>\p{Script=Latin}+(?:['’]\p{Script=Latin}+)*)/gu;

/** The title's segments in order; consecutive Latin words make one segment. */
function segmentsOf(title: string): Segment[] {
  const text = title.normalize("NFKC").replace(WAVE_DASH_IN_WORD, "ー");
  const segments: Segment[] = [];
  let end = 0;
  for (const match of text.matchAll(TOKEN)) {
    const gap = text.slice(end, match.index);
    const span = { gap, start: match.index, end: match.index + match[0].length };
    end = span.end;
    const { kanji, hiragana, number, latin } = match.groups ?? {};
    const previous = segments.at(-1);
    if (latin !== undefined) {
      const numeral = romanNumeral(latin, text, match.index, end);
      if (numeral !== null) segments.push({ kind: "number", digits: numeral, ...span });
      else if (previous?.kind === "latin") {
        previous.words.push(latin);
        previous.end = span.end;
      } else segments.push({ kind: "latin", words: [latin], ...span });
    } else if (number !== undefined) {
      segments.push({ kind: "number", digits: number, ...span });
    } else {
      const kind = kanji !== undefined ? "kanji" : hiragana !== undefined ? "hiragana" : "katakana";
      segments.push({ kind, text: katakanaToHiragana(match[0]), ...span });
    }
  }
  return segments;
}

/**
 * The digits of a roman numeral standing apart (メトロイドII, `Dark Seed II`), or null: not when
 * it touches other letters or digits (19XX), nor a lone I or V opening words (`V Tetris`).
 */
function romanNumeral(word: string, text: string, start: number, end: number): string | null {
  const value = romanNumeralValue(word);
  if (value === null || /[0-9A-Za-z]/.test(text[start - 1] ?? "") || /[0-9A-Za-z]/.test(text[end] ?? "")) return null;
  const opensWords = (start === 0 || /\s/.test(text[start - 1] ?? "")) && /^\s+\p{Script=Latin}/u.test(text.slice(end));
  if (word.length === 1 && opensWords) return null;
  return String(value);
}

export const lettersOf = (words: string[]) =>
  words
    .join("")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");

// ---------------------------------------------------------------------------------------------
// The analyser's readings of kanji runs, and kanji runs the title spells out in kana

/**
 * Each kanji run's reading by the analyser, read together with the hiragana or number written
 * against it (喰らう, お菓子, 2020年) for context, which is then taken off again.
 */
function analysedKanji(segments: Segment[], analyser: Analyser): Map<number, string> {
  const readings = new Map<number, string>();
  for (const [index, segment] of segments.entries()) {
    if (segment.kind !== "kanji") continue;
    const before = touchingContext(segments, index, -1);
    const after = touchingContext(segments, index, 1);
    const reading = withoutContext(analyser.readingOf(before + segment.text + after), before, after) ?? analyser.readingOf(segment.text);
    const kana = reading === null ? "" : katakanaToHiragana(reading);
    if (isHiraganaOnly(kana)) readings.set(index, kana);
  }
  return readings;
}

function withoutContext(reading: string | null, before: string, after: string): string | null {
  if (reading === null) return null;
  const kana = katakanaToHiragana(reading);
  const middle = kana.slice(before.length, kana.length - after.length);
  const contextMatches = sameKana(kana.slice(0, before.length), before) && sameKana(kana.slice(kana.length - after.length), after);
  return contextMatches && middle !== "" ? middle : null;
}

function touchingContext(segments: Segment[], index: number, direction: 1 | -1): string {
  const neighbour = segments[index + direction];
  const gap = direction === 1 ? neighbour?.gap : segments[index]?.gap;
  if (gap !== "" || neighbour === undefined) return "";
  return neighbour.kind === "hiragana" ? neighbour.text : neighbour.kind === "number" ? neighbour.digits : "";
}

/** Readings shorter than this could be found inside the kana by chance: one of two kana must end a kana run. */
const MIN_SPELLED_OUT_KANA = 3;
/** Sound keys shorter than this could sound like part of the kana by chance. */
const MIN_SPELLED_OUT_KEY = 5;
/** Share of a reading's sound key that may differ from the kana that spells it out (麻雀 まーじゃん, まーしゃん). */
const SPELLED_OUT_DISTANCE = 0.3;

/** Kana without voicing marks: a reading voices in compounds (亀 かめ, 鮫亀 さめがめ). */
const unvoiced = (kana: string) => kana.normalize("NFD").replace(/[\u3099\u309a]/g, "");

/**
 * Kanji runs whose reading, by the analyser, the title's kana spells out again (`覇王 はおう`,
 * `Edono 牙 エドノキバ`, `麻雀刺客 まーしゃんしかく`): where the romanisation spells it once, the kana
 * is what it reads.
 */
function spelledOutKanji(segments: Segment[], analysed: Map<number, string>): Set<number> {
  const spelledOut = new Set<number>();
  const kanaRuns = segments.filter(isKana).map((segment) => unvoiced(segment.text));
  const kanaKey = soundKey(kanaRuns.join(" "));
  for (const [index, reading] of analysed) {
    const plain = unvoiced(reading);
    const key = soundKey(reading);
    const endsARun = (kana: string) => plain.length === 2 && kana.length > 2 && sameKana(kana.slice(-2), plain);
    const spelledAgain = kanaRuns.some((kana) => (plain.length >= MIN_SPELLED_OUT_KANA ? containsKana(kana, plain) : endsARun(kana)));
    const soundsAgain = key.length >= MIN_SPELLED_OUT_KEY && soundsWithin(key, kanaKey, Math.floor(key.length * SPELLED_OUT_DISTANCE));
    if (spelledAgain || soundsAgain) spelledOut.add(index);
  }
  return spelledOut;
}

// ---------------------------------------------------------------------------------------------
// Kanji readings

/** The romanised title in kana, digits and Latin letters, and where its words begin and end. */
interface Spelling {
  text: string;
  wordEdges: Set<number>;
}

function spellingOf(words: string[]): Spelling {
  const wordEdges = new Set([0]);
  let text = "";
  for (const word of words) {
    text += word;
    wordEdges.add(text.length);
  }
  return { text, wordEdges };
}

interface Romanisation {
  spelling: Spelling;
  /** The ID's letters, a wapuro-style spelling of the title. */
  id: string;
}

interface KanjiReadings {
  /** The reading of each kanji segment that is read, by segment index. */
  readings: Map<number, string>;
  /** Segments left out of the reading: repeats, and kanji runs that kana reads. */
  leftOut: Set<number>;
  source: ReadingSource;
}

/**
 * Each kanji run's reading: from the romanisation when it aligns with the title (the analyser
 * confirming it, or the romanisation deciding where they differ), else from the analyser. Null
 * when a run has neither, or when the analyser's reading contradicts a Japanese romanisation.
 */
function kanjiReadings(
  segments: Segment[],
  analysed: Map<number, string>,
  spelledOut: Set<number>,
  romanisation: Romanisation,
): KanjiReadings | null {
  if (!segments.some((segment) => segment.kind === "kanji")) return { readings: new Map(), leftOut: new Set(), source: "kana" };
  const alignment = align(segments, romanisation.spelling, analysed, spelledOut);
  if (alignment !== null && glossesRead(alignment)) {
    const readings = alignedReadings(alignment, analysed, romanisation);
    const leftOut = new Set(alignment.filter((step) => step.leftOut !== null).map((step) => step.segment));
    return readings && { readings, leftOut, source: readings.size > 0 ? "romanisation" : "kana" };
  }
  const toRead = segments.flatMap((segment, index) => (segment.kind === "kanji" && !spelledOut.has(index) ? [index] : []));
  const { text } = romanisation.spelling;
  const romanisedInKana = /[\u3041-\u3096]/.test(text);
  const trusted = (reading: string | undefined) =>
    reading !== undefined && (!romanisedInKana || containsKana(text, reading) || inId(reading, romanisation.id));
  if (!toRead.every((index) => trusted(analysed.get(index)))) return null;
  const readings = new Map(toRead.map((index) => [index, analysed.get(index)!]));
  return { readings, leftOut: spelledOut, source: readings.size > 0 ? "analyser" : "kana" };
}

/** How far the analyser's spelling of a kanji run may stray from the romanisation's and be preferred. */
const CLOSE_SPELLING = 0.5;

/** Whether the analyser's reading of a kanji run adds a kana or so to the romanisation's (せにょう, せんよう), and drops none. */
const spelledAlike = (romanised: string, analysed: string) =>
  analysed.length - romanised.length <= 1 && analysed.length >= romanised.length && kanaDistance(romanised, analysed) <= CLOSE_SPELLING;

/** Romaji shorter than this could be found in the ID by chance. */
const MIN_ID_MATCH = 4;

/** Whether the ID spells a reading out (`yuujin` for 遊人 ゆうじん). */
function inId(reading: string, id: string): boolean {
  const romaji = toRomaji(reading).replace(/[^a-z]/g, "");
  return romaji.length >= MIN_ID_MATCH && id.includes(romaji);
}

/**
 * The kanji runs' readings from an alignment, or null when one is uncertain. A run the analyser
 * confirms takes the analyser's spelling (it knows おう from おお). The others take the
 * romanisation's reading (聖剣 せいけん, not the analyser's きよしけん) when it is held in place:
 * consecutive such runs make a block whose readings join up, so only the block's outer ends
 * matter, and each end must meet the spelling's end, an exact match or a close loose match. A
 * block whose outer runs took whole romanised words beside the analyser's reading is not trusted
 * (超 reading `Game Chō`). A run that took whole romanised words takes the analyser's reading
 * after all where the two differ by a kana or so and the ID spells the analyser's out: a
 * romanisation without apostrophes is ambiguous (`Senyō` せにょう for 専用 せんよう, ID `senyou`).
 */
function alignedReadings(alignment: Step[], analysed: Map<number, string>, romanisation: Romanisation): Map<number, string> | null {
  const readings = new Map<number, string>();
  for (const block of uncertainBlocks(alignment)) {
    const held = anchoring(alignment, block[0]!, -1) && anchoring(alignment, block.at(-1)!, 1);
    const steps = block.map((position) => alignment[position]!);
    const { wordEdges } = romanisation.spelling;
    const first = steps[0]!;
    const last = steps.at(-1)!;
    const stray =
      strayWords(first, analysed.get(first.segment), wordEdges).before || strayWords(last, analysed.get(last.segment), wordEdges).after;
    if (!held || stray) return null;
    for (const step of steps) {
      const byAnalyser = analysed.get(step.segment);
      const preferred =
        byAnalyser !== undefined && wordEdges.has(step.start) && wordEdges.has(step.end) && spelledAlike(step.reading, byAnalyser);
      readings.set(step.segment, preferred && inId(byAnalyser, romanisation.id) ? byAnalyser : step.reading);
    }
  }
  for (const step of alignment) if (step.kind === "kanji" && step.confirmed) readings.set(step.segment, step.reading);
  return readings;
}

/**
 * Whether a kanji run read whole romanised words before or after the analyser's reading, words
 * that belong to its neighbours (an English word that happens to be Hepburn: `Game` がめ).
 */
function strayWords(step: Step, analysed: string | undefined, wordEdges: Set<number>): { before: boolean; after: boolean } {
  const extra = step.reading.length - (analysed?.length ?? step.reading.length);
  if (analysed === undefined || extra <= 0) return { before: false, after: false };
  return {
    before: sameKana(step.reading.slice(extra), analysed) && wordEdges.has(step.start + extra),
    after: sameKana(step.reading.slice(0, analysed.length), analysed) && wordEdges.has(step.start + analysed.length),
  };
}

/**
 * Whether each kanji run left out for the kana after it is a gloss: that kana took romanised
 * words closely, and what comes before the kanji run holds (so the words its reading would take
 * are not in a loose match before it: ハム太郎 `Hamtarō`).
 */
function glossesRead(alignment: Step[]): boolean {
  return alignment.every((step, position) => {
    if (step.leftOut !== "gloss") return true;
    const next = alignment.slice(position + 1).find((other) => !passedOver(other));
    const readByNext = next !== undefined && isKanaStep(next) && next.end > next.start && next.cost <= 1 + LOOSE_KANA_DISTANCE;
    return readByNext && anchoring(alignment, position, -1);
  });
}

const isKanaStep = (step: Step) => step.kind === "hiragana" || step.kind === "katakana";

/** Segments that take no part of the spelling and add nothing to the reading (Latin words the romanisation lacks, repeats). */
const passedOver = (step: Step) => step.end === step.start && (step.kind === "latin" || step.leftOut !== null);

/** Positions of consecutive kanji runs that the analyser does not confirm, block by block. */
function uncertainBlocks(alignment: Step[]): number[][] {
  const blocks: number[][] = [];
  let block: number[] = [];
  for (const [position, step] of alignment.entries()) {
    if (step.kind === "kanji" && !step.confirmed && step.leftOut === null) block.push(position);
    else if (!passedOver(step) && block.length > 0) {
      blocks.push(block);
      block = [];
    }
  }
  return block.length > 0 ? [...blocks, block] : blocks;
}

/** How far a loose match may sound from its segment to hold a kanji run in place (an exact match or a confirmed kanji run always does). */
const ANCHOR_DISTANCE = 0.25;

/** Whether the step next to `from` in `direction` (past those passed over) holds a kanji run's reading in place. */
function anchoring(alignment: Step[], from: number, direction: 1 | -1): boolean {
  for (let position = from + direction; position >= 0 && position < alignment.length; position += direction) {
    const step = alignment[position]!;
    if (passedOver(step)) continue;
    if (step.end === step.start || step.kind === "unmatched") return false;
    return (step.kind !== "kanji" || step.confirmed) && step.cost <= 1 + ANCHOR_DISTANCE;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Alignment of the title's segments with the romanised spelling

interface Step {
  /** The segment's index, or -1 for part of the spelling that no segment accounts for. */
  segment: number;
  kind: Segment["kind"] | "unmatched";
  start: number;
  end: number;
  cost: number;
  /** A kanji run's reading by this step. */
  reading: string;
  /** A kanji run read as the analyser reads it. */
  confirmed: boolean;
  /** Why the segment is left out of the reading: it repeats another, kana spells its reading out, or kana after it reads it. */
  leftOut: LeftOut | null;
}

type LeftOut = keyof typeof LEAVE_OUT_COST;

type StepFields = Pick<Step, "segment" | "kind" | "start" | "end" | "cost"> & Partial<Pick<Step, "reading" | "confirmed" | "leftOut">>;

function stepOf(fields: StepFields): Step {
  return { reading: "", confirmed: false, leftOut: null, ...fields };
}

/** Romanised words that no segment accounts for cost this much. */
const UNMATCHED_COST = 2;
/**
 * What leaving a segment out of the reading costs: a segment the title repeats (`JuJu伝説
 * ジュジュ伝説`); a kanji run whose reading by the analyser the kana spells out (`Super 麻雀
 * スーパーま〜じゃん`), free as the analyser vouches for it (where the romanisation spells it twice,
 * the match, found first, still wins); a kanji run where kana after it reads what the
 * romanisation says instead (`水晶の龍 ドラゴン`, `Suishō no Dragon`), dearest.
 */
const LEAVE_OUT_COST = { repeat: 1.5, spelledOut: 0, gloss: 2.5 };
const MAX_KANA_PER_KANJI = 8;

/**
 * The cheapest alignment of the segments with the whole spelling, or null when the romanisation
 * does not fit the title. Exact matches are free. A kanji run reads any kana, at a cost that
 * grows as it strays from the analyser's reading, or romanised words that are not Japanese when
 * they sound like the analyser's reading (麻雀 `Mahjong`). Kana, numbers and Latin words may match
 * loosely or not at all, at a cost, as may romanised words that no segment accounts for; a
 * repeated segment, or a kanji run where the title has kana, may be left out. Loose matches
 * begin and end between words.
 */
function align(segments: Segment[], spelling: Spelling, analysed: Map<number, string>, spelledOut: Set<number>): Step[] | null {
  const n = segments.length;
  const m = spelling.text.length;
  const best = Array.from({ length: n + 1 }, () =>
    Array.from({ length: m + 1 }, () => ({ cost: Number.POSITIVE_INFINITY, step: null as Step | null })),
  );
  best[0]![0]!.cost = 0;
  const repeated = repeatedSegments(segments);
  const glossed = glossedByNextKana(segments);
  const context: MatchContext = { spelling, soundKey: remembered(soundKey) };
  const relax = (i: number, step: Step, from: number) => {
    const cell = best[i]![step.end]!;
    if (from + step.cost < cell.cost) best[i]![step.end] = { cost: from + step.cost, step };
  };
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= m; j++) {
      const here = best[i]![j]!.cost;
      if (here === Number.POSITIVE_INFINITY) continue;
      if (spelling.wordEdges.has(j)) {
        for (const k of spelling.wordEdges) {
          if (k > j) relax(i, stepOf({ segment: -1, kind: "unmatched", start: j, end: k, cost: UNMATCHED_COST }), here);
        }
      }
      const segment = segments[i];
      if (!segment) continue;
      for (const step of matches(segment, i, j, analysed.get(i), context)) relax(i + 1, step, here);
      const leftOut: LeftOut | null = spelledOut.has(i) ? "spelledOut" : repeated.has(i) ? "repeat" : glossed.has(i) ? "gloss" : null;
      if (leftOut !== null) {
        relax(i + 1, stepOf({ segment: i, kind: segment.kind, start: j, end: j, cost: LEAVE_OUT_COST[leftOut], leftOut }), here);
      }
    }
  }
  if (best[n]![m]!.cost === Number.POSITIVE_INFINITY) return null;
  const steps: Step[] = [];
  for (let i = n, j = m; i > 0 || j > 0; ) {
    const step = best[i]![j]!.step!;
    steps.unshift(step);
    if (step.segment >= 0) i -= 1;
    j = step.start;
  }
  return steps;
}

/**
 * Positions of kanji runs that kana after a space may stand for, as a reading written out
 * (`成龍 ジャッキーチェン`); Latin words between are passed over (`戦斧 Golden Axe ゴールデン アックス`).
 */
function glossedByNextKana(segments: Segment[]): Set<number> {
  const glossed = new Set<number>();
  for (const [index, segment] of segments.entries()) {
    if (segment.kind !== "kanji") continue;
    const after = segments.slice(index + 1);
    const next = after.find((other) => other.kind !== "latin");
    if (next !== undefined && isKana(next) && (next.gap !== "" || after[0] !== next)) glossed.add(index);
  }
  return glossed;
}

/** Positions of Japanese segments whose text occurs again in another segment. */
function repeatedSegments(segments: Segment[]): Set<number> {
  const texts = segments.map((segment) => (isJapanese(segment) && segment.text.length >= 2 ? segment.text : null));
  return new Set(texts.flatMap((text, i) => (text !== null && texts.some((other, j) => j !== i && other === text) ? [i] : [])));
}

interface MatchContext {
  spelling: Spelling;
  /** soundKey, remembered: loose matches compare the same slices many times. */
  soundKey: (text: string) => string;
}

function remembered(compute: (text: string) => string): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined) {
      value = compute(text);
      known.set(text, value);
    }
    return value;
  };
}

/** How far kana may sound from romanised kana that it loosely matches (タイトー `Taito`). */
const LOOSE_KANA_DISTANCE = 0.34;

/** Every way a segment can match the spelling from `start`, with its cost. */
function matches(segment: Segment, index: number, start: number, analysed: string | undefined, context: MatchContext): Step[] {
  const { text, wordEdges } = context.spelling;
  const step = (end: number, cost: number, kanji: Pick<Step, "reading" | "confirmed"> = { reading: "", confirmed: false }) =>
    stepOf({ segment: index, kind: segment.kind, start, end, cost, ...kanji });
  const exactly = (part: string) => sameKana(text.slice(start, start + part.length), part) || text.startsWith(part, start);
  const loosely = (part: string) => {
    if (!wordEdges.has(start)) return [];
    const steps: Step[] = [];
    for (const end of [...wordEdges].filter((edge) => edge >= start)) {
      const slice = text.slice(start, end);
      const distance = soundDistance(context.soundKey(part), context.soundKey(slice));
      // Romanised kana that this kana does not spell is Japanese that something else must read.
      if (distance <= LOOSE_KANA_DISTANCE || !/[\u3041-\u3096]/.test(slice)) steps.push(step(end, 1 + distance));
    }
    return steps;
  };
  switch (segment.kind) {
    case "hiragana":
    case "katakana":
      return exactly(segment.text) ? [step(start + segment.text.length, 0)] : loosely(segment.text);
    case "kanji":
      return kanjiMatches(segment.text, start, analysed, context).map(({ end, cost, ...kanji }) => step(end, cost, kanji));
    case "number":
      return [...(exactly(segment.digits) ? [step(start + segment.digits.length, 0)] : []), step(start, 1)];
    case "latin": {
      const letters = lettersOf(segment.words);
      const kana = hepburnAsKana(letters);
      // A romanised word is matched whole (Ninkū is にんくう, not にんく).
      const ends = [
        ...(text.startsWith(letters, start) ? [start + letters.length] : []),
        ...(kana !== null && exactly(kana) ? [start + kana.length] : []),
      ];
      return [step(start, LATIN_LEFT_OUT_COST), ...ends.filter((end) => wordEdges.has(end)).map((end) => step(end, 0))];
    }
  }
}

/**
 * A Latin word the romanisation lacks costs a little less than a number's, so that where the
 * title renders a romanised word twice (`Monbit モンビット`) the kana, which is read, takes it.
 */
const LATIN_LEFT_OUT_COST = 0.9;

/** A kanji run standing for romanised words that are not Japanese (麻雀 `Mahjong`) costs this much. */
const SOUNDS_LIKE_COST = 0.25;
const SOUNDS_LIKE_DISTANCE = 0.34;
/** Romanised words mixed with romanised kana must sound closer still (麻雀大会 `Mahjong Taikai`). */
const MIXED_SOUNDS_LIKE_DISTANCE = 0.2;

function kanjiMatches(kanji: string, start: number, analysed: string | undefined, context: MatchContext) {
  const { text, wordEdges } = context.spelling;
  const kanjiCount = [...kanji].length;
  const found: Array<{ end: number; cost: number; reading: string; confirmed: boolean }> = [];
  for (let end = start + kanjiCount; end <= Math.min(text.length, start + MAX_KANA_PER_KANJI * kanjiCount); end++) {
    const kana = text.slice(start, end);
    if (!isHiraganaOnly(kana)) break;
    // The romanisation sometimes leaves a long vowel unmarked (`Katsuryu`); the analyser knows it.
    // The analyser sometimes misses a voicing (三本 さんほん); the romanisation knows it.
    const unmarked = wordEdges.has(end) && sameIgnoringLongVowels(kana, analysed ?? "");
    const voiced = sameKana(unvoiced(kana), unvoiced(analysed ?? ""));
    const confirmed = analysed !== undefined && (sameKana(kana, analysed) || unmarked || voiced);
    const cost = confirmed ? 0 : analysed === undefined ? 1 : kanaDistance(kana, analysed);
    found.push({ end, cost, reading: confirmed && !voiced ? analysed : kana, confirmed });
  }
  if (analysed !== undefined && wordEdges.has(start)) {
    const key = context.soundKey(analysed);
    for (const end of wordEdges) {
      const slice = text.slice(start, end);
      const allowed = /[\u3041-\u3096]/.test(slice) ? MIXED_SOUNDS_LIKE_DISTANCE : SOUNDS_LIKE_DISTANCE;
      if (end > start && /[a-z]/.test(slice) && soundDistance(key, context.soundKey(slice)) <= allowed) {
        found.push({ end, cost: SOUNDS_LIKE_COST, reading: analysed, confirmed: true });
      }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Assembly

/**
 * The reading: kana as spelt, kanji as read, numbers as digits; left-out segments and Latin
 * words contribute nothing. A number written against left-out Latin words belongs to them: it
 * is left out when the rest says it too (`Bass Angler 2 バスアングラー2`, `8 Eyes エイト・アイズ`),
 * else follows the word whose kana renders those words (`Super Mario 64 スーパーマリオ`). A Latin
 * word nothing renders is kept as written, in lower-case letters, and so are its numbers. The
 * reading is null when a number has nowhere to go.
 */
function assemble(segments: Segment[], leftOutSegments: Set<number>, kanji: Map<number, string>, loanwords: Loanwords): Assembled | null {
  const leftOut = (index: number) => segments[index]?.kind === "latin" || leftOutSegments.has(index);
  const owners: Array<number | null> = [];
  for (const [index, segment] of segments.entries())
    owners.push(segment.kind === "number" ? leftOutOwner(segments, index, leftOut, owners) : null);
  const parts = segments.map((segment, index) => (leftOut(index) || owners[index] !== null ? "" : partReading(segment, kanji.get(index))));
  const reading = parts.join("");
  const kanaRuns = consecutiveKanaRuns(segments);
  const renderings = new Map<number, Rendering>();
  const loanwordRuns = new Map<number, string[]>();
  for (const [index, segment] of segments.entries()) {
    if (segment.kind !== "latin") continue;
    const found = rendering(index, reading, kanaRuns, segments);
    const readings = found === null ? loanwords.wordReadings(segment.words) : null;
    if (found !== null) renderings.set(index, found);
    else if (readings === null) parts[index] = lettersOf(segment.words);
    else {
      loanwordRuns.set(index, readings);
      parts[index] = readings.join("");
    }
  }
  for (const [index, readings] of loanwordRuns)
    parts[index] = unsaidReading(readings, parts.filter((_, other) => other !== index).join(""));
  const pinned = new Set<number>();
  for (const [index, segment] of segments.entries()) {
    const owner = owners[index];
    if (owner === null || owner === undefined || segment.kind !== "number" || said(segment.digits, reading)) continue;
    const renderedBy = renderings.get(owner);
    if (renderedBy === "elsewhere") return null;
    pinned.add(owner);
    if (renderedBy === undefined) {
      parts[index] = segment.digits; // its Latin words were read on their own: it stays beside them
      continue;
    }
    parts[wordEnd(segments, renderedBy.at(-1)!)] += segment.digits;
  }
  return { reading: parts.join(""), renderings, pinned, saidElsewhere: (digits) => said(digits, reading) };
}

const said = (digits: string, reading: string) => reading.includes(digits) || numberSaidIn(digits, reading);

/**
 * The left-out segment a number belongs to: the one it follows (or the owner of the number it
 * follows: `Wizardry I・II`), or the Latin words it opens (`8 Eyes`), unless it is written
 * against Japanese (`バスアングラー2`, `ストライカー'96`).
 */
function leftOutOwner(
  segments: Segment[],
  index: number,
  leftOut: (index: number) => boolean,
  owners: Array<number | null>,
): number | null {
  const previous = segments[index - 1];
  const next = segments[index + 1];
  const againstJapanese =
    (next !== undefined && isJapanese(next) && next.gap === "") || (previous !== undefined && isJapanese(previous) && !leftOut(index - 1));
  if (againstJapanese) return null;
  if (leftOut(index - 1)) return index - 1;
  if (previous?.kind === "number") return owners[index - 1] ?? null;
  return next?.kind === "latin" && previous === undefined ? index + 1 : null;
}

/** The last segment of the word that segment `index` starts or continues: Japanese written against it (`エストポリス伝記`). */
function wordEnd(segments: Segment[], index: number): number {
  let end = index;
  while (segments[end + 1] !== undefined && isJapanese(segments[end + 1]!) && segments[end + 1]!.gap === "") end += 1;
  return end;
}

/** Every sequence of kana segments that follow one another in the title (numbers, spaces and punctuation between are fine), by index. */
function consecutiveKanaRuns(segments: Segment[]): number[][] {
  const sequences: number[][] = [];
  for (const [first, segment] of segments.entries()) {
    if (!isKana(segment)) continue;
    const sequence: number[] = [];
    for (const [offset, next] of segments.slice(first).entries()) {
      if (next.kind === "number") continue;
      if (!isKana(next)) break;
      sequence.push(first + offset);
      sequences.push([...sequence]);
    }
  }
  return sequences;
}

function partReading(segment: Segment, kanji: string | undefined): string {
  switch (segment.kind) {
    case "kanji":
      return kanji ?? "";
    case "number":
      return segment.digits;
    case "latin":
      return "";
    default:
      return segment.text;
  }
}

/** Sound keys shorter than this must match exactly. */
const MIN_FUZZY_KEY = 3;
/** Kana this short renders no Latin word (`Oni 黒の破壊神` is not rendered by の). */
const MIN_RENDERING_KANA = 2;
/** Share of a sound key that may differ from the kana that renders it (Crazy Cop クレイジーコップ). */
const RENDERING_DISTANCE = 0.34;
/** Share of a sound key that may differ from the reading it romanises (Ryujin 龍神 りゅうじん). */
const ROMANISATION_DISTANCE = 0.2;
/** Words that katakana renderings often leave out (The Untouchables アンタッチャブル). */
const OMISSIBLE_WORDS = new Set(["the", "of", "a", "an", "and"]);

/** How the title renders Latin words: by the kana segments at these indexes, or elsewhere in the reading. */
export type Rendering = number[] | "elsewhere";

/** The reading, and what the title says twice: how it renders Latin words and which numbers its Japanese says. */
export interface Assembled {
  reading: string;
  renderings: Map<number, Rendering>;
  /** Latin words whose numbers the Japanese does not say, so the reading moved them beside the kana. */
  pinned: Set<number>;
  saidElsewhere: (digits: string) => boolean;
}

/**
 * How the title renders a run of Latin words, or null: letters by their names (`SD` エスディー),
 * a romanisation of the reading (`Ikari` beside 怒 いかり, `Ryujin` beside 龍神 りゅうじん), or
 * kana in the title that sound like them (`Black Dragon ブラックドラゴン`, `Adventures of Lolo
 * アドベンチャーズ オブ ロロ`): the run must sound like the kana as a whole, and each word must be
 * found in it.
 */
function rendering(index: number, reading: string, kanaRuns: number[][], segments: Segment[]): Rendering | null {
  const { words } = segments[index] as Extract<Segment, { kind: "latin" }>;
  const spelledOut = (word: string) => word.length <= 4 && word === word.toUpperCase() && spelledOutIn(word, reading);
  const spoken = words.filter((word) => !spelledOut(word));
  if (spoken.length === 0) return "elsewhere";
  if (spoken.some((word) => word.length === 1)) return null;
  const key = soundKey(spoken.join(" "));
  const byKana = kanaRuns.find((runs) => {
    const kana = runs.map((run) => segments[run] as JapaneseSegment);
    const runKey = soundKey(kana.map((segment) => segment.text).join(" "));
    const alike = key.length < MIN_FUZZY_KEY ? runKey === key : soundDistance(key, runKey) <= RENDERING_DISTANCE;
    const long = kana.reduce((length, segment) => length + segment.text.length, 0) >= MIN_RENDERING_KANA;
    return alike && long && eachWordWithin(spoken, runKey);
  });
  if (byKana !== undefined) return byKana;
  const hepburn = spoken.map((word) => hepburnAsKana(lettersOf([word])));
  if (hepburn.every((kana) => kana !== null && kana.length >= 2 && containsKana(reading, kana))) return "elsewhere";
  const romanised = key.length >= MIN_FUZZY_KEY && soundsWithin(key, soundKey(reading), Math.floor(key.length * ROMANISATION_DISTANCE));
  return romanised ? "elsewhere" : null;
}

/**
 * Whether each word's sound key is found in `key`: an acronym's (`GB`, `WWF`) or a one-letter
 * key unchanged, a longer one with up to half of it changed. Words a rendering may leave out,
 * and words without consonants, pass.
 */
function eachWordWithin(words: string[], key: string): boolean {
  return words.every((word) => {
    const wordKey = soundKey(word);
    if (OMISSIBLE_WORDS.has(word.toLowerCase()) || wordKey === "") return true;
    const acronym = word.length <= 4 && word === word.toUpperCase();
    const tolerance = acronym || wordKey.length < 2 ? 0 : Math.max(1, Math.floor(wordKey.length / 2));
    return soundsWithin(wordKey, key, tolerance);
  });
}
