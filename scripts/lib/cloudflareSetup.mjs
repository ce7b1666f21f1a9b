// The steps of `npm run setup:cloudflare` (scripts/setup-cloudflare.mjs), each one "find what is
// there, change only what is not right": the resources found by name, the R2 lifecycle rules, the
// production config, migrations, secrets, the deployment, the master data and the operator's
// account. Everything outside this file is passed in (wrangler, the operator API, files, the build),
// so the tests run the steps against a fake account (test/scripts/setupCloudflare.process.node.test.ts).
import { randomBytes } from "node:crypto";
import { stripVTControlCharacters } from "node:util";
import { PRODUCTION_CONFIG, productionConfig, resourcesOf, TRACKED_CONFIG } from "./cloudflareConfig.mjs";

/** The Worker's secrets (src/bindings.ts): each a random 32 bytes, base64url. */
export const SECRET_NAMES = ["ADMIN_TOKEN", "EXPORT_SIGNING_SECRET", "SESSION_SECRET"];

/**
 * The R2 bucket's lifecycle rules, the backstop of the scheduled cleanup (src/index.ts): expired
 * download links and claims, parts of old master generations, staged imports, and the records of
 * multipart uploads a dead process left.
 */
export const LIFECYCLE_RULES = [
  { name: "expire-export-links", prefix: "exports/links/", expireDays: 1, abortMultipartDays: 1 },
  { name: "expire-export-parts", prefix: "exports/parts/", expireDays: 30, abortMultipartDays: 1 },
  { name: "expire-import-uploads", prefix: "imports/", expireDays: 1, abortMultipartDays: 1 },
  { name: "expire-upload-records", prefix: "multipart-uploads/", expireDays: 2 },
];

/** The local record of a production setup (not tracked): what cannot be asked of Cloudflare. */
export const STATE_FILE = ".production.json";
/** The operator token of production, for `npm run admin -- --token-file .production-admin-token`. */
export const ADMIN_TOKEN_FILE = ".production-admin-token";

const OPERATOR_PLAN = "PREMIUM";

/** A wrangler command that failed: its words and what it printed, never a stack trace. */
export class WranglerError extends Error {}

const newSecret = () => randomBytes(32).toString("base64url");

/** How wrangler prints a lifecycle rule in `r2 bucket lifecycle list` (tableFromLifecycleRulesResponse). */
function renderedAction({ expireDays, abortMultipartDays }) {
  const actions = [`Expire objects after ${expireDays} days`];
  if (abortMultipartDays) actions.push(`Abort incomplete multipart uploads after ${abortMultipartDays} days`);
  return actions.join(", ");
}

/** `name: value` blocks, one per blank-line-separated paragraph, as wrangler's labelled lists print. */
export function labelledBlocks(text) {
  return stripVTControlCharacters(text)
    .split(/\n\s*\n/)
    .map((block) => Object.fromEntries([...block.matchAll(/^\s*([\w ]+?):\s+(.*?)\s*$/gm)].map(([, label, value]) => [label, value])))
    .filter((block) => block.name !== undefined);
}

