import type { Bindings } from "../bindings";
import { type Admission, admitCall, chargeUser } from "../platform/admission";
import { type AuthContext, presentedKey } from "../platform/auth";
import { createDb, type Db } from "../platform/db";
import { ApiError } from "../platform/errors";
import { batchReader, knownCallerOf } from "../platform/firstReads";
import { runIdempotently } from "../platform/idempotency";
import { SCOPES, upgradeUrlOf } from "../platform/plans";
import { burstLimited, burstWindowOf, quotaExceeded } from "../platform/quota";
import { type RateState, rateStateOf } from "../platform/rateLimitHeaders";
import { readSession } from "../platform/readSessions";
import { nextUtcMidnight } from "../platform/time";
import { parseWith, refuseMalformedText } from "../platform/validation";
import { runChargedWork } from "./chargedWork";
import type { Face, ToolDefinition } from "./defineTool";
import { pageLimitOfTool, readsMasterOnly, takesIdempotencyKey } from "./defineTool";
import { enforcePlanDifferences, enforceToolAccess } from "./enforceAccess";

/** The call's arguments as the face read them, before validation, or the error reading them ended with. */
export type ReadArguments = { raw: Record<string, unknown> } | { error: unknown };

/** Everything a face knows about one call of one tool; the rest is the pipeline's business. */
export interface ToolCall {
  face: Face;
  env: Bindings;
  /** The raw Authorization header. */
  authorization: string | undefined;
  /**
   * The pages face's caller instead of a key: the user id of a signed-in person (their passkey
   * session, checked by the face). They act as the account's owner, with every scope; their plan
   * and daily quota apply as to any call, and no key's burst window does.
   */
  person?: string;
  /**
   * The key's user as this request already verified it (an MCP POST that also carries other
   * messages, admitted by the face): admission does not read the key again.
   */
  verifiedAs?: AuthContext;
  requestId: string;
  origin: string;
  /** Answered only after admission, like any bad argument. */
  input: ReadArguments;
  /** A client's key for retrying a write safely (REST's Idempotency-Key header). */
  idempotencyKey?: string;
  /** The D1 bookmark the client handed back (readSessions.ts): its reads see at least what it wrote. */
  bookmark?: string;
  /** The instant the call runs at, by the app's clock (a test may fix it); the system's time when absent. */
  now?: Date;
}

/** How a call ended, for the face to answer in its wire format. */
export type ToolOutcome = {
  /** Where the caller's limits stand once admission knew the key; null when the call was refused at the key (nothing ran). */
  rate: RateState | null;
  /** The result is a stored one, replayed for a retried Idempotency-Key. */
  replayed: boolean;
  /** The D1 bookmark after the call, for the client to send back. */
  bookmark: string | null;
} & ({ ok: true; result: unknown } | { ok: false; error: unknown });

/** A failure the caller caused (a 4xx) keeps its charge; one on our side delivered nothing. */
const callerCaused = (error: unknown) => error instanceof ApiError && error.status < 500;

/** What one call shares between its admission and its work. */
interface CallScope {
  tool: ToolDefinition;
  call: ToolCall;
  db: Db;
  now: Date;
  pageLimit: ReturnType<typeof pageLimitOfTool>;
}

/** Admission's answer for a tool call, with its arguments when they were parsed ahead (firstReads). */
interface ToolAdmission extends Admission {
  userId: string;
  early?: ArgumentsOutcome;
}

/**
 * The one call pipeline of every face: key, quota charge, scope, plan, burst, arguments, plan
 * differences, the handler. It runs as charged work (chargedWork.ts): refunds for whatever
 * delivered nothing, one `tool_call` log line per call. Never throws: the face turns the outcome
 * into its own wire format.
 */
