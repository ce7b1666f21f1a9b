import { parse as csvParser } from "csv-parse/browser/esm";
import { invalidInput } from "../../platform/errors";

/**
 * Streaming readers of uploaded files: they take the body a chunk at a time and yield rows as soon
 * as each is complete, so a file of any size is read in the memory of one row (plus one chunk).
 */

/** A malformed file: 400 naming the row (1-based) and, when known, the column. */
export const malformed = (row: number | null, column: string | null, message: string) =>
  invalidInput(
    row === null ? (column ?? "file") : `rows[${row}]${column ? `.${column}` : ""}`,
    `${row === null ? "" : `row ${row}${column ? `, column ${column}` : ""}: `}${message}`,
  );

export type ExportFileEvent = { kind: "header"; key: string; value: unknown } | { kind: "row"; row: number; value: unknown };

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Reads an exportMyData JSON file, `{dataset, format, exportedAt, columns, rows: [...]}`, as a
 * stream of bytes: every top-level key but `rows` is parsed whole (they are small), and `rows` is
 * yielded one element at a time. Structural characters are ASCII, so scanning bytes is exact in
 * UTF-8. A syntax error is a 400 naming the row it occurred in.
 */
export async function* exportFileEvents(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ExportFileEvent> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  type State = "start" | "key" | "colon" | "value" | "afterValue" | "rowsStart" | "row" | "afterRow" | "done";
  let state: State = "start";
  let key = "";
  let rowNumber = 0;
  // The value being captured: its bytes so far and the scanner's position inside it.
  let pieces: Uint8Array[] = [];
  let capturing = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let scalar = false;
  let offset = 0;
  const where = () => (state === "row" || state === "afterRow" || state === "rowsStart" ? Math.max(rowNumber, 1) : null);
  const fail = (message: string): never => {
    throw malformed(where(), null, `${message} (byte ${offset}).`);
  };
  const finishValue = (): unknown => {
    const total = pieces.reduce((n, p) => n + p.length, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const p of pieces) {
      bytes.set(p, at);
      at += p.length;
    }
    pieces = [];
    capturing = false;
    try {
      return JSON.parse(decoder.decode(bytes));
    } catch {
      return fail("is not valid JSON");
    }
  };
  const startValue = (byte: number) => {
    capturing = true;
    depth = 0;
    inString = false;
    escaped = false;
    scalar = !(byte === QUOTE || byte === 0x7b || byte === 0x5b);
  };
  /** Feeds one byte of a captured value; true when the value ended (a scalar's end byte is not part of it). */
  const scan = (byte: number): "more" | "endedAfter" | "endedBefore" => {
    if (scalar) return byte === 0x2c || byte === 0x7d || byte === 0x5d || WS.has(byte) ? "endedBefore" : "more";
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) {
        inString = false;
        if (depth === 0) return "endedAfter";
      }
      return "more";
    }
    if (byte === QUOTE) inString = true;
    else if (byte === 0x7b || byte === 0x5b) depth++;
    else if (byte === 0x7d || byte === 0x5d) {
      depth--;
      if (depth === 0) return "endedAfter";
    }
    return "more";
  };

  for await (const chunk of chunks) {
    let start = capturing ? 0 : -1;
    for (let i = 0; i < chunk.length; i++, offset++) {
      const byte = chunk[i]!;
      if (capturing) {
        const result = scan(byte);
        if (result === "more") continue;
        const end = result === "endedAfter" ? i + 1 : i;
        pieces.push(chunk.subarray(start, end));
        const value = finishValue();
        if (state === "key") {
          if (typeof value !== "string") fail("expected a key");
          key = value as string;
          state = "colon";
        } else if (state === "value") {
          yield { kind: "header", key, value };
          state = "afterValue";
        } else if (state === "row") {
          yield { kind: "row", row: rowNumber, value };
          state = "afterRow";
        }
        if (result === "endedAfter") continue;
        // A scalar ended at this byte: handle the byte itself in the new state.
      }
      if (WS.has(byte)) continue;
      switch (state) {
        case "start":
          if (byte === 0xef || byte === 0xbb || byte === 0xbf) continue; // a byte order mark
          if (byte !== 0x7b) fail("the file must be one JSON object {dataset, format, exportedAt, columns, rows}");
          state = "key";
          break;
        case "key":
          if (byte === 0x7d) {
            state = "done";
            break;
          }
          if (byte !== QUOTE) fail("expected a key");
          startValue(byte);
          inString = true;
          start = i;
          break;
        case "colon":
          if (byte !== 0x3a) fail("expected ':'");
          if (key === "rows") state = "rowsStart";
          else state = "value";
          break;
        case "value":
          startValue(byte);
          start = i;
          if (!scalar && byte === QUOTE) inString = true;
          if (!scalar && byte !== QUOTE) depth = 1;
          break;
        case "rowsStart":
          if (byte !== 0x5b) fail("rows must be an array");
          state = "afterRow";
          rowNumber = 0;
          // The first element (or the closing bracket) follows.
          state = "row";
          rowNumber = 1;
          break;
        case "row":
          if (byte === 0x5d && rowNumber === 1) {
            rowNumber = 0;
            state = "afterValue";
            break;
          }
          startValue(byte);
          start = i;
          if (!scalar && byte === QUOTE) inString = true;
          if (!scalar && byte !== QUOTE) depth = 1;
          break;
        case "afterRow":
          if (byte === 0x2c) {
            rowNumber++;
            state = "row";
          } else if (byte === 0x5d) state = "afterValue";
          else fail("expected ',' or ']' after a row");
          break;
        case "afterValue":
          if (byte === 0x2c) state = "key";
          else if (byte === 0x7d) state = "done";
          else fail("expected ',' or '}'");
          break;
        case "done":
          fail("unexpected content after the end of the file's object");
      }
    }
    if (capturing) pieces.push(chunk.slice(start));
  }
  if (capturing && scalar && state === "value") {
    const value = finishValue();
    yield { kind: "header", key, value };
    state = "afterValue";
  }
  if (state !== "done") fail("the file ends early");
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** CSV records (arrays of cells) with their line number, parsed by csv-parse as text arrives. */
export async function* csvRecords(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<{ cells: string[]; line: number }> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const parser = csvParser({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const queue: { record: string[]; info: { lines: number } }[] = [];
  let error: (Error & { lines?: number }) | null = null;
  let ended = false;
  parser.on("data", (item: { record: string[]; info: { lines: number } }) => queue.push(item));
  parser.on("error", (e: Error) => {
    error = e;
  });
  parser.on("end", () => {
    ended = true;
  });
  const failed = () => {
    const e = error as (Error & { lines?: number }) | null;
    return malformed(null, "file", `the CSV is malformed near line ${e?.lines ?? "?"}: ${e?.message ?? ""}`);
  };
  let text: string;
  for await (const chunk of chunks) {
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw malformed(null, "file", "the file is not UTF-8 text.");
    }
    parser.write(text);
    await tick();
    if (error) throw failed();
    while (queue.length > 0) {
      const item = queue.shift()!;
      yield { cells: item.record, line: item.info.lines };
    }
  }
  parser.end();
  while (!ended && !error) await tick();
  if (error) throw failed();
  while (queue.length > 0) {
    const item = queue.shift()!;
    yield { cells: item.record, line: item.info.lines };
  }
}

/** Lines of an NDJSON object stream from R2, with the byte offset just after each line. */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>, startOffset: number): AsyncGenerator<{ value: unknown; end: number }> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let offset = startOffset;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      let from = 0;
      for (let i = 0; i < value.length; i++) {
        if (value[i] !== 0x0a) continue;
        const part = value.subarray(from, i);
        const line = new Uint8Array(pendingBytes + part.length);
        let at = 0;
        for (const p of pending) {
          line.set(p, at);
          at += p.length;
        }
        line.set(part, at);
        offset += line.length + 1;
        pending = [];
        pendingBytes = 0;
        from = i + 1;
        yield { value: JSON.parse(decoder.decode(line)), end: offset };
      }
      if (from < value.length) {
        pending.push(value.slice(from));
        pendingBytes += value.length - from;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
