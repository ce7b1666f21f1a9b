import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { authenticateOnly } from "../platform/admission";
import { presentedKey } from "../platform/auth";
import { createDb } from "../platform/db";
import { asApiError, methodNotAllowed } from "../platform/errors";
import { MAX_TOOL_BODY_BYTES } from "../platform/requestBody";
import { mcpToolEntry, mcpTools } from "../registry/catalog";
import { CATALOG_REVISION } from "../registry/catalogRevision";
import type { ToolDefinition } from "../registry/defineTool";
import { invokeTool } from "../registry/invokeTool";

export const MCP_PATH = "/mcp";

const INSTRUCTIONS = [
  "Tools for one collector's retro game library: find games (kana reading, JAN barcode, model number),",
  "keep the library, wishlist, play records and logs, consoles, tags and collections.",
  "Removals and FREE/LIGHT replays are two-step: the first call changes nothing and answers a summary",
  "and a confirmToken; show the summary to the user and call again with the token only after they agree.",
  "A result with isError carries the REST error body (code, message, field, retryAfterSec, requestId).",
].join(" ");

const asText = (value: unknown) => [{ type: "text" as const, text: JSON.stringify(value) }];

/** A REST result as an MCP result: the same body, structured and as text. */
const toolResult = (body: unknown): CallToolResult => ({
  content: asText(body),
  structuredContent: body as Record<string, unknown>,
});

/**
 * A tool error as an MCP result the model can read: the REST error body as text, and no
 * structuredContent (the client would check it against the tool's output schema).
 */
const toolError = (error: unknown, requestId: string): CallToolResult => ({
  content: asText(asApiError(error, requestId).toBody(requestId)),
  isError: true,
});

/** One MCP server per request: the face is stateless, every request stands alone. */
function serverFor(c: Context<AppEnv>, tools: readonly ToolDefinition[], listed: ReturnType<typeof mcpToolEntry>[]) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: "retro-game-collection-api", title: "Retro Game Collection API", version: CATALOG_REVISION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `There is no tool named '${request.params.name}'.`);
    const requestId = c.get("requestId");
    try {
      const body = await invokeTool(tool, {
        face: "mcp",
        env: c.env,
        authorization: c.req.header("Authorization"),
        requestId,
        origin: new URL(c.req.url).origin,
        readArguments: async () => request.params.arguments ?? {},
        onAdmitted: (auth, rate) => {
          c.set("auth", auth);
          c.set("rate", rate);
        },
      });
      return toolResult(body);
    } catch (error) {
      return toolError(error, requestId);
    }
  });
  return server;
}

/**
 * The MCP face: streamable HTTP at POST /mcp, stateless and answering JSON (no SSE), built on the
 * official SDK. Every request needs the API key; tool calls go through the same pipeline as REST.
 */
export function mountMcpEndpoint(app: Hono<AppEnv>, allTools: readonly ToolDefinition[]): void {
  const tools = mcpTools(allTools);
  let listed: ReturnType<typeof mcpToolEntry>[] | undefined;

  app.post(MCP_PATH, async (c) => {
    // Refused before any tool runs; a tool call authenticates again as it is charged.
    await authenticateOnly(createDb(c.env.DB), presentedKey(c.req.header("Authorization")));
    listed ??= tools.map(mcpToolEntry);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_TOOL_BODY_BYTES,
    });
    await serverFor(c, tools, listed).connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  // A stateless server offers no stream to GET and no session to DELETE: 405, as MCP allows.
  app.all(MCP_PATH, () => {
    throw methodNotAllowed(["POST"]);
  });
}
