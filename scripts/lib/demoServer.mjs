// `npm run dev` on a free port with a state folder of its own, for checks that need the real server
// and its demo account (`npm run check:docs`, `npm run check:pages`): started, read for the demo
// keys and the invite link it prints, stopped.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, projectRoot } from "./local.mjs";

const DEMO_KEY = /^\s+(standard|viewOnly|full)\s+(rgc_[A-Za-z0-9]{48})/gm;
/** npm run dev prints this line once the demo account and its keys exist. */
const SEEDED = /^Try: curl/m;
/** The demo account's invite link: the first http URL of the line starting with "Settings:". */
const INVITE_LINK = /^Settings:.*?(https?:\/\/\S+)/m;
/** How long the invite line may lag behind the keys: it is printed right after them. */
const INVITE_LAG_MS = 15_000;

async function waitFor(condition, wanted, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`npm run dev printed no demo ${wanted} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Resolves to `{ url, adminToken, keys: { standard, viewOnly, full }, inviteUrl, stateDir, log, stop }`
 * once the demo account is seeded (`stateDir`: its local state, removed by `stop`); `withInvite` also waits for its invite link. `log()` is the server's output
 * so far. Its own ADMIN_TOKEN, EXPORT_SIGNING_SECRET and SESSION_SECRET keep it off the project's local secrets.
 */
export async function startDemoServer({ timeoutMs = 180_000, withInvite = false } = {}) {
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
      SESSION_SECRET: randomBytes(32).toString("base64url"),
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
    await waitFor(() => SEEDED.test(log), "keys", child, timeoutMs);
    if (withInvite) await waitFor(() => INVITE_LINK.test(log), 'invite link (a line "Settings: open <url> ...")', child, INVITE_LAG_MS);
  } catch (error) {
    await stop();
    throw new Error(`${error.message}:\n${log}`);
  }
  const keys = Object.fromEntries([...log.matchAll(DEMO_KEY)].map(([, label, key]) => [label, key]));
  const inviteUrl = log.match(INVITE_LINK)?.[1];
  return { url: `http://127.0.0.1:${port}`, adminToken, keys, inviteUrl, stateDir, log: () => log, stop };
}
