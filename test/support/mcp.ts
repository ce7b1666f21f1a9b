// The MCP test harness: the official SDK client, connected to the Worker's fetch in memory.

import { exports } from "cloudflare:workers";
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { ORIGIN } from "./harness";

/**
 * A connected SDK client whose requests reach the Worker's default export (or `worker`, an app a
 * test built), with this key (or an OAuth access token at /mcp/oauth).
 */
export async function mcpClient(
  apiKey: string | null,
  path = "/mcp",
  worker: (request: Request) => Promise<Response> = (request) => exports.default.fetch(request),
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}${path}`), {
    requestInit: apiKey === null ? {} : { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: (input, init) => worker(new Request(input, init)),
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

/** Clients that listed the tools: the SDK checks a result against the listed output schema only then. */
const listedBy = new WeakSet<Client>();

/**
 * Calls a tool and reads its answer the way an assistant would: structured, or the error text.
 * The client lists the tools first (once), as an assistant does, so the SDK validates every
 * structured result against the output schema the key was shown.
 */
export async function mcpCall(client: Client, name: string, args: Record<string, unknown> = {}): Promise<McpReply> {
  if (!listedBy.has(client)) {
    await client.listTools();
    listedBy.add(client);
  }
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
  const isError = result.isError === true;
  if (!isError && JSON.stringify(result.structuredContent) !== text) throw new Error("text content differs from structuredContent");
  return { isError, body: isError ? JSON.parse(text) : result.structuredContent, text };
}

/** What a modern client's HTTP exchanges were: each request body and its answer's body, in order. */
export interface WireLog {
  requests: { body: any; headers: Headers }[];
  answers: any[];
}

/** How the person answers a confirmation form: accept with confirm true or false, decline or cancel. */
export type PersonsReply = (message: string) => Promise<{ action: "accept" | "decline" | "cancel"; content?: { confirm: boolean } }>;

/**
 * The official SDK v2 client (`@modelcontextprotocol/client`) against the Worker: pinned to
 * revision 2026-07-28 unless `era: "default"` (its default negotiation, the 2025 handshake), with
 * form elicitation when `person` answers the forms. `wire` records every exchange.
 */
export async function mcpClientV2(
  apiKey: string,
  options: { era?: "pinned" | "default"; person?: PersonsReply; wire?: WireLog; path?: string } = {},
): Promise<ClientV2> {
  const transport = new StreamableHTTPClientTransportV2(new URL(`${ORIGIN}${options.path ?? "/mcp"}`), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (options.wire && request.method === "POST")
        options.wire.requests.push({ body: await request.clone().json(), headers: request.headers });
      const response = await exports.default.fetch(request);
      if (options.wire && request.method === "POST")
        options.wire.answers.push(
          await response
            .clone()
            .json()
            .catch(() => null),
        );
      return response;
    },
  });
  const client = new ClientV2(
    { name: "rgc-tests-v2", version: "1" },
    {
      ...(options.era === "default" ? {} : { versionNegotiation: { mode: { pin: "2026-07-28" as const } } }),
      ...(options.person ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  const person = options.person;
  if (person) {
    client.setRequestHandler("elicitation/create", async (request) => person((request.params as { message: string }).message));
  }
  await client.connect(transport);
  // Listed as an assistant would: the SDK then validates each structured result against its output schema.
  await client.listTools();
  return client;
}
