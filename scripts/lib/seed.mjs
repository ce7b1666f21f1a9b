// Seeds an empty local database through the operator API: a demo account and its keys.
import { adminFetch } from "./local.mjs";

const DEMO_KEYS = [
  { label: "standard", body: { preset: "standard", name: "demo standard" } },
  { label: "viewOnly", body: { preset: "viewOnly", name: "demo view-only" } },
  {
    label: "full",
    body: {
      preset: "individual",
      name: "demo full (incl. delete)",
      scopes: ["library:read", "library:write", "library:delete", "play:read", "play:write", "play:delete", "games:read"],
    },
  },
];

export async function databaseIsEmpty() {
  const { totalCount } = await adminFetch("/users?limit=1");
  return totalCount === 0;
}

export async function seedDemoAccount() {
  const user = await adminFetch("/users", { method: "POST", body: { plan: "PREMIUM", name: "demo" } });
  const keys = [];
  for (const { label, body } of DEMO_KEYS) {
    const key = await adminFetch(`/users/${user.userId}/keys`, { method: "POST", body });
    keys.push({ label, ...key });
  }
  return { user, keys };
}
