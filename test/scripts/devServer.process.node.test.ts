// startWrangler (scripts/lib/devServer.mjs), behind `npm run dev`, the setup's --local mode and the
// benchmarks: the secrets reach the Worker through a private file, never wrangler's command line,
// which every user of the machine can read in `ps`. And `npm run dev` on a fresh state prints what a
// newcomer needs: no stack trace, no warning about things they never asked for.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";

// @ts-expect-error: a plain ES module without type declarations
const { freePort } = (await import("../../scripts/lib/local.mjs")) as { freePort: () => Promise<number> };
// @ts-expect-error: likewise
const { applyMigrations, startWrangler, waitUntilServing } = (await import("../../scripts/lib/devServer.mjs")) as {
  applyMigrations: (stateDir: string) => void;
  startWrangler: (options: object) => import("node:child_process").ChildProcess;
  waitUntilServing: (child: object, url: string, timeoutMs: number) => Promise<void>;
};
// @ts-expect-error: likewise
const { startDemoServer } = (await import("../../scripts/lib/demoServer.mjs")) as {
  startDemoServer: (options: object) => Promise<{ log: () => string; keys: Record<string, string>; stop: () => Promise<void> }>;
};

it("passes the secrets in a 0600 file that is gone when wrangler exits, and the Worker has them", async () => {
  const stateDir = mkdtempSync(join(tmpdir(), "rgc-devserver-"));
  const secrets = { adminToken: "dev-test-token-$HOME", exportSigningSecret: "dev-test-signing", sessionSecret: "dev-test-session" };
  applyMigrations(stateDir);
  const port = await freePort();
  const child = startWrangler({ port, stateDir, ...secrets, quiet: true });
  let file = "";
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilServing(child, url, 120_000);

    const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
    for (const value of Object.values(secrets)) expect(commandLine.join(" ")).not.toContain(value);
    file = commandLine[commandLine.indexOf("--env-file") + 1]!;
    expect(dirname(file)).toMatch(/rgc-dev-secrets-\w+$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // The token reached the Worker verbatim: `$HOME` was not expanded on the way.
    const users = await fetch(`${url}/admin/v1/users?limit=1`, { headers: { Authorization: `Bearer ${secrets.adminToken}` } });
    expect(users.status).toBe(200);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(stateDir, { recursive: true, force: true });
  }
  expect(existsSync(dirname(file))).toBe(false);
}, 180_000);

it("npm run dev on a fresh state prints no stack trace and no warning, only the server, the seed and the demo account", async () => {
  const server = await startDemoServer({ withInvite: true, timeoutMs: 240_000 });
  try {
    const log = server.log();
    expect(log).not.toMatch(/^\s+at /m); // a stack frame
    expect(log).not.toMatch(/ENOTFOUND|Request\.cf|responseMode|Scheduled Workers|WARNING|\[wrangler:(warn|error)\]/);
    expect(log).toMatch(/^Serving on http:\/\/127\.0\.0\.1:\d+/m);
    expect(Object.keys(server.keys)).toEqual(["standard", "viewOnly", "full"]);
  } finally {
    await server.stop();
  }
}, 300_000);
