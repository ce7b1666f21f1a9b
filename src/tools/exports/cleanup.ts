import type { Bindings } from "../../env";
import { createDb } from "../../platform/db";
import { removeExpiredLinkFiles } from "../../platform/exportStorage";
import { removeStaleOfficialParts } from "./masterData/officialGames";

export interface ExportCleanup {
  /** Files of expired download links. */
  linkFiles: number;
  /** Official games parts of master states that are no longer current. */
  officialParts: number;
}

/**
 * What the scheduled handler runs (wrangler.toml `[triggers]`, every 15 minutes): deletes the
 * export files no link can reach any more. The bucket's lifecycle rule (README, Deploying) is the
 * backstop should the schedule not run.
 */
export async function cleanUpExports(env: Pick<Bindings, "DB" | "EXPORTS">, now: Date): Promise<ExportCleanup> {
  const [linkFiles, officialParts] = await Promise.all([
    removeExpiredLinkFiles(env.EXPORTS, now),
    removeStaleOfficialParts(createDb(env.DB), env.EXPORTS),
  ]);
  return { linkFiles, officialParts };
}
