import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys } from "../db/schema";
import type { Db } from "./db";
import { ApiError } from "./errors";
import { canonical, sha256Hex } from "./hashing";

/** How long a stored answer can be replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentCall {
  db: Db;
  userId: string;
  key: string;
  tool: string;
  args: unknown;
  now: Date;
}

const conflict = (message: string, details: Record<string, unknown> = {}) =>
  new ApiError("idempotency_conflict", message, { field: IDEMPOTENCY_HEADER, ...details });

/** The header as sent: printable ASCII of 1 to 255 characters, or a 400 naming it. */
export function readIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY_PATTERN.test(header)) {
    throw new ApiError("invalid_input", `${IDEMPOTENCY_HEADER}: 1 to 255 printable ASCII characters, no spaces.`, {
      field: IDEMPOTENCY_HEADER,
    });
  }
  return header;
}

/**
 * Claims the key for this request in one atomic insert (an expired claim is taken over), so of
 * concurrent requests with one key exactly one runs. Returns whether this request holds it.
 */
async function claim(call: IdempotentCall, requestHash: string): Promise<boolean> {
  const expiresAt = call.now.getTime() + IDEMPOTENCY_TTL_MS;
  const claimed = await call.db
    .insert(idempotencyKeys)
    .values({ userId: call.userId, idempotencyKey: call.key, requestHash, state: "pending", expiresAt })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.idempotencyKey],
      set: { requestHash, state: "pending", response: null, expiresAt },
      setWhere: lt(idempotencyKeys.expiresAt, call.now.getTime()),
    })
    .returning({ key: idempotencyKeys.idempotencyKey });
  return claimed.length > 0;
}

const rowOf = (call: IdempotentCall) => and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.idempotencyKey, call.key));

/** What an earlier request with this key left: its answer to replay, or a 409. */
async function earlierAnswer(call: IdempotentCall, requestHash: string): Promise<unknown> {
  const [row] = await call.db.select().from(idempotencyKeys).where(rowOf(call));
  if (!row)
    throw conflict(`${IDEMPOTENCY_HEADER}: the earlier request with this key just ended; retry.`, { retryable: true, retryAfterSec: 1 });
  if (row.requestHash !== requestHash) {
    throw conflict(`${IDEMPOTENCY_HEADER}: this key was used for another request (another tool or other arguments) in the last 24 hours.`);
  }
  if (row.state === "pending") {
    throw conflict(`${IDEMPOTENCY_HEADER}: a request with this key is still running; retry shortly.`, {
      retryable: true,
      retryAfterSec: 1,
    });
  }
  return JSON.parse(row.response ?? "null");
}

/**
 * Runs a write at most once per key: the first request runs it and stores its answer; a retry
 * with the same key and the same tool and arguments within 24 hours gets that answer again
 * without writing. A request that failed stores nothing, so its retry runs again.
 */
export async function runIdempotently<T>(call: IdempotentCall, run: () => Promise<T>): Promise<{ result: T | unknown; replayed: boolean }> {
  const requestHash = await sha256Hex(JSON.stringify([call.tool, canonical(call.args)]));
  if (!(await claim(call, requestHash))) return { result: await earlierAnswer(call, requestHash), replayed: true };
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await call.db.delete(idempotencyKeys).where(rowOf(call));
    throw error;
  }
  // Storing the answer also prunes the user's expired keys, so the table holds about a day of them.
  await call.db.batch([
    call.db
      .update(idempotencyKeys)
      .set({ state: "done", response: JSON.stringify(result) })
      .where(rowOf(call)),
    call.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, call.userId), lt(idempotencyKeys.expiresAt, call.now.getTime()))),
  ]);
  return { result, replayed: false };
}
