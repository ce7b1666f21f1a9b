// The nicknames Japanese collectors type (ドラクエ3, FF6, スト2, 時オカ), from the project's table
// seed/master/nicknames.tsv, turned into a game's `aliases`. Pure: the caller reads the files.
// The table's format is described at its top; in short, a series row gives a game whose title
// forms contain the series name each nickname alone and followed by the number that comes right
// after the name (ドラゴンクエストIII -> ドラクエ3), a game row gives one game's nicknames.
import { normalizeSearchText } from "../../../src/platform/normalize";
import { DAT_PLATFORM_KEYS } from "../libretroDats/platforms";
import { parseIdLedger } from "./idLedger";
import { PLATFORMS } from "./platforms";

/** The row format's limits on aliases (src/tools/games/masterRows.ts). */
export const MAX_ALIASES = 20;
const MAX_ALIAS_LENGTH = 100;
/** Shorter series names would be found inside too many unrelated words and readings. */
const MIN_SERIES_LENGTH = 3;

export type NicknameKind = "series" | "game";

export interface NicknameRow {
  /** The table's line number, for messages. */
  line: number;
  kind: NicknameKind;
  /** series: the series name; game: the game's titles (any of them matches), normalised. */
  match: string[];
  nicknames: string[];
  /** Platform keys (platforms.ts) the row applies to; empty: all. */
  platforms: string[];
  /** Normalised words whose presence in any title form means the series name is something else. */
  exclude: string[];
  note: string;
}

/** What a game offers to be matched: its title forms and its platform's key (`sfc`). */
export interface GameTitles {
  title: string;
  titleEn: readonly string[];
  titleReading: string | null;
  platformKey: string;
}

const COLUMNS = ["kind", "match", "nicknames", "platforms", "exclude", "note"] as const;
/** GameDataBase's platform keys and those of the libretro DATs (ps, dc, ...). */
const PLATFORM_KEYS = new Set([...PLATFORMS.map((platform) => platform.key), ...DAT_PLATFORM_KEYS]);

const list = (cell: string, separator: string) =>
  cell
    .split(separator)
    .map((value) => value.trim())
    .filter((value) => value !== "");

/** The table's text; `#` lines and blank lines are skipped, a malformed row is an error naming its line. */
export function parseNicknameTable(text: string): NicknameRow[] {
  const rows: NicknameRow[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === "" || raw.startsWith("#")) return;
    const line = index + 1;
    const fail = (problem: string): never => {
      throw new Error(`nicknames.tsv line ${line}: ${problem}: ${JSON.stringify(raw)}`);
    };
    const cells = raw.split("\t");
    if (cells.length !== COLUMNS.length)
      fail(`expected ${COLUMNS.length} tab-separated columns (${COLUMNS.join(", ")}), found ${cells.length}`);
    const [kind, match, nicknames, platforms, exclude, note] = cells.map((cell) => cell.trim()) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (kind !== "series" && kind !== "game") fail(`unknown kind ${JSON.stringify(kind)} (expected series or game)`);
    const row: NicknameRow = {
      line,
      kind: kind as NicknameKind,
      match: list(match, "|").map(normalizeSearchText),
      nicknames: list(nicknames, ","),
      platforms: list(platforms, ","),
      exclude: list(exclude, ",").map(normalizeSearchText),
      note,
    };
    if (row.match.length === 0 || row.match.includes("")) fail("the match column needs a title or series name with letters or digits");
    if (row.kind === "series" && row.match.length > 1) fail("a series row matches one series name (write one row per spelling)");
    if (row.kind === "series" && row.match[0]!.length < MIN_SERIES_LENGTH)
      fail(`a series name needs at least ${MIN_SERIES_LENGTH} letters`);
    if (row.kind === "game" && row.exclude.length > 0) fail("only series rows take exclusions");
    if (row.nicknames.length === 0) fail("no nickname given");
    for (const nickname of row.nicknames) {
      if (normalizeSearchText(nickname) === "") fail(`the nickname ${JSON.stringify(nickname)} has no letters or digits`);
      if (nickname.length > MAX_ALIAS_LENGTH - 10) fail(`the nickname ${JSON.stringify(nickname)} is too long`);
    }
    for (const key of row.platforms) if (!PLATFORM_KEYS.has(key)) fail(`unknown platform key ${JSON.stringify(key)}`);
    if (row.note === "") fail("the note column says what the row is");
    const key = [row.kind, [...row.match].sort().join("|"), [...row.platforms].sort().join(",")].join("\t");
    if (seen.has(key)) fail(`the same ${row.kind} and platforms as line ${seen.get(key)}`);
    seen.set(key, line);
    rows.push(row);
  });
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Title forms

/**
 * Splits a title into words: spaces and punctuation, and a hyphen between digits (第1話 (3-3)), but
 * not the other hyphens, which may be long vowels.
 */
