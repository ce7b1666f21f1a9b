// startWrangler (scripts/lib/devServer.mjs), behind `npm run dev`, the setup's --local mode and the
// benchmarks, started once here on a fresh state folder with secrets of its own, and checked from
// the outside:
// - applyMigrations built the fresh database in one go and recorded every migration in
//   d1_migrations as `wrangler d1 migrations apply` does, so the next start applies none.
// - the secrets reach the Worker through a private file, never wrangler's command line, which every
//   user of the machine can read in `ps`; the file is gone once wrangler exits.
// - read calls leave the local D1 database as it was, while getAccount counts every one of them
//   (the counts live in each user's accounting object). What is compared is the database's content,
//   read from its file: every table but `_cf_METADATA`, where the local runtime's storage advances
//   its own commit counter (the bookmark of D1 sessions) on every query, a read included, even for a
//   bare `SELECT 1`.
// The catalog is a slice of seed/master's real rows (all its platforms, companies and genres, but
// only the games titled ゼルダ), imported through the operator API as `npm run dev`'s seed imports
// the whole of it, and the user and key are made there too: the whole catalog would cost the
// seed's import for nothing these checks read.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { masterSliceLines, SLICE_DATASETS } from "../support/masterSlice";

// @ts-expect-error: a plain ES module without type declarations
const { freePort, projectRoot } = (await import("../../scripts/lib/local.mjs")) as { freePort: () => Promise<number>; projectRoot: string };
// @ts-expect-error: likewise
const { applyMigrations, startWrangler, waitUntilServing } = (await import("../../scripts/lib/devServer.mjs")) as {
  applyMigrations: (stateDir: string) => void;
  startWrangler: (options: object) => import("node:child_process").ChildProcess;
  waitUntilServing: (child: object, url: string, timeoutMs: number) => Promise<void>;
};
// @ts-expect-error: likewise
const { d1File } = (await import("../../scripts/lib/localState.mjs")) as { d1File: (stateDir: string) => string };

const SECRETS = { adminToken: "dev-test-token-$HOME", exportSigningSecret: "dev-test-signing", sessionSecret: "dev-test-session" };
const SEARCHED = "ゼルダ";
const SEARCH = `searchGames?query=${encodeURIComponent(SEARCHED)}`;
const READ_CALLS = ["getLibrary", SEARCH, "listGenres", "getWishlist"];

const stateDir = mkdtempSync(join(tmpdir(), "rgc-devserver-"));
let url: string;
let wrangler: import("node:child_process").ChildProcess;

async function stopWrangler() {
  if (wrangler.exitCode !== null || wrangler.signalCode !== null) return;
  const exited = new Promise((resolve) => wrangler.once("exit", resolve));
  wrangler.kill("SIGTERM");
  await exited;
}

beforeAll(async () => {
  applyMigrations(stateDir);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  wrangler = startWrangler({ port, stateDir, ...SECRETS, quiet: true });
  await waitUntilServing(wrangler, url, 120_000);
}, 180_000);

afterAll(async () => {
  if (wrangler) await stopWrangler();
  rmSync(stateDir, { recursive: true, force: true });
});

/** What `read` finds in a copy of the D1 database's files, which the running server leaves alone. */
function readD1<T>(read: (db: DatabaseSync) => T): T {
  const file = d1File(stateDir);
  const copy = join(mkdtempSync(join(tmpdir(), "rgc-d1-copy-")), basename(file));
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  }
  const db = new DatabaseSync(copy, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
    rmSync(dirname(copy), { recursive: true, force: true });
  }
}

it("built the fresh database with every migration recorded as wrangler records them, so the next start applies none", () => {
  const files = readdirSync(join(projectRoot, "migrations"))
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const recorded = readD1((db) => db.prepare("SELECT id, name FROM d1_migrations ORDER BY id").all());
  expect(recorded).toEqual(files.map((name, index) => ({ id: index + 1, name })));
});

