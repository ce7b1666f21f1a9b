import { stringify } from "csv-stringify/browser/esm/sync";
import type { ExportFormat, ExportRow } from "./exportSource";

/**
 * The export file formats. A writer turns an export into text one page at a time (head, pages,
 * tail), so a file of any size is written without ever being held whole.
 *
 * - csv: RFC 4180 (CRLF line ends; a cell holding a comma, quote, CR or LF is quoted, quotes
 *   doubled), UTF-8 with a byte order mark (so spreadsheet programs read Japanese correctly), a
 *   header row of the columns, then one row per record. See csvCell for how values are written and
 *   csvText / csvListItems for how the import reads them back.
 * - json: one object `{dataset, format, exportedAt, columns, rows: [...]}`, every row an object
 *   with every column (null when empty), one row per line.
 * - ndjson: one JSON object per line (LF), exactly as the source gives it (master data rows).
 *
 * csv-stringify is imported through its browser build: its Node build uses Buffer at load time,
 * which workerd lacks without nodejs_compat.
 */
export interface FormatWriter {
  readonly contentType: string;
  readonly extension: string;
  /** Text before the first row. */
  head(): string;
  /** Text of the next page of rows. */
  page(rows: readonly ExportRow[]): string;
  /** Text after the last row. */
  tail(): string;
}

export interface ExportFileMeta {
  dataset: string;
  columns: readonly string[];
  exportedAt: string;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
  ndjson: "application/x-ndjson",
};

/** Joins the items of an array of plain values in one CSV cell. */
export const CSV_LIST_SEPARATOR = " | ";

const isPlainValue = (value: unknown) => typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/**
 * A text cell a spreadsheet would run as a formula: it starts with =, +, -, @, a tab or a CR, maybe
 * after quotes (so that a text which itself starts with a quote before one of them reads back
 * exactly, see csvText).
 */
const FORMULA_CHARS = "[=+\\-@\\t\\r]";
const FORMULA_START = new RegExp(`^'*${FORMULA_CHARS}`);
/** The quote csvCell put before such a cell. */
const NEUTRALISING_QUOTE = new RegExp(`^'(?='*${FORMULA_CHARS})`);

/** OWASP's CSV injection defence: such a cell gets a leading quote, which spreadsheets show as text. */
const neutralised = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** A list item with its backslashes and pipes escaped, so no label can pass for the separator. */
const listItem = (value: string | number | boolean) => String(value).replace(/[\\|]/g, (char) => `\\${char}`);

/**
 * One value as CSV cell text: null (or missing) is an empty cell; numbers and true/false are
 * written as they are (a negative number stays a number: spreadsheets never run it); text is
 * neutralised (see FORMULA_START); an array of plain values is its items, `\` and `|` escaped with
 * a backslash, joined by " | " and neutralised like text (an empty array is an empty cell); any
 * other array or object is its compact JSON text.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return neutralised(value);
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every(isPlainValue)) return neutralised(value.map(listItem).join(CSV_LIST_SEPARATOR));
  return JSON.stringify(value);
}

/** The text a text cell holds: null for an empty cell, else without the quote csvCell put before a formula. */
export function csvText(cell: string): string | null {
  return cell === "" ? null : cell.replace(NEUTRALISING_QUOTE, "");
}

/** The items of a list cell, as csvCell joined them (an empty cell is an empty list). */
export function csvListItems(cell: string): string[] {
  const text = csvText(cell);
  if (text === null) return [];
  const items: string[] = [];
  let item = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "\\" && i + 1 < text.length) item += text[++i];
    else if (text.startsWith(CSV_LIST_SEPARATOR, i)) {
      items.push(item);
      item = "";
      i += CSV_LIST_SEPARATOR.length - 1;
    } else item += char;
  }
  items.push(item);
  return items;
}

// quote_record_delimiter: a cell with a lone CR or LF is quoted too (csv-stringify only quotes the
// record delimiter itself, CRLF, once a record_delimiter is set).
const csvLines = (records: string[][]) => stringify(records, { record_delimiter: "windows", quote_record_delimiter: true, eof: true });

function csvWriter(meta: ExportFileMeta): FormatWriter {
  return {
    contentType: CONTENT_TYPES.csv,
    extension: "csv",
    head: () => `\uFEFF${csvLines([[...meta.columns]])}`,
    page: (rows) => (rows.length === 0 ? "" : csvLines(rows.map((row) => meta.columns.map((column) => csvCell(row[column]))))),
    tail: () => "",
  };
}

/** Every column in order, null when the row has no value for it. */
const inColumns = (row: ExportRow, columns: readonly string[]) =>
  Object.fromEntries(columns.map((column) => [column, row[column] ?? null]));

function jsonWriter(meta: ExportFileMeta): FormatWriter {
  let written = 0;
  return {
    contentType: CONTENT_TYPES.json,
    extension: "json",
    head: () => {
      const header = JSON.stringify({ dataset: meta.dataset, format: "json", exportedAt: meta.exportedAt, columns: meta.columns });
      return `${header.slice(0, -1)},"rows":[`;
    },
    page: (rows) => rows.map((row) => `${written++ === 0 ? "" : ","}\n${JSON.stringify(inColumns(row, meta.columns))}`).join(""),
    tail: () => "\n]}\n",
  };
}

function ndjsonWriter(): FormatWriter {
  return {
    contentType: CONTENT_TYPES.ndjson,
    extension: "ndjson",
    head: () => "",
    page: (rows) => rows.map((row) => `${JSON.stringify(row)}\n`).join(""),
    tail: () => "",
  };
}

export function formatWriter(format: ExportFormat, meta: ExportFileMeta): FormatWriter {
  switch (format) {
    case "csv":
      return csvWriter(meta);
    case "json":
      return jsonWriter(meta);
    case "ndjson":
      return ndjsonWriter();
  }
}
