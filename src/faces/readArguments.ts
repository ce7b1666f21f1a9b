import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../platform/errors";
import { coerceQuery } from "../platform/queryCoercion";
import type { ToolDefinition } from "./defineTool";

/** Tool bodies are small JSON objects; anything larger is a mistake or abuse. */
export const MAX_TOOL_BODY_BYTES = 1_048_576;

const invalidBody = (message: string) => new ApiError("invalid_input", message, { field: "(body)" });

export async function readJsonObject(c: Context<AppEnv>, maxBytes: number): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.length > maxBytes) throw invalidBody(`The body is larger than ${maxBytes} bytes.`);
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidBody("The body is not readable as JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidBody("The body must be a JSON object of arguments.");
  }
  return parsed as Record<string, unknown>;
}

/** GET reads the query string by the input schema; POST and PUT read a JSON object. */
export async function readToolArguments(c: Context<AppEnv>, tool: ToolDefinition): Promise<Record<string, unknown>> {
  if (c.req.method === "GET" || c.req.method === "HEAD") {
    return coerceQuery(tool.input.shape, new URL(c.req.url).searchParams);
  }
  return readJsonObject(c, MAX_TOOL_BODY_BYTES);
}
