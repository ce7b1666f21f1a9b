// Starting the Worker locally with wrangler: shared by `npm run dev` and the benchmarks.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  adminToken as configuredAdminToken,
  sessionSecret as configuredSessionSecret,
  exportSigningSecret as configuredSigningSecret,
  devVarsPath,
  projectRoot,
  wranglerBin,
} from "./local.mjs";
import { d1File, hasD1Database } from "./localState.mjs";

/**
 * Read at spawn time, so a script may set variables (e.g. X_LOCAL_OBSERVABILITY) before starting.
 * CLOUDFLARE_CF_FETCH_ENABLED=false: the runtime uses its placeholder `Request.cf` instead of fetching
 * one from workers.cloudflare.com on each start, which offline printed a stack trace (a developer
 * may still set it to true).
 */
const childEnv = () => ({ CLOUDFLARE_CF_FETCH_ENABLED: "false", ...process.env, WRANGLER_SEND_METRICS: "false" });

/** The project's D1 database in the local state folder `stateDir`, as wrangler d1 commands name it. */
const localDb = (stateDir) => ["DB", "--local", "--persist-to", stateDir];

const runWrangler = (args) =>
  spawnSync(process.execPath, [wranglerBin(), ...args], {
    cwd: projectRoot,
    env: childEnv(),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

const MIGRATIONS_TABLE = "d1_migrations";

/** The files of migrations/ in the order wrangler applies them. */
const migrationNames = () =>
  readdirSync(join(projectRoot, "migrations"))
    .filter((name) => name.endsWith(".sql"))
    .sort();

/**
 * The migrations the local database recorded as applied, read from its file; undefined when it
 * cannot tell (no such table, a file it cannot open), and wrangler decides.
 */
function recordedMigrations(stateDir) {
  let db;
  try {
    db = new DatabaseSync(d1File(stateDir), { readOnly: true });
    return db
      .prepare(`SELECT name FROM ${MIGRATIONS_TABLE}`)
      .all()
      .map(({ name }) => name);
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

/** Whether the local database has recorded every migration of migrations/. */
function allMigrationsRecorded(stateDir) {
  const recorded = new Set(recordedMigrations(stateDir));
  return migrationNames().every((name) => recorded.has(name));
}

/**
 * Migrations the local database recorded as applied that migrations/ no longer holds: a state
 * folder made before the migrations were folded into one baseline, whose tables the baseline then
 * fails to create again.
 */
function vanishedMigrations(stateDir) {
  const present = new Set(migrationNames());
  return (recordedMigrations(stateDir) ?? []).filter((name) => !present.has(name));
}

/**
 * Every migration of migrations/ in wrangler's order, each followed by the row `wrangler d1
 * migrations apply` records for it, after that command's CREATE of its table: one SQL text.
 */
function allMigrationsSql() {
  const dir = join(projectRoot, "migrations");
  const names = migrationNames();
  const table = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL);`;
  const record = (name) => `INSERT INTO ${MIGRATIONS_TABLE} (name) values ('${name.replaceAll("'", "''")}');`;
  const steps = names.map((name) => `${readFileSync(join(dir, name), "utf8")}\n${record(name)}`);
  return [table, ...steps].join("\n");
}

/**
 * A fresh state folder's database, built by all migrations in one `wrangler d1 execute` (one
 * transaction), with the bookkeeping `wrangler d1 migrations apply` keeps, so that command finds
 * them applied. That command starts the local runtime once per migration and twice more: ~17 s of
 * CPU for the fourteen starts on a fresh folder, against ~5 s for this one.
 */
function applyAllMigrations(stateDir) {
  const dir = mkdtempSync(join(tmpdir(), "rgc-migrations-"));
  try {
    const file = join(dir, "all.sql");
    writeFileSync(file, allMigrationsSql());
    return runWrangler(["d1", "execute", ...localDb(stateDir), "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Applies migrations/ to the local database in `stateDir`; refuses, saying what to do, one built before the fold. */
export function applyMigrations(stateDir) {
  if (!hasD1Database(stateDir)) {
    const result = applyAllMigrations(stateDir);
    if (result.status === 0) return;
    throw new Error(`migrations failed:\n${result.stdout}${result.stderr}`);
  }
  // `wrangler d1 migrations apply` starts the local runtime twice to find nothing to do: ~4 s of
  // CPU on every start of `npm run dev` on a folder used before.
  if (allMigrationsRecorded(stateDir)) return;
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
 * A value as a dotenv file keeps it verbatim: single quotes stop dotenv's own escapes, and `\$`
 * stops wrangler's `$VAR` expansion, which applies inside quotes too.
 */
function dotenvLiteral(name, value) {
  if (/['\r\n]/.test(value)) throw new Error(`${name} must not hold a quote (') or a line break.`);
  return `'${value.replaceAll("$", "\\$")}'`;
}

/**
 * The Worker's secrets in a file only this user can read, for `wrangler dev --env-file`: on the
 * command line (`--var NAME:value`) they would show in `ps` to every user of the machine. wrangler
 * reads the file again when it reloads the Worker, so it lives as long as the child; `remove`
 * deletes it.
 */
function writeSecretsFile(secrets) {
  const lines = Object.entries(secrets)
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}=${dotenvLiteral(name, value)}\n`);
  const dir = mkdtempSync(join(tmpdir(), "rgc-dev-secrets-"));
  const path = join(dir, "secrets.env");
  writeFileSync(path, lines.join(""), { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawns `wrangler dev`; `quiet` keeps its output (request logs) off the terminal. The secrets go
 * to wrangler through a private file that is removed when wrangler exits (or this process does).
 */
export function startWrangler({ port, stateDir, adminToken, exportSigningSecret, sessionSecret, quiet = false }) {
  const secrets = writeSecretsFile({
    ADMIN_TOKEN: adminToken ?? configuredAdminToken(),
    EXPORT_SIGNING_SECRET: exportSigningSecret ?? configuredSigningSecret(),
    SESSION_SECRET: sessionSecret ?? configuredSessionSecret(),
  });
  // Given env files, wrangler no longer reads .dev.vars by itself: the developer's own variables
  // (PUBLIC_BASE_URL for a tunnel, say) go first, the secrets after them win.
  const devVars = existsSync(devVarsPath) ? ["--env-file", devVarsPath] : [];
  const child = spawn(
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
      ...devVars,
      "--env-file",
      secrets.path,
      "--show-interactive-dev-session=false",
      // The cron runs on request (GET /__scheduled) rather than a warning on every start that it does not run by itself.
      "--test-scheduled",
      ...(quiet ? ["--log-level", "error"] : []),
    ],
    { cwd: projectRoot, env: childEnv(), stdio: ["ignore", quiet ? "ignore" : "inherit", "inherit"] },
  );
  child.once("exit", secrets.remove);
  process.once("exit", secrets.remove);
  return child;
}

/** Resolves once `baseUrl` serves the tool catalog; `child`, the wrangler serving it if it is local, may exit first. */
export async function waitUntilServing(child, baseUrl, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/rest/v1/tools`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer within ${timeoutMs / 1000} s`);
}
