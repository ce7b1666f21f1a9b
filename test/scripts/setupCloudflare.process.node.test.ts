// `npm run setup:cloudflare` (scripts/setup-cloudflare.mjs) without a Cloudflare account: its steps
// run against a fake wrangler that keeps an account in memory and answers each command as
// wrangler 4 prints it (the shapes of node_modules/wrangler's d1 list --json, kv namespace list,
// r2 bucket list, r2 bucket lifecycle list, d1 migrations list, secret list, deployments status
// --json and versions view --json), and a stand-in operator API. Then the generated config is
// built by the real wrangler (`deploy --dry-run`), and the script's usage errors are checked.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeMasterSlice } from "../support/masterSlice";

interface Rule {
  id: string;
  enabled: boolean;
  conditions: { prefix: string };
  deleteObjectsTransition?: { condition: { type: "Age"; maxAge: number } };
  abortMultipartUploadsTransition?: { condition: { type: "Age"; maxAge: number } };
}

interface Account {
  loggedIn: boolean;
  databases: { uuid: string; name: string }[];
  namespaces: { id: string; title: string }[];
  buckets: { name: string; rules: Rule[] }[];
  migrationsApplied: boolean;
  worker?: { secrets: Record<string, string>; versions: { id: string; tag: string }[]; live: string };
}

interface Result {
  status: number;
  stdout: string;
  stderr: string;
  url?: string;
}

const emptyAccount = (): Account => ({ loggedIn: true, databases: [], namespaces: [], buckets: [], migrationsApplied: false });

const labelled = (view: Record<string, string>) => {
  const width = Math.max(...Object.keys(view).map((label) => label.length + 1));
  return Object.entries(view)
    .map(([label, value]) => `${`${label}:`.padEnd(width)}  ${value}`)
    .join("\n");
};

const days = (seconds: number) => `after ${seconds / 86400} days`;

/** wrangler's tableFromLifecycleRulesResponse, then formatLabelledValues. */
function renderRules(rules: Rule[]) {
  return rules
    .map((rule) => {
      const actions = [];
      if (rule.deleteObjectsTransition) actions.push(`Expire objects ${days(rule.deleteObjectsTransition.condition.maxAge)}`);
      if (rule.abortMultipartUploadsTransition) {
        actions.push(`Abort incomplete multipart uploads ${days(rule.abortMultipartUploadsTransition.condition.maxAge)}`);
      }
      return labelled({ name: rule.id, enabled: rule.enabled ? "Yes" : "No", prefix: rule.conditions.prefix, action: actions.join(", ") });
    })
    .join("\n\n");
}

const option = (args: string[], name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};

let nextId = 1;
const id = (hex: boolean) =>
  hex ? (nextId++).toString(16).padStart(32, "0") : `00000000-0000-4000-8000-${String(nextId++).padStart(12, "0")}`;

