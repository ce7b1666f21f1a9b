// Everything that charges quota goes through one wrapper (src/registry/chargedWork.ts): an MCP tool
// call looks its key up once, as a REST call does, and downloads and uploads log one line each.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { keyRowQuery } from "../../src/platform/auth";
import { renderQuery } from "../../src/platform/db";
import { issueExportLink } from "../../src/platform/signedLinks";
import { DOWNLOAD_COSTS } from "../../src/tools/exports/downloadCosts";
import { fetchLink, tokenOf } from "../support/downloads";
import { admin, authHeader, newAccount, ORIGIN, send } from "../support/harness";
import { statementsOf } from "../support/recordingD1";

afterEach(() => {
  vi.restoreAllMocks();
});

const KEY_LOOKUP = renderQuery(keyRowQuery("key_x")).sql;
const readsApiKeys = (statement: string) => /\bapi_keys\b/.test(statement);

const mcpPost = (apiKey: string, body: unknown, accept = "application/json, text/event-stream"): RequestInit => ({
  method: "POST",
  headers: { ...authHeader(apiKey), "Content-Type": "application/json", Accept: accept },
  body: JSON.stringify(body),
});
const toolsCall = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
const toolsList = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

describe("an MCP tool call", () => {
  it("reads its key from D1 only the first time, as a REST call does: after that the key's accounting object admits it alone", async () => {
    const account = await newAccount();
    const first = await statementsOf("/mcp", mcpPost(account.apiKey, toolsCall(1, "listGenres")));
    expect(first.reply.body.result.isError ?? false, JSON.stringify(first.reply.body)).toBe(false);
    expect(first.statements.filter(readsApiKeys)).toEqual([KEY_LOOKUP]);
    const rest = await statementsOf("/rest/v1/listGenres", { method: "POST", headers: authHeader(account.apiKey) });
    expect(rest.reply.status).toBe(200);
    const again = await statementsOf("/mcp", mcpPost(account.apiKey, toolsCall(2, "listGenres")));
    expect(again.reply.body.result.isError ?? false).toBe(false);
    expect([...rest.statements, ...again.statements].filter(readsApiKeys)).toEqual([]);
  });

  it("looks its key up once in a POST that also carries other messages (the face's admission serves it)", async () => {
    const account = await newAccount();
    const { reply, statements } = await statementsOf("/mcp", mcpPost(account.apiKey, [toolsList(1), toolsCall(2, "listGenres")]));
    expect(reply.status).toBe(200);
    expect(reply.body.map((answer: any) => [answer.id, answer.result.isError ?? false])).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(reply.body[0].result.tools.length).toBeGreaterThan(0);
    expect(statements.filter((statement) => statement === KEY_LOOKUP)).toHaveLength(1);
  });

  it("with an unknown, revoked or suspended key is still refused as HTTP 401 or 403 before any tool runs, charging nothing", async () => {
    const account = await newAccount();
    const unknown = await send("/mcp", mcpPost(`rgc_${"a".repeat(48)}`, toolsCall(1, "listGenres")));
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("WWW-Authenticate")).toMatch(/^Bearer error="invalid_token", error_description="The API key is unknown/);
    await admin("PATCH", `/users/${account.userId}`, { suspended: true });
    const suspended = await send("/mcp", mcpPost(account.apiKey, [toolsCall(1, "listGenres"), toolsCall(2, "getAccount")]));
    expect(suspended.status).toBe(403);
    expect(suspended.body).toMatchObject({ code: "access_suspended" });
    await admin("PATCH", `/users/${account.userId}`, { suspended: false });
    await admin("DELETE", `/keys/${account.keyId}`);
    const revoked = await send("/mcp", mcpPost(account.apiKey, toolsCall(1, "listGenres")));
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("RateLimit")).toBeNull();
  });

  it("judges the key first even when the SDK refuses the POST before any call runs", async () => {
    const account = await newAccount();
    const refused = await send("/mcp", mcpPost(`rgc_${"a".repeat(48)}`, toolsCall(1, "listGenres"), "application/json"));
    expect(refused.status).toBe(401);
    const valid = await send("/mcp", mcpPost(account.apiKey, toolsCall(1, "listGenres"), "application/json"));
    expect(valid.status).toBe(406);
  });
});

/** The log lines of one event, as the wrapper writes them. */
function captureLines(event: string) {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(console, "info").mockImplementation((line: unknown) => {
    if (typeof line === "string" && line.includes(`"event":"${event}"`)) lines.push(JSON.parse(line));
  });
  return lines;
}

describe("downloads and uploads", () => {
  it("log one line per download: the export's tool, the user, the status, the charge and its refund; never the token", async () => {
    const account = await newAccount();
    const link = await issueExportLink(
      { env, now: new Date(), origin: ORIGIN, userId: account.userId },
      { kind: "myData", dataset: "library", format: "csv", args: {} },
    );
    const lines = captureLines("download");
    expect((await fetchLink(link.url)).status).toBe(200);
    expect((await fetchLink(link.url, { headers: { Range: "bytes=999999-" } })).status).toBe(416);
    expect((await fetchLink(`${ORIGIN}/downloads/v1/not-a-token`)).status).toBe(404);
    expect(lines).toHaveLength(3);
    const [served, unsatisfiable, invalid] = lines;
    const shape = { event: "download", face: "downloads", requestId: expect.any(String), ms: expect.any(Number) };
    expect(served).toEqual({
      ...shape,
      tool: "exportMyData",
      userId: account.userId,
      status: 200,
      code: null,
      cost: DOWNLOAD_COSTS.myData,
      refunded: false,
    });
    expect(unsatisfiable).toMatchObject({ status: 416, cost: DOWNLOAD_COSTS.myData, refunded: true });
    expect(invalid).toEqual({ ...shape, tool: null, userId: null, status: 404, code: "not_found", cost: 0, refunded: false });
    expect(JSON.stringify(lines)).not.toContain(tokenOf(link.url));
  });

  it("log one line per upload, charging nothing up front (each step of the job charges its batches)", async () => {
    const account = await newAccount({ plan: "FREE" });
    const started = await account.call("importMyData", {});
    expect(started.status).toBe(200);
    const lines = captureLines("upload");
    const uploaded = await send(new URL(started.body.uploadUrl).pathname, {
      method: "PUT",
      body: JSON.stringify({ dataset: "library", rows: [] }),
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const again = await send(new URL(started.body.uploadUrl).pathname, { method: "PUT", body: "{}" });
    expect(again.status).toBe(409);
    expect(lines).toEqual([
      expect.objectContaining({ event: "upload", tool: "importMyData", face: "uploads", userId: account.userId, status: 200, cost: 0 }),
      expect.objectContaining({ event: "upload", userId: account.userId, status: 409, code: "already_exists", refunded: false }),
    ]);
  });
});
