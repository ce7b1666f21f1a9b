// Reads from D1's replicas: every call runs in a D1 session. Master data starts anywhere
// ("first-unconstrained"); a user's data starts from the primary, or from the bookmark the client
// handed back, so it reads at least what it wrote. Every answer carries the bookmark to hand back.
import { beforeAll, describe, expect, it } from "vitest";
import { sessionStartOf } from "../../src/platform/readSessions";
import { readsMasterOnly } from "../../src/registry/defineTool";
import { tools } from "../../src/tools";
import { authHeader, newAccount, send } from "../support/harness";
import { importLibraryMaster } from "../support/masterSets";
import { statementsOf } from "../support/recordingD1";

beforeAll(importLibraryMaster);

const GAME = 750001;
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

describe("D1 sessions", () => {
  it("are unconstrained for exactly the master-data tools the issue names", () => {
    const master = tools
      .filter(readsMasterOnly)
      .map((tool) => tool.name)
      .sort();
    expect(master).toEqual([
      "browseGames",
      "exportMasterData",
      "getGamesBatch",
      "listGenres",
      "listPlatforms",
      "listPublishers",
      "searchGames",
    ]);
    expect(sessionStartOf(true, undefined)).toBe("first-unconstrained");
    expect(sessionStartOf(false, undefined)).toBe("first-primary");
  });

  it("start a master read anywhere, a user's read from the primary, and a call with a bookmark from it", async () => {
    const account = await newAccount();
    const master = await statementsOf("/rest/v1/listGenres", { method: "POST", headers: authHeader(account.apiKey) });
    expect(master.reply.status).toBe(200);
    expect(master.sessionStarts).toEqual(["first-unconstrained"]);
    const own = await statementsOf("/rest/v1/getLibrary", { method: "POST", headers: authHeader(account.apiKey) });
    expect(own.sessionStarts).toEqual(["first-primary"]);
    const bookmark = own.reply.headers.get("X-D1-Bookmark")!;
    expect(bookmark).toMatch(BOOKMARK);
    const after = await statementsOf("/rest/v1/getLibrary", {
      method: "POST",
      headers: { ...authHeader(account.apiKey), "X-D1-Bookmark": bookmark },
    });
    expect(after.sessionStarts).toEqual([bookmark]);
  });

  it("hand back a bookmark with which the caller reads its own write", async () => {
    const account = await newAccount();
    const gameId = GAME;
    const added = await send("/rest/v1/addToLibrary", {
      method: "POST",
      headers: { ...authHeader(account.apiKey), "Content-Type": "application/json" },
      body: JSON.stringify({ gameId }),
    });
    expect(added.status).toBe(200);
    const bookmark = added.headers.get("X-D1-Bookmark")!;
    const read = await send("/rest/v1/getLibrary", { headers: { ...authHeader(account.apiKey), "X-D1-Bookmark": bookmark } });
    expect(read.body.items.map((item: { gameId: number }) => item.gameId)).toContain(gameId);
    expect(read.headers.get("X-D1-Bookmark")! >= bookmark).toBe(true);
  });

  it("refuse a malformed bookmark with a 400 naming the header, on REST and MCP, running nothing", async () => {
    const account = await newAccount();
    for (const path of ["/rest/v1/getLibrary", "/mcp"]) {
      const reply = await statementsOf(path, {
        method: "POST",
        headers: {
          ...authHeader(account.apiKey),
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "X-D1-Bookmark": "not-a-bookmark",
        },
        body: path === "/mcp" ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) : "{}",
      });
      expect(reply.reply.status, path).toBe(400);
      expect(reply.reply.body.field, path).toBe("X-D1-Bookmark");
      expect(reply.statements, path).toEqual([]);
    }
  });

  it("are exposed to browser code (CORS)", async () => {
    const account = await newAccount();
    const reply = await send("/rest/v1/getAccount", { headers: { ...authHeader(account.apiKey), Origin: "https://app.example" } });
    expect(reply.headers.get("Access-Control-Expose-Headers")).toContain("X-D1-Bookmark");
  });
});
