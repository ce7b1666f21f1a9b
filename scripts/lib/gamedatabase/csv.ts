// One PigSaint GameDataBase CSV (one platform's file) read into rows with their cells resolved.
import { parse as parseCsv } from "csv-parse/browser/esm/sync";
import { parseTags, type Tag } from "./tags";

export interface SourceRow {
  /** The CSV file (`console_nintendo_superfamicom_snes.csv`) and the row's line in it, for messages. */
  file: string;
  line: number;
  /** `Title`: the romanisation. */
  title: string;
  /** `Title (exact)`: as printed on the box, in its own script. */
  titleExact: string;
  /** `Title screen`: the in-game title, romanised. */
  titleScreen: string;
  /** `ID`: PigSaint's id of the game, shared by its regional releases, revisions and re-releases. */
  id: string;
  /** `Region` as written ("Japan/USA") and split into its parts. */
  region: string;
  regions: string[];
  releaseDate: string;
  publisher: string;
  tags: Tag[];
  /** Lower-case hex, "" when the row has no dump. */
  md5: string;
  sha1: string;
}

const COLUMNS = ["Title", "Title (exact)", "Title screen", "ID", "Region", "Release date", "Publisher", "Tags", "MD5", "SHA1"] as const;
type Column = (typeof COLUMNS)[number];

/** Right-to-left marks and zero-width characters some cells carry ("TEN\u200f\u200e"): never part of a name. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g;

export function readGameDatabaseCsv(file: string, text: string): SourceRow[] {
  const [header, ...records] = parseCsv(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  const columnOf = columnIndexes(file, header ?? []);
  return records.map((record, index) => {
    // "=" in a cell means "the same as the column to its left".
    const cellAt = (position: number): string => {
      const value = (record[position] ?? "").replace(INVISIBLE, "").trim();
      return value === "=" && position > 0 ? cellAt(position - 1) : value;
    };
    const cell = (column: Column) => cellAt(columnOf(column));
    const region = cell("Region");
    return {
      file,
      line: index + 2,
      title: cell("Title"),
      titleExact: cell("Title (exact)") || cell("Title"),
      titleScreen: cell("Title screen"),
      id: cell("ID"),
      region,
      regions: region.split("/").map((part) => part.trim()),
      releaseDate: cell("Release date"),
      publisher: cell("Publisher"),
      tags: parseTags(cell("Tags")),
      md5: cell("MD5").toLowerCase(),
      sha1: cell("SHA1").toLowerCase(),
    };
  });
}

function columnIndexes(file: string, header: string[]): (column: Column) => number {
  const missing = COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) throw new Error(`${file}: no column ${missing.join(", ")} in the header (is it a GameDataBase CSV?)`);
  return (column) => header.indexOf(column);
}
