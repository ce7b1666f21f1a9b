// Starting the Worker locally with wrangler: shared by `npm run dev` and the benchmarks.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { projectRoot, wranglerBin } from "./local.mjs";

/** Read at spawn time, so a script may set variables (e.g. X_LOCAL_OBSERVABILITY) before starting. */
const childEnv = () => ({ ...process.env, WRANGLER_SEND_METRICS: "false" });

/** The project's D1 database in the local state folder `stateDir`, as wrangler d1 commands name it. */
const localDb = (stateDir) => ["DB", "--local", "--persist-to", stateDir];

const runWrangler = (args) =>
  spawnSync(process.execPath, [wranglerBin(), ...args], {
    cwd: projectRoot,
    env: childEnv(),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

/**
 * Migrations the local database recorded as applied that migrations/ no longer holds: a state
 * folder made before the migrations were folded into one baseline, whose tables the baseline then
 * fails to create again.
 */
function vanishedMigrations(stateDir) {
  const result = runWrangler(["d1", "execute", ...localDb(stateDir), "--json", "--command", "SELECT name FROM d1_migrations"]);
  if (result.status !== 0) return [];
  const recorded = JSON.parse(result.stdout)[0].results.map(({ name }) => name);
  const present = new Set(readdirSync(join(projectRoot, "migrations")));
  return recorded.filter((name) => !present.has(name));
}

/** Applies migrations/ to the local database in `stateDir`; refuses, saying what to do, one built before the fold. */
export function applyMigrations(stateDir) {
  const result = runWrangler(["d1", "migrations", "apply", ...localDb(stateDir)]);
  if (result.status === 0) return;
  const vanished = vanishedMigrations(stateDir);
  if (vanished.length > 0) {
    throw new Error(
      `The local database in ${stateDir} was built by migrations that migrations/ no longer holds (${vanished.length}, ` +
        `e.g. ${vanished[0]}): they were folded into one baseline, which cannot be applied over it. ` +
        `Delete the folder ${stateDir} (its local data goes with it) and run the command again.`,
    );
  }
  throw new Error(`migrations failed:\n${result.stdout}${result.stderr}`);
}

/**
 * Spawns `wrangler dev`; `quiet` keeps its output (request logs) off the terminal. Secrets not
 * given here come from .dev.vars, which wrangler dev reads by itself.
 */
export function startWrangler({ port, stateDir, adminToken, exportSigningSecret, sessionSecret, quiet = false }) {
  return spawn(
    process.execPath,
    [
      wranglerBin(),
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      stateDir,
      "--var",
      `ADMIN_TOKEN:${adminToken}`,
      ...(exportSigningSecret ? ["--var", `EXPORT_SIGNING_SECRET:${exportSigningSecret}`] : []),
      ...(sessionSecret ? ["--var", `SESSION_SECRET:${sessionSecret}`] : []),
      "--show-interactive-dev-session=false",
      ...(quiet ? ["--log-level", "error"] : []),
    ],
    { cwd: projectRoot, env: childEnv(), stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"] },
  );
}

export async function waitUntilServing(child, baseUrl, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/rest/v1/tools`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer within ${timeoutMs / 1000} s`);
}
