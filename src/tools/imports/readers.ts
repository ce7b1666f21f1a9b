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
const BYTE_ORDER_MARK = new Set([0xef, 0xbb, 0xbf]);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The pieces as one array of bytes. */
function joined(pieces: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

/** How a captured value took a byte: it goes on, it ended with this byte, or it ended before it (a scalar's end byte is not part of it). */
type Scanned = "more" | "endedAfter" | "endedBefore";

/** One JSON value being captured byte by byte: its bytes so far and where the scan is inside it. */
class CapturedValue {
  private readonly pieces: Uint8Array[] = [];
  private depth: number;
  private inString: boolean;
  private escaped = false;
  /** A number, true, false or null: it ends at the first byte that is none of its own. */
  readonly scalar: boolean;

  /** `first` is the value's first byte, at `start` in the current chunk. */
  constructor(
    first: number,
    private start: number,
  ) {
    this.scalar = !(first === QUOTE || first === OPEN_OBJECT || first === OPEN_ARRAY);
    this.inString = first === QUOTE;
    this.depth = this.scalar || this.inString ? 0 : 1;
  }

  /** Feeds one byte after the first. */
  scan(byte: number): Scanned {
    if (this.scalar) return byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || WS.has(byte) ? "endedBefore" : "more";
    if (this.inString) return this.scanInString(byte);
    if (byte === QUOTE) this.inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      this.depth--;
      if (this.depth === 0) return "endedAfter";
    }
    return "more";
  }

  private scanInString(byte: number): Scanned {
    if (this.escaped) this.escaped = false;
    else if (byte === BACKSLASH) this.escaped = true;
    else if (byte === QUOTE) {
      this.inString = false;
      if (this.depth === 0) return "endedAfter";
    }
    return "more";
  }

  /** Keeps the value's bytes of this chunk up to `end` (exclusive). */
  keep(chunk: Uint8Array, end: number) {
    this.pieces.push(chunk.subarray(this.start, end));
  }

  /** Keeps the rest of the chunk (copied: the chunk's buffer may be reused), the value going on in the next one. */
  keepRest(chunk: Uint8Array) {
    this.pieces.push(chunk.slice(this.start));
    this.start = 0;
  }

  bytes(): Uint8Array {
    return joined(this.pieces);
  }
}

/** Where the reader is in the file's object. */
type Place = "start" | "key" | "colon" | "value" | "rowsStart" | "row" | "afterRow" | "afterValue" | "done";

/** Reads an exportMyData JSON file a byte at a time (see exportFileEvents). */
class ExportFileReader {
  private place: Place = "start";
  private key = "";
  private rowNumber = 0;
  /** The value being captured, if any. */
  private value: CapturedValue | null = null;
  /** The offset of the byte being read, for the messages. */
  private offset = 0;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