/** A wrangler that answers from `account`; every command line is recorded in `calls`. */
function fakeWrangler(account: Account, calls: string[]) {
  const ok = (stdout = ""): Result => ({ status: 0, stdout, stderr: "" });
  const fail = (stderr: string): Result => ({ status: 1, stdout: "", stderr });
  return async (args: string[], extra: { secrets?: Record<string, string> } = {}): Promise<Result> => {
    calls.push(args.join(" "));
    const command = args.filter((arg) => !arg.startsWith("-")).join(" ");
    if (!account.loggedIn) return fail("✘ [ERROR] You are not authenticated. Please run `wrangler login`.");
    const bucketNamed = (name: string) => account.buckets.find((b) => b.name === name)!;
    switch (true) {
      case command === "whoami":
        return ok(
          JSON.stringify({ loggedIn: true, authType: "OAuth Token", email: "op@example.com", accounts: [{ id: "acc", name: "Op" }] }),
        );
      case command === "d1 list":
        return ok(
          JSON.stringify(
            account.databases.map((db) => ({ ...db, version: "production", num_tables: 0, file_size: 0 })),
            null,
            2,
          ),
        );
      case command.startsWith("d1 create "):
        account.databases.push({ uuid: id(false), name: args[2]! });
        return ok("✅ Successfully created DB");
      case command === "kv namespace list":
        return ok(
          JSON.stringify(
            account.namespaces.map((ns) => ({ ...ns, supports_url_encoding: true })),
            null,
            "  ",
          ),
        );
      case command.startsWith("kv namespace create "):
        account.namespaces.push({ id: id(true), title: args[3]! });
        return ok("✨ Success!");
      case command === "r2 bucket list":
        return ok(
          `Listing buckets...\n${account.buckets.map((b) => labelled({ name: b.name, creation_date: "2026-11-26T00:00:00.000Z" })).join("\n\n")}`,
        );
      case command.startsWith("r2 bucket create "):
        account.buckets.push({ name: args[3]!, rules: [] });
        return ok("✅ Created bucket");
      case command.startsWith("r2 bucket lifecycle list "): {
        const { rules } = bucketNamed(args[4]!);
        return ok(
          `Listing lifecycle rules for bucket '${args[4]}'...\n${rules.length ? renderRules(rules) : "There are no lifecycle rules."}`,
        );
      }
      case command.startsWith("r2 bucket lifecycle add "): {
        const [bucket, name, prefix] = args.slice(4);
        const rules = bucketNamed(bucket!).rules;
        if (rules.some((r) => r.id === name)) return fail(`✘ [ERROR] A rule named ${name} exists.`);
        const age = (flag: string) => ({ condition: { type: "Age" as const, maxAge: Number(option(args, flag)) * 86400 } });
        rules.push({
          id: name!,
          enabled: true,
          conditions: { prefix: prefix! },
          deleteObjectsTransition: age("--expire-days"),
          ...(option(args, "--abort-multipart-days") ? { abortMultipartUploadsTransition: age("--abort-multipart-days") } : {}),
        });
        return ok();
      }
      case command.startsWith("r2 bucket lifecycle remove "): {
        const bucket = bucketNamed(args[4]!);
        bucket.rules = bucket.rules.filter((r) => r.id !== option(args, "--name"));
        return ok();
      }
      case command === "d1 migrations list DB wrangler.production.toml":
        return ok(
          account.migrationsApplied
            ? "✅ No migrations to apply!"
            : "Migrations to be applied:\n┌───────────────────┐\n│ name              │\n├───────────────────┤\n│ 0000_baseline.sql │\n│ 0003_idempotency_leases.sql │\n└───────────────────┘",
        );
      case command === "d1 migrations apply DB wrangler.production.toml":
        account.migrationsApplied = true;
        return ok();
      case command === "secret list json wrangler.production.toml":
        if (!account.worker)
          return fail('✘ [ERROR] Worker "retro-game-collection-api" not found.\n\nIf this is a new Worker, run `wrangler deploy` first.');
        return ok(JSON.stringify(Object.keys(account.worker.secrets).map((name) => ({ name, type: "secret_text" }))));
      case command.startsWith("deploy wrangler.production.toml"): {
        const version = { id: id(false), tag: option(args, "--tag")! };
        account.worker ??= { secrets: {}, versions: [], live: "" };
        Object.assign(account.worker.secrets, extra.secrets);
        account.worker.versions.push(version);
        account.worker.live = version.id;
        return { ...ok(), url: "https://retro-game-collection-api.op.workers.dev" };
      }
      case command === "deployments status wrangler.production.toml":
        return ok(JSON.stringify({ id: "dep", versions: [{ version_id: account.worker!.live, percentage: 100 }], annotations: {} }));
      case command.startsWith("versions view "): {
        const version = account.worker!.versions.find((v) => v.id === args[2])!;
        return ok(JSON.stringify({ id: version.id, annotations: { "workers/tag": version.tag } }));
      }
      default:
        throw new Error(`the fake wrangler does not know: ${args.join(" ")}`);
    }
  };
}

interface User {
  userId: string;
  name: string;
}

/** The operator API of the deployed Worker: users, invites, and how often the catalog was imported. */
function fakeApi() {
  const api = {
    users: [] as User[],
    imports: 0,
    invites: 0,
    connected: [] as string[],
    connect: async (url: string, token: string) => {
      api.connected.push(`${url} ${token}`);
    },
    importCatalog: async () => {
      api.imports++;
    },
    fetch: async (path: string, { method = "GET", body }: { method?: string; body?: { name: string } } = {}) => {
      if (method === "GET" && path.startsWith("/users?")) return { items: api.users };
      if (method === "POST" && path === "/users") {
        const user = { userId: `usr_${api.users.length + 1}`, name: body!.name };
        api.users.push(user);
        return { ...user, plan: "PREMIUM" };
      }
      if (method === "POST" && path.endsWith("/invites")) {
        api.invites++;
        return { inviteId: "inv", url: "https://retro-game-collection-api.op.workers.dev/invite/tok", expiresAt: "2026-11-29T00:00:00Z" };
      }
      throw new Error(`the fake API does not know ${method} ${path}`);
    },
  };
  return api;
}

const TRACKED = readFileSync("wrangler.toml", "utf8");

