// The MCP test harness: the official SDK client, connected to the Worker's fetch in memory.

import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { ORIGIN } from "./harness";

/** A connected SDK client whose requests reach the Worker's default export, with this key (or an OAuth access token at /mcp/oauth). */
export async function mcpClient(apiKey: string | null, path = "/mcp"): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}${path}`), {
    requestInit: apiKey === null ? {} : { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
  // workerd forbids code generation, so the client checks output schemas with cfworker's validator.
  const client = new Client({ name: "rgc-tests", version: "1" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(transport);
  return client;
}

export interface McpReply<T = any> {
  isError: boolean;
  /** structuredContent for a result, the parsed error body for an isError result. */
  body: T;
  text: string;
}

/** Calls a tool and reads its answer the way an assistant would: structured, or the error text. */
export async function mcpCall(client: Client, name: string, args: Record<string, unknown> = {}): Promise<McpReply> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
  const isError = result.isError === true;
  if (!isError && JSON.stringify(result.structuredContent) !== text) throw new Error("text content differs from structuredContent");
  return { isError, body: isError ? JSON.parse(text) : result.structuredContent, text };
}
