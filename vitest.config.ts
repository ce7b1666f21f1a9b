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

export default defineConfig(async () => ({
  test: {
    reporters: ["default", "./test/setup/closingLine.ts"],
    // Every tool call logs a line; show a test's logs only when it fails.
    silent: "passed-only" as const,
    projects: [
      {
        plugins: [
          withoutMapsWithoutSources,
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ADMIN_TOKEN: "test-admin-token",
                EXPORT_SIGNING_SECRET: "test-export-signing-secret",
                SESSION_SECRET: "test-session-secret",
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
              },
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: [NODE_TESTS],
          setupFiles: ["./test/setup/applyMigrations.ts"],
          globalSetup: ["./test/setup/devServer.ts"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
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
