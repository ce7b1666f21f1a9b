import { malformed } from "./readers";
import { type TrackerRow, trackerRowSchema } from "./rows";

/**
 * Tracker CSVs, mapped onto one row shape (TrackerRow). Each source names the columns it needs
 * (a header without them is a 400) and how its statuses map onto play statuses; every other
 * column is ignored. docs/exports-and-imports.md (Imports) mirrors these tables.
 */
export const TRACKER_SOURCES = ["generic", "grouvee", "yamtrack"] as const;
export type TrackerSource = (typeof TRACKER_SOURCES)[number];

/** Grouvee shelves, by name (case-insensitive), first match in this order wins. */
export const GROUVEE_SHELVES: [shelf: string, status: TrackerRow["status"]][] = [
  ["playing", "PLAYING"],
  ["nightstand", "PLAYING"],
  ["played", "COMPLETED"],
  ["backlog", "PLANNED"],
  ["wish list", "WISHLIST"],
];

/**
 * Grouvee's names of the platforms in the master data (seed/master/platforms.ndjson): Grouvee
 * writes the American ones (GiantBomb's, with their "Sega ..." variants), the master data the
 * Japanese ones. Each maps to the master data's English name (nameEn), which the matching knows.
 */
export const GROUVEE_PLATFORMS: readonly [nameEn: string, grouveeNames: readonly string[]][] = [
  ["Family Computer", ["Nintendo Entertainment System", "Famicom", "Family Computer"]],
  ["Super Famicom", ["Super Nintendo Entertainment System", "Super Famicom"]],
  ["Mega Drive", ["Genesis", "Sega Genesis", "Sega Mega Drive", "Mega Drive"]],
  ["PC Engine", ["TurboGrafx-16", "PC Engine"]],
  ["Game Boy", ["Game Boy"]],
  ["PlayStation", ["PlayStation"]],
  ["Sega Saturn", ["Saturn", "Sega Saturn"]],
  ["Nintendo 64", ["Nintendo 64"]],
  ["Game Boy Advance", ["Game Boy Advance"]],
  ["Game Gear", ["Game Gear", "Sega Game Gear"]],
];

const GROUVEE_PLATFORM_NAMES = new Map(
  GROUVEE_PLATFORMS.flatMap(([nameEn, names]) => names.map((name) => [name.toLowerCase(), nameEn] as const)),
);

/** The row's platform: the first of Grouvee's that the master data has, as its English name; else Grouvee's first. */
function grouveePlatform(names: string[]): string | null {
  for (const name of names) {
    const known = GROUVEE_PLATFORM_NAMES.get(name.trim().toLowerCase());
    if (known !== undefined) return known;
  }
  return names[0] ?? null;
}

/** Yamtrack statuses (media_type game only). */
export const YAMTRACK_STATUSES: Record<string, TrackerRow["status"]> = {
  completed: "COMPLETED",
  "in progress": "PLAYING",
  planning: "PLANNED",
  paused: "PAUSED",
  dropped: "DROPPED",
};

const REQUIRED: Record<TrackerSource, readonly string[]> = {
  generic: ["title"],
  grouvee: ["name", "shelves"],
  yamtrack: ["media_type", "title", "status"],
};

type Cells = Record<string, string>;
type Mapped = { values: Record<keyof TrackerRow, unknown>; columnOf: Partial<Record<keyof TrackerRow, string>> } | { skip: string };

const blank = (value: string | undefined) => (value === undefined || value.trim() === "" ? null : value.trim());
const dateOf = (value: string | undefined) => {
  const text = blank(value);
  if (text === null) return null;
  const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})/.exec(text);
  return match ? `${match[1]}-${match[2]!.padStart(2, "0")}-${match[3]!.padStart(2, "0")}` : text;
};
const numberOf = (value: string | undefined) => {
  const text = blank(value);
  if (text === null) return null;
  const n = Number(text.replace(/[,¥￥]/g, ""));
  return Number.isFinite(n) ? n : text;
};

