// Reads a folder of clrmamepro `.dat` files (a libretro-database checkout's dat/ or metadat/<field>/).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** File name -> text for the `.dat` files of a folder that are named in `only` (all when omitted); none when it is missing. */
export function readDatFolder(folder: string, only?: Set<string>): Record<string, string> {
  if (!existsSync(folder)) return {};
  const names = readdirSync(folder).filter((name) => name.endsWith(".dat") && (only === undefined || only.has(name)));
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(folder, name), "utf8")]));
}
