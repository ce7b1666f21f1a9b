// The files of the DAT conversion (Node): the libretro-database checkout in, the master folder's
// libretro-*.ndjson and ledger out. Shared by scripts/master-from-libretro-dats.ts and the demo seed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PlatformDats } from "./convert";
import { DAT_PLATFORMS } from "./platforms";

export const LIBRETRO_PLATFORMS_FILE = "libretro-platforms.ndjson";
export const LIBRETRO_GAMES_FILE = "libretro-games.ndjson";
export const LIBRETRO_IDS_FILE = "libretro-ids.tsv";

const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");

/** Each platform's DAT and metadat; a platform whose DAT the checkout lacks is left out (listed in `missing`). */
export function readPlatformDats(libretroDir: string): { sources: PlatformDats[]; missing: string[] } {
  const sources: PlatformDats[] = [];
  const missing: string[] = [];
  for (const platform of DAT_PLATFORMS) {
    const datPath = join(libretroDir, platform.dat);
    if (!existsSync(datPath)) {
      missing.push(platform.dat);
      continue;
    }
    const metadat = (field: string) => (platform.metadatFile ? readIfThere(join(libretroDir, "metadat", field, platform.metadatFile)) : "");
    sources.push({
      platform,
      dat: readFileSync(datPath, "utf8"),
      publisher: metadat("publisher"),
      genre: metadat("genre"),
      serial: metadat("serial"),
    });
  }
  return { sources, missing };
}

/** The master folder's rows of `dataset` from this source, as NDJSON text ("" when the folder has none). */
export function libretroRowsText(masterDir: string, dataset: "platforms" | "games"): string {
  return readIfThere(join(masterDir, dataset === "platforms" ? LIBRETRO_PLATFORMS_FILE : LIBRETRO_GAMES_FILE));
}