/** Keys of a JSON object cell (Grouvee writes shelves and platforms as {"name": {...}}), else a comma list. */
function namesIn(value: string | undefined): string[] {
  const text = blank(value);
  if (text === null) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return Object.keys(parsed);
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // not JSON: a plain list
  }
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The first dates entry of a Grouvee row ({"date_started", "date_finished"}). */
function grouveeDates(value: string | undefined): { start: string | null; end: string | null } {
  const text = blank(value);
  if (text === null) return { start: null, end: null };
  try {
    const parsed = JSON.parse(text) as { date_started?: string | null; date_finished?: string | null }[];
    const first = Array.isArray(parsed) ? parsed[0] : undefined;
    return { start: dateOf(first?.date_started ?? undefined), end: dateOf(first?.date_finished ?? undefined) };
  } catch {
    return { start: null, end: null };
  }
}

const MAPPERS: Record<TrackerSource, (c: Cells) => Mapped> = {
  generic: (c) => ({
    values: {
      title: blank(c.title),
      platform: blank(c.platform),
      janCode: blank(c.janCode),
      modelNumber: blank(c.modelNumber),
      buyDate: dateOf(c.buyDate),
      buyPrice: numberOf(c.buyPrice),
      buyPlace: blank(c.buyPlace),
      status: blank(c.status)?.toUpperCase() ?? null,
      playStartDate: dateOf(c.playStartDate),
      playEndDate: dateOf(c.playEndDate),
      rating: numberOf(c.rating),
      memo: blank(c.memo),
    },
    columnOf: {},
  }),
  grouvee: (c) => {
    const shelves = namesIn(c.shelves).map((s) => s.toLowerCase());
    const status = GROUVEE_SHELVES.find(([shelf]) => shelves.includes(shelf))?.[1] ?? null;
    const dates = grouveeDates(c.dates);
    const rating = numberOf(c.rating);
    return {
      values: {
        title: blank(c.name),
        platform: grouveePlatform(namesIn(c.platforms)),
        janCode: null,
        modelNumber: null,
        buyDate: null,
        buyPrice: null,
        buyPlace: null,
        status,
        playStartDate: dates.start,
        playEndDate: dates.end,
        rating: rating === 0 ? null : rating,
        memo: blank(c.review),
      },
      columnOf: { title: "name", platform: "platforms", status: "shelves", playStartDate: "dates", playEndDate: "dates", memo: "review" },
    };
  },
  yamtrack: (c) => {
    if ((blank(c.media_type) ?? "").toLowerCase() !== "game") return { skip: `media_type '${c.media_type ?? ""}' is not a game` };
    const label = (blank(c.status) ?? "").toLowerCase();
    const score = numberOf(c.score);
    return {
      values: {
        title: blank(c.title),
        platform: null,
        janCode: null,
        modelNumber: null,
        buyDate: null,
        buyPrice: null,
        buyPlace: null,
        status: label === "" ? null : (YAMTRACK_STATUSES[label] ?? label),
        playStartDate: dateOf(c.start_date),
        playEndDate: dateOf(c.end_date),
        // Yamtrack scores 0-10; ratings here are 1-5.
        rating: typeof score === "number" ? (score <= 0 ? null : Math.min(5, Math.max(1, Math.round(score / 2)))) : score,
        memo: blank(c.notes),
      },
      columnOf: { rating: "score", memo: "notes", playStartDate: "start_date", playEndDate: "end_date" },
    };
  },
};

/** Checks a tracker file's header; answers the index of each column by name. */
export function trackerHeader(source: TrackerSource, cells: string[]): string[] {
  const names = cells.map((cell) => cell.replace(/^\uFEFF/, "").trim());
  const missing = REQUIRED[source].filter((name) => !names.includes(name));
  if (missing.length > 0)
    throw malformed(null, missing[0]!, `the ${source} CSV header lacks the column '${missing[0]}' (header: ${names.join(", ")}).`);
  return names;
}

/** One CSV record as a TrackerRow, or a reason to skip it; a bad value is a 400 naming row and column. */
export function trackerRow(source: TrackerSource, header: string[], cells: string[], row: number): TrackerRow | { skip: string } {
  const byName: Cells = Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ""]));
  const mapped = MAPPERS[source](byName);
  if ("skip" in mapped) return mapped;
  if (mapped.values.title === null && mapped.values.janCode === null && mapped.values.modelNumber === null) {
    throw malformed(row, mapped.columnOf.title ?? "title", "a row needs a title, janCode or modelNumber to find its game.");
  }
  const parsed = trackerRowSchema.safeParse(mapped.values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0]) as keyof TrackerRow;
  throw malformed(row, mapped.columnOf[field] ?? field, `${issue.message} (got '${String(mapped.values[field])}').`);
}
