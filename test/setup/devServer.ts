// Global setup (runs in Node, not workerd): starts the real `npm run dev` server on a free port
// with its own state folder, so the e2e test calls it over HTTP exactly as a user would.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// Well above e2e.test.ts's 60 s bound on the start, so that a slow start fails there, with its
// measured time, rather than here.
async function waitForCatalog(url: string, child: ChildProcess, output: () => string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited early:\n${output()}`);
    try {
      if ((await fetch(`${url}/rest/v1/tools`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm run dev did not serve the catalog within ${timeoutMs} ms:\n${output()}`);
}

/** Resolves once the dev server has printed the seeded demo keys. */
async function waitForDemoKeys(child: ChildProcess, output: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!/Try: curl/.test(output())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no demo keys printed:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export default async function setup(project: TestProject) {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "rgc-e2e-"));
  const adminToken = randomBytes(18).toString("base64url");
  // Every secret npm run dev needs, so that it generates none into the project's checkout.
  const secrets = {
    ADMIN_TOKEN: adminToken,
    EXPORT_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    SESSION_SECRET: randomBytes(32).toString("base64url"),
  };
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const startedAt = Date.now();
  const child = spawn(process.execPath, ["scripts/dev.mjs"], {
    env: { ...process.env, PORT: String(port), STATE_DIR: stateDir, ...secrets },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (chunk) => (log += chunk));
  child.stderr!.on("data", (chunk) => (log += chunk));
  const stop = () => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    await waitForCatalog(url, child, () => log);
    const catalogMs = Date.now() - startedAt;
    await waitForDemoKeys(child, () => log);
    project.provide("devServerUrl", url);
    project.provide("devServerAdminToken", adminToken);
    project.provide("devServerStartMs", catalogMs);
    project.provide("devServerLog", log);
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}
