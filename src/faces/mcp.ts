import {
  type CallToolResult,
  createMcpHandler,
  INVALID_PARAMS,
  INVALID_REQUEST,
  isJSONRPCRequest,
  isLegacyRequest,
  PARSE_ERROR,
  type ProtocolEra,
  ProtocolError,
  readRequestBody,
  Server,
  type ServerContext,
  type Tool,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { admitRequests } from "../platform/admission";
import { type AuthContext, type PresentedKey, presentedKey } from "../platform/auth";
import { type ConfirmPreview, confirmPreviewSchema } from "../platform/confirm";
import { asApiError, invalidInput, methodNotAllowed } from "../platform/errors";
import type { Plan } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { burstLimited } from "../platform/quota";
import { BOOKMARK_HEADER, readBookmark } from "../platform/readSessions";
import { MAX_TOOL_BODY_BYTES } from "../platform/requestBody";
import { mcpTools } from "../registry/catalog";
import { CATALOG_REVISION } from "../registry/catalogRevision";
import type { ToolDefinition } from "../registry/defineTool";
import { invokeTool } from "../registry/invokeTool";
import { MCP_INSTRUCTIONS } from "../registry/mcpInstructions";
import { type McpToolEntry, mcpToolEntry, mcpToolsets, toolsCallableBy } from "../registry/mcpListing";
import {
  confirmationAsked,
  confirmsThroughPerson,
  declinedAnswer,
  type PersonsAnswer,
  personsAnswer,
  refusedState,
} from "./mcpConfirmation";

export const MCP_PATH = "/mcp";

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

/**
 * Who the tool calls of one POST run for. A POST that carries other messages was admitted by the
 * face, which verified the key: its calls take that (`verified`). A POST of tool calls only leaves
 * the key to each call's admission, its one key lookup; a key refused there refuses the whole POST
 * (`refusal`), as the face would have, unless a call of it got past the key.
 */
interface McpCaller {
  verified?: AuthContext;
  refusal?: { error: unknown };
  /** A call of this POST was admitted (the key was verified), or the face admitted the POST. */
  keyChecked: boolean;
}

/** One POST's caller, handed through the SDK to its per-request server (its pass-through authInfo exists for exactly this). */
interface McpCall {
  c: Context<AppEnv>;
  authorization: string | undefined;
  caller: McpCaller;
  /** The D1 bookmark the client handed back, for every call of the POST. */
  bookmark: string | undefined;
  /** The families the client narrowed its list to (`?toolsets=`); all when undefined. */
  toolsets: ReadonlySet<string> | undefined;
  /** The app's clock (a test may fix it), as the REST face reads it: "today" for every default date. */
  clock: () => Date;
}

const callOf = (extra: Record<string, unknown> | undefined) => extra?.call as McpCall;

/**
 * tools/list is the key's own (its plan and scopes) and changes with a deploy that changes the
 * catalog (CATALOG_REVISION, the server's version) or a change of plan: the client may keep it
 * five minutes, for this key alone.
 */
const TOOLS_LIST_CACHE = { ttlMs: 300_000, cacheScope: "private" as const };

/** The preview a two-step tool answers before it acts (confirm.ts). */
const isPreview = (result: unknown): result is ConfirmPreview => confirmPreviewSchema.safeParse(result).success;

/**
 * Counts a tool call the face answers itself (a person's answer, refused or declined) as one
 * message at the door; a refused key or a full window is the call's answer, as the pipeline's is.
 */
async function countAtDoor({ c, authorization, caller, clock }: McpCall, requestId: string): Promise<CallToolResult | undefined> {
  try {
    await admitMessages(c, presentedKey(authorization), 1, clock());
    caller.keyChecked = true;
    return undefined;
  } catch (error) {
    caller.refusal ??= { error };
    return toolError(error, requestId);
  }
}

/**
 * One MCP server per request: the face is stateless, every request stands alone. `era` is the
 * request's protocol revision family: 2026-07-28 ("modern") or a 2025 one ("legacy").
 */
function serverFor(call: McpCall, era: ProtocolEra, byName: ReadonlyMap<string, ToolDefinition>, listed: ToolList) {
  const { c, authorization, caller, bookmark, clock } = call;
  const server = new Server(
    { name: "retro-game-collection-api", title: "Retro Game Collection API", version: CATALOG_REVISION },
    { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS, cacheHints: { "tools/list": TOOLS_LIST_CACHE } },
  );
  // A tools/list never comes alone as a tool call does: the face admitted its POST and knows the key.
  server.setRequestHandler("tools/list", () => ({ tools: caller.verified ? listed(caller.verified, call.toolsets) : [] }));
  server.setRequestHandler("tools/call", async (request, ctx: ServerContext) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new ProtocolError(INVALID_PARAMS, `There is no tool named '${request.params.name}'.`);
    const requestId = c.get("requestId");
    const throughPerson = confirmsThroughPerson(tool, era, ctx);
    let args: Record<string, unknown> = request.params.arguments ?? {};
    const answer: PersonsAnswer = throughPerson ? await personsAnswer(c.env, ctx, tool, args, clock()) : { kind: "none" };
    if (answer.kind === "refused" || answer.kind === "declined" || answer.kind === "invalid") {
      // Answered here without the pipeline: the call still counts in the key's burst window.
      const notAdmitted = await countAtDoor(call, requestId);
      if (notAdmitted) return notAdmitted;
      if (answer.kind === "invalid") throw refusedState();
      return toolError(answer.kind === "refused" ? answer.error : await declinedAnswer(c.env, answer.confirmToken, clock()), requestId);
    }
    if (answer.kind === "confirmed") args = { ...args, confirmToken: answer.confirmToken };
    const outcome = await invokeTool(tool, {
      face: "mcp",
      env: c.env,
      authorization,
      verifiedAs: caller.verified,
      requestId,
      origin: publicOrigin(c.env, c.req.url),
      input: { raw: args },
      bookmark,
      now: clock(),
    });
    if (outcome.bookmark) c.set("bookmark", outcome.bookmark);
    if (outcome.rate) {
      c.set("rate", outcome.rate);
      caller.keyChecked = true;
    } else if (!outcome.ok) caller.refusal ??= { error: outcome.error };
    if (!outcome.ok) {
      // The confirm token a state carried was spent, or is another person's: the state is no good.
      if (answer.kind === "confirmed" && asApiError(outcome.error, requestId).details.field === "confirmToken") throw refusedState();
      return toolError(outcome.error, requestId);
    }
    if (throughPerson && isPreview(outcome.result)) return confirmationAsked(c.env, tool, args, outcome.result, clock());
    return toolResult(outcome.result);
  });
  return server;
}

