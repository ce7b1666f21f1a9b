// The users' accounting objects, as tests read and prepare them: today's count, a key's burst
// window, a day's count set ahead. Reads go through the object's own methods; what only a test
// needs (filling a window or a day ahead) writes the object's SQLite inside it (runInDurableObject).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { accountingOf, keySeedOf } from "../../src/platform/admission";
import { type KeyRow, keyRowQuery } from "../../src/platform/auth";
import { createDb, queryBatch } from "../../src/platform/db";
import { BURST_WINDOW_SEC } from "../../src/platform/plans";
import { burstWindowOf } from "../../src/platform/quota";
import { DAY_MS, utcDay } from "../../src/platform/time";

const accounting = (userId: string) => accountingOf(env, userId);

/** The user's count of one UTC day (`daysAgo` before today). */
export async function usedOn(userId: string, daysAgo = 0): Promise<number> {
  const day = utcDay(new Date(Date.now() - daysAgo * DAY_MS));
  const [count] = await accounting(userId).usage([day]);
  return count?.count ?? 0;
}

export const usedToday = (userId: string) => usedOn(userId);

/** Sets the user's count of a UTC day (`daysAgo` before today), as calls made then would have left it. */
export async function setUsedOn(userId: string, count: number, daysAgo = 0): Promise<void> {
  const day = utcDay(new Date(Date.now() - daysAgo * DAY_MS));
  await runInDurableObject(accounting(userId), (_, state) => {
    state.storage.sql.exec(
      "INSERT INTO daily_usage (day, count) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET count = excluded.count",
      day,
      count,
    );
  });
}

/** Waits for the start of a fresh burst window, so a quick volley falls in one window; answers the window's start. */
export async function atWindowStart(): Promise<number> {
  const windowMs = BURST_WINDOW_SEC * 1000;
  const intoWindow = Date.now() % windowMs;
  if (intoWindow > windowMs / 4) await new Promise((resolve) => setTimeout(resolve, windowMs - intoWindow + 20));
  return Math.floor(Date.now() / windowMs) * windowMs;
}

/** The user a key belongs to, and the object's seed of it (as admission sends it the first time). */
async function keyOwner(keyId: string): Promise<KeyRow> {
  const [[row]] = await queryBatch<[KeyRow[]]>(createDb(env.DB), [keyRowQuery(keyId)]);
  if (!row) throw new Error(`no live key ${keyId}`);
  return row;
}

/** Counts `used` calls in the key's current window (from a fresh window's start, so the volley that follows stays in it). */
export async function useBurstWindow(keyId: string, used: number): Promise<void> {
  const row = await keyOwner(keyId);
  const windowStart = await atWindowStart();
  // Authentication only (no units): the object learns the key as a first call would teach it.
  await accounting(row.userId).admit({ keyId, keyHash: row.keyHash, seed: keySeedOf(row), now: Date.now(), units: 0 });
  await runInDurableObject(accounting(row.userId), (_, state) => {
    state.storage.sql.exec("UPDATE keys SET window_start = ?, window_count = ? WHERE key_id = ?", windowStart, used, keyId);
  });
}

/** The key's count in its current window (0 once the window moved on, or before its first call). */
export async function burstUsed(keyId: string): Promise<number> {
  const row = await keyOwner(keyId);
  return runInDurableObject(accounting(row.userId), (_, state) => {
    const [key] = state.storage.sql
      .exec<{ window_start: number; window_count: number }>("SELECT window_start, window_count FROM keys WHERE key_id = ?", keyId)
      .toArray();
    return key?.window_start === burstWindowOf(new Date()).start ? key.window_count : 0;
  });
}

/**
 * Makes a key expired now, as if its days had passed: in D1 and in its user's object (which took
 * the expiry from D1 when the key was first presented; expiries never change otherwise).
 */
export async function expireKey(keyId: string): Promise<void> {
  const row = await keyOwner(keyId);
  const past = Date.now() - 1000;
  await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?").bind(new Date(past).toISOString(), keyId).run();
  await runInDurableObject(accounting(row.userId), (_, state) => {
    state.storage.sql.exec("UPDATE keys SET expires_at = ? WHERE key_id = ?", past, keyId);
  });
}