  /** The file's events, as its chunks arrive (see exportFileEvents). */
  async *events(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ExportFileEvent> {
    for await (const chunk of chunks) {
      for (let i = 0; i < chunk.length; i++, this.offset++) {
        const scanned = this.value ? this.value.scan(chunk[i]!) : "outside";
        if (scanned === "more") continue;
        if (scanned !== "outside") {
          this.value!.keep(chunk, scanned === "endedAfter" ? i + 1 : i);
          const event = this.valueEnded();
          if (event) yield event;
          // A scalar ends at the byte after it: that byte is then read in the new place.
          if (scanned === "endedAfter") continue;
        }
        this.structural(chunk[i]!, i);
      }
      this.value?.keepRest(chunk);
    }
    // A scalar header value may end with the file.
    if (this.value?.scalar && this.place === "value") yield this.valueEnded()!;
    if (this.place !== "done") this.fail("the file ends early");
  }

  /** The captured value, parsed: the key it was, or the header or row event it makes. */
  private valueEnded(): ExportFileEvent | undefined {
    const value = this.parse(this.value!.bytes());
    this.value = null;
    if (this.place === "key") {
      if (typeof value !== "string") this.fail("expected a key");
      this.key = value as string;
      this.place = "colon";
      return undefined;
    }
    if (this.place === "value") {
      this.place = "afterValue";
      return { kind: "header", key: this.key, value };
    }
    this.place = "afterRow";
    return { kind: "row", row: this.rowNumber, value };
  }

  private parse(bytes: Uint8Array): unknown {
    try {
      return JSON.parse(this.decoder.decode(bytes));
    } catch {
      return this.fail("is not valid JSON");
    }
  }

  /** A byte outside any value: what it must be depends on the place (white space aside). */
  private structural(byte: number, i: number) {
    if (WS.has(byte)) return;
    switch (this.place) {
      case "start":
        if (BYTE_ORDER_MARK.has(byte)) return;
        this.expect(byte === OPEN_OBJECT, "the file must be one JSON object {dataset, format, exportedAt, columns, rows}");
        this.place = "key";
        return;
      case "key":
        if (byte === CLOSE_OBJECT) return this.goTo("done");
        this.expect(byte === QUOTE, "expected a key");
        return this.capture(byte, i);
      case "colon":
        this.expect(byte === COLON, "expected ':'");
        return this.goTo(this.key === "rows" ? "rowsStart" : "value");
      case "value":
        return this.capture(byte, i);
      case "rowsStart":
        this.expect(byte === OPEN_ARRAY, "rows must be an array");
        this.rowNumber = 1;
        return this.goTo("row");
      case "row":
        return this.rowStart(byte, i);
      case "afterRow":
        return this.afterRow(byte);
      case "afterValue":
        if (byte === COMMA) return this.goTo("key");
        this.expect(byte === CLOSE_OBJECT, "expected ',' or '}'");
        return this.goTo("done");
      case "done":
        this.fail("unexpected content after the end of the file's object");
    }
  }

  /** The first byte of a row, or the end of an empty rows array. */
  private rowStart(byte: number, i: number) {
    if (byte === CLOSE_ARRAY && this.rowNumber === 1) {
      this.rowNumber = 0;
      return this.goTo("afterValue");
    }
    this.capture(byte, i);
  }

  private afterRow(byte: number) {
    if (byte === COMMA) {
      this.rowNumber++;
      return this.goTo("row");
    }
    this.expect(byte === CLOSE_ARRAY, "expected ',' or ']' after a row");
    this.goTo("afterValue");
  }

  private goTo(place: Place) {
    this.place = place;
  }

  private capture(first: number, i: number) {
    this.value = new CapturedValue(first, i);
  }

  private expect(holds: boolean, message: string) {
    if (!holds) this.fail(message);
  }

  /** A syntax error: 400 naming the row it occurred in (within the rows), and the byte. */
  private fail(message: string): never {
    const inRows = this.place === "row" || this.place === "afterRow" || this.place === "rowsStart";
    throw malformed(inRows ? Math.max(this.rowNumber, 1) : null, null, `${message} (byte ${this.offset}).`);
  }
}

/**
 * Reads an exportMyData JSON file, `{dataset, format, exportedAt, columns, rows: [...]}`, as a
 * stream of bytes: every top-level key but `rows` is parsed whole (they are small), and `rows` is
 * yielded one element at a time. Structural characters are ASCII, so scanning bytes is exact in
 * UTF-8. A syntax error is a 400 naming the row it occurred in.
 */
export async function* exportFileEvents(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ExportFileEvent> {
  yield* new ExportFileReader().events(chunks);
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

type ParsedRecord = { record: string[]; info: { lines: number } };

/** The records parsed so far, in order, as csvRecords yields them. */
function* drained(queue: ParsedRecord[]) {
  while (queue.length > 0) {
    const item = queue.shift()!;
    yield { cells: item.record, line: item.info.lines };
  }
}

/** One chunk of the file as text (a character split across chunks waits for the next one). */
function textOf(decoder: TextDecoder, chunk: Uint8Array) {
  try {
    return decoder.decode(chunk, { stream: true });
  } catch {
    throw malformed(null, "file", "the file is not UTF-8 text.");
  }
}

/** CSV records (arrays of cells) with their line number, parsed by csv-parse as text arrives. */
export async function* csvRecords(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<{ cells: string[]; line: number }> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const parser = csvParser({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const queue: ParsedRecord[] = [];
  let error: (Error & { lines?: number }) | null = null;
  let ended = false;
  parser.on("data", (item: ParsedRecord) => queue.push(item));
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
  for await (const chunk of chunks) {
    parser.write(textOf(decoder, chunk));
    await tick();
    if (error) throw failed();
    yield* drained(queue);
  }
  parser.end();
  while (!ended && !error) await tick();
  if (error) throw failed();
  yield* drained(queue);
}

/**
 * The complete lines of NDJSON bytes read from byte `startOffset` of a file, each with the offset
 * just after it. A last line without its newline is not yielded: the next read starts there.
 */
export function* ndjsonLines(bytes: Uint8Array, startOffset: number): Generator<{ value: unknown; end: number }> {
  const decoder = new TextDecoder();
  let from = 0;
  for (let newline = bytes.indexOf(0x0a); newline !== -1; newline = bytes.indexOf(0x0a, from)) {
    yield { value: JSON.parse(decoder.decode(bytes.subarray(from, newline))), end: startOffset + newline + 1 };
    from = newline + 1;
  }
}
