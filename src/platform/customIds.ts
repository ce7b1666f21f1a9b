import { CUSTOM_ID_BASE, CUSTOM_ID_MAX } from "./schemas";

/**
 * Ids of custom records (games, platforms, publishers): one allocator for all three.
 *
 * Each new record gets an id drawn uniformly at random from [CUSTOM_ID_BASE, CUSTOM_ID_MAX]
 * (about 9 * 10^15 values, all safe JavaScript integers and SQLite INTEGER keys). Nothing is read
 * before the insert, so concurrent adds never race for "the next" id, and an id says nothing about
 * how many custom records the service holds. Two draws meet with odds of about n / 9 * 10^15 for n
 * stored records; the insert then breaks on the table's primary key and is simply retried with a
 * fresh id.
 */

const SPAN = CUSTOM_ID_MAX - CUSTOM_ID_BASE + 1;
const TWO_32 = 2 ** 32;

/** A uniformly random id in [CUSTOM_ID_BASE, CUSTOM_ID_MAX], from the platform CSPRNG. */
export function randomCustomId(): number {
  for (;;) {
    const [high, low] = crypto.getRandomValues(new Uint32Array(2));
    // 53 random bits: [0, 2^53). Draws past the span are rejected, so every id is equally likely.
    const draw = (high! & 0x1f_ffff) * TWO_32 + low!;
    if (draw < SPAN) return CUSTOM_ID_BASE + draw;
  }
}

/** How many fresh ids an insert tries before giving up (each retry has odds of ~1e-7 or less). */
const ATTEMPTS = 5;

/** Whether `error` is the primary key of `table` refusing an id that is already taken. */
const idTaken = (error: unknown, table: string) =>
  error instanceof Error && (error.message + String(error.cause ?? "")).includes(`UNIQUE constraint failed: ${table}.id`);

/**
 * Inserts a new custom record of `table` under a fresh id: `insert(id)` runs the statements that
 * store it (a plain INSERT, never an upsert, so a taken id fails on the primary key). Only that
 * failure is retried, with another id; any other error is the caller's.
 */
export async function insertWithCustomId(
  table: "games" | "platforms" | "companies",
  insert: (id: number) => Promise<void>,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const id = randomCustomId();
    try {
      await insert(id);
      return id;
    } catch (error) {
      if (attempt >= ATTEMPTS || !idTaken(error, table)) throw error;
    }
  }
}
