// Over real HTTP against `npm run dev`, started by test/setup/devServer.ts with its own state.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { servedDevServer } from "../support/servedDevServer";

const { url, log, adminToken, startMs } = await servedDevServer();

describe("npm run dev", () => {
  // About 10-15 s on an idle 2-core machine, 25-60 s while other test runs load it; 60 s still
  // catches a real regression (a start that hangs, or work added before the server listens).
  it("serves the catalog within 60 s of start", async () => {
    console.log(`npm run dev served the catalog ${(startMs / 1000).toFixed(1)} s after start`);
    expect(startMs, `npm run dev took ${startMs} ms to serve the catalog`).toBeLessThan(60_000);
    const reply = await fetch(`${url}/rest/v1/tools`);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  });

  it("prints on a fresh state only the server, the seed and the demo account: no stack trace, no warning", () => {
    expect(log).not.toMatch(/^\s+at /m); // a stack frame
    expect(log).not.toMatch(/ENOTFOUND|Request\.cf|responseMode|Scheduled Workers|WARNING|\[wrangler:(warn|error)\]/);
    expect(log).toMatch(/^Serving on http:\/\/127\.0\.0\.1:\d+/m);
    expect(log).toMatch(/^Settings: open http:\/\/\S+\/invite\/\S+ to register a passkey/m);
  });

  it("seeded a demo account whose printed keys work", async () => {
    const keys = [...log.matchAll(/^\s+(standard|viewOnly|full)\s+(rgc_[A-Za-z0-9]{48})/gm)];
    expect(keys.map((k) => k[1])).toEqual(["standard", "viewOnly", "full"]);
    const reply = await fetch(`${url}/rest/v1/getAccount`, { headers: { Authorization: `Bearer ${keys[0]![2]}` } });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ plan: "PREMIUM", name: "demo" });
  });

  it("takes the operator token from ADMIN_TOKEN and refuses anything else", async () => {
    const ok = await fetch(`${url}/admin/v1/users`, { headers: { Authorization: `Bearer ${adminToken}` } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { totalCount: number }).totalCount).toBe(1);
    const refused = await fetch(`${url}/admin/v1/users`, { headers: { Authorization: "Bearer guess" } });
    expect(refused.status).toBe(401);
  });

  it("answers bad input with a 4xx and a request id over the wire", async () => {
    const reply = await fetch(`${url}/rest/v1/getAccount`, { method: "DELETE" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("Allow")).toBe("GET, POST, PUT");
    expect(reply.headers.get("X-Request-Id")).toMatch(/^req_/);
  });
});

describe("the default catalog that npm run dev seeds (PigSaint GameDataBase, libretro serials)", () => {
  const standardKey = () => /^\s+standard\s+(rgc_[A-Za-z0-9]{48})/m.exec(log)![1]!;
  const call = async (tool: string, params: Record<string, string>) => {
    const reply = await fetch(`${url}/rest/v1/${tool}?${new URLSearchParams(params)}`, {
      headers: { Authorization: `Bearer ${standardKey()}` },
    });
    expect(reply.status).toBe(200);
    return (await reply.json()) as any;
  };
  const titlesFound = async (params: Record<string, string>) =>
    (await call("searchGames", { fields: "", limit: "20", ...params })).items.map((game: { title: string }) => game.title);

  it("says how long the seed took and what it holds", () => {
    const seeded = /Seeded the default catalog in ([\d.]+) s: (\d+) platforms, (\d+) companies, (\d+) genres, (\d+) games\./.exec(log);
    expect(seeded, log).not.toBeNull();
    console.log(`seeded the default catalog in ${seeded![1]} s`);
    expect(Number(seeded![2])).toBeGreaterThanOrEqual(38);
    expect(Number(seeded![5])).toBeGreaterThan(15_000);
  });

  it.each([
    ["its reading", "あくまじょうでんせつ"],
    ["part of its reading", "あくまじょう"],
    ["its original title", "悪魔城伝説"],
    ["its romanisation", "Akumajō Densetsu"],
    ["its romanisation typed without macrons", "akumajo densetsu"],
    ["its overseas title", "Castlevania III"],
  ])("finds 悪魔城伝説 by %s", async (_, query) => {
    expect(await titlesFound({ query })).toContain("悪魔城伝説");
  });

  it("finds a Super Famicom game by its model number, hyphens and case aside", async () => {
    const found = await call("searchGames", { modelNumber: "shvcay2j", fields: "specs" });
    expect(found.items[0]).toMatchObject({ matchedBy: "modelNumber", specs: { modelNumber: ["SHVC-AY2J-JPN"], janCode: null } });
  });

  it("browses a sub-genre: platformers on the Super Famicom", async () => {
    const genres = await call("listGenres", { limit: "50" });
    const action = genres.items.find((genre: { taxonomyKey: string }) => genre.taxonomyKey === "action");
    const platformer = action.children.find((genre: { taxonomyKey: string }) => genre.taxonomyKey === "action.platformer");
    expect(platformer.name).toBe("プラットフォーム");
    const browsed = await call("browseGames", { genreId: String(platformer.genreId), platformIds: "3", limit: "100", fields: "" });
    expect(browsed.totalCount).toBeGreaterThan(50);
    expect(browsed.items.map((game: { title: string }) => game.title)).toContain("スーパーマリオワールド Super Mario Bros. 4");
    expect(browsed.coverage.note).toContain("GameDataBase by PigSaint (CC BY 4.0");
  });
});

describe("MCP against npm run dev", () => {
  const demoKey = (name: string) => new RegExp(`^\\s+${name}\\s+(rgc_[A-Za-z0-9]{48})`, "m").exec(log)![1]!;

  async function connect(apiKey: string) {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    });
    const client = new Client({ name: "e2e", version: "1" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    await client.connect(transport);
    return client;
  }

  const structured = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as any;
  };

  it("lists the tools, searches, adds to the library and removes in two steps with the SDK client", async () => {
    const client = await connect(demoKey("full"));
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(50);
    expect(tools.map((tool) => tool.name)).not.toContain("exportMyData");
    const found = await structured(client, "searchGames", { query: "ドラゴンクエスト", limit: 1 });
    const gameId = found.items[0].gameId as number;
    const library = await structured(client, "getLibrary", { fields: [], limit: 200 });
    if (!library.items.some((entry: any) => entry.gameId === gameId)) {
      expect((await structured(client, "addToLibrary", { gameId })).item.gameId).toBe(gameId);
    }
    const preview = await structured(client, "removeFromLibrary", { gameId });
    expect(preview.summary).toEqual(expect.any(String));
    const removed = await structured(client, "removeFromLibrary", { gameId, confirmToken: preview.confirmToken });
    expect(removed).toMatchObject({ gameId, removed: true });
    await client.close();
  });

  it("answers 401 with WWW-Authenticate: Bearer without a key", async () => {
    const reply = await fetch(`${url}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("WWW-Authenticate")).toBe("Bearer");
  });
});
