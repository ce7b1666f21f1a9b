import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { ApiError, methodNotAllowed } from "../platform/errors";
import { type ToolDefinition, TOOL_PATH_PREFIX, methodsOf } from "../registry/defineTool";
import { invokeTool } from "../registry/invokeTool";
import { readToolArguments } from "../registry/readArguments";

/** PUT is accepted wherever POST is and behaves exactly like it. */
const allowedMethods = (tool: ToolDefinition) => [...methodsOf(tool), "PUT"];

/** The REST face: HTTP method, arguments from the query string or JSON body, the body as JSON. */
async function callTool(c: Context<AppEnv>, tool: ToolDefinition): Promise<Response> {
  const allowed = allowedMethods(tool);
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  if (!allowed.includes(method)) throw methodNotAllowed(allowed);
  const result = await invokeTool(tool, {
    face: "rest",
    env: c.env,
    authorization: c.req.header("Authorization"),
    requestId: c.get("requestId"),
    origin: new URL(c.req.url).origin,
    readArguments: () => readToolArguments(c, tool),
    onAdmitted: (auth) => c.set("auth", auth),
  });
  return c.json(result as object, 200);
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
