import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { ApiError, methodNotAllowed } from "../platform/errors";
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from "../platform/idempotency";
import { publicOrigin } from "../platform/publicOrigin";
import { BOOKMARK_HEADER, readBookmark } from "../platform/readSessions";
import { methodsOf, TOOL_PATH_PREFIX, type ToolDefinition } from "../registry/defineTool";
import { invokeTool } from "../registry/invokeTool";
import { readToolArguments } from "./readArguments";

/** The methods the service accepts at all; HEAD is not one of them, so it never runs a tool. */
const SERVICE_METHODS = ["GET", "POST", "PUT"];

/** PUT is accepted wherever POST is and behaves exactly like it. */
const allowedMethods = (tool: ToolDefinition) => [...methodsOf(tool), "PUT"];

/** The REST face: HTTP method, arguments from the query string or JSON body, the body as JSON. */
async function callTool(c: Context<AppEnv>, tool: ToolDefinition, clock: () => Date): Promise<Response> {
  const allowed = allowedMethods(tool);
  if (!allowed.includes(c.req.method)) throw methodNotAllowed(allowed);
  const idempotencyKey = readIdempotencyKey(c.req.header(IDEMPOTENCY_HEADER));
  const bookmark = readBookmark(c.req.header(BOOKMARK_HEADER));
  const outcome = await invokeTool(tool, {
    face: "rest",
    env: c.env,
    authorization: c.req.header("Authorization"),
    requestId: c.get("requestId"),
    origin: publicOrigin(c.env, c.req.url),
    input: await readToolArguments(c, tool),
    idempotencyKey,
    bookmark,
    now: clock(),
  });
  // The rate-limit and bookmark headers go on the answer whatever it is (serviceFrame writes them).
  if (outcome.rate) c.set("rate", outcome.rate);
  if (outcome.bookmark) c.set("bookmark", outcome.bookmark);
  if (!outcome.ok) throw outcome.error;
  if (outcome.replayed) c.header("Idempotent-Replayed", "true");
  return c.json(outcome.result as object, 200);
}

/** A path segment as a route parameter gives it: percent-decoded when that is valid. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** One route per tool, generated from the registry; anything else under /rest/v1/ is a 404. */
export function mountToolRoutes(app: Hono<AppEnv>, tools: readonly ToolDefinition[], clock: () => Date): void {
  for (const tool of tools) {
    app.all(`${TOOL_PATH_PREFIX}${tool.name}`, (c) => callTool(c, tool, clock));
  }
  // A wildcard, not `:name`: with a parameter beside the static tool paths Hono's fast RegExpRouter
  // gives up and every request is routed by the slower TrieRouter. Tool routes come first, so this
  // only sees other paths; one segment is a tool name, anything else is nothing served.
  app.all(`${TOOL_PATH_PREFIX}*`, (c) => {
    const name = c.req.path.slice(TOOL_PATH_PREFIX.length);
    if (name === "" || name.includes("/") || !c.req.path.startsWith(TOOL_PATH_PREFIX)) return c.notFound();
    if (!SERVICE_METHODS.includes(c.req.method)) throw methodNotAllowed(SERVICE_METHODS);
    throw new ApiError("not_found", `There is no tool named '${decodedSegment(name)}'.`, { entry: true });
  });
}
