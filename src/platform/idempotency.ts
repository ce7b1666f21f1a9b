import { and, eq, exists, lt, or, sql } from "drizzle-orm";
import { idempotencyKeys } from "../db/schema";
import { createDb, type Db, guardStatement, statements } from "./db";
import { ApiError } from "./errors";
import { canonical, sha256Hex } from "./hashing";
import { randomBase62 } from "./ids";
import { markWrites, type WriteMarks } from "./markedWrites";

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
 * How long a pending claim holds its key while its request runs: longer than any write takes (D1
 * ends a query at 30 s). Past it the request is taken to have died (a crash, a lost isolate): a
 * retry answers from what it saved, or takes the claim over when it saved nothing. A request that
 * was only slow cannot write after that: its batches carry a guard on its claim.
 */
export const CLAIM_LEASE_MS = 60_000;

/** This request's hold on the key: the row's claimId while it holds it. */
interface Claim {
  call: IdempotentCall;
  claimId: string;
}

const rowOf = (call: IdempotentCall) => and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.idempotencyKey, call.key));
const heldBy = (claim: Claim) => and(rowOf(claim.call), eq(idempotencyKeys.claimId, claim.claimId));

/**
 * Claims the key for this request in one atomic upsert, so of concurrent requests with one key
 * exactly one runs. It takes over a row whose 24 hours are over, and a pending claim of the same
 * request whose lease ran out before it saved anything (its request died before writing). Answers
 * the claim, or null when another request holds the key.
 */
async function claim(call: IdempotentCall, requestHash: string): Promise<Claim | null> {
  const now = call.now.getTime();
  const fresh = {
    requestHash,
    state: "pending" as const,
    response: null,
    claimId: randomBase62(16),
    leaseUntil: now + CLAIM_LEASE_MS,
    saved: false,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  };
  const t = idempotencyKeys;
  const claimed = await call.db
    .insert(t)
    .values({ userId: call.userId, idempotencyKey: call.key, ...fresh })
    .onConflictDoUpdate({
      target: [t.userId, t.idempotencyKey],
      set: fresh,
      setWhere: or(
        lt(t.expiresAt, now),
        and(eq(t.state, "pending"), lt(t.leaseUntil, now), eq(t.saved, false), eq(t.requestHash, requestHash)),
      ),
    })
    .returning({ key: t.idempotencyKey });
  return claimed.length > 0 ? { call, claimId: fresh.claimId } : null;
}

const retryShortly = (message: string) => conflict(`${IDEMPOTENCY_HEADER}: ${message}`, { retryable: true, retryAfterSec: 1 });

/** What an earlier request with this key left: its answer to replay, or a 409. */
async function earlierAnswer(call: IdempotentCall, requestHash: string): Promise<unknown> {
  const [row] = await call.db.select().from(idempotencyKeys).where(rowOf(call));
  if (!row) throw retryShortly("the earlier request with this key just ended; retry.");
  if (row.requestHash !== requestHash) {
    throw conflict(`${IDEMPOTENCY_HEADER}: this key was used for another request (another tool or other arguments) in the last 24 hours.`);
  }
  if (row.state === "done") return JSON.parse(row.response ?? "null");
  if (row.saved && row.leaseUntil <= call.now.getTime()) {
    // The spec's rule 5: saved means do not resend; what was saved is only known by reading it.
    throw conflict(
      `${IDEMPOTENCY_HEADER}: the request with this key saved its write but ended before it could answer. Do not resend it; read the current state to see what was saved.`,
      { saved: true, retryable: false },
    );
  }
  throw retryShortly("a request with this key is still running; retry shortly.");
}

/** The statements every write batch of the claim's request carries (markedWrites.ts). */
function marksOf(claim: Claim): WriteMarks {
  const held = exists(statements.select({ one: sql`1` }).from(idempotencyKeys).where(heldBy(claim)));
  return {
    guard: guardStatement(held),
    marker: statements
      .update(idempotencyKeys)
      .set({ saved: true })
      // raw SQL: changes() (rows the statement just before changed) has no builder function.
      .where(and(heldBy(claim), sql`changes() > 0`))
      .getSQL(),
    async explain() {
      const [still] = await claim.call.db.select({ one: sql`1` }).from(idempotencyKeys).where(heldBy(claim));
      return still ? undefined : retryShortly("a retry took this request over after its lease ran out; nothing of it was saved.");
    },
  };
}

/**
 * Lets go of the claim of a request that failed: a request that saved nothing leaves no trace, so
 * its retry runs again; one that saved something keeps its claim, ended, so its retries are told
 * it was saved instead of writing twice.
 */
const release = (claim: Claim) =>
  claim.call.db.batch([
    claim.call.db.delete(idempotencyKeys).where(and(heldBy(claim), eq(idempotencyKeys.saved, false))),
    claim.call.db.update(idempotencyKeys).set({ leaseUntil: 0 }).where(heldBy(claim)),
  ]);

/**
 * Runs a write at most once per key: the first request runs it and stores its answer; a retry
 * with the same key and the same tool and arguments within 24 hours gets that answer again
 * without writing. `run` gets the database to write through: every batch of it that writes also
 * guards the claim and records, atomically with the write, that something was saved. So a retry
 * after a request died knows whether to run the write or to say it was saved.
 */
export async function runIdempotently<T>(
  call: IdempotentCall,
  run: (db: Db) => Promise<T>,
): Promise<{ result: T | unknown; replayed: boolean }> {
  const requestHash = await sha256Hex(JSON.stringify([call.tool, canonical(call.args)]));
  const held = await claim(call, requestHash);
  if (!held) return { result: await earlierAnswer(call, requestHash), replayed: true };
  let result: T;
  try {
    result = await run(createDb(markWrites(call.db.$client, marksOf(held))));
  } catch (error) {
    await release(held);
    throw error;
  }
  // Storing the answer also prunes the user's expired keys, so the table holds about a day of them.
  await call.db.batch([
    call.db
      .update(idempotencyKeys)
      .set({ state: "done", response: JSON.stringify(result) })
      .where(heldBy(held)),
    call.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, call.userId), lt(idempotencyKeys.expiresAt, call.now.getTime()))),
  ]);
  return { result, replayed: false };
}
