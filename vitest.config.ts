import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

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
