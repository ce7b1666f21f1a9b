import type { Bindings } from "../env";
import { admitCall } from "../platform/admission";
import type { AuthContext } from "../platform/auth";
import { presentedKey } from "../platform/auth";
import { createDb, type Db } from "../platform/db";
import { ApiError } from "../platform/errors";
import { batchReader, knownCallerOf } from "../platform/firstReads";
import { runIdempotently } from "../platform/idempotency";
import { upgradeUrlOf } from "../platform/plans";
import { burstLimited, quotaExceeded, refundDailyQuota } from "../platform/quota";
import type { RateState } from "../platform/rateLimitHeaders";
import { parseWith, refuseMalformedText } from "../platform/validation";
import type { Face, ToolDefinition } from "./defineTool";
import { pageLimitOfTool, takesIdempotencyKey } from "./defineTool";
import { enforcePlanDifferences, enforceToolAccess } from "./enforceAccess";

/** Everything a face knows about one call of one tool; the rest is the pipeline's business. */
export interface ToolCall {
  face: Face;
  env: Bindings;
  /** The raw Authorization header. */
  authorization: string | undefined;
  requestId: string;
  origin: string;
  /** The call's arguments as the face read them, before validation. */
  readArguments(): Promise<Record<string, unknown>>;
  /** A client's key for retrying a write safely (REST's Idempotency-Key header). */
  idempotencyKey?: string;
  /** Told when the answer is a stored one, replayed for a retried Idempotency-Key. */
  onReplayed?(): void;
  /** Told who is calling and where its limits stand once the key is known (for headers and logs). */
  onAdmitted?(auth: AuthContext, rate: RateState): void;
}

const deliveredNothing = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

/** What the per-call log line says: who called what, how it ended, what it cost. No key, no arguments. */
interface CallRecord {
  requestId: string;
  tool: string;
  face: ToolCall["face"];
  userId: string | null;
  status: number;
  code: string | null;
  ms: number;
  cost: number;
  refunded: boolean;
}

/**
 * The one call pipeline of every face: key, quota charge, scope, plan, burst, arguments, plan
 * differences, the handler, and refunds for whatever delivered nothing. Throws ApiError; the
 * face turns the result or the error into its own wire format. Every call, however it ends,
 * writes one structured log line.
 */
export async function invokeTool(tool: ToolDefinition, call: ToolCall): Promise<unknown> {
  const record: CallRecord = {
    requestId: call.requestId,
    tool: tool.name,
    face: call.face,
    userId: null,
    status: 200,
    code: null,
    ms: 0,
    cost: 0,
    refunded: false,
  };
  const started = Date.now();
  try {
    return await runPipeline(tool, call, record);
  } catch (error) {
    record.status = error instanceof ApiError ? error.status : 500;
    record.code = error instanceof ApiError ? error.code : "internal_error";
    throw error;
  } finally {
    record.ms = Date.now() - started;
    // info, not log: the level says what the line is, and wrangler dev source-maps only log-level lines.
    console.info(JSON.stringify({ event: "tool_call", ...record }));
  }
}

/** The call's arguments, read and checked against the tool's input: its args, or the error to answer with. */
type ArgumentsOutcome = { args: Record<string, unknown> } | { error: unknown };

async function parseToolArguments(tool: ToolDefinition, call: ToolCall): Promise<ArgumentsOutcome> {
  try {
    const raw = await call.readArguments();
    refuseMalformedText(raw);
    return { args: parseWith(tool.input, raw) };
  } catch (error) {
    return { error };
  }
}

const argumentsOrThrow = (outcome: ArgumentsOutcome) => {
  if ("error" in outcome) throw outcome.error;
  return outcome.args;
};

async function runPipeline(tool: ToolDefinition, call: ToolCall, record: CallRecord): Promise<unknown> {
  const db = createDb(call.env.DB);
  const now = new Date();
  const key = presentedKey(call.authorization);
  const pageLimit = pageLimitOfTool(tool);
  // A tool that can say its first reads from its arguments reads them before admission, so they
  // travel in admission's round trip; a bad argument is still answered only after admission.
  const early = tool.firstReads ? await parseToolArguments(tool, call) : undefined;
  const ahead = early && "args" in early ? tool.firstReads?.(early.args, { ...knownCallerOf(key.keyId), now, pageLimit }) : undefined;
  const { auth, charge, burst, rate, prefetched } = await admitCall(db, key, now, tool, ahead);
  record.userId = auth.userId;
  record.cost = charge?.cost ?? 0;
  call.onAdmitted?.(auth, rate);
  const upgradeUrl = upgradeUrlOf(call.env, call.origin);
  // Admission charged only a call that passes these, so a refusal has nothing to give back.
  enforceToolAccess(tool, auth, upgradeUrl);
  if (!burst.admitted) throw burstLimited(auth, burst, now);
  if (!charge) throw quotaExceeded(auth, now);
  const refund = async () => {
    await refundDailyQuota(db, auth, charge);
    rate.daily.remaining += charge.cost;
    record.refunded = true;
  };

  try {
    const args = argumentsOrThrow(early ?? (await parseToolArguments(tool, call)));
    enforcePlanDifferences(tool, auth, args, upgradeUrl);
    const { env, face, requestId, origin, idempotencyKey } = call;
    const handle = (db: Db) =>
      tool.handler(
        { tool: tool.name, env, face, origin, db, read: batchReader(db, prefetched), auth, requestId, now, upgradeUrl, pageLimit },
        args,
      );
    if (idempotencyKey === undefined || !takesIdempotencyKey(tool)) return await handle(db);
    const { result, replayed } = await runIdempotently(
      { db, userId: auth.userId, key: idempotencyKey, tool: tool.name, args, now },
      handle,
    );
    if (replayed) call.onReplayed?.();
    return result;
  } catch (error) {
    // A call that failed on our side delivered nothing, so it costs nothing.
    if (deliveredNothing(error)) await refund();
    throw error;
  }
}