/** The project's files as the setup sees them: wrangler.toml, and what the setup wrote (with modes). */
function memoryFiles() {
  const files = new Map<string, { text: string; mode?: number }>([["wrangler.toml", { text: TRACKED }]]);
  return {
    files,
    read: (name: string) => files.get(name)?.text,
    write: (name: string, text: string, { mode }: { mode?: number } = {}) => files.set(name, { text, mode }),
  };
}

interface SetupModule {
  setUpCloudflare: (input: object) => Promise<{ changes: string[]; url?: string; invite?: { url: string } }>;
  LIFECYCLE_RULES: { name: string }[];
  SECRET_NAMES: string[];
}
// @ts-expect-error: a plain ES module without type declarations
const { freePort } = (await import("../../scripts/lib/local.mjs")) as { freePort: () => Promise<number> };
// @ts-expect-error: likewise
const setup = (await import("../../scripts/lib/cloudflareSetup.mjs")) as SetupModule;
// @ts-expect-error: likewise
const config = (await import("../../scripts/lib/cloudflareConfig.mjs")) as {
  productionConfig: (text: string, options: object) => string;
  resourcesOf: (text: string) => { kv: { binding: string; title: string }[] };
};

const MUTATING =
  /^(d1 create|kv namespace create|r2 bucket create|r2 bucket lifecycle (add|remove)|d1 migrations apply|deploy (?!--dry-run))/;

/** One setup run against `account`: what it changed, which commands ran, what it answered. */
async function run(
  world: { account: Account; files: ReturnType<typeof memoryFiles>; api: ReturnType<typeof fakeApi> },
  options = {},
  build = "setup-build1",
) {
  const calls: string[] = [];
  const result = await setup.setUpCloudflare({
    wrangler: fakeWrangler(world.account, calls),
    api: world.api,
    files: world.files,
    // As the real fingerprint, it follows the config as well as the code.
    build: async (configText: string) => `${build}-${createHash("sha256").update(configText).digest("hex").slice(0, 8)}`,
    masterDigest: "catalog1",
    options: { rotate: [], invite: false, operatorName: "operator", masterName: "seed/master", dryRun: false, ...options },
  });
  return { ...result, calls, mutations: calls.filter((call) => MUTATING.test(call)) };
}

const newWorld = () => ({ account: emptyAccount(), files: memoryFiles(), api: fakeApi() });

describe("setup:cloudflare on an empty account", () => {
  it("creates every resource, writes the ids into the untracked config, deploys with generated secrets, imports and invites", async () => {
    const world = newWorld();
    const first = await run(world);
    const { account, files, api } = world;

    expect(account.databases.map((db) => db.name)).toEqual(["retro-games"]);
    expect(account.namespaces.map((ns) => ns.title)).toEqual(["retro-game-collection-api-kv", "retro-game-collection-api-oauth-kv"]);
    expect(account.buckets.map((b) => b.name)).toEqual(["retro-games-exports"]);
    expect(account.buckets[0]!.rules.map((r) => r.id)).toEqual(setup.LIFECYCLE_RULES.map((r) => r.name));
    expect(account.migrationsApplied).toBe(true);

    const written = files.read("wrangler.production.toml")!;
    expect(written).toContain(`database_id = "${account.databases[0]!.uuid}"`);
    for (const ns of account.namespaces) expect(written).toContain(`id = "${ns.id}"`);
    expect(written).not.toContain("00000000-0000-0000-0000-000000000000");
    expect(written).not.toMatch(/id = "(0{32}|1{32})"/);
    expect(files.read("wrangler.toml")).toBe(TRACKED); // the tracked file is never written

    const secrets = account.worker!.secrets;
    expect(Object.keys(secrets).sort()).toEqual([...setup.SECRET_NAMES].sort());
    for (const value of Object.values(secrets)) expect(value).toMatch(/^[\w-]{43}$/); // 32 random bytes
    expect(new Set(Object.values(secrets)).size).toBe(3);
    for (const call of first.calls) for (const value of Object.values(secrets)) expect(call).not.toContain(value);
    expect(files.files.get(".production-admin-token")).toEqual({ text: `${secrets.ADMIN_TOKEN}\n`, mode: 0o600 });

    expect(first.url).toBe("https://retro-game-collection-api.op.workers.dev");
    expect(api.connected).toEqual([`${first.url} ${secrets.ADMIN_TOKEN}`]);
    expect(api.imports).toBe(1);
    expect(api.users).toEqual([{ userId: "usr_1", name: "operator" }]);
    expect(first.invite?.url).toContain("/invite/");
    expect(first.changes).toHaveLength(1 + 2 + 1 + 4 + 1 + 1 + 1 + 3); // D1, KV, R2, rules, config, migrations, deploy, import/account/invite
  });

  it("changes nothing on a second run: only reads, no deploy, no import, no new account or invite", async () => {
    const world = newWorld();
    await run(world);
    const secretsBefore = { ...world.account.worker!.secrets };
    const second = await run(world);
    expect(second.changes).toEqual([]);
    expect(second.mutations).toEqual([]);
    expect(world.account.worker!.versions).toHaveLength(1);
    expect(world.account.worker!.secrets).toEqual(secretsBefore);
    expect(world.api).toMatchObject({ imports: 1, invites: 1 });
    expect(world.api.users).toHaveLength(1);
    expect(second.url).toBe("https://retro-game-collection-api.op.workers.dev");
  });

  it("lists what it would do in a dry run, and does none of it", async () => {
    const world = newWorld();
    const dry = await run(world, { dryRun: true });
    expect(dry.mutations).toEqual([]);
    expect(world.account).toEqual(emptyAccount());
    expect([...world.files.files.keys()]).toEqual(["wrangler.toml"]);
    expect(dry.changes).toContain("create the D1 database retro-games");
    expect(dry.changes).toContain("write wrangler.production.toml");
    expect(dry.changes.at(-1)).toMatch(/^then apply the pending migrations/);
  });
});