export async function invokeTool(tool: ToolDefinition, call: ToolCall): Promise<ToolOutcome> {
  const session = readSession(call.env, readsMasterOnly(tool), call.bookmark);
  const scope: CallScope = { tool, call, db: createDb(session), now: call.now ?? new Date(), pageLimit: pageLimitOfTool(tool) };
  const outcome = await runChargedWork({
    event: "tool_call",
    requestId: call.requestId,
    tool: tool.name,
    face: call.face,
    accounting: call.env,
    admit: () => admitToolCall(scope),
    work: (admitted) => runCall(scope, admitted),
    keepsCharge: callerCaused,
  });
  const { admitted } = outcome;
  if (admitted?.charge && outcome.refunded) admitted.rate.daily.remaining += admitted.charge.cost;
  const rate = admitted?.rate ?? null;
  const bookmark = session.getBookmark();
  if (!outcome.ok) return { rate, replayed: false, bookmark, ok: false, error: outcome.error };
  return { rate, replayed: outcome.result.replayed, bookmark, ok: true, result: outcome.result.result };
}

/** The call's arguments, checked against the tool's input: its args, or the error to answer with. */
type ArgumentsOutcome = { args: Record<string, unknown> } | { error: unknown };

function parseToolArguments(tool: ToolDefinition, input: ReadArguments): ArgumentsOutcome {
  if ("error" in input) return input;
  try {
    refuseMalformedText(input.raw);
    return { args: parseWith(tool.input, input.raw) };
  } catch (error) {
    return { error };
  }
}

const argumentsOrThrow = (outcome: ArgumentsOutcome) => {
  if ("error" in outcome) throw outcome.error;
  return outcome.args;
};

async function admitToolCall({ tool, call, db, now, pageLimit }: CallScope): Promise<ToolAdmission> {
  if (call.person !== undefined) return admitPerson(call.env, call.person, tool, now);
  const key = presentedKey(call.authorization);
  // A tool that can say its first reads from its arguments parses them before admission, so they
  // run beside admission; a bad argument is still answered only after admission.
  const early = tool.firstReads ? parseToolArguments(tool, call.input) : undefined;
  const ahead = early && "args" in early ? tool.firstReads?.(early.args, { ...knownCallerOf(key.keyId), now, pageLimit }) : undefined;
  const admission = await admitCall(call.env, db, key, now, tool, ahead, call.verifiedAs);
  return { ...admission, userId: admission.auth.userId, early };
}

/** The key id a person's calls carry (a session is no key: nothing is stored or counted under it). */
export const PERSON_KEY_ID = "session";

/** A signed-in person's call, charged to their daily quota like a key's (chargeUser), with every scope of their account. */
async function admitPerson(env: Bindings, userId: string, tool: ToolDefinition, now: Date): Promise<ToolAdmission> {
  const gone = () => new ApiError("unauthorized", "This account no longer exists: sign in again.");
  const { plan, charge, used } = await chargeUser(env, userId, now, tool.cost ?? 1, gone);
  const window = burstWindowOf(now);
  return {
    userId,
    auth: { userId, plan, keyId: PERSON_KEY_ID, scopes: new Set(SCOPES) },
    charge,
    burst: { ...window, admitted: true },
    rate: rateStateOf(plan, { used: 0, end: window.end }, { used, end: nextUtcMidnight(now) }, now),
  };
}

async function runCall(scope: CallScope, admitted: ToolAdmission): Promise<{ result: unknown; replayed: boolean }> {
  const { tool, call, db, now, pageLimit } = scope;
  const { auth, charge, burst, prefetched } = admitted;
  const upgradeUrl = upgradeUrlOf(call.env, call.origin);
  // Admission charged only a call that passes these, so a refusal has nothing to give back.
  enforceToolAccess(tool, auth, upgradeUrl);
  if (!burst.admitted) throw burstLimited(auth, burst, now);
  if (!charge) throw quotaExceeded(auth, now);
  const args = argumentsOrThrow(admitted.early ?? parseToolArguments(tool, call.input));
  enforcePlanDifferences(tool, auth, args, upgradeUrl);
  const { env, face, requestId, origin, idempotencyKey } = call;
  const handle = (db: Db) =>
    tool.handler(
      { tool: tool.name, env, face, origin, db, read: batchReader(db, prefetched), auth, requestId, now, upgradeUrl, pageLimit },
      args,
    );
  if (idempotencyKey === undefined || !takesIdempotencyKey(tool)) return { result: await handle(db), replayed: false };
  return runIdempotently({ db, userId: auth.userId, key: idempotencyKey, tool: tool.name, args, now }, handle);
}
