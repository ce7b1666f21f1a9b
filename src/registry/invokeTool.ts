import type { Bindings } from "../env";
import { admitCall } from "../platform/admission";
import type { AuthContext } from "../platform/auth";
import { presentedKey } from "../platform/auth";
import { createDb } from "../platform/db";
import { ApiError } from "../platform/errors";
import { enforceBurstLimit, quotaExceeded, readBurst, recordBurst, refundDailyQuota } from "../platform/quota";
import { parseWith } from "../platform/validation";
import type { Face, ToolDefinition } from "./defineTool";
import { enforcePlanDifferences, enforceToolAccess } from "./enforceAccess";

/** Where plan_required errors send the user: the configured page, else this service's docs. */
export const upgradeUrlOf = (env: Bindings, origin: string) => env.UPGRADE_URL ?? `${origin}/docs`;

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
  /** Told who is calling once the key is known (faces put it on their request context and logs). */
  onAdmitted?(auth: AuthContext): void;
}

const deliveredNothing = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

/**
 * The one call pipeline of every face: key, quota charge, scope, plan, burst, arguments, plan
 * differences, the handler, and refunds for whatever delivered nothing. Throws ApiError; the
 * face turns the result or the error into its own wire format.
 */
export async function invokeTool(tool: ToolDefinition, call: ToolCall): Promise<unknown> {
  const db = createDb(call.env.DB);
  const now = new Date();
  const key = presentedKey(call.authorization);
  const [{ auth, charge }, burst] = await Promise.all([
    admitCall(db, key, now, tool.cost ?? 1),
    readBurst(call.env.KV, key.keyId, now),
  ]);
  call.onAdmitted?.(auth);
  const upgradeUrl = upgradeUrlOf(call.env, call.origin);
  try {
    enforceToolAccess(tool, auth, upgradeUrl);
    enforceBurstLimit(auth, burst, now);
    if (!charge) throw quotaExceeded(auth, now);
  } catch (refusal) {
    if (charge) await refundDailyQuota(db, auth, charge);
    throw refusal;
  }

  const run = async () => {
    const args = parseWith(tool.input, await call.readArguments());
    enforcePlanDifferences(tool, auth, args, upgradeUrl);
    const { env, face, requestId, origin } = call;
    return tool.handler({ env, face, origin, db, auth, requestId, now, upgradeUrl }, args);
  };
  const [outcome] = await Promise.allSettled([
    run(),
    recordBurst(call.env.KV, burst).catch((error) => logBurstNotRecorded(call.requestId, error)),
  ]);
  if (outcome.status === "rejected") {
    // A call that failed on our side delivered nothing, so it costs nothing.
    if (deliveredNothing(outcome.reason)) await refundDailyQuota(db, auth, charge);
    throw outcome.reason;
  }
  return outcome.value;
}

/** The burst guard is soft (see quota.ts): a count that failed to be stored does not fail the call. */
function logBurstNotRecorded(requestId: string, error: unknown) {
  console.error(JSON.stringify({ requestId, burstNotRecorded: String(error) }));
}