describe("setup:cloudflare on an account set up before", () => {
  it("redeploys a changed build, and only that", async () => {
    const world = newWorld();
    await run(world);
    const upgrade = await run(world, {}, "setup-build2");
    expect(upgrade.mutations).toEqual([expect.stringMatching(/^deploy --config wrangler.production.toml --tag setup-build2-\w+$/)]);
    expect(world.account.worker!.versions.map((v) => v.tag.split("-")[1])).toEqual(["build1", "build2"]);
  });

  it("applies new migrations, puts an altered lifecycle rule right, and leaves the others", async () => {
    const world = newWorld();
    await run(world);
    world.account.migrationsApplied = false; // a pulled upgrade brought a migration
    const parts = world.account.buckets[0]!.rules.find((r) => r.id === "expire-export-parts")!;
    parts.deleteObjectsTransition!.condition.maxAge = 7 * 86400;
    const again = await run(world);
    expect(again.mutations).toEqual([
      "r2 bucket lifecycle remove retro-games-exports --name expire-export-parts",
      "r2 bucket lifecycle add retro-games-exports expire-export-parts exports/parts/ --expire-days 30 --abort-multipart-days 1 --force",
      "d1 migrations apply DB --remote --config wrangler.production.toml",
    ]);
  });

  it("rotates only the secrets --rotate names, keeping the local operator token in step", async () => {
    const world = newWorld();
    await run(world);
    const before = { ...world.account.worker!.secrets };
    const rotated = await run(world, { rotate: ["ADMIN_TOKEN"] });
    const after = world.account.worker!.secrets;
    expect(rotated.mutations).toHaveLength(1);
    expect(after.ADMIN_TOKEN).not.toBe(before.ADMIN_TOKEN);
    expect(after.EXPORT_SIGNING_SECRET).toBe(before.EXPORT_SIGNING_SECRET);
    expect(after.SESSION_SECRET).toBe(before.SESSION_SECRET);
    expect(world.files.read(".production-admin-token")).toBe(`${after.ADMIN_TOKEN}\n`);
  });

  it("serves a --domain as a Custom Domain with PUBLIC_BASE_URL, and remembers it", async () => {
    const world = newWorld();
    await run(world);
    const moved = await run(world, { domain: "games.example.org" });
    const written = world.files.read("wrangler.production.toml")!;
    expect(written).toContain('routes = [{ pattern = "games.example.org", custom_domain = true }]');
    expect(written).toMatch(/\[vars\]\nPUBLIC_BASE_URL = "https:\/\/games\.example\.org"/);
    expect(moved.url).toBe("https://games.example.org");
    expect(moved.mutations).toHaveLength(1); // the deploy
    expect((await run(world)).changes).toEqual([]);
  });

  it("finds resources made by hand by their names", async () => {
    const world = newWorld();
    const titles = config.resourcesOf(TRACKED).kv.map((kv) => kv.title);
    world.account.databases.push({ uuid: "d1-made-by-hand", name: "retro-games" });
    world.account.namespaces.push(...titles.map((title, i) => ({ id: `kv${i}`, title })), { id: "other", title: "KV" });
    world.account.buckets.push({ name: "retro-games-exports", rules: [] });
    const first = await run(world);
    expect(first.mutations.filter((call) => /create/.test(call))).toEqual([]);
    expect(world.files.read("wrangler.production.toml")).toContain('database_id = "d1-made-by-hand"');
  });

  it("says what to do when wrangler is not logged in, or the operator token is only on Cloudflare", async () => {
    const world = newWorld();
    world.account.loggedIn = false;
    await expect(run(world)).rejects.toThrow("run `npx wrangler login` first");
    world.account.loggedIn = true;
    await run(world);
    world.files.files.delete(".production-admin-token");
    await expect(run(world)).rejects.toThrow(/no copy \(\.production-admin-token\).*--rotate ADMIN_TOKEN/);
  });
});

