// The MCP face, driven by the official SDK client through the Worker's fetch.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { portabilityFindings } from "../../scripts/lib/schemaPortability";
import { KEY_PRESETS, PLAN_LIMITS } from "../../src/platform/plans";
import { isNoteSaidOnce } from "../../src/registry/mcpInstructions";
import { tools } from "../../src/tools";
import { atWindowStart, burstUsed, setUsedOn, useBurstWindow, usedToday } from "../support/accounting";
import { type Account, admin, authHeader, newAccount, send } from "../support/harness";
import { importLibraryMaster } from "../support/masterSets";
import { type McpReply, mcpCall, mcpClient, mcpClientV2 } from "../support/mcp";

const A = 750001;
const B = 750002;
const GAME_IDS = Array.from({ length: 25 }, (_, i) => 750001 + i);

beforeAll(importLibraryMaster);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(account: Pick<Account, "apiKey">): Promise<Client> {
  const client = await mcpClient(account.apiKey);
  clients.push(client);
  return client;
}

function expectToolError(reply: McpReply, code: string, field?: string) {
  expect(reply.isError, reply.text).toBe(true);
  expect(reply.body.code).toBe(code);
  expect(reply.body.requestId).toMatch(/^req_/);
  if (field !== undefined) expect(reply.body.field).toBe(field);
}

const ok = (reply: McpReply) => {
  expect(reply.isError, reply.text).toBe(false);
  return reply.body;
};

const initializeRequest = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

