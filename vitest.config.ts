import { readFileSync } from "node:fs";
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

/** Tests that must run in Node (they spawn processes, e.g. the operator CLI): `*.node.test.ts`. */
const NODE_TESTS = "test/**/*.node.test.ts";
/** Workers tests that call the real `npm run dev` over HTTP: only their project starts it. */
const SERVED_TESTS = "test/served/**/*.test.ts";

const migrations = await readD1Migrations("./migrations");

/** A project of tests that run inside workerd against the local bindings, migrations applied. */
function workersProject(name: string, test: { include?: string[]; exclude?: string[]; globalSetup?: string[] }) {
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

export default defineConfig(() => ({
  test: {
    reporters: ["default", "./test/setup/closingLine.ts"],
    // Every tool call logs a line; show a test's logs only when it fails.
    silent: "passed-only" as const,
    projects: [
      workersProject("workers", { exclude: [NODE_TESTS, SERVED_TESTS] }),
      workersProject("served", { include: [SERVED_TESTS], globalSetup: ["./test/setup/devServer.ts"] }),
      {
        test: {
          name: "node",
          environment: "node",
          include: [NODE_TESTS],
          testTimeout: 20_000,
        },
      },
    ],
  },
}));
