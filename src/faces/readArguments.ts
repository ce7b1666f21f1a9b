import type { Context } from "hono";
import type { AppEnv } from "../env";
import { coerceQuery } from "../platform/queryCoercion";
import { MAX_TOOL_BODY_BYTES, readJsonObject } from "../platform/requestBody";
import type { ToolDefinition } from "../registry/defineTool";

/** GET reads the query string by the input schema; POST and PUT read a JSON object. */
export async function readToolArguments(c: Context<AppEnv>, tool: ToolDefinition): Promise<Record<string, unknown>> {
  if (c.req.method === "GET") {
    return coerceQuery(tool.input.shape, new URL(c.req.url).searchParams);
  }
  return readJsonObject(c.req.raw, MAX_TOOL_BODY_BYTES);
}
