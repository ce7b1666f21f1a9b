#!/usr/bin/env node
// `npm run dev`: apply local D1 migrations, serve the Worker with local D1/KV/R2, and seed a demo
// account (printing its keys once) when the database is empty. Honours PORT, ADMIN_TOKEN, STATE_DIR.
import { spawn, spawnSync } from "node:child_process";
import { adminToken, baseUrl, port, projectRoot, wranglerBin } from "./lib/local.mjs";
import { databaseIsEmpty, seedDemoAccount, seedDemoMasterData } from "./lib/seed.mjs";

const stateDir = process.env.STATE_DIR ?? ".wrangler/state";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const wrangler = (args, options) => spawnSync(process.execPath, [wranglerBin(), ...args], { cwd: projectRoot, env, ...options });

function applyMigrations() {
  const result = wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    process.exit(result.status ?? 1);
  }
}

async function waitUntilServing(child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl()}/rest/v1/tools`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer within ${timeoutMs / 1000} s`);
}

function printDemoAccount({ user, keys }) {
  console.log(`\nDemo account ${user.userId} (${user.plan}). Its API keys are shown only now:`);
  for (const key of keys) console.log(`  ${key.label.padEnd(9)} ${key.apiKey}   scopes: ${key.scopes.join(", ")}`);
  console.log(`Try: curl -H "Authorization: Bearer <key>" ${baseUrl()}/rest/v1/getAccount\n`);
}

const token = adminToken({ create: true });
applyMigrations();
const child = spawn(
  process.execPath,
  [wranglerBin(), "dev", "--ip", "127.0.0.1", "--port", port(), "--persist-to", stateDir, "--var", `ADMIN_TOKEN:${token}`, "--show-interactive-dev-session=false"],
  { cwd: projectRoot, env, stdio: ["ignore", "inherit", "inherit"] },
);
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));

try {
  await waitUntilServing(child);
  console.log(`Serving on ${baseUrl()} (catalog: /rest/v1/tools, reference: /docs)`);
  if (await databaseIsEmpty()) {
    const imported = await seedDemoMasterData();
    console.log(`Seeded demo master data: ${imported.map((r) => `${r.received} ${r.dataset}`).join(", ")}.`);
    printDemoAccount(await seedDemoAccount());
  }
} catch (error) {
  console.error(`dev: ${error.message}`);
  stop();
  process.exitCode = 1;
}
