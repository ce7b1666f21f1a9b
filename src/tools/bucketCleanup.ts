import type { Bindings } from "../bindings";
import { createDb } from "../platform/db";
import { abortAbandonedUploads, removeExpiredLinkFiles } from "../platform/exportStorage";
import { removeStaleOfficialParts } from "./exports/masterData/officialGames";
import { removeStaleImportFiles } from "./imports/cleanup";

export interface ExportCleanup {
  /** Files of expired download links. */
  linkFiles: number;
  /** Official games parts of master states that are no longer current. */
  officialParts: number;
  /** Staged import files of expired, abandoned or finished jobs, and of uploads that lost their job to another. */
  importFiles: number;
  /** Multipart uploads (of any of the above) left unfinished by a process that died mid-write. */
  abandonedUploads: number;
}

/**
 * What the scheduled handler runs (wrangler.toml `[triggers]`, every 15 minutes), the one cleanup
 * of the EXPORTS bucket: deletes the export files no link can reach any more and the staged import
 * files no job will read, and aborts the multipart uploads a dead process left unfinished. It sits
 * above the exports and imports families, which both keep files there. The bucket's lifecycle
 * rules (docs/operating.md, Deploying) are the backstop should the schedule not run.
 */
export async function cleanUpExports(env: Pick<Bindings, "DB" | "EXPORTS">, now: Date): Promise<ExportCleanup> {
  const db = createDb(env.DB);
  const [linkFiles, officialParts, importFiles, abandonedUploads] = await Promise.all([
    removeExpiredLinkFiles(env.EXPORTS, now),
    removeStaleOfficialParts(db, env.EXPORTS),
    removeStaleImportFiles(db, env.EXPORTS, now),
    abortAbandonedUploads(env.EXPORTS, now),
  ]);
  return { linkFiles, officialParts, importFiles, abandonedUploads };
}
