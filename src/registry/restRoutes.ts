import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { admitCall } from "../platform/admission";
import { presentedKey } from "../platform/auth";
import { createDb } from "../platform/db";
import { ApiError } from "../platform/errors";
import { enforceBurstLimit, quotaExceeded, readBurst, recordBurst, refundDailyQuota } from "../platform/quota";
import { parseWith } from "../platform/validation";
import { type ToolDefinition, methodsOf } from "./defineTool";
import { enforcePlanDifferences, enforceToolAccess } from "./enforceAccess";
import { readToolArguments } from "./readArguments";

export const TOOL_PATH_PREFIX = "/rest/v1/";

/** PUT is accepted wherever POST is and behaves exactly like it. */
const allowedMethods = (tool: ToolDefinition) => [...methodsOf(tool), "PUT"];

export function methodNotAllowed(allowed: readonly string[]): ApiError {
  return new ApiError("method_not_allowed", `Use ${allowed.join(", ")} on this path.`, { allow: allowed.join(", ") });
}

export const upgradeUrlOf = (c: Context<AppEnv>) => c.env.UPGRADE_URL ?? `${new URL(c.req.url).origin}/docs`;

const deliveredNothing = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

async function callTool(c: Context<AppEnv>, tool: ToolDefinition): Promise<Response> {
  const allowed = allowedMethods(tool);
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  if (!allowed.includes(method)) throw methodNotAllowed(allowed);

  const db = createDb(c.env.DB);
  const now = new Date();
  const key = presentedKey(c.req.header("Authorization"));
  const [{ auth, charge }, burst] = await Promise.all([admitCall(db, key, now, tool.cost ?? 1), readBurst(c.env.KV, key.keyId, now)]);
  c.set("auth", auth);
  const upgradeUrl = upgradeUrlOf(c);
  try {
    enforceToolAccess(tool, auth, upgradeUrl);
    enforceBurstLimit(auth, burst, now);
    if (!charge) throw quotaExceeded(auth, now);
  } catch (refusal) {
    if (charge) await refundDailyQuota(db, auth, charge);
    throw refusal;
  }

  const run = async () => {
    const args = parseWith(tool.input, await readToolArguments(c, tool));
    enforcePlanDifferences(tool, auth, args, upgradeUrl);
    return tool.handler({ env: c.env, db, auth, requestId: c.get("requestId"), now, upgradeUrl }, args);
  };
  const [outcome] = await Promise.allSettled([run(), recordBurst(c.env.KV, burst).catch((error) => logBurstNotRecorded(c, error))]);
  if (outcome.status === "rejected") {
    // A call that failed on our side delivered nothing, so it costs nothing.
    if (deliveredNothing(outcome.reason)) await refundDailyQuota(db, auth, charge);
    throw outcome.reason;
  }
  return c.json(outcome.value as object, 200);
}

/** The burst guard is soft (see quota.ts): a count that failed to be stored does not fail the call. */
function logBurstNotRecorded(c: Context<AppEnv>, error: unknown) {
  console.error(JSON.stringify({ requestId: c.get("requestId"), burstNotRecorded: String(error) }));
}

/** One route per tool, generated from the registry; anything else under /rest/v1/ is a 404. */
export function mountToolRoutes(app: Hono<AppEnv>, tools: readonly ToolDefinition[]): void {
  for (const tool of tools) {
    app.all(`${TOOL_PATH_PREFIX}${tool.name}`, (c) => callTool(c, tool));
  }
  app.all(`${TOOL_PATH_PREFIX}:name`, (c) => {
    throw new ApiError("not_found", `There is no tool named '${c.req.param("name")}'.`, { entry: true });
  });
}