describe("the production config", () => {
  it("keeps Durable Object bindings and migrations the tracked file gains", () => {
    const withObject = `${TRACKED}\n[[durable_objects.bindings]]\nname = "ACCOUNTING"\nclass_name = "UserAccounting"\n\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["UserAccounting"]\n`;
    const written = config.productionConfig(withObject, { ids: { d1: "d1id", kv: { KV: "kvid", OAUTH_KV: "oauthid" } } });
    expect(written).toContain('[[durable_objects.bindings]]\nname = "ACCOUNTING"');
    expect(written).toContain('new_sqlite_classes = ["UserAccounting"]');
    expect(written).toContain('database_id = "d1id"');
  });

  it("is valid for wrangler: deploy --dry-run builds the Worker with it", () => {
    // Next to wrangler.toml, as the setup writes it, so its relative paths (main, assets, migrations) hold.
    const path = `wrangler.test-${process.pid}.toml`;
    const outdir = mkdtempSync(join(tmpdir(), "rgc-setup-dry-"));
    writeFileSync(
      path,
      config.productionConfig(TRACKED, {
        ids: { d1: "6f0e1b2c-0000-4000-8000-000000000001", kv: { KV: "a".repeat(32), OAUTH_KV: "b".repeat(32) } },
        domain: "games.example.org",
      }),
    );
    try {
      const result = spawnSync(
        process.execPath,
        ["node_modules/wrangler/bin/wrangler.js", "deploy", "--dry-run", "--config", path, "--outdir", outdir],
        {
          encoding: "utf8",
          env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
        },
      );
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain("--dry-run: exiting now.");
      expect(result.stdout).toContain(`env.KV (${"a".repeat(32)})`);
      expect(result.stdout).toContain(`env.PUBLIC_BASE_URL ("https://games.example.org")`);
    } finally {
      rmSync(path, { force: true });
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("scripts/setup-cloudflare.mjs", () => {
  const script = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["scripts/setup-cloudflare.mjs", ...args], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ...env },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });

  it("prints its help", async () => {
    const run = await script(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--domain.*--rotate.*--invite.*--master.*--dry-run.*--local/s);
  });

  // The import of the whole seed/master through the same importCatalog is the served tests' (their
  // `npm run dev` seeds it): here a slice of it, through --master.
  it("--local sets up local state through wrangler dev as on Cloudflare, and a second run changes nothing", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "rgc-setup-local-"));
    const master = writeMasterSlice(join(stateDir, "master"), "ゼルダ");
    // Secrets of its own, so the project's local secrets are neither read nor written.
    const env = {
      STATE_DIR: stateDir,
      PORT: String(await freePort()),
      ADMIN_TOKEN: "local-setup",
      EXPORT_SIGNING_SECRET: "s1",
      SESSION_SECRET: "s2",
    };
    try {
      const first = await script(["--local", "--master", master], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain(`now: import the master data of ${master}`);
      expect(first.stdout).toContain("Changed: 3 thing(s).");
      expect(first.stdout).toMatch(/Open http:\/\/localhost:\d+\/invite\/\S+ to register your passkey/);
      const second = await script(["--local", "--master", master], env);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("Nothing to change");
      expect(second.stdout).toContain(first.stdout.match(/Your account: (usr_\w+)/)![1]);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 240_000);

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--rotate", "PASSWORD"], "--rotate: unknown secret PASSWORD"],
    [["--domain", "https://games.example.org"], "is not a host name"],
    [["--local", "--dry-run"], "--local takes none of"],
    [["--master", "docs"], "--master: docs holds no games.ndjson"],
    [["extra"], "Unexpected argument 'extra'"],
  ])("refuses %j with exit code 2 and no stack trace", async (args, message) => {
    const run = await script(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\bat .*\.m?js:\d+/);
  });
});
