#!/usr/bin/env node
// `npm run setup:cloudflare`: a production instance on the Cloudflare account wrangler is logged in
// to, or brought up to date; `--local` runs the steps that need no account against `wrangler dev`.
// What each step checks and changes: scripts/lib/cloudflareSetup.mjs; the guide: docs/deploying.md.
// Exit codes: 0 done, 1 a step failed, 2 usage error.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ADMIN_TOKEN_FILE, populate, SECRET_NAMES, STATE_FILE, setUpCloudflare } from "./lib/cloudflareSetup.mjs";
import { applyMigrations, startWrangler, waitUntilServing } from "./lib/devServer.mjs";
import { adminFetch, adminToken, exportSigningSecret, projectRoot, sessionSecret, wranglerBin } from "./lib/local.mjs";
import { importCatalog } from "./lib/masterImport.mjs";
import { importProgress } from "./lib/progress.mjs";

const USAGE = `Usage: npm run setup:cloudflare -- [options]

Creates or finds the D1 database, KV namespaces and R2 bucket (with its lifecycle rules) on the
account \`npx wrangler login\` logged in to, writes their ids into wrangler.production.toml (not
tracked), applies the migrations, sets the missing secrets, deploys, loads the default master data
and creates and invites your own account. Run it again after an upgrade: it changes only what is
not right yet.

Options:
  --domain <host>          serve the Worker on this Custom Domain (a zone of your account) and set
                           PUBLIC_BASE_URL to https://<host>; remembered for later runs
  --rotate <names>         generate new secrets: comma-separated from ${SECRET_NAMES.join(", ")}, or all
  --invite                 issue a new invite link for your account (e.g. the last one expired)
  --operator-name <name>   the name of your account (default: operator)
  --master <folder>        the master data to load (default: seed/master), e.g. a converter's --out;
                           loaded again whenever its files change
  --dry-run                change nothing: list what would be created, written, applied or deployed
  --local                  no account: the same migrations, master data import and account invite
                           against \`wrangler dev\` on local state (STATE_DIR, default
                           .wrangler/state), on PORT (default 8830)
  -h, --help               this text

Files it writes (not tracked): wrangler.production.toml, ${STATE_FILE} (what it did), and
${ADMIN_TOKEN_FILE} (the operator token, readable by you only): use it with
  RGC_BASE_URL=https://<your host> npm run admin -- --token-file ${ADMIN_TOKEN_FILE} users list
Exit codes: 0 done, 1 a step failed, 2 usage error.`;

function usageError(message) {
  console.error(`error: ${message}\n(add --help for usage)`);
  process.exit(2);
}

function parseOptions() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        domain: { type: "string" },
        rotate: { type: "string" },
        invite: { type: "boolean", default: false },
        "operator-name": { type: "string", default: "operator" },
        master: { type: "string" },
        "dry-run": { type: "boolean", default: false },
        local: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    usageError(error.message);
  }
  const { values } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const rotate = values.rotate === "all" ? SECRET_NAMES : (values.rotate?.split(",").map((name) => name.trim()) ?? []);
  const unknown = rotate.filter((name) => !SECRET_NAMES.includes(name));
  if (unknown.length > 0) usageError(`--rotate: unknown secret ${unknown.join(", ")}; give ${SECRET_NAMES.join(", ")} or all.`);
  if (values.domain !== undefined && !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(values.domain)) {
    usageError(`--domain: "${values.domain}" is not a host name (e.g. api.example.com, without https://).`);
  }
  if (values.local && (values.domain || rotate.length > 0 || values["dry-run"])) {
    usageError(
      "--local takes none of --domain, --rotate, --dry-run: it uses the local secrets (the environment, else .dev.vars, else those npm run dev generated).",
    );
  }
  const masterDir = values.master === undefined ? join(projectRoot, "seed", "master") : resolve(values.master);
  if (!existsSync(join(masterDir, "games.ndjson"))) {
    usageError(`--master: ${values.master} holds no games.ndjson (give a master-data folder such as seed/master).`);
  }
  return {
    masterDir,
    masterName: values.master ?? "seed/master",
    domain: values.domain?.toLowerCase(),
    rotate,
    invite: values.invite,
    operatorName: values["operator-name"],
    dryRun: values["dry-run"],
    local: values.local,
  };
}

/**
 * wrangler from node_modules; `secrets` go through a 0600 file (--secrets-file), never argv. Only an
 * `interactive` command may ask on the terminal: the others must not stop on a prompt.
 */
