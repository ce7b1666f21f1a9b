// Master data rows as the operator import reads them and exportMasterData writes them. The
// shapes are the service's own schemas (src/tools/games/masterRows.ts), so a generated file can
// never drift from what the import accepts.
export type { CompanyRow, EditionRow, GameRow, GenreRow, PlatformRow } from "../../src/tools/games/masterRows";

/** One JSON object per line, each line ending in a newline. */
export function toNdjson(rows: object[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
}

/** The same text as toNdjson, in chunks of `rowsPerChunk` rows, so a large dataset is never one string. */
export function* toNdjsonChunks(rows: Iterable<object>, rowsPerChunk = 1000): Generator<string> {
  let chunk = "";
  let rowsInChunk = 0;
  for (const row of rows) {
    chunk += `${JSON.stringify(row)}\n`;
    rowsInChunk += 1;
    if (rowsInChunk === rowsPerChunk) {
      yield chunk;
      chunk = "";
      rowsInChunk = 0;
    }
  }
  if (chunk !== "") yield chunk;
}