/** The most JSON-RPC messages one POST may carry: each runs, so a batch is bounded like the work it asks for. */
export const MCP_BATCH_MAX = 10;

/** A POST's JSON-RPC body as read: its messages (one, or a batch's), or the JSON-RPC error that refuses it. */
type McpBody = { text: string; parsed: unknown; messages: unknown[] } | { refusal: Response };

const jsonRpcRefusal = (status: number, code: number, message: string): McpBody => ({
  refusal: Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status }),
});

/**
 * Reads and checks the body before the SDK sees it: the SDK accepts a batch of 100 messages and
 * runs two requests that share an id, answering only one of them (it keys its answers by id).
 */
async function readMcpBody(request: Request): Promise<McpBody> {
  const body = await readRequestBody(request, MAX_TOOL_BODY_BYTES);
  if (body.tooLarge) return jsonRpcRefusal(413, -32000, `Payload too large: a message is at most ${MAX_TOOL_BODY_BYTES} bytes.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return jsonRpcRefusal(400, PARSE_ERROR, "Parse error: Invalid JSON");
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  if (messages.length === 0 || messages.length > MCP_BATCH_MAX) {
    return jsonRpcRefusal(400, INVALID_REQUEST, `Invalid Request: a batch holds 1 to ${MCP_BATCH_MAX} messages.`);
  }
  const ids = messages.filter(isJSONRPCRequest).map((message) => message.id);
  if (new Set(ids).size < ids.length) {
    return jsonRpcRefusal(400, INVALID_REQUEST, "Invalid Request: every request of a batch needs its own id.");
  }
  return { text: body.text, parsed, messages };
}

/**
 * What a POST costs in its key's burst window at the door: one per message, except the calls of a
 * listed tool, which the call pipeline counts (and charges) as it would the same REST call. A
 * refused body counts one, as any refused call does.
 */
function burstUnitsOf(body: McpBody, tools: ReadonlyMap<string, ToolDefinition>): number {
  if ("refusal" in body) return 1;
  const reachesPipeline = (message: unknown) => {
    if (!isJSONRPCRequest(message) || message.method !== "tools/call") return false;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    return typeof name === "string" && tools.has(name);
  };
  return body.messages.filter((message) => !reachesPipeline(message)).length;
}

/**
 * Authenticates the key and counts `units` messages in its burst window (429 when it has no room
 * for them all); answers who is calling.
 */
async function admitMessages(c: Context<AppEnv>, key: PresentedKey, units: number, now: Date): Promise<AuthContext> {
  const { auth, burst } = await admitRequests(c.env, key, now, units);
  if (!burst.admitted) throw burstLimited(auth, burst, now);
  return auth;
}

/** The tools a key lists, by its plan and scopes and the families asked for. */
type ToolList = (auth: AuthContext, toolsets: ReadonlySet<string> | undefined) => Tool[];

/** Each tool's listed form, made once per plan (the schemas are the same for every key of a plan). */
function listingOf(tools: readonly ToolDefinition[]): ToolList {
  const entries = new Map<string, McpToolEntry>();
  const entryOf = (tool: ToolDefinition, plan: Plan) => {
    const key = `${plan} ${tool.name}`;
    const entry = entries.get(key) ?? mcpToolEntry(tool, plan);
    entries.set(key, entry);
    return entry;
  };
  // The SDK's Tool type names JSON Schemas more narrowly than the catalog's records.
  return (auth, toolsets) => toolsCallableBy(tools, auth, toolsets).map((tool) => entryOf(tool, auth.plan) as unknown as Tool);
}

export const TOOLSETS_PARAM = "toolsets";

/**
 * `?toolsets=library,play`: the families a client lists (every tool stays callable). Absent, all;
 * an unknown or empty name is a 400 naming the parameter.
 */
function readToolsets(url: string, known: readonly string[]): { toolsets?: ReadonlySet<string> } | { error: unknown } {
  const values = new URL(url).searchParams.getAll(TOOLSETS_PARAM);
  if (values.length === 0) return {};
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim());
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length === 0) return { toolsets: new Set(names) };
  const shown = unknown.map((name) => `'${name}'`).join(", ");
  return { error: invalidInput(TOOLSETS_PARAM, `${TOOLSETS_PARAM}: unknown toolset ${shown}; the toolsets are ${known.join(", ")}.`) };
}

/** Answers one MCP POST (`request`, the context's own or its canonical copy) as the caller the Authorization value names. */
export type McpAnswer = (c: Context<AppEnv>, request: Request, authorization: string | undefined) => Promise<Response>;

/**
 * The MCP face: streamable HTTP, stateless and answering JSON (no SSE), built on the official SDK.
 * Every request needs an API key and counts in its burst window; tool calls go through the same
 * pipeline as REST. /mcp reads the key from the request's Authorization header; the OAuth face
 * (oauth.ts) answers with the key its grant carries.
 */
export function mcpFace(allTools: readonly ToolDefinition[], clock: () => Date): McpAnswer {
  const tools = mcpTools(allTools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = listingOf(tools);
  const toolsets = mcpToolsets(tools);
  const serverOf = (call: McpCall, era: ProtocolEra) => serverFor(call, era, byName, listed);
  // 2026-07-28 requests: the official SDK's handler (server/discover, the per-request envelope,
  // input_required), answering JSON: its default response mode streams only once a handler sends a
  // notification before its result, which no tool here does (responseMode "json" would say the same
  // with a warning on every start). 2025 ones go to serveLegacy, which answers JSON too.
  const modern = createMcpHandler(({ authInfo }) => serverOf(callOf(authInfo?.extra), "modern"), {
    legacy: "reject",
    maxRequestBodySize: MAX_TOOL_BODY_BYTES,
  });
  /**
   * A 2025-revision request, stateless (initialize, then each request alone), as the SDK's own
   * legacy leg serves it but answering JSON rather than a stream: every answer, with its
   * rate-limit headers, is complete when it leaves.
   */
  const serveLegacy = async (call: McpCall, request: Request, parsed: unknown) => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await serverOf(call, "legacy").connect(transport);
    return transport.handleRequest(request, { parsedBody: parsed });
  };

  return async (c, request, authorization) => {
    const bookmark = readBookmark(c.req.header(BOOKMARK_HEADER));
    const narrowing = readToolsets(request.url, toolsets);
    const key = presentedKey(authorization);
    const body = await readMcpBody(request);
    const units = burstUnitsOf(body, byName);
    // Refused before anything runs: a bad key (401) first, then a full burst window (429), then a bad body.
    const caller: McpCaller =
      units > 0 ? { verified: await admitMessages(c, key, units, clock()), keyChecked: true } : { keyChecked: false };
    if ("refusal" in body) return body.refusal;
    if ("error" in narrowing) throw narrowing.error;
    const call: McpCall = { c, authorization, caller, bookmark, toolsets: narrowing.toolsets, clock };
    // The SDK's own classifier reads a copy of the body (this one was read above).
    const legacy = await isLegacyRequest(new Request(request.url, { method: "POST", headers: request.headers, body: body.text }));
    const answer = legacy
      ? await serveLegacy(call, request, body.parsed)
      : await modern.fetch(request, { parsedBody: body.parsed, authInfo: { token: "", clientId: "", scopes: [], extra: { call } } });
    if (caller.keyChecked) return answer;
    // No call got past the key: its refusal is the answer, or, if the SDK refused the POST before
    // any call ran, the key is still judged first.
    if (caller.refusal) throw caller.refusal.error;
    await admitMessages(c, key, 0, clock());
    return answer;
  };
}

/** POST /mcp with the API key in the Authorization header, as the spec says MCP authenticates. */
export function mountMcpEndpoint(app: Hono<AppEnv>, answer: McpAnswer): void {
  app.post(MCP_PATH, (c) => answer(c, c.req.raw, c.req.header("Authorization")));
  // A stateless server offers no stream to GET and no session to DELETE: 405, as MCP allows.
  app.all(MCP_PATH, () => {
    throw methodNotAllowed(["POST"]);
  });
}
