// The two Workers `npm run bench:api` compares: the project and the bare Hono baseline in
// bench/baseline/, each under wrangler's dev server (same wrangler, same workerd, see benchWorker.mjs)
// on a state folder of its own.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { projectRoot, wranglerBin } from "./local.mjs";

export const PROJECT_CONFIG = join(projectRoot, "wrangler.toml");
export const BASELINE_CONFIG = join(projectRoot, "bench", "baseline", "wrangler.toml");

/**
 * Bundles a Worker once (`wrangler deploy --dry-run --outdir`, the bundle a deploy would upload)
 * and writes a config beside it that runs that bundle as it is (no bundling in dev): the
 * benchmark measures one fixed build, which source edits made during the run (this tree is shared)
 * do not rebuild or reload, and both Workers run without wrangler dev's bundling middleware.
 * Answers the config to start.
 */
export function buildSnapshot(config, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const built = spawnSync(process.execPath, [wranglerBin(), "deploy", "--dry-run", "--outdir", outDir, "--config", config], {
    cwd: projectRoot,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`bundling ${config} failed:\n${built.stdout}${built.stderr}`);
  const base = dirname(config);
  const absolute = (key) => (text) =>
    text.replace(new RegExp(`^(${key}\\s*=\\s*)"([^"]*)"`, "m"), (_, prefix, path) => `${prefix}"${resolve(base, path)}"`);
  let toml = readFileSync(config, "utf8").replace(/^main\s*=.*$/m, 'main = "index.js"');
  for (const key of ["directory", "migrations_dir"]) toml = absolute(key)(toml);
  const snapshotConfig = join(outDir, "wrangler.toml");
  writeFileSync(snapshotConfig, toml);
  return snapshotConfig;
}

/** Starts a Worker (scripts/lib/benchWorker.mjs) for `config` on `port` over `stateDir`; its output stays off the terminal but errors. */
export function startServer({ config, port, stateDir, vars = {}, inspectorPort }) {
  const args = [join(projectRoot, "scripts", "lib", "benchWorker.mjs"), JSON.stringify({ config, port, stateDir, vars, inspectorPort })];
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  // Kept, not printed: shown if the server fails to start (a stopped wrangler also prints
  // esbuild's goroutine dump when its service is killed, which is noise at the end of a run).
  child.stderrTail = "";
  child.stderr.on("data", (chunk) => (child.stderrTail = (child.stderrTail + chunk).slice(-8000)));
  return child;
}

export async function waitForPath(child, url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${child.stderrTail}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${child.stderrTail}`);
}

/** SIGTERM, then waits for the process to end (its D1 file is closed once it has). */
export async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await ended;
  clearTimeout(timer);
}
