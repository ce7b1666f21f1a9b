import type { z } from "zod";
import { csvListItems, csvText } from "../../platform/exportFormats";
import { USER_DATASETS } from "../datasets";
import { csvRecords, type ExportFileEvent, exportFileEvents, malformed } from "./readers";

/**
 * exportMyData's CSV files, read back into the rows its JSON files hold, so either form restores
 * (src/platform/exportFormats.ts writes both). The header row names the dataset: it is exactly the
 * columns of one dataset (in any order). Each cell is read by what the dataset's row schema expects
 * of its column: a number, true/false, text (without the quote the export put before a formula), a
 * list of plain values (" | ", backslash escapes) or JSON text; an empty cell is null (an empty list
 * for a list). Columns the import does not read are ignored, as in JSON files.
 */

type CellKind = "text" | "number" | "boolean" | "textList" | "numberList" | "json";

/** The zod definition fields that say what a schema wraps. */
type SchemaDef = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType };

/** What a row schema's column holds, under its optional, nullable and transform wrappers. */
function kindOf(schema: z.ZodType): CellKind {
  const def = schema._zod.def as unknown as SchemaDef;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
      return kindOf(def.innerType!);
    case "pipe":
      return kindOf(def.in!);
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array": {
      const item = kindOf(def.element!);
      return item === "number" ? "numberList" : item === "text" ? "textList" : "json";
    }
    case "object":
      return "json";
    default:
      return "text";
  }
}

/** A number cell's number; text that is none stays text, so the row's validation names the column. */
const numberOf = (cell: string) => (cell.trim() !== "" && Number.isFinite(Number(cell)) ? Number(cell) : cell);

const CELL_READERS: Record<CellKind, (cell: string) => unknown> = {
  text: csvText,
  number: (cell) => (cell === "" ? null : numberOf(cell)),
  boolean: (cell) => (cell === "" ? null : cell === "true" ? true : cell === "false" ? false : cell),
  textList: csvListItems,
  numberList: (cell) => csvListItems(cell).map(numberOf),
  json: (cell) => {
    if (cell === "") return null;
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      return cell;
    }
  },
};

/** The dataset whose columns the header holds, and how to read each column it restores. */
function datasetOfHeader(header: string[]): { dataset: string; kinds: Map<string, CellKind> } {
  const names = new Set(header);
  const dataset = Object.values(USER_DATASETS).find(({ export: { columns } }) => {
    return columns.length === names.size && columns.every((column) => names.has(column));
  });
  if (dataset === undefined) {
    throw malformed(null, "file", `the CSV header is not the header of an exportMyData file (header: ${header.join(", ")}).`);
  }
  const shape = dataset.rowSchema.shape as Record<string, z.ZodType>;
  return { dataset: dataset.export.name, kinds: new Map(Object.entries(shape).map(([column, schema]) => [column, kindOf(schema)])) };
}

/** An exportMyData CSV file as the events of its JSON form: the dataset, then each row as an object. */
async function* exportCsvEvents(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ExportFileEvent> {
  let header: string[] | null = null;
  let kinds = new Map<string, CellKind>();
  let row = 0;
  for await (const { cells } of csvRecords(chunks)) {
    if (header === null) {
      header = cells.map((cell) => cell.trim());
      const found = datasetOfHeader(header);
      kinds = found.kinds;
      yield { kind: "header", key: "dataset", value: found.dataset };
      continue;
    }
    row++;
    const value: Record<string, unknown> = {};
    for (const [i, column] of header.entries()) {
      const kind = kinds.get(column);
      if (kind !== undefined) value[column] = CELL_READERS[kind](cells[i] ?? "");
    }
    yield { kind: "row", row, value };
  }
}

const BOM_AND_SPACE = new Set([0xef, 0xbb, 0xbf, 0x20, 0x09, 0x0a, 0x0d]);

/**
 * An exportMyData file in either form, told apart by its first character: `{` is the JSON form,
 * anything else the CSV form.
 */
export async function* exportFileEventsOfAnyFormat(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ExportFileEvent> {
  const iterator = chunks[Symbol.asyncIterator]();
  const read: Uint8Array[] = [];
  let first: number | undefined;
  while (first === undefined) {
    const next = await iterator.next();
    if (next.done) break;
    read.push(next.value);
    first = next.value.find((byte) => !BOM_AND_SPACE.has(byte));
  }
  async function* whole(): AsyncGenerator<Uint8Array> {
    try {
      yield* read;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  yield* first === 0x7b ? exportFileEvents(whole()) : exportCsvEvents(whole());
}