const WORD_SEPARATORS = /[^\p{L}\p{N}\u2010-\u2015\u2212-]+|(?<=\d)-(?=\d)/gu;
const OPENING_BRACKET = /[([{（［｛「『【〔]/u;
// Letters no title uses, put between words so that one normalisation of the whole title shows
// where its words were (normalising word by word would cost as many calls as there are words);
// the second one marks a bracket opening, after which no series number is read.
const WORD_MARK = "\u16a0";
const BRACKET_MARK = "\u16a1";

/** A title form in its search form, with where its words start and end (to read numbers and Latin words). */
interface TitleForm {
  text: string;
  starts: Set<number>;
  ends: Set<number>;
  /** Word starts inside brackets' opening: "(第1話)" is no series number. */
  bracketed: Set<number>;
}

function titleForm(title: string): TitleForm {
  const marked = normalizeSearchText(
    title.normalize("NFKC").replace(WORD_SEPARATORS, (separator) => (OPENING_BRACKET.test(separator) ? BRACKET_MARK : WORD_MARK)),
  );
  const form: TitleForm = { text: "", starts: new Set([0]), ends: new Set(), bracketed: new Set() };
  for (const char of marked) {
    if (char === WORD_MARK || char === BRACKET_MARK) {
      form.ends.add(form.text.length);
      form.starts.add(form.text.length);
      if (char === BRACKET_MARK) form.bracketed.add(form.text.length);
    } else form.text += char;
  }
  form.ends.add(form.text.length);
  return form;
}

/** The forms a series may be named in, in the order a number is taken from: title, English titles, reading. */
function titleFormsOf(game: GameTitles): TitleForm[] {
  return [game.title, ...game.titleEn, game.titleReading ?? ""].filter((form) => form !== "").map(titleForm);
}

// ---------------------------------------------------------------------------------------------
// Matching

const LATIN = /^[a-z0-9]+$/;
const DIGITS = /^\d+$/;

/** A series number: 1 to 99, or a year edition (ウイニングイレブン97 and '2000'); never a code like 2010 or 0. */
function isSeriesNumber(digits: string): boolean {
  const value = Number(digits);
  return !digits.startsWith("0") && (value <= 99 || (value >= 1980 && value <= 2009));
}

/** The highest number a collection lists (Wizardry I・II・III); a larger one is an edition ('97). */
const MAX_LISTED = 20;

/**
 * The number right after a series name ending at `at` (one space allowed, as in "Final Fantasy VI"),
 * read to the end of its word; the growing small numbers of the following words make a list
 * (ドラゴンクエストI・II -> 1・2), a year after them does not (実況パワフルプロ野球3 '97春 -> 3).
 */
function numberAfter(form: TitleForm, at: number): string | null {
  const nextWord = (from: number) => {
    let end = from + 1;
    while (end < form.text.length && !form.ends.has(end)) end += 1;
    return form.text.slice(from, end);
  };
  if (form.bracketed.has(at)) return null;
  const leading = /^\d+/.exec(nextWord(at))?.[0];
  if (leading === undefined || !isSeriesNumber(leading)) return null;
  const numbers = [leading];
  let next = at + leading.length;
  while (form.ends.has(next) && next < form.text.length) {
    const word = nextWord(next);
    if (!DIGITS.test(word) || Number(word) <= Number(numbers.at(-1)) || Number(word) > MAX_LISTED) break;
    numbers.push(word);
    next += word.length;
  }
  return numbers.join("・");
}

/** Where a series name occurs in a form; a Latin name only as whole words ("Contra" is not in "Contract"). */
function occurrences(form: TitleForm, name: string): number[] {
  const found: number[] = [];
  for (let at = form.text.indexOf(name); at !== -1; at = form.text.indexOf(name, at + 1)) {
    const end = at + name.length;
    const wholeWords = form.starts.has(at) && (form.ends.has(end) || /\d/.test(form.text[end] ?? ""));
    if (!LATIN.test(name) || wholeWords) found.push(at);
  }
  return found;
}

const appliesTo = (row: NicknameRow, game: GameTitles) => row.platforms.length === 0 || row.platforms.includes(game.platformKey);

/**
 * The series numbers a matching series row gives the game, or null when the row does not match.
 * They come from the first form that has one after the name: the title before English titles, so
 * an overseas renumbering (Final Fantasy III for the Japanese VI) is not read; but a title that
 * names the series without its number (`Super Bomber Man 2 スーパーボンバーマン`) lets the next form
 * speak. The reading (the last form) speaks only when no title names the series: derived from
 * the titles, it may put a number in the wrong place.
 */
function seriesNumbers(row: NicknameRow, forms: TitleForm[], allForms: string, hasReading: boolean): string[] | null {
  const name = row.match[0]!;
  if (!allForms.includes(name) || row.exclude.some((word) => allForms.includes(word))) return null;
  let matched = false;
  for (const [index, form] of forms.entries()) {
    const isReading = hasReading && index === forms.length - 1;
    const at = occurrences(form, name);
    if (isReading && matched) break;
    matched ||= at.length > 0;
    const numbers = at.map((start) => numberAfter(form, start + name.length)).filter((number) => number !== null);
    if (numbers.length > 0) return [...new Set(numbers)];
  }
  return matched ? [] : null;
}

type RowMatch = { row: NicknameRow; aliases: string[] };

/**
 * A game's nickname aliases: deduplicated by search form, without those its titles already contain
 * (they would find nothing more), at most MAX_ALIASES, in the table's order (game rows first).
 */
export function nicknamesOf(rows: readonly NicknameRow[], game: GameTitles): string[] {
  return matchGame(rows, game).aliases;
}

/** The rows that match the game, each with the aliases it gives, and the game's aliases. */
function matchGame(rows: readonly NicknameRow[], game: GameTitles): { matches: RowMatch[]; aliases: string[] } {
  const forms = titleFormsOf(game);
  const hasReading = game.titleReading !== null && game.titleReading !== "";
  // A game row names titles, not readings.
  const titles = new Set(forms.slice(0, hasReading ? -1 : undefined).map((form) => form.text));
  const allForms = forms.map((form) => form.text).join("\n");
  const matches: RowMatch[] = [];
  for (const row of rows) {
    if (row.kind === "game" && appliesTo(row, game) && row.match.some((title) => titles.has(title))) {
      matches.push({ row, aliases: row.nicknames });
    }
  }
  for (const row of rows) {
    if (row.kind !== "series" || !appliesTo(row, game)) continue;
    const numbers = seriesNumbers(row, forms, allForms, hasReading);
    if (numbers !== null)
      matches.push({ row, aliases: row.nicknames.flatMap((nickname) => [...numbers.map((n) => nickname + n), nickname]) });
  }
  const seen = new Set<string>();
  const aliases: string[] = [];
  for (const alias of matches.flatMap((match) => match.aliases)) {
    const key = normalizeSearchText(alias);
    if (seen.has(key) || allForms.includes(key)) continue;
    seen.add(key);
    aliases.push(alias);
  }
  return { matches, aliases: aliases.slice(0, MAX_ALIASES) };
}

// ---------------------------------------------------------------------------------------------
// Coverage over the seed catalog

/** The seed catalog's games (games.ndjson) with their platform keys from the id ledger. */
export function seedGameTitles(gamesNdjson: string, idLedgerText: string): Array<GameTitles & { gameId: number }> {
  const platformKeyOf = new Map([...parseIdLedger(idLedgerText).platform].map(([key, id]) => [id, key]));
  return gamesNdjson
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const game = JSON.parse(line) as {
        gameId: number;
        title: string;
        titleEn: string[];
        titleReading: string | null;
        platformId: number;
      };
      const platformKey = platformKeyOf.get(game.platformId);
      if (platformKey === undefined) throw new Error(`game ${game.gameId}: platform ${game.platformId} is not in the id ledger`);
      return { gameId: game.gameId, title: game.title, titleEn: game.titleEn, titleReading: game.titleReading, platformKey };
    });
}

export interface NicknameCoverage {
  games: number;
  gamesWithNickname: number;
  /** Per platform key: its games, how many get a nickname, how many rows match one of its games. */
  platforms: Record<string, { games: number; gamesWithNickname: number; rows: number }>;
  /** Rows that match no game. */
  deadRows: NicknameRow[];
}

export function nicknameCoverage(rows: readonly NicknameRow[], games: readonly GameTitles[]): NicknameCoverage {
  const platforms: NicknameCoverage["platforms"] = {};
  const rowsByPlatform = new Map<string, Set<NicknameRow>>();
  let gamesWithNickname = 0;
  for (const game of games) {
    const { matches, aliases } = matchGame(rows, game);
    const platform = platforms[game.platformKey] ?? { games: 0, gamesWithNickname: 0, rows: 0 };
    const platformRows = rowsByPlatform.get(game.platformKey) ?? new Set();
    platform.games += 1;
    if (aliases.length > 0) {
      platform.gamesWithNickname += 1;
      gamesWithNickname += 1;
    }
    for (const match of matches) platformRows.add(match.row);
    platforms[game.platformKey] = platform;
    rowsByPlatform.set(game.platformKey, platformRows);
  }
  for (const [key, matched] of rowsByPlatform) platforms[key]!.rows = matched.size;
  const liveRows = new Set([...rowsByPlatform.values()].flatMap((matched) => [...matched]));
  return { games: games.length, gamesWithNickname, platforms, deadRows: rows.filter((row) => !liveRows.has(row)) };
}
