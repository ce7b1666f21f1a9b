import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { ERROR_STATUS } from "../platform/errors";
import { valueKind } from "../platform/queryCoercion";
import { fullDescription, publishedPlanDifferences } from "./catalog";
import { TOOL_PATH_PREFIX, type ToolDefinition, annotationsOf, methodsOf } from "./defineTool";

export const errorBodySchema = z
  .object({
    error: z.string().optional().describe("Entry errors (authentication, routing, quota, maintenance)."),
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]).optional(),
    message: z.string().optional(),
    field: z.string().optional().describe("The offending argument."),
    retryable: z.boolean().optional(),
    retryAfterSec: z.number().int().optional(),
    requestId: z.string().optional(),
    resetAt: z.string().optional(),
    remaining: z.number().int().optional(),
    scopes: z.array(z.string()).optional(),
    upgradeUrl: z.string().optional(),
    saved: z.boolean().optional(),
  })
  .describe("Error body: every property is optional; extra properties may appear.");

const ERROR_RESPONSES: Record<string, string> = {
  "400": "Invalid input (the field is named).",
  "401": "Missing, malformed, unknown or revoked API key.",
  "403": "insufficient_scope, plan_required or access_suspended.",
  "404": "Target or tool not found.",
  "405": "HTTP method not allowed on this path.",
  "429": "Burst limit or daily quota reached; see Retry-After.",
  "500": "Unexpected error; quote requestId.",
  "503": "Maintenance or temporary failure; see Retry-After.",
};

/** GET carries every argument but object ones, which are POST-only. */
function queryInput(tool: ToolDefinition) {
  const shape = Object.fromEntries(
    Object.entries(tool.input.shape).filter(([, schema]) => valueKind(schema as z.ZodType) !== "object"),
  );
  return z.object(shape);
}

function responsesOf(tool: ToolDefinition, errorBody: z.ZodType) {
  const error = (description: string) => ({ description, content: { "application/json": { schema: errorBody } } });
  const responses: Record<string, unknown> = {
    "200": { description: "The tool's result.", content: { "application/json": { schema: tool.output } } },
  };
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) responses[status] = error(description);
  if (tool.conflicts?.length) responses["409"] = error(`Conflict: ${tool.conflicts.join(" or ")}.`);
  return responses;
}

export function buildOpenApiDocument(tools: readonly ToolDefinition[], revision: string) {
  const api = new OpenAPIHono();
  api.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key issued to the account: `Authorization: Bearer rgc_…`.",
  });
  const errorBody = api.openAPIRegistry.register("Error", errorBodySchema);
  for (const tool of tools) {
    for (const method of methodsOf(tool)) {
      api.openAPIRegistry.registerPath({
        method: method === "GET" ? "get" : "post",
        path: `${TOOL_PATH_PREFIX}${tool.name}`,
        operationId: method === "GET" ? `${tool.name}Get` : tool.name,
        summary: tool.title,
        description: fullDescription(tool),
        tags: [tool.family],
        security: [{ apiKey: [] }],
        request:
          method === "GET"
            ? { query: queryInput(tool) }
            : { body: { required: true, content: { "application/json": { schema: tool.input } } } },
        responses: responsesOf(tool, errorBody) as never,
      });
    }
  }
  const document = api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Retro Game Collection API",
      version: "v1",
      description:
        "Every tool is one path under /rest/v1/. Definitions are written for PREMIUM; lower plans differ as x-svc-plan-differences says.",
    },
  }) as unknown as Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };
  for (const tool of tools) {
    const planDifferences = publishedPlanDifferences(tool);
    for (const operation of Object.values(document.paths[`${TOOL_PATH_PREFIX}${tool.name}`] ?? {})) {
      operation["x-svc-scopes"] = [...tool.scopes];
      operation["x-svc-plans"] = [...tool.plans];
      operation["x-svc-annotations"] = annotationsOf(tool);
      if (planDifferences) operation["x-svc-plan-differences"] = planDifferences;
    }
  }
  return { ...document, "x-svc-revision": revision };
}