const postMcp = (body: unknown, headers: Record<string, string> = {}) =>
  send("/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("MCP tools/list", () => {
  it("lists every catalog tool but the REST-only ones to a PREMIUM key with every scope, each with its rules and lean schemas", async () => {
    const client = await connect(await newAccount());
    const { tools: listed } = await client.listTools();
    const catalog = (await send("/rest/v1/tools")).body.tools as any[];
    const expected = catalog.filter((tool) => !tool.restOnly);
    expect(listed.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
    for (const tool of listed) {
      const entry = expected.find((candidate) => candidate.name === tool.name)!;
      const definition = tools.find((candidate) => candidate.name === tool.name)!;
      // No title: the catalog's Japanese display label would cost the model's context in every list.
      expect(tool.title, tool.name).toBeUndefined();
      // The description a model reads carries the catalog's notes, but those the instructions say once (two-step, updates, sorting).
      expect(tool.description!.startsWith(definition.description), tool.name).toBe(true);
      for (const note of entry.notes.filter((note: string) => !isNoteSaidOnce(note))) expect(tool.description, tool.name).toContain(note);
      for (const note of entry.notes.filter(isNoteSaidOnce)) expect(tool.description, tool.name).not.toContain(note);
      // The same arguments as the catalog (PREMIUM's), without the catalog's restatements.
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(Object.keys(entry.inputSchema.properties));
      expect(tool.inputSchema.required ?? []).toEqual(entry.inputSchema.required ?? []);
      expect(JSON.stringify(tool.inputSchema)).not.toContain("$schema");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool._meta).toBeUndefined();
    }
  });

  it("lists a FREE view-only key only what it can call, and an unlisted tool still answers as it always did", async () => {
    const account = await newAccount({ plan: "FREE", scopes: [...KEY_PRESETS.viewOnly] });
    const client = await connect(account);
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    const callable = tools.filter(
      (tool) =>
        !tool.restOnly && tool.plans.includes("FREE") && tool.scopes.every((scope) => KEY_PRESETS.viewOnly.includes(scope as never)),
    );
    expect(listed).toEqual(callable.map((tool) => tool.name));
    expect(listed).toEqual(expect.arrayContaining(["getAccount", "searchGames", "getLibrary", "getPlayRecords"]));
    for (const unlisted of ["addToLibrary", "getConsoles", "browseGames", "removeFromLibrary"]) expect(listed).not.toContain(unlisted);
    // Unlisted, the tools answer exactly as before: the scope first, then the plan, as REST does.
    const scope = await mcpCall(client, "addToLibrary", { gameId: A });
    expectToolError(scope, "insufficient_scope");
    expect(scope.body.scopes).toEqual(["library:write"]);
    expect(await account.call("addToLibrary", { gameId: A })).toMatchObject({ status: 403, body: { code: "insufficient_scope" } });
    expectToolError(await mcpCall(client, "getConsoles", {}), "plan_required");
    expectToolError(await mcpCall(client, "browseGames", { platformIds: [1] }), "plan_required");
  });

  it("shows a lower plan's arguments as its plan takes them, and still refuses the PREMIUM ones", async () => {
    const account = await newAccount({ plan: "FREE" });
    const client = await connect(account);
    const listed = (await client.listTools()).tools;
    const playRecords = listed.find((tool) => tool.name === "getPlayRecords")!;
    expect(playRecords.inputSchema.properties).not.toHaveProperty("consoleIds");
    expect(playRecords.inputSchema.properties).toHaveProperty("statuses");
    expectToolError(await mcpCall(client, "getPlayRecords", { consoleIds: ["c"] }), "plan_required", "consoleIds");
  });

  it("lists schemas the MCP Inspector finds portable: no type arrays, no untyped or boolean schema, no remote $ref", async () => {
    const keys = [
      await newAccount(),
      await newAccount({ scopes: [...KEY_PRESETS.viewOnly] }),
      await newAccount({ plan: "LIGHT", scopes: [...KEY_PRESETS.standard] }),
      await newAccount({ plan: "FREE", scopes: [...KEY_PRESETS.standard] }),
      await newAccount({ plan: "FREE", scopes: [...KEY_PRESETS.viewOnly] }),
    ];
    for (const account of keys) {
      const listedV1 = (await (await connect(account)).listTools()).tools;
      const v2 = await mcpClientV2(account.apiKey);
      const listedV2 = (await v2.listTools()).tools;
      await v2.close();
      expect(listedV2).toEqual(listedV1);
      expect(listedV1.flatMap(portabilityFindings), `${account.plan} ${listedV1.length} tools`).toEqual([]);
    }
  });

  it("narrows the list to the toolsets asked for (every tool stays callable), and refuses an unknown one with 400", async () => {
    const account = await newAccount();
    const narrowed = await mcpClient(account.apiKey, "/mcp?toolsets=library,play");
    clients.push(narrowed);
    const families = new Set((await narrowed.listTools()).tools.map((tool) => tools.find((t) => t.name === tool.name)!.family));
    expect([...families].sort()).toEqual(["library", "play"]);
    expect(ok(await mcpCall(narrowed, "searchGames", { query: "ルミナ 霞" })).items[0]).toMatchObject({ gameId: A });
    for (const query of ["toolsets=library,nonsense", "toolsets=", "toolsets=exports"]) {
      const refused = await send(`/mcp?${query}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...authHeader(account.apiKey) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(refused.status, query).toBe(400);
      expect(refused.body, query).toMatchObject({ code: "invalid_input", field: "toolsets" });
    }
  });

  it("gives the MCP description without the REST sentence, and getGamesBatch's MCP limit", async () => {
    const client = await connect(await newAccount());
    const { tools: listed } = await client.listTools();
    const batch = listed.find((tool) => tool.name === "getGamesBatch")!;
    expect(batch.description).toContain("20 over MCP");
    expect(batch.description).not.toContain("In REST");
  });

  it("is covered by a registry sweep: every tool is on REST, and on MCP unless REST-only", async () => {
    const client = await connect(await newAccount());
    const listed = new Set((await client.listTools()).tools.map((tool) => tool.name));
    const catalog = (await send("/rest/v1/tools")).body.tools as any[];
    for (const tool of tools) {
      expect(listed.has(tool.name), `${tool.name} on MCP`).toBe(!tool.restOnly);
      expect(catalog.find((entry) => entry.name === tool.name)?.restOnly === true, `${tool.name} marked in the catalog`).toBe(
        tool.restOnly === true,
      );
      const rest = await send(`/rest/v1/${tool.name}`, { method: "POST" });
      expect(rest.status, `${tool.name} on REST`).toBe(401);
    }
  });

  it("charges no daily quota for initialize and tools/list, but counts each message in the key's burst window", async () => {
    const account = await newAccount();
    await atWindowStart();
    const client = await connect(account);
    await client.listTools();
    await client.listTools();
    expect(await usedToday(account.userId)).toBe(0);
    // initialize, notifications/initialized and two tools/list.
    expect(await burstUsed(account.keyId)).toBe(4);
  });
});

describe("MCP tools/call", () => {
  it("answers a read with the REST body as structuredContent and as text", async () => {
    const account = await newAccount();
    const client = await connect(account);
    const args = { gameIds: [A, B, 999_999], fields: ["specs"] };
    const reply = ok(await mcpCall(client, "getGamesBatch", args));
    expect(reply).toEqual((await account.call("getGamesBatch", args)).body);
    expect(reply.items.map((game: any) => game.gameId)).toEqual([A, B]);
    expect(reply.notFoundGameIds).toEqual([999_999]);
  });

  it("fetches 20 ids per getGamesBatch call over MCP and 100 over REST", async () => {
    const account = await newAccount();
    const client = await connect(account);
    const mcp = ok(await mcpCall(client, "getGamesBatch", { gameIds: GAME_IDS, fields: [] }));
    expect(mcp.items.length + mcp.notFoundGameIds.length).toBe(20);
    expect(mcp.omittedGameIds).toEqual(GAME_IDS.slice(20));
    expect(mcp).toMatchObject({ limitReduced: true, limitReason: expect.stringContaining("20") });
    const rest = (await account.call("getGamesBatch", { gameIds: GAME_IDS, fields: [] })).body;
    expect(rest).toMatchObject({ limitReduced: false, omittedGameIds: [] });
  });

  it("searches, adds to the library and reads it back", async () => {
    const client = await connect(await newAccount());
    const found = ok(await mcpCall(client, "searchGames", { query: "ルミナ 霞" }));
    expect(found.items[0]).toMatchObject({ gameId: A });
    const added = ok(await mcpCall(client, "addToLibrary", { gameId: A, rating: 4, buyPlace: "駿河屋" }));
    expect(added.item).toMatchObject({ gameId: A, rating: 4, buyPlace: "駿河屋" });
    const library = ok(await mcpCall(client, "getLibrary", {}));
    expect(library.items.map((entry: any) => entry.gameId)).toEqual([A]);
  });

  it("removes in two steps: a preview with summary and token, then the removal", async () => {
    const client = await connect(await newAccount());
    ok(await mcpCall(client, "addToLibrary", { gameId: A }));
    const preview = ok(await mcpCall(client, "removeFromLibrary", { gameId: A }));
    expect(preview).toMatchObject({ confirmRequired: true, summary: expect.any(String), confirmToken: expect.stringMatching(/^ct_/) });
    expect(ok(await mcpCall(client, "getLibrary", {})).totalCount).toBe(1);
    const removed = ok(await mcpCall(client, "removeFromLibrary", { gameId: A, confirmToken: preview.confirmToken }));
    expect(removed).toMatchObject({ gameId: A, removed: true });
    expect(ok(await mcpCall(client, "getLibrary", {})).totalCount).toBe(0);
  });

  it("confirms a LIGHT replay in two steps, as in REST", async () => {
    const client = await connect(await newAccount({ plan: "LIGHT" }));
    ok(await mcpCall(client, "addToLibrary", { gameId: A }));
    const first = ok(await mcpCall(client, "addPlayRecord", { gameId: A, status: "COMPLETED" }));
    const preview = ok(await mcpCall(client, "addPlayRecord", { gameId: A, replay: true }));
    expect(preview).toMatchObject({ confirmRequired: true, confirmToken: expect.any(String) });
    const replayed = ok(await mcpCall(client, "addPlayRecord", { gameId: A, replay: true, confirmToken: preview.confirmToken }));
    expect(replayed).toMatchObject({ replayed: true, item: { status: "PLAYING" } });
    expect(replayed.playId).not.toBe(first.playId);
  });

  it("answers tool errors as isError results carrying the REST error body", async () => {
    const client = await connect(await newAccount());
    expectToolError(await mcpCall(client, "addToLibrary", { gameId: "x" }), "invalid_input", "gameId");
    expectToolError(await mcpCall(client, "getLibrary", { unexpected: 1 }), "invalid_input", "unexpected");
    expectToolError(await mcpCall(client, "updateLibraryEntry", { gameId: B, memo: "x" }), "not_found");
    ok(await mcpCall(client, "addToLibrary", { gameId: A }));
    expectToolError(await mcpCall(client, "addToLibrary", { gameId: A }), "already_exists");
    const result = await client.callTool({ name: "addToLibrary", arguments: { gameId: A } });
    expect(result.structuredContent).toBeUndefined();
  });

  it("refuses a missing scope and a lower plan with 403 codes, as REST does", async () => {
    const viewer = await newAccount({ scopes: ["library:read", "play:read", "games:read"] });
    const refused = await mcpCall(await connect(viewer), "addToLibrary", { gameId: A });
    expectToolError(refused, "insufficient_scope");
    expect(refused.body.scopes).toEqual(["library:write"]);
    const free = await newAccount({ plan: "FREE" });
    const freeClient = await connect(free);
    const plan = await mcpCall(freeClient, "getConsoles", {});
    expectToolError(plan, "plan_required");
    expect(plan.body.upgradeUrl).toEqual(expect.any(String));
    expectToolError(await mcpCall(freeClient, "getPlayRecords", { consoleIds: ["c"] }), "plan_required", "consoleIds");
  });

  it("charges a call once and refunds a refused one, exactly as REST", async () => {
    const account = await newAccount();
    const viewer = { apiKey: (await account.newKey(["library:read", "games:read"])).apiKey };
    const client = await connect(account);
    ok(await mcpCall(client, "listGenres"));
    expect(await usedToday(account.userId)).toBe(1);
    expectToolError(await mcpCall(await connect(viewer), "addToLibrary", { gameId: A }), "insufficient_scope");
    expect(await usedToday(account.userId), "a refused call is refunded").toBe(1);
    expectToolError(await mcpCall(client, "addToLibrary", { gameId: -1 }), "invalid_input");
    expect(await usedToday(account.userId), "invalid input is charged, as in REST").toBe(2);
    await account.call("listGenres");
    expect(await usedToday(account.userId)).toBe(3);
  });

  it("answers a spent daily quota with quota_exceeded, retryAfterSec and resetAt", async () => {
    const account = await newAccount({ plan: "FREE" });
    const client = await connect(account);
    await setUsedOn(account.userId, PLAN_LIMITS.FREE.dailyQuota);
    const reply = await mcpCall(client, "listGenres");
    expectToolError(reply, "quota_exceeded");
    expect(reply.body).toMatchObject({ retryable: true, retryAfterSec: expect.any(Number), resetAt: expect.any(String) });
  });

  it("tells an assistant how the service works in its instructions: where ids come from, plans and quota, two-step removals", async () => {
    const client = await connect(await newAccount());
    const instructions = client.getInstructions() ?? "";
    for (const named of ["searchGames", "listPlatforms", "getAccount", "daily quota", "rate_limited", "confirmToken", "isError"]) {
      expect(instructions).toContain(named);
    }
  });

  it("answers an unknown tool with a JSON-RPC error", async () => {
    const client = await connect(await newAccount());
    const error = await client.callTool({ name: "noSuchTool", arguments: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32602);
    // The client prefixes "MCP error <code>: " once; the server's own message carries no prefix of its own.
    expect(error.message).toBe("MCP error -32602: There is no tool named 'noSuchTool'.");
  });

  it("keeps users apart: another user's game is not found", async () => {
    const owner = await newAccount();
    await owner.call("addToLibrary", { gameId: A });
    const other = await connect(await newAccount());
    expectToolError(await mcpCall(other, "updateLibraryEntry", { gameId: A, memo: "mine" }), "not_found");
  });
});

describe("MCP over HTTP", () => {
  it("refuses a request without a key, with an unknown key and with a revoked key: 401 Bearer", async () => {
    const account = await newAccount();
    await admin("DELETE", `/keys/${account.keyId}`);
    const unknown = `rgc_${"a".repeat(48)}`;
    const none = await postMcp(initializeRequest, {});
    expect(none.status).toBe(401);
    expect(none.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect(none.body.code).toBe("unauthorized");
    for (const [key, reason] of [
      [unknown, "unknown"],
      [account.apiKey, "revoked"],
    ] as const) {
      const reply = await postMcp(initializeRequest, { Authorization: `Bearer ${key}` });
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ error: "invalid_token", code: "invalid_token", reason });
      expect(reply.headers.get("WWW-Authenticate")).toBe(`Bearer error="invalid_token", error_description="${reply.body.message}"`);
    }
    await expect(mcpClient(null)).rejects.toThrow();
  });

  it("answers GET and DELETE with 405 Allow: POST (a stateless server)", async () => {
    const account = await newAccount();
    for (const method of ["GET", "DELETE"]) {
      const reply = await send("/mcp", { method, headers: { Authorization: `Bearer ${account.apiKey}` } });
      expect(reply.status).toBe(405);
      expect(reply.headers.get("Allow")).toBe("POST");
    }
  });

  it("answers a body that is not JSON with a JSON-RPC parse error, and keeps no session", async () => {
    const account = await newAccount();
    const auth = { Authorization: `Bearer ${account.apiKey}` };
    const broken = await postMcp("{not json", auth);
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe(-32700);
    const initialized = await postMcp(initializeRequest, auth);
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get("mcp-session-id")).toBeNull();
    expect(initialized.body.result.serverInfo.name).toBe("retro-game-collection-api");
  });
});

describe("MCP limits", () => {
  /** The batch bound docs/mcp.md gives. */
  const MCP_BATCH_MAX = 10;
  const listTools = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
  const addToLibrary = (id: number, gameId: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "addToLibrary", arguments: { gameId } },
  });

  it("counts tools/list against the burst limit: of calls arriving at once, exactly the window's room is served", async () => {
    const account = await newAccount({ plan: "FREE" });
    await useBurstWindow(account.keyId, PLAN_LIMITS.FREE.burstLimit - 5);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => postMcp(listTools(i), authHeader(account.apiKey))));
    const served = replies.filter((reply) => reply.status === 200);
    const limited = replies.filter((reply) => reply.status === 429);
    expect(served).toHaveLength(5);
    expect(limited).toHaveLength(5);
    expect(limited[0]!.body).toMatchObject({ code: "rate_limited", retryable: true });
    expect(limited[0]!.headers.get("Retry-After")).toBe(String(limited[0]!.body.retryAfterSec));
    expect(await usedToday(account.userId)).toBe(0);
  });

  it(`refuses a batch of more than ${MCP_BATCH_MAX} messages before running any; a batch within it counts each message`, async () => {
    const account = await newAccount();
    await atWindowStart();
    const over = await postMcp(
      Array.from({ length: 100 }, (_, i) => listTools(i)),
      authHeader(account.apiKey),
    );
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(await burstUsed(account.keyId), "a refused batch counts once").toBe(1);
    const within = await postMcp(
      Array.from({ length: MCP_BATCH_MAX }, (_, i) => listTools(i)),
      authHeader(account.apiKey),
    );
    expect(within.status).toBe(200);
    expect(within.body.map((answer: any) => answer.id)).toEqual(Array.from({ length: MCP_BATCH_MAX }, (_, i) => i));
    expect(await burstUsed(account.keyId)).toBe(1 + MCP_BATCH_MAX);
  });

  it("refuses a batch whose requests share an id, running none of them; distinct ids run and answer each", async () => {
    const account = await newAccount();
    const shared = await postMcp([addToLibrary(7, A), addToLibrary(7, B)], authHeader(account.apiKey));
    expect(shared.status).toBe(400);
    expect(shared.body).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await account.call("getLibrary", { fields: [] })).body.totalCount).toBe(0);
    expect(await usedToday(account.userId), "only the getLibrary above was charged").toBe(1);

    const distinct = await postMcp([addToLibrary(7, A), addToLibrary("7" as unknown as number, B)], authHeader(account.apiKey));
    expect(distinct.status).toBe(200);
    expect(distinct.body.map((answer: any) => [answer.id, answer.result.isError ?? false])).toEqual([
      [7, false],
      ["7", false],
    ]);
    expect((await account.call("getLibrary", { fields: [] })).body.totalCount).toBe(2);
  });
});
