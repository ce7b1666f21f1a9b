// The bare baseline of `npm run bench:api`: what a Hono Worker costs on this machine with nothing
// of the project in it. GET /json answers a constant; GET /d1 runs `SELECT 1` on a local D1, so
// its req/s is the floor every tool call is compared with (one D1 round trip, no work).
// GET /charge?k=<n> runs the project's per-call write alone, for the write-capacity run
// (`npm run bench:api -- --write-load`): one batch that reads key n, counts the call in its burst
// window and charges its user's day, with the project's SQL (src/platform/quota.ts) on tables of
// the same shape, here in the baseline's own local D1.
import { Hono } from "hono";

type Env = { Bindings: { DB: D1Database } };

const app = new Hono<Env>();

app.get("/json", (c) => c.json({ ok: true }));

app.get("/d1", async (c) => {
  const row = await c.env.DB.prepare("SELECT 1 AS one").first<{ one: number }>();
  return c.json({ ok: row?.one === 1 });
});

const KEYS = 1000;
const USERS = 100;
/** PREMIUM's limits, as the project's CASE over plans writes them. */
const planLimit = (limit: "burst" | "daily", userOf: string) =>
  `CASE (SELECT plan FROM users WHERE id = ${userOf}) WHEN 'FREE' THEN ${limit === "burst" ? 20 : 1000} WHEN 'LIGHT' THEN ${limit === "burst" ? 40 : 5000} WHEN 'PREMIUM' THEN ${limit === "burst" ? 80 : 20000} ELSE 0 END`;

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, plan TEXT NOT NULL, suspended INTEGER NOT NULL DEFAULT 0)",
  "CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, key_hash TEXT NOT NULL, scopes TEXT NOT NULL, revoked_at TEXT)",
  "CREATE TABLE IF NOT EXISTS burst_counters (key_id TEXT PRIMARY KEY, window_start INTEGER NOT NULL, count INTEGER NOT NULL)",
  "CREATE TABLE IF NOT EXISTS usage_daily (user_id TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (user_id, day))",
];
const SEED_KEYS = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${KEYS - 1})
  INSERT OR IGNORE INTO api_keys (id, user_id, key_hash, scopes) SELECT 'key_' || i, 'usr_' || (i % ${USERS}), 'hash_' || i, '[]' FROM n`;
const SEED_USERS = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${USERS - 1})
  INSERT OR IGNORE INTO users (id, plan) SELECT 'usr_' || i, 'PREMIUM' FROM n`;

let ready: Promise<unknown> | undefined;
const prepareTables = (db: D1Database) => (ready ??= db.batch([...SCHEMA, SEED_USERS, SEED_KEYS].map((text) => db.prepare(text))));

app.get("/charge", async (c) => {
  const db = c.env.DB;
  await prepareTables(db);
  const n = Number(c.req.query("k") ?? 0) % KEYS;
  const keyId = `key_${n}`;
  const hash = `hash_${n}`;
  const now = Date.now();
  const windowStart = Math.floor(now / 10_000) * 10_000;
  const day = new Date(now).toISOString().slice(0, 10);
  const results = await db.batch([
    db
      .prepare(`SELECT k.key_hash AS keyHash, k.scopes, u.id AS userId, u.plan, u.suspended
      FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ? AND k.revoked_at IS NULL`)
      .bind(keyId),
    db
      .prepare(`INSERT INTO burst_counters (key_id, window_start, count)
      SELECT k.id, ?, 1 FROM api_keys k WHERE k.id = ? AND k.key_hash = ? AND k.revoked_at IS NULL
      ON CONFLICT (key_id) DO UPDATE SET
        count = CASE WHEN window_start = excluded.window_start THEN count + 1 ELSE 1 END,
        window_start = excluded.window_start
      WHERE window_start <> excluded.window_start OR count < ${planLimit("burst", "(SELECT user_id FROM api_keys WHERE id = excluded.key_id)")}
      RETURNING count`)
      .bind(windowStart, keyId, hash),
    db
      .prepare(`INSERT INTO usage_daily (user_id, day, count)
      SELECT u.id, ?, 1 FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = ? AND k.key_hash = ? AND k.revoked_at IS NULL AND NOT u.suspended
      ON CONFLICT (user_id, day) DO UPDATE SET count = count + excluded.count
      WHERE count + excluded.count <= ${planLimit("daily", "excluded.user_id")}
      RETURNING count`)
      .bind(day, keyId, hash),
  ]);
  // How long the database itself worked on the batch (D1's own measure): its single thread's share.
  const dbMs = results.reduce((sum, r) => sum + (r.meta?.duration ?? 0), 0);
  return c.json({ charged: results[2]?.results.length === 1, dbMs });
});

export default app;
