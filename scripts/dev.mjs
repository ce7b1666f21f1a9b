#!/usr/bin/env node
// `npm run dev`: apply local D1 migrations, serve the Worker with local D1/KV/R2, and seed the demo
// master data and a demo account (printing its keys once) when the database is empty.
// Honours PORT, ADMIN_TOKEN and STATE_DIR.
import { applyMigrations, startWrangler, waitUntilServing } from "./lib/devServer.mjs";
import { adminToken, baseUrl, port } from "./lib/local.mjs";
import { databaseIsEmpty, seedDemoAccount, seedDemoMasterData } from "./lib/seed.mjs";

const stateDir = process.env.STATE_DIR ?? ".wrangler/state";

function printDemoAccount({ user, keys }) {
  console.log(`\nDemo account ${user.userId} (${user.plan}). Its API keys are shown only now:`);
  for (const key of keys) console.log(`  ${key.label.padEnd(9)} ${key.apiKey}   scopes: ${key.scopes.join(", ")}`);
  console.log(`Try: curl -H "Authorization: Bearer <key>" ${baseUrl()}/rest/v1/getAccount\n`);
}

const token = adminToken({ create: true });
try {
  applyMigrations(stateDir);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const child = startWrangler({ port: port(), stateDir, adminToken: token });
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));

try {
  await waitUntilServing(child, baseUrl());
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
