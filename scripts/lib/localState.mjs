// Where wrangler's local mode keeps this project's bindings inside a state folder (`--persist-to`,
// STATE_DIR): read by the benchmarks and the tests that look at the files from outside.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const d1Dir = (stateDir) => join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");

/** Whether the state folder holds a local D1 database yet (a fresh folder does not). */
export const hasD1Database = (stateDir) => existsSync(d1Dir(stateDir));

/** The local D1 file of a wrangler state folder (the one database this project binds). */
export function d1File(stateDir) {
  const dir = d1Dir(stateDir);
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.length}`);
  return join(dir, files[0]);
}

/** The folder of the users' accounting objects (src/platform/userAccounting.ts), one SQLite file each. */
export const accountingObjectsDir = (stateDir) => join(stateDir, "v3", "do", "retro-game-collection-api-UserAccounting");
