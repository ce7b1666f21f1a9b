// `npm run dev` on a free port with a state folder of its own, for checks that need the real server
// and its demo account (`npm run check:docs`): started, read for the demo keys it prints, stopped.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "./local.mjs";

const DEMO_KEY = /^\s+(standard|viewOnly|full)\s+(rgc_[A-Za-z0-9]{48})/gm;
/** npm run dev prints this line last, once the demo account and its keys exist. */
const SEEDED = /^Try: curl/m;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(condition, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`npm run dev printed no demo keys within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Resolves to `{ url, adminToken, keys: { standard, viewOnly, full }, stop }` once the demo account
 * is seeded. Its own ADMIN_TOKEN and EXPORT_SIGNING_SECRET keep it off the project's .dev.vars.
 */
export async function startDemoServer({ timeoutMs = 180_000 } = {}) {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "rgc-demo-"));
  const adminToken = randomBytes(18).toString("base64url");
  const child = spawn(process.execPath, ["scripts/dev.mjs"], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      STATE_DIR: stateDir,
      ADMIN_TOKEN: adminToken,
      EXPORT_SIGNING_SECRET: randomBytes(32).toString("base64url"),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: stop() ends wrangler and workerd with it
  });
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => SEEDED.test(log), child, timeoutMs);
  } catch (error) {
    await stop();
    throw new Error(`${error.message}:\n${log}`);
  }
  const keys = Object.fromEntries([...log.matchAll(DEMO_KEY)].map(([, label, key]) => [label, key]));
  return { url: `http://127.0.0.1:${port}`, adminToken, keys, stop };
}
