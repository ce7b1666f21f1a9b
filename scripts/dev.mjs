#!/usr/bin/env node
// `npm run dev`: apply local D1 migrations, serve the Worker with local D1/KV/R2, and seed the default
// catalog and a demo account (printing its keys and an invite link to the settings pages once) when
// the database is empty; on a database seeded before, print how to issue a new key or invite.
// Honours PORT, ADMIN_TOKEN, EXPORT_SIGNING_SECRET, SESSION_SECRET and STATE_DIR.
import { applyMigrations, startWrangler, waitUntilServing } from "./lib/devServer.mjs";
import { adminToken, baseUrl, exportSigningSecret, port, sessionSecret } from "./lib/local.mjs";
import { databaseIsEmpty, findDemoUser, seedDemoAccount, seedDemoMasterData } from "./lib/seed.mjs";

const stateDir = process.env.STATE_DIR ?? ".wrangler/state";

const admin = `${process.env.PORT ? `PORT=${port()} ` : ""}npm run admin --`;

/** On a database seeded before: the keys and invite were printed then, so say how to issue new ones. */
async function printHowToGetAKey() {
  const demo = await findDemoUser();
  if (demo) {
    console.log(`\nDemo data already present (demo account ${demo.userId}, ${demo.plan}); its keys were printed on the first start only.`);
    console.log(`New key: ${admin} keys create ${demo.userId} --preset standard`);
    console.log(`Settings: a new invite link to register a passkey for it: ${admin} users invite ${demo.userId}\n`);
  } else {
    console.log(`\nThe database already holds data. New key: ${admin} users list, then ${admin} keys create <userId> --preset standard`);
    console.log(`Settings: an invite link to register a passkey: ${admin} users invite <userId>\n`);
  }
}

/** One write, so that whoever waits for the keys (test/setup/devServer.ts) finds the invite line with them. */
function printDemoAccount({ user, keys, invite }) {
  const lines = [
    `\nDemo account ${user.userId} (${user.plan}). Its API keys are shown only now:`,
    ...keys.map((key) => `  ${key.label.padEnd(9)} ${key.apiKey}   scopes: ${key.scopes.join(", ")}`),
    `Try: curl -H "Authorization: Bearer <key>" ${baseUrl()}/rest/v1/getAccount`,
    `Settings: open ${invite.url} to register a passkey for the demo account (valid 72 h); later: ${admin} users invite ${user.userId}\n`,
  ];
  console.log(lines.join("\n"));
}

const token = adminToken({ create: true });
const signingSecret = exportSigningSecret({ create: true });
const cookieSecret = sessionSecret({ create: true });
try {
  applyMigrations(stateDir);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const child = startWrangler({ port: port(), stateDir, adminToken: token, exportSigningSecret: signingSecret, sessionSecret: cookieSecret });
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));

try {
  await waitUntilServing(child, baseUrl(), 180_000); // a loaded 2-core machine can take a minute
  console.log(`Serving on ${baseUrl()} (catalog: /rest/v1/tools, reference: /docs)`);
  if (await databaseIsEmpty()) {
    const startedAt = performance.now();
    const imported = await seedDemoMasterData();
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
    console.log(`Seeded the default catalog in ${seconds} s: ${imported.map((r) => `${r.received} ${r.dataset}`).join(", ")}.`);
    printDemoAccount(await seedDemoAccount());
  } else {
    await printHowToGetAKey();
  }
} catch (error) {
  console.error(`dev: ${error.message}`);
  stop();
  process.exitCode = 1;
}
