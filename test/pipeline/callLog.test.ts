// One structured log line per tool call, from the call pipeline, whatever the face and outcome.
import { afterEach, describe, expect, it, vi } from "vitest";
import { newAccount, send } from "../support/harness";
import { mcpCall, mcpClient } from "../support/mcp";

afterEach(() => {
  vi.restoreAllMocks();
});

function captureCallLines() {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(console, "info").mockImplementation((line: unknown) => {
    if (typeof line === "string" && line.includes('"event":"tool_call"')) lines.push(JSON.parse(line));
  });
  return lines;
}

describe("the per-call log line", () => {
  it("names tool, face, user, status, code, time, cost and refund, and never the key or arguments", async () => {
    const account = await newAccount({ plan: "FREE" });
    const lines = captureCallLines();
    await account.call("searchGames", { query: "ひみつのことば" });
    await account.call("getConsoles");
    await send("/rest/v1/getAccount", { headers: { "X-Request-Id": "trace-1" } });
    const client = await mcpClient(account.apiKey);
    await mcpCall(client, "listGenres");
    await client.close();
    expect(lines).toHaveLength(4);
    const [search, refused, unauthenticated, mcp] = lines;
    expect(search).toMatchObject({
      tool: "searchGames",
      face: "rest",
      userId: account.userId,
      status: 200,
      code: null,
      cost: 1,
      refunded: false,
    });
    expect(search!.ms).toEqual(expect.any(Number));
    // A refused call is never charged, so there is nothing to refund.
    expect(refused).toMatchObject({ tool: "getConsoles", status: 403, code: "plan_required", cost: 0, refunded: false });
    expect(unauthenticated).toMatchObject({
      tool: "getAccount",
      requestId: "trace-1",
      userId: null,
      status: 401,
      code: "unauthorized",
      cost: 0,
    });
    expect(mcp).toMatchObject({ tool: "listGenres", face: "mcp", userId: account.userId, status: 200 });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(account.apiKey);
    expect(text).not.toContain("ひみつのことば");
  });
});
