// Seeds an empty local database through the operator API: the default master data (seed/master),
// a demo account, its keys and an invite link to register a passkey for it.
import { join } from "node:path";
import { FULL_PRESET, keyChoice } from "./adminCli.mjs";
import { adminFetch, projectRoot } from "./local.mjs";
import { importCatalog } from "./masterImport.mjs";

const DEMO_KEYS = [
  { label: "standard", body: { preset: "standard", name: "demo standard" } },
  { label: "viewOnly", body: { preset: "viewOnly", name: "demo view-only" } },
  { label: FULL_PRESET, body: keyChoice({ preset: FULL_PRESET, name: "demo full (incl. delete)" }) },
];

export async function databaseIsEmpty() {
  const { totalCount } = await adminFetch("/users?limit=1");
  return totalCount === 0;
}

const DEMO_USER_NAME = "demo";

export async function seedDemoAccount() {
  const user = await adminFetch("/users", { method: "POST", body: { plan: "PREMIUM", name: DEMO_USER_NAME } });
  const keys = [];
  for (const { label, body } of DEMO_KEYS) {
    const key = await adminFetch(`/users/${user.userId}/keys`, { method: "POST", body });
    keys.push({ label, ...key });
  }
  return { user, keys, invite: await inviteFor(user.userId) };
}

/** A one-time link (src/accounts/invites.ts) that lets its holder register a passkey for the user. */
const inviteFor = (userId) => adminFetch(`/users/${encodeURIComponent(userId)}/invites`, { method: "POST" });

/** The demo user of an already seeded database (the first users are listed first), or undefined. */
export async function findDemoUser() {
  const { items } = await adminFetch("/users?limit=100");
  return items.find((user) => user.name === DEMO_USER_NAME);
}

/** The default catalog (seed/master: converted from PigSaint's GameDataBase, model numbers from libretro-database). */
export const seedDemoMasterData = () => importCatalog(join(projectRoot, "seed", "master"));
