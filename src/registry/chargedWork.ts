import { type AccountingEnv, refundDailyQuota } from "../platform/admission";
import { ApiError } from "../platform/errors";
import type { DailyCharge } from "../platform/quota";
import type { Face } from "./defineTool";

/** Everything that may charge quota, each named by its log line's `event`. */
export type WorkEvent = "tool_call" | "download" | "upload";

/** Who admission charged and how much; `charge` is null when nothing was (a refused call, a HEAD, an upload). */
export interface Admitted {
  userId: string;
  charge: DailyCharge | null;
  /** The tool the work belongs to, when only admission learns it (a download link names its export). */
  tool?: string;
}

/** One piece of charged work: who pays (admit), the work, and what counts as having delivered nothing. */
export interface ChargedWork<A extends Admitted, T> {
  event: WorkEvent;
  requestId: string;
  /** The tool, when it is known before admission. */
  tool: string | null;
  /** Where the work came in: a tool's face, or the route of signed links. */
  face: Face | "downloads" | "uploads";
  /** Where refunds go: the user's accounting object. */
  accounting: AccountingEnv;
  /** Authenticates and charges; a refusal it throws has charged nothing. */
  admit(): Promise<A>;
  work(admitted: A): Promise<T>;
  /** Whether a failure was the caller's doing, so the charge stays (a tool call's 4xx); otherwise it is given back. */
  keepsCharge?(error: unknown): boolean;
  /** Whether a result delivered nothing, so the charge is given back (a download's 416). */
  deliveredNothing?(result: T): boolean;
  /** The status the result is answered with (default 200). */
  statusOf?(result: T): number;
}

/** How the work ended, for the face to answer: its result or its error, and what admission decided (null: refused before). */
export type WorkOutcome<A, T> = { admitted: A | null; refunded: boolean } & ({ ok: true; result: T } | { ok: false; error: unknown });

/** The log line: who did what, how it ended, what it cost. Never a key, a token or arguments. */
interface WorkLine {
  event: WorkEvent;
  requestId: string;
  tool: string | null;
  face: ChargedWork<Admitted, unknown>["face"];
  userId: string | null;
  status: number;
  code: string | null;
  ms: number;
  cost: number;
  refunded: boolean;
}

/**
 * The one wrapper of everything that charges quota (tool calls, downloads, uploads): admission
 * (authenticate and charge), the work, a refund when the work delivered nothing, and one
 * structured log line however it ends. Never throws: the face answers the outcome.
 */
export async function runChargedWork<A extends Admitted, T>(spec: ChargedWork<A, T>): Promise<WorkOutcome<A, T>> {
  const { event, requestId, tool, face } = spec;
  const line: WorkLine = { event, requestId, tool, face, userId: null, status: 200, code: null, ms: 0, cost: 0, refunded: false };
  const started = Date.now();
  let admitted: A | null = null;
  try {
    admitted = await spec.admit();
    line.tool = admitted.tool ?? line.tool;
    line.userId = admitted.userId;
    line.cost = admitted.charge?.cost ?? 0;
    const result = await workRefunded(spec, admitted, line);
    line.status = spec.statusOf?.(result) ?? 200;
    return { admitted, refunded: line.refunded, ok: true, result };
  } catch (error) {
    line.status = error instanceof ApiError ? error.status : 500;
    line.code = error instanceof ApiError ? error.code : "internal_error";
    return { admitted, refunded: line.refunded, ok: false, error };
  } finally {
    line.ms = Date.now() - started;
    // info, not log: the level says what the line is, and wrangler dev source-maps only log-level lines.
    console.info(JSON.stringify(line));
  }
}

/** The work, its charge given back when it delivered nothing. */
async function workRefunded<A extends Admitted, T>(spec: ChargedWork<A, T>, admitted: A, line: WorkLine): Promise<T> {
  const refund = async () => {
    if (!admitted.charge) return;
    await refundDailyQuota(spec.accounting, admitted.userId, admitted.charge);
    line.refunded = true;
  };
  let result: T;
  try {
    result = await spec.work(admitted);
  } catch (error) {
    if (!spec.keepsCharge?.(error)) await refund();
    throw error;
  }
  if (spec.deliveredNothing?.(result)) await refund();
  return result;
}

/** The outcome's result, or its error thrown for the app's error answer. */
export function resultOrThrow<T>(outcome: WorkOutcome<unknown, T>): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}