let secretsFile = "";

it("passes the secrets in a 0600 file, not on the command line, and the Worker has them", async () => {
  const commandLine = readFileSync(`/proc/${wrangler.pid}/cmdline`, "utf8").split("\0");
  for (const value of Object.values(SECRETS)) expect(commandLine.join(" ")).not.toContain(value);
  secretsFile = commandLine[commandLine.indexOf("--env-file") + 1]!;
  expect(dirname(secretsFile)).toMatch(/rgc-dev-secrets-\w+$/);
  expect(statSync(secretsFile).mode & 0o777).toBe(0o600);

  // The token reached the Worker verbatim: `$HOME` was not expanded on the way.
  const users = await fetch(`${url}/admin/v1/users?limit=1`, { headers: { Authorization: `Bearer ${SECRETS.adminToken}` } });
  expect(users.status).toBe(200);
});

/** Calls the operator API and answers its JSON; fails the test unless it succeeded. */
async function operator(path: string, body: string | object, contentType = "application/json") {
  const response = await fetch(`${url}/admin/v1${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SECRETS.adminToken}`, "Content-Type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const answer = await response.text();
  expect(response.ok, `${path}: ${answer}`).toBe(true);
  return JSON.parse(answer) as Record<string, unknown>;
}

describe("40 read calls against the served Worker", () => {
  let apiKey: string;
  let gameId: number;

  beforeAll(async () => {
    for (const dataset of SLICE_DATASETS) {
      await operator(`/master/${dataset}`, `${masterSliceLines(dataset, SEARCHED).join("\n")}\n`, "application/x-ndjson");
    }
    gameId = (JSON.parse(masterSliceLines("games", SEARCHED)[0]!) as { gameId: number }).gameId;
    const user = await operator("/users", { plan: "PREMIUM", name: "read calls" });
    apiKey = (await operator(`/users/${user.userId}/keys`, { preset: "standard", name: "read calls" })).apiKey as string;
  }, 60_000);

  /** Every table of the D1 database but the runtime's commit counter, as one digest. */
  function d1Content(): string {
    return readD1((db) => {
      const digest = createHash("sha256");
      const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name <> '_cf_METADATA' ORDER BY name").all();
      for (const table of tables) {
        digest.update(String(table.sql));
        for (const row of db.prepare(`SELECT * FROM "${table.name}"`).all()) digest.update(JSON.stringify(row));
      }
      return digest.digest("hex");
    });
  }

  /** What this test reads of getAccount's answer. */
  interface Account {
    usage: { used: number };
  }

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${url}/rest/v1/${path}`, { ...init, headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" } });

  it("leave the D1 database as it was, and getAccount counts every one of them", async () => {
    const before = d1Content();
    const usedBefore = ((await (await call("getAccount")).json()) as Account).usage.used;
    for (let round = 0; round < 10; round++) {
      for (const path of READ_CALLS) {
        const response = await call(path);
        expect(response.status, path).toBe(200);
        if (path === SEARCH) expect(((await response.json()) as { items: unknown[] }).items.length, "games found").toBeGreaterThan(0);
      }
    }
    const account = (await (await call("getAccount")).json()) as Account;
    expect(account.usage.used, "the 40 reads and this getAccount").toBe(usedBefore + 41);
    expect(d1Content()).toBe(before);
  });

  it("while a write changes it (the comparison sees a change)", async () => {
    const before = d1Content();
    const wish = await call("addToWishlist", { method: "POST", body: JSON.stringify({ gameId }) });
    expect(wish.status, await wish.clone().text()).toBeLessThan(300);
    expect(d1Content()).not.toBe(before);
  });
});

it("removes the secrets file when wrangler exits", async () => {
  expect(existsSync(secretsFile)).toBe(true);
  await stopWrangler();
  expect(existsSync(dirname(secretsFile))).toBe(false);
});
