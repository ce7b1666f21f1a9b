// The bare baseline of `npm run bench:api`: what a Hono Worker costs on this machine with nothing
// of the project in it. GET /json answers a constant; GET /d1 runs `SELECT 1` on a local D1, so
// its req/s is the floor every tool call is compared with (one D1 round trip, no work).
// GET /charge?k=<n> runs the project's per-call write alone, for the write-capacity run
// (`npm run bench:api -- --write-load`): key n's user's accounting object (the project's own class,
// src/platform/userAccounting.ts) admits one call of the key, counting its burst window and
// charging its user's day, as every tool call's admission does; the first call of a key in this
// isolate teaches the object the key, as admission does after reading it from D1.
import { Hono } from "hono";
import type { UserAccounting } from "../../../src/platform/userAccounting";

type Env = { Bindings: { DB: D1Database; ACCOUNTING: DurableObjectNamespace<UserAccounting> } };

const app = new Hono<Env>();

app.get("/json", (c) => c.json({ ok: true }));

app.get("/d1", async (c) => {
  const row = await c.env.DB.prepare("SELECT 1 AS one").first<{ one: number }>();
  return c.json({ ok: row?.one === 1 });
});

const KEYS = 1000;
const USERS = 100;
const seeded = new Set<number>();

app.get("/charge", async (c) => {
  const n = Number(c.req.query("k") ?? 0) % KEYS;
  const keyHash = `hash_${n}`;
  const seed = seeded.has(n) ? undefined : { keyHash, scopes: [], expiresAt: null, plan: "PREMIUM" as const, suspended: false };
  const answer = await c.env.ACCOUNTING.getByName(`usr_${n % USERS}`).admit({
    keyId: `key_${n}`,
    keyHash,
    seed,
    now: Date.now(),
    units: 1,
    charge: { cost: 1, scopes: [], plans: ["PREMIUM"] },
  });
  seeded.add(n);
  return c.json({ charged: answer.status === "admitted" && answer.daily.charged });
});

export { UserAccounting } from "../../../src/platform/userAccounting";
export default app;
