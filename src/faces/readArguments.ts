import type { Context } from "hono";
import type { AppEnv } from "../env";
import { invalidInput } from "../platform/errors";
import { coerceQuery } from "../platform/queryCoercion";
import { MAX_TOOL_BODY_BYTES, readJsonObject } from "../platform/requestBody";
import type { ToolDefinition } from "../registry/defineTool";
import type { ReadArguments } from "../registry/invokeTool";

/** The query string's parameters, or none when the URL has no `?` (most POSTs: no URL parsing). */
function queryParams(url: string): URLSearchParams {
  const at = url.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : url.slice(at + 1));
}

/**
 * GET reads the query string by the input schema. POST and PUT read a JSON object, plus the query
 * string by the same rules as GET, so a parameter there is never ignored: an unknown one is refused
 * as in GET, a known one is an argument, and one given in both places is a 400 naming it.
 */
async function argumentsOf(c: Context<AppEnv>, tool: ToolDefinition): Promise<Record<string, unknown>> {
  const query = coerceQuery(tool.input.shape, queryParams(c.req.url));
  if (c.req.method === "GET") return query;
  const body = await readJsonObject(c.req.raw, MAX_TOOL_BODY_BYTES);
  for (const name of Object.keys(query)) {
    if (Object.hasOwn(body, name)) throw invalidInput(name, `${name}: given in both the query string and the body; send it once.`);
  }
  return { ...body, ...query };
}

/** The call's arguments as read, or the error reading them ended with: the pipeline answers it after admission. */
export const readToolArguments = (c: Context<AppEnv>, tool: ToolDefinition): Promise<ReadArguments> =>
  argumentsOf(c, tool).then(
    (raw) => ({ raw }),
    (error: unknown) => ({ error }),
  );
