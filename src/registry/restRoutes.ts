import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { authenticate, presentedKey } from "../platform/auth";
import { createDb } from "../platform/db";
import { ApiError } from "../platform/errors";
import { chargeDailyQuota, enforceBurstLimit, readBurst, recordBurst, refundDailyQuota } from "../platform/quota";
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
  const [auth, burst] = await Promise.all([authenticate(db, key), readBurst(c.env.KV, key.keyId, now)]);
  c.set("auth", auth);
  const upgradeUrl = upgradeUrlOf(c);
  enforceToolAccess(tool, auth, upgradeUrl);
  enforceBurstLimit(auth, burst, now);

  const charging = Promise.all([recordBurst(c.env.KV, burst), chargeDailyQuota(db, auth, now, tool.cost ?? 1)]).then(
    ([, charge]) => charge,
  );
  const run = async () => {
    const args = parseWith(tool.input, await readToolArguments(c, tool));
    enforcePlanDifferences(tool, auth, args, upgradeUrl);
    return tool.handler({ env: c.env, db, auth, requestId: c.get("requestId"), now, upgradeUrl }, args);
  };
  // A read changes nothing, so it may run while its call is being charged; its result is only
  // released once the charge went through. Anything that writes waits for the charge first.
  const [charged, outcome] = await Promise.allSettled(
    tool.kind === "read" && !tool.readsUsage ? [charging, run()] : [charging, charging.then(run)],
  );
  if (charged.status === "rejected") throw charged.reason;
  if (outcome.status === "rejected") {
    // A call that failed on our side delivered nothing, so it costs nothing.
    if (deliveredNothing(outcome.reason)) await refundDailyQuota(db, auth, charged.value);
    throw outcome.reason;
  }
  return c.json(outcome.value as object, 200);
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