function runWrangler(args, { quiet = false, secrets = {}, interactive = false } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), "rgc-setup-"));
  try {
    const secretArgs = [];
    if (Object.keys(secrets).length > 0) {
      const file = join(scratch, "secrets.json");
      writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
      secretArgs.push("--secrets-file", file);
    }
    const outputFile = join(scratch, "output.ndjson");
    const result = spawnSync(process.execPath, [wranglerBin(), ...args, ...secretArgs], {
      cwd: projectRoot,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_OUTPUT_FILE_PATH: outputFile },
      encoding: "utf8",
      stdio: [interactive ? "inherit" : "ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
      maxBuffer: 64 * 1024 * 1024,
    });
    const stderr = quiet ? result.stderr : "(its output is above)";
    return { status: result.status, stdout: result.stdout ?? "", stderr, url: deployedUrl(outputFile) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The workers.dev address a deploy reported in wrangler's output file (its `deploy` entry's targets). */
function deployedUrl(outputFile) {
  if (!existsSync(outputFile)) return undefined;
  const entries = readFileSync(outputFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
  const targets = entries.find((entry) => entry.type === "deploy")?.targets ?? [];
  return targets.find((target) => /^https:\/\/\S+\.workers\.dev$/.test(target));
}

const projectFiles = {
  read: (name) => (existsSync(join(projectRoot, name)) ? readFileSync(join(projectRoot, name), "utf8") : undefined),
  write: (name, text, { mode } = {}) => {
    writeFileSync(join(projectRoot, name), text, { mode });
    if (mode !== undefined) chmodSync(join(projectRoot, name), mode);
  },
};

/** Every file under `dir`, as [path relative to it, contents], in a fixed order. */
function filesUnder(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(path, base) : [[relative(base, path), readFileSync(path)]];
    });
}

function digestOf(...parts) {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex").slice(0, 16);
}

/**
 * The fingerprint of a deploy: the Worker bundle (`wrangler deploy --dry-run`, which also proves
 * the code builds), the static assets and the production config. Tagged onto the deployed
 * version, it tells the next run whether anything changed.
 */
function buildFingerprint(config) {
  const outdir = mkdtempSync(join(tmpdir(), "rgc-setup-build-"));
  try {
    const result = runWrangler(["deploy", "--dry-run", "--outdir", outdir], { quiet: true });
    if (result.status !== 0) throw new Error(`the Worker does not build (wrangler deploy --dry-run):\n${result.stderr || result.stdout}`);
    const files = [...filesUnder(outdir), ...filesUnder(join(projectRoot, "public")).map(([path, data]) => [`public/${path}`, data])];
    return `setup-${digestOf(config, ...files.flat())}`;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Which catalog this is: its files' contents. */
const masterDigest = (masterDir) => digestOf(...filesUnder(masterDir).flat());

/** The operator API of the instance at `url`, with the token given at connect; it imports the catalog of `masterDir`. */
function operatorApi(masterDir) {
  let token;
  return {
    /** A Worker just deployed may take a while to answer on its address. */
    async connect(url, adminToken) {
      process.env.RGC_BASE_URL = url;
      token = adminToken;
      await waitUntilServing(null, url, 120_000);
    },
    fetch: (path, options = {}) => adminFetch(path, { ...options, token }),
    async importCatalog() {
      const progress = importProgress();
      try {
        return await importCatalog(masterDir, { token, onProgress: progress.onProgress });
      } finally {
        progress.stop();
      }
    },
  };
}

/** --local: the migrations, then master data and account through `wrangler dev`, as on Cloudflare. */
async function setUpLocally(options) {
  const stateDir = process.env.STATE_DIR ?? ".wrangler/state";
  const port = process.env.PORT ?? "8830";
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(stateDir, { recursive: true });
  const stateFile = join(stateDir, "setup-cloudflare.json");
  const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : {};
  const token = adminToken({ create: true });
  applyMigrations(stateDir);
  const child = startWrangler({
    port,
    stateDir,
    adminToken: token,
    exportSigningSecret: exportSigningSecret({ create: true }),
    sessionSecret: sessionSecret({ create: true }),
    quiet: true,
  });
  try {
    await waitUntilServing(child, url, 180_000);
    const saveState = () => writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    const result = await populate({
      api: operatorApi(options.masterDir),
      url,
      adminToken: token,
      masterDigest: masterDigest(options.masterDir),
      state,
      saveState,
      options,
      log: console.log,
    });
    return { ...result, url, operatorUserId: state.operatorUserId };
  } finally {
    child.kill("SIGTERM");
  }
}

function report({ changes, url, operatorUserId, invite }, options) {
  console.log(
    changes.length === 0
      ? "\nNothing to change: everything was already set up."
      : `\n${options.dryRun ? "Would change" : "Changed"}: ${changes.length} thing(s).`,
  );
  if (options.dryRun) return;
  console.log(`Instance: ${url}`);
  if (operatorUserId) console.log(`Your account: ${operatorUserId}`);
  if (invite) {
    console.log(
      `Open ${invite.url} to register your passkey (valid until ${invite.expiresAt}), then create a key on ${new URL("/settings", invite.url)}.`,
    );
  } else if (operatorUserId) {
    console.log("A new invite link for your account: run this again with --invite.");
  }
}

const options = parseOptions();
try {
  const result = options.local
    ? await setUpLocally(options)
    : await setUpCloudflare({
        wrangler: runWrangler,
        api: operatorApi(options.masterDir),
        files: projectFiles,
        build: buildFingerprint,
        masterDigest: masterDigest(options.masterDir),
        options,
        log: console.log,
      });
  report(result, options);
} catch (error) {
  const cause = error.cause ? ` (${error.cause.code ?? error.cause.message})` : "";
  console.error(`setup:cloudflare: ${error.message}${cause}`);
  process.exitCode = 1;
}
