import { accessSync, constants, readFileSync, statfsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

/**
 * Test-only dependencies whose published sourcemaps name TypeScript sources the packages do not
 * ship: Vite would warn "points to missing source files" once per module. Loaded without their
 * maps, their stack frames name the shipped JavaScript, which is what there is to read.
 */
const MAPS_WITHOUT_SOURCES = /\/node_modules\/(@modelcontextprotocol\/sdk|oauth4webapi)\/.*\.js$/;

const withoutMapsWithoutSources: Plugin = {
  name: "without-maps-without-sources",
  enforce: "pre",
  load: (id) => (MAPS_WITHOUT_SOURCES.test(id) ? { code: readFileSync(id, "utf8"), map: null } : null),
};

/** Tests that must run in Node (they read the repository or run Node-only libraries): `*.node.test.ts`. */
const NODE_TESTS = "test/**/*.node.test.ts";
/**
 * Node tests that start processes (the operator CLI, wrangler, `npm run dev`): `*.process.node.test.ts`.
 * They are the slowest files and mostly wait on their children, so they have a project of their own
 * that `npm test` runs beside the others and `npm run test:fast` leaves out.
 */
const PROCESS_TESTS = "test/**/*.process.node.test.ts";
/**
 * Node tests that call the real `npm run dev` over HTTP: only their project starts it, without
 * waiting (test/setup/devServer.ts), so the other projects run while it seeds the catalog.
 */
const SERVED_TESTS = "test/served/**/*.test.ts";
/**
 * Workers tests that search real catalog rows (hand-picked titles, catalog-like ids, DAT imports):
 * their fixtures give the same ids and titles other rows, so each file keeps storage of its own.
 * Every other workers file shares one runtime and its storage per worker (`isolate: false`): its
 * fixtures use ids and marker words no other file uses, and each test makes its own users.
 */
const CATALOG_TESTS = "test/tools/games/gamesSearch*.test.ts";

/**
 * The local runtime keeps the tests' D1, KV, R2 and Durable Object storage in throwaway SQLite files
 * under the temporary folder, and the dev servers the served and process tests start keep their
 * state folders there too. On a folder in memory their writes cost no disk I/O: the workers tests
 * take about 30 s of CPU less (docs/development.md). So, unless TMPDIR names a folder already, the
 * tests use Linux's /dev/shm when it is writable and has room to spare (Docker gives 64 MB).
 */
function temporaryFolderInMemory() {
  const SHM = "/dev/shm";
  if (process.env.TMPDIR) return;
  try {
    accessSync(SHM, constants.W_OK);
    const { bavail, bsize } = statfsSync(SHM);
    if (bavail * bsize >= 2 * 1024 ** 3) process.env.TMPDIR = SHM;
  } catch {
    // no /dev/shm here (macOS, Windows): the system's temporary folder it is
  }
}

temporaryFolderInMemory();
const migrations = await readD1Migrations("./migrations");

/** A project of tests that run inside workerd against the local bindings, migrations applied. */
function workersProject(name: string, test: { include?: string[]; exclude?: string[]; globalSetup?: string[]; isolate?: boolean }) {
  return {
    plugins: [
      withoutMapsWithoutSources,
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            ADMIN_TOKEN: "test-admin-token",
            EXPORT_SIGNING_SECRET: "test-export-signing-secret",
            SESSION_SECRET: "test-session-secret",
            TEST_MIGRATIONS: migrations,
          },
        },
      }),
    ],
    test: {
      name,
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/setup/applyMigrations.ts"],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      ...test,
    },
  };
}

/**
 * A project of tests that run in plain Node. Their files share module instances per worker
 * (`isolate: false`): none changes a global another reads, and each loads Vite's transform of the
 * scripts once instead of once per file.
 */
function nodeProject(name: string, test: { include: string[]; exclude?: string[]; globalSetup?: string[] }) {
  return { test: { name, environment: "node", testTimeout: 20_000, isolate: false, ...test } };
}

export default defineConfig(() => ({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, so
    // every file waited for the one before. One more than the cores keeps them busy while a worker
    // waits (on a dev server, a child process, a burst window); each further worker of a workers
    // project is one more runtime to start and feed modules (docs/development.md has the runs).
    maxWorkers: Math.min(8, availableParallelism() + 1),
    reporters: ["default", "./test/setup/closingLine.ts"],
    // Every tool call logs a line; show a test's logs only when it fails.
    silent: "passed-only" as const,
    projects: [
      workersProject("workers", { exclude: [NODE_TESTS, SERVED_TESTS, CATALOG_TESTS], isolate: false }),
      workersProject("catalog", { include: [CATALOG_TESTS] }),
      nodeProject("node", { include: [NODE_TESTS], exclude: [PROCESS_TESTS] }),
      nodeProject("served", { include: [SERVED_TESTS], globalSetup: ["./test/setup/devServer.ts"] }),
      nodeProject("processes", { include: [PROCESS_TESTS] }),
    ],
  },
}));
