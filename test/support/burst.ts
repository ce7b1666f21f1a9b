// Burst windows for tests: start a volley at a window's beginning, and fill a key's window ahead.
import { env } from "cloudflare:workers";
import { BURST_WINDOW_SEC } from "../../src/platform/plans";

/** Waits for the start of a fresh burst window, so a quick volley falls in one window; answers the window's start. */
export async function atWindowStart(): Promise<number> {
  const windowMs = BURST_WINDOW_SEC * 1000;
  const intoWindow = Date.now() % windowMs;
  if (intoWindow > windowMs / 4) await new Promise((resolve) => setTimeout(resolve, windowMs - intoWindow + 20));
  return Math.floor(Date.now() / windowMs) * windowMs;
}

/** Counts `used` calls in the key's current window (from a fresh window's start, so the volley that follows stays in it). */
export async function useBurstWindow(keyId: string, used: number): Promise<void> {
  const windowStart = await atWindowStart();
  await env.DB.prepare("INSERT INTO burst_counters (key_id, window_start, count) VALUES (?, ?, ?)").bind(keyId, windowStart, used).run();
}

/** The key's count in its current window (0 once the window moved on). */
export async function burstUsed(keyId: string): Promise<number> {
  const windowMs = BURST_WINDOW_SEC * 1000;
  const row = await env.DB.prepare("SELECT count FROM burst_counters WHERE key_id = ? AND window_start = ?")
    .bind(keyId, Math.floor(Date.now() / windowMs) * windowMs)
    .first<{ count: number }>();
  return row?.count ?? 0;
}