/** The JSON a command printed: wrangler may print a banner or warnings before it. */
function jsonOf(stdout, command) {
  const start = stdout.search(/^[[{]/m);
  try {
    return JSON.parse(stdout.slice(start));
  } catch {
    throw new WranglerError(`wrangler ${command} did not print JSON:\n${stdout.slice(0, 500)}`);
  }
}

/**
 * Runs the setup. `wrangler(args, { quiet, secrets, interactive })` resolves to `{ status, stdout,
 * stderr }` (and the deployed `url` for a deploy); `api` is
 * `{ fetch(path, options), importCatalog() }` against the deployed Worker (`await api.connect(url,
 * token)` first: it waits until the Worker answers); `files` reads and writes the project's local files; `build(configText)` answers the
 * fingerprint of what a deploy would upload. Answers the changes made (or, with `dryRun`, those it
 * would make) and the instance's address; a second run finds nothing to change.
 */
export async function setUpCloudflare({ wrangler, api, files, build, masterDigest, options, log = () => {} }) {
  const changes = [];
  const state = JSON.parse(files.read(STATE_FILE) ?? "{}");
  const saveState = () => options.dryRun || files.write(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);

  /** A read: always run, its output kept. */
  const read = async (args) => {
    const result = await wrangler(args, { quiet: true });
    if (result.status !== 0) throw new WranglerError(`wrangler ${args.join(" ")} failed:\n${result.stderr || result.stdout}`);
    return result.stdout;
  };
  /** A change: run (shown), or only listed in a dry run. */
  const change = async (description, args, extra = {}) => {
    changes.push(description);
    log(`${options.dryRun ? "would" : "now"}: ${description}`);
    if (options.dryRun) return {};
    const result = await wrangler(args, extra);
    if (result.status !== 0) throw new WranglerError(`wrangler ${args.join(" ")} failed:\n${result.stderr || result.stdout}`);
    return result;
  };
  const withConfig = ["--config", PRODUCTION_CONFIG];

  // Logged in? (`whoami --json` exits non-zero when not.)
  const whoami = await wrangler(["whoami", "--json"], { quiet: true });
  if (whoami.status !== 0) throw new WranglerError("wrangler is not logged in to Cloudflare: run `npx wrangler login` first.");

  const tracked = files.read(TRACKED_CONFIG);
  const resources = resourcesOf(tracked);

  // The D1 database, by name.
  const findDatabase = async () => jsonOf(await read(["d1", "list", "--json"]), "d1 list").find((db) => db.name === resources.d1.name);
  let database = await findDatabase();
  if (!database) {
    await change(`create the D1 database ${resources.d1.name}`, ["d1", "create", resources.d1.name]);
    database = options.dryRun ? { uuid: `<id of the new database ${resources.d1.name}>` } : await findDatabase();
  }

  // The KV namespaces, by title.
  const kvIds = {};
  const listNamespaces = async () => jsonOf(await read(["kv", "namespace", "list"]), "kv namespace list");
  let namespaces = await listNamespaces();
  for (const { binding, title } of resources.kv) {
    if (!namespaces.some((ns) => ns.title === title)) {
      await change(`create the KV namespace ${title} (binding ${binding})`, ["kv", "namespace", "create", title]);
      namespaces = options.dryRun ? [...namespaces, { title, id: `<id of the new namespace ${title}>` }] : await listNamespaces();
    }
    kvIds[binding] = namespaces.find((ns) => ns.title === title).id;
  }

  // The R2 bucket, by name, and its lifecycle rules, each added unless there as it should be.
  const bucket = resources.r2.name;
  const buckets = labelledBlocks(await read(["r2", "bucket", "list"])).map((block) => block.name);
  const bucketExists = buckets.includes(bucket);
  if (!bucketExists) await change(`create the R2 bucket ${bucket}`, ["r2", "bucket", "create", bucket]);
  const rulesNow = bucketExists ? labelledBlocks(await read(["r2", "bucket", "lifecycle", "list", bucket])) : [];
  for (const rule of LIFECYCLE_RULES) {
    const found = rulesNow.find((r) => r.name === rule.name);
    if (found && found.prefix === rule.prefix && found.action === renderedAction(rule) && found.enabled === "Yes") continue;
    if (found)
      await change(`remove the outdated lifecycle rule ${rule.name}`, ["r2", "bucket", "lifecycle", "remove", bucket, "--name", rule.name]);
    const days = [
      "--expire-days",
      String(rule.expireDays),
      ...(rule.abortMultipartDays ? ["--abort-multipart-days", String(rule.abortMultipartDays)] : []),
    ];
    await change(`add the lifecycle rule ${rule.name} (${rule.prefix})`, [
      "r2",
      "bucket",
      "lifecycle",
      "add",
      bucket,
      rule.name,
      rule.prefix,
      ...days,
      "--force",
    ]);
  }

  // The production config, written only when it differs.
  const domain = options.domain ?? state.domain;
  const config = productionConfig(tracked, { ids: { d1: database.uuid, kv: kvIds }, domain });
  if (files.read(PRODUCTION_CONFIG) !== config) {
    changes.push(`write ${PRODUCTION_CONFIG}`);
    log(`${options.dryRun ? "would" : "now"}: write ${PRODUCTION_CONFIG}`);
    if (options.dryRun) {
      // What follows reads the account through that config, which is not written yet.
      const rest =
        "then apply the pending migrations, set the missing secrets, deploy, import the master data, create and invite the operator";
      log(`would: ${rest}`);
      return { changes: [...changes, rest] };
    }
    files.write(PRODUCTION_CONFIG, config);
  }
  if (domain !== state.domain) {
    state.domain = domain;
    saveState();
  }

  // Migrations: only when `migrations list` names some not applied yet.
  const pending = pendingMigrations(await read(["d1", "migrations", "list", resources.d1.binding, "--remote", ...withConfig]));
  if (pending.length > 0) {
    await change(`apply ${pending.length} D1 migration(s) to the remote database`, [
      "d1",
      "migrations",
      "apply",
      resources.d1.binding,
      "--remote",
      ...withConfig,
    ]);
  }

  // Secrets: those the Worker lacks (or --rotate names) are generated and go up with the deploy.
  const secretList = await wrangler(["secret", "list", "--format", "json", ...withConfig], { quiet: true });
  const workerExists = secretList.status === 0;
  if (!workerExists && !/not found/i.test(secretList.stderr + secretList.stdout)) {
    throw new WranglerError(`wrangler secret list failed:\n${secretList.stderr || secretList.stdout}`);
  }
  const secretsThere = workerExists ? jsonOf(secretList.stdout, "secret list").map((s) => s.name) : [];
  const secrets = {};
  for (const name of SECRET_NAMES) {
    if (!secretsThere.includes(name) || options.rotate.includes(name)) secrets[name] = newSecret();
  }
  const adminToken = secrets.ADMIN_TOKEN ?? files.read(ADMIN_TOKEN_FILE)?.trim();
  if (!adminToken) {
    throw new Error(
      `The Worker has an ADMIN_TOKEN but this machine has no copy (${ADMIN_TOKEN_FILE}): put it in that file, or run again with --rotate ADMIN_TOKEN.`,
    );
  }

  // The deployment: skipped when the one live is this very build (its tag) and no secret changes.
  const tag = await build(config);
  const liveTag = workerExists ? await deployedTag(read, withConfig) : undefined;
  const secretNames = Object.keys(secrets);
  let url = domain ? `https://${domain}` : state.url;
  if (liveTag !== tag || secretNames.length > 0 || !url) {
    const why = [liveTag === tag ? "" : "the code or config changed", secretNames.length ? `secrets ${secretNames.join(", ")}` : ""];
    const deployed = await change(
      `deploy the Worker (${why.filter(Boolean).join("; ") || "its address is not known here"})`,
      ["deploy", ...withConfig, "--tag", tag],
      // Interactive: on an account's first Worker, wrangler asks to register its workers.dev subdomain.
      { secrets, interactive: true },
    );
    url = domain ? `https://${domain}` : (deployed.url ?? url);
    if (!url && !options.dryRun) {
      throw new WranglerError("The deploy reported no workers.dev address; give the Worker a domain with --domain <host>.");
    }
  }
  if (!options.dryRun) {
    if (secrets.ADMIN_TOKEN) files.write(ADMIN_TOKEN_FILE, `${secrets.ADMIN_TOKEN}\n`, { mode: 0o600 });
    state.url = url;
    saveState();
  }
  if (options.dryRun) return { changes, url };

  const populated = await populate({ api, url, adminToken, masterDigest, state, saveState, options, log });
  return { changes: [...changes, ...populated.changes], url, operatorUserId: state.operatorUserId, invite: populated.invite };
}

/**
 * The steps that go through the operator API of a running instance at `url`: the master data
 * (seed/master, or the folder --master names), unless this very catalog was imported before (an
 * import of it again would find every row unchanged, but costs a request per 2,000 rows), then the
 * operator's own account and its invite.
 * Run after a deploy, or by `--local` against `wrangler dev`.
 */
export async function populate({ api, url, adminToken, masterDigest, state, saveState, options, log = () => {} }) {
  const changes = [];
  await api.connect(url, adminToken);
  if (state.masterDigest !== masterDigest) {
    changes.push(`import the master data of ${options.masterName}`);
    log(`now: import the master data of ${options.masterName}`);
    await api.importCatalog();
    state.masterDigest = masterDigest;
    saveState();
  }

  // Users are listed oldest first: the operator's account, made by the first run, is on page one.
  const { items: firstUsers } = await api.fetch("/users?limit=100");
  const operator = firstUsers.find((u) => (state.operatorUserId ? u.userId === state.operatorUserId : u.name === options.operatorName));
  if (operator) {
    state.operatorUserId = operator.userId;
  } else {
    changes.push(`create the operator's account (${OPERATOR_PLAN})`);
    log(`now: create the operator's account (${OPERATOR_PLAN})`);
    const created = await api.fetch("/users", { method: "POST", body: { plan: OPERATOR_PLAN, name: options.operatorName } });
    state.operatorUserId = created.userId;
    state.invited = false;
    saveState();
  }
  let invite;
  if (!state.invited || options.invite) {
    changes.push("invite the operator");
    invite = await api.fetch(`/users/${encodeURIComponent(state.operatorUserId)}/invites`, { method: "POST" });
    state.invited = true;
    saveState();
  }
  return { changes, invite };
}

/** The migrations `d1 migrations list` names as not applied yet (it prints a table, no JSON). */
export function pendingMigrations(output) {
  return [...new Set(stripVTControlCharacters(output).match(/\b\d{4}_[\w-]+\.sql\b/g) ?? [])];
}

/** The tag of the version the live deployment serves (the setup tags each deploy with its build). */
async function deployedTag(read, withConfig) {
  const status = jsonOf(await read(["deployments", "status", "--json", ...withConfig]), "deployments status");
  const versionId = status.versions?.[0]?.version_id;
  if (!versionId) return undefined;
  const version = jsonOf(await read(["versions", "view", versionId, "--json", ...withConfig]), "versions view");
  return version.annotations?.["workers/tag"];
}
