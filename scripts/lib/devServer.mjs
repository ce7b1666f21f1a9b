// Starting the Worker locally with wrangler: shared by `npm run dev` and the benchmarks.
import { spawn, spawnSync } from "node:child_process";
import { projectRoot, wranglerBin } from "./local.mjs";

/** Read at spawn time, so a script may set variables (e.g. X_LOCAL_OBSERVABILITY) before starting. */
const childEnv = () => ({ ...process.env, WRANGLER_SEND_METRICS: "false" });

export function applyMigrations(stateDir) {
  const result = spawnSync(process.execPath, [wranglerBin(), "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    cwd: projectRoot,
    env: childEnv(),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status !== 0) throw new Error(`migrations failed:\n${result.stdout}${result.stderr}`);
}

/**
 * Spawns `wrangler dev`; `quiet` keeps its output (request logs) off the terminal. Secrets not
 * given here come from .dev.vars, which wrangler dev reads by itself.
 */
export function startWrangler({ port, stateDir, adminToken, exportSigningSecret, quiet = false }) {
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
