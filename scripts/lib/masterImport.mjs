// Sends an NDJSON master dataset to the operator import (`POST /admin/v1/master/{dataset}`) in
// requests of LINES_PER_REQUEST lines (fewer when they would pass the server's byte limit). Shared by `npm run admin -- master import`, the demo seed
// and the benchmarks. Errors name the line of the file, not the line within one request.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { adminFetch } from "./local.mjs";

/** Import order: games refer to the other three. */
export const MASTER_DATASETS = ["platforms", "companies", "genres", "games"];
export const LINES_PER_REQUEST = 2_000;
/** The operator API's limit on one import body, in bytes (MASTER_IMPORT_BYTES in src/admin/adminRoutes.ts). */
export const BYTES_PER_REQUEST = 8 * 1024 * 1024;

/**
 * The requests' line ranges [start, end): up to LINES_PER_REQUEST lines and BYTES_PER_REQUEST bytes
 * of body each. A line longer than that alone goes alone, for the server to refuse with its 413.
 */
export function requestRanges(lines) {
  const ranges = [];
  let start = 0;
  let bytes = 0;
  lines.forEach((line, index) => {
    const size = Buffer.byteLength(line) + 1;
    if (index > start && (index - start === LINES_PER_REQUEST || bytes + size > BYTES_PER_REQUEST)) {
      ranges.push([start, index]);
      start = index;
      bytes = 0;
    }
    bytes += size;
  });
  if (lines.length > start) ranges.push([start, lines.length]);
  return ranges;
}

/** The file's non-blank lines and, for each, its 1-based line number in the file; `name` for messages. */
export function readNdjsonLines(path) {
  return ndjsonLinesOf(readFileSync(path, "utf8"), basename(path));
}

/** The same for NDJSON text made in memory (rows merged before the import), named `name` in messages. */
export function ndjsonLinesOf(text, name) {
  const lines = [];
  const lineNumbers = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    lines.push(line);
    lineNumbers.push(index + 1);
  });
  return { lines, lineNumbers, name };
}

/**
 * The server's 400 names a line of the request body (`line`, and "line N: ..." in `message`);
 * this turns it into the line of the file, which is what the operator can open and fix.
 */
function inFileTerms(error, { name, lineNumbers, start, end }) {
  const requestLine = error.body?.line;
  if (!Number.isInteger(requestLine) || requestLine < 1 || requestLine > end - start) return error;
  const fileLine = lineNumbers[start + requestLine - 1];
  const problem = String(error.body.message ?? "").replace(/^line \d+: /, "");
  const imported =
    start === 0
      ? "Nothing was imported"
      : `The ${start.toLocaleString("en-US")} rows before line ${lineNumbers[start]} were imported by earlier requests; nothing from line ${lineNumbers[start]} on`;
  const message =
    `${name} line ${fileLine}: ${problem}\n` + `${imported}. The import is idempotent: fix the line and run the same command again.`;
  return Object.assign(new Error(message), {
    status: error.status,
    body: { ...error.body, line: fileLine, message: `line ${fileLine}: ${problem}` },
  });
}

/**
 * Imports `path` into `dataset`, LINES_PER_REQUEST non-blank lines per request (see requestRanges),
 * and answers the summed counts. `onProgress({dataset, done, total, elapsedMs})` is called before the first
 * request and after each one. Other options (e.g. `token`) go to adminFetch.
 */
export function importNdjsonFile(dataset, path, options = {}) {
  return importNdjsonLines(dataset, readNdjsonLines(path), options);
}

/** importNdjsonFile for lines already read (ndjsonLinesOf). */
export async function importNdjsonLines(dataset, { lines, lineNumbers, name }, { onProgress, ...fetchOptions } = {}) {
  const total = { dataset, received: 0, upserted: 0, unchanged: 0, generation: null };
  const startedAt = performance.now();
  onProgress?.({ dataset, done: 0, total: lines.length, elapsedMs: 0 });
  for (const [start, end] of requestRanges(lines)) {
    const body = `${lines.slice(start, end).join("\n")}\n`;
    let result;
    try {
      result = await adminFetch(`/master/${dataset}`, { method: "POST", body, contentType: "application/x-ndjson", ...fetchOptions });
    } catch (error) {
      throw inFileTerms(error, { name, lineNumbers, start, end });
    }
    total.received += result.received;
    total.upserted += result.upserted;
    total.unchanged += result.unchanged;
    total.generation = result.generation;
    onProgress?.({ dataset, done: end, total: lines.length, elapsedMs: performance.now() - startedAt });
  }
  return total;
}

/**
 * Imports a whole master folder (seed/master, or a converter's --out) in dataset order, its games
 * with the model numbers of the serials.ndjson beside them merged in: that file keeps its own
 * licence, so it stays apart until the import; likewise libretro-platforms.ndjson and
 * libretro-games.ndjson, imported after platforms.ndjson and games.ndjson where the folder has
 * them. Answers one importNdjsonLines result per dataset, its counts summed over its files.
 */
export async function importCatalog(dir, options = {}) {
  // tsx's loader only for the folder's TypeScript helpers: loaded at the top, it cost every start of
  // `npm run admin` (--help included) about 80 ms of CPU, half of what the CLI takes.
  const { tsImport } = await import("tsx/esm/api");
  const { gamesWithSerials } = await tsImport("./gamedatabase/serialsFiles.ts", import.meta.url);
  const { libretroRowsText } = await tsImport("./libretroDats/files.ts", import.meta.url);
  const results = [];
  for (const dataset of MASTER_DATASETS) {
    const lines =
      dataset === "games" ? ndjsonLinesOf(gamesWithSerials(dir), "games.ndjson") : readNdjsonLines(join(dir, `${dataset}.ndjson`));
    const result = await importNdjsonLines(dataset, lines, options);
    // The platforms and games converted from libretro's DATs (CC BY-SA) sit in files of their own.
    const extra = dataset === "platforms" || dataset === "games" ? libretroRowsText(dir, dataset) : "";
    if (extra !== "") addCounts(result, await importNdjsonLines(dataset, ndjsonLinesOf(extra, `libretro-${dataset}.ndjson`), options));
    results.push(result);
  }
  return results;
}

function addCounts(total, more) {
  total.received += more.received;
  total.upserted += more.upserted;
  total.unchanged += more.unchanged;
  total.generation = more.generation;
}
