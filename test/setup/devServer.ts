// Global setup (runs in Node): starts the real `npm run dev` on a free port with its own state
// folder and secrets, for the served tests to call over HTTP exactly as a user would. It does not
// wait for the server: the other projects' tests run while it migrates and seeds the catalog, and
// the served tests wait for it (test/support/servedDevServer.ts). What they need is written to a
// folder they are handed: the server's output as it comes, when it first served, and its exit.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { SERVED_FILES } from "../support/servedFiles";

// @ts-expect-error: a plain ES module without type declarations
const { freePort } = (await import("../../scripts/lib/local.mjs")) as { freePort: () => Promise<number> };

/** Polls until the Worker answers, then records how long after the start that was. */
async function recordFirstAnswer(url: string, dir: string, startedAt: number, running: () => boolean) {
  while (running()) {
    try {
      if ((await fetch(`${url}/rest/v1/tools`)).ok) {
        writeFileSync(join(dir, SERVED_FILES.servedAfterMs), String(Date.now() - startedAt));
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export default async function setup(project: TestProject) {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "rgc-e2e-"));
  const dir = mkdtempSync(join(tmpdir(), "rgc-e2e-out-"));
  const adminToken = randomBytes(18).toString("base64url");
  // Every secret npm run dev needs, so that it generates none into the project's checkout.
  const secrets = {
    ADMIN_TOKEN: adminToken,
    EXPORT_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    SESSION_SECRET: randomBytes(32).toString("base64url"),
  };
  const url = `http://127.0.0.1:${port}`;
  const startedAt = Date.now();
  const output = join(dir, SERVED_FILES.output);
  writeFileSync(output, "");
  const child = spawn(process.execPath, ["scripts/dev.mjs"], {
    env: { ...process.env, PORT: String(port), STATE_DIR: stateDir, ...secrets },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // Until the teardown, which removes the folder.
  let recording = true;
  child.stdout!.on("data", (chunk) => recording && appendFileSync(output, chunk));
  child.stderr!.on("data", (chunk) => recording && appendFileSync(output, chunk));
  child.on("exit", (code, signal) => recording && writeFileSync(join(dir, SERVED_FILES.exit), `${code ?? signal}`));
  void recordFirstAnswer(url, dir, startedAt, () => recording && child.exitCode === null && child.signalCode === null);
  project.provide("devServerUrl", url);
  project.provide("devServerAdminToken", adminToken);
  project.provide("devServerDir", dir);
  return () => {
    recording = false;
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  };
}
