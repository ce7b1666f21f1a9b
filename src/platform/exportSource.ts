import type { Db } from "./db";
import type { Plan } from "./plans";

/**
 * The contract between the export tools and their downloads. A tool answers a signed link that
 * carries an ExportRequest; a download of it (admitDownload, then exportFileOf in
 * produceExportFile.ts) asks the family's opener for an ExportSource, whose pages it streams into
 * an R2 object in the requested format.
 */
export type ExportFormat = "json" | "csv" | "ndjson";
export type ExportKind = "myData" | "masterData";

export type ExportRow = Record<string, unknown>;

export interface ExportRequest {
  kind: ExportKind;
  dataset: string;
  format: ExportFormat;
  /** The tool's validated arguments (filters, sort, platformId, ...), reapplied at download. */
  args: Record<string, unknown>;
}

/** Who the file is produced for: the link's user, with the plan they hold at download time. */
export interface ExportReader {
  db: Db;
  userId: string;
  plan: Plan;
  now: Date;
}

export interface ExportSource {
  /** The file's real columns, in order. */
  columns: readonly string[];
  /** The file's rows in order, read from D1 one keyset page at a time (never all at once). */
  pages(): AsyncIterable<ExportRow[]>;
  /**
   * The download's file name without its extension; when absent, `<dataset>-<YYYY-MM-DD>` (the
   * UTC day the file is produced), e.g. `library-2026-11-23.csv`.
   */
  fileName?: string;
}
