// The typed client (client/: openapi-fetch over client/openapi.d.ts, which `npm run client:types`
// generates with openapi-typescript) calling `npm run dev` over HTTP with a demo key.
import { describe, expect, it } from "vitest";
import { createRgcClient } from "../../client";
import { servedDevServer } from "../support/servedDevServer";

const { url, log } = await servedDevServer();
const demoKey = (name: string) => new RegExp(`^\\s+${name}\\s+(rgc_[A-Za-z0-9]{48})`, "m").exec(log)![1]!;

describe("the typed client against npm run dev", () => {
  function client() {
    const sent: URL[] = [];
    const api = createRgcClient({
      baseUrl: url,
      apiKey: demoKey("full"),
      fetch: (request) => {
        sent.push(new URL(request.url));
        return fetch(request);
      },
    });
    return { api, sent };
  }

  it("reads the account, searches with an array in GET and adds to the library with POST", async () => {
    const { api, sent } = client();
    const account = await api.GET("/rest/v1/getAccount");
    expect(account.response.status).toBe(200);
    expect(account.data?.plan).toBe("PREMIUM");

    const found = await api.GET("/rest/v1/searchGames", { params: { query: { query: "マリオ", platformIds: [1, 2], limit: 5 } } });
    expect(found.response.status, JSON.stringify(found.error)).toBe(200);
    expect(sent.at(-1)!.search).toContain("platformIds=1,2");
    expect(sent.at(-1)!.searchParams.getAll("platformIds")).toEqual(["1,2"]);
    const hits = found.data!.items;
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect([1, 2]).toContain(hit.platform.platformId);

    const gameId = hits[0]!.gameId;
    const added = await api.POST("/rest/v1/addToLibrary", { body: { gameId, rating: 4, buyPlace: "駿河屋" } });
    expect(added.response.status, JSON.stringify(added.error)).toBe(200);
    expect(added.data?.item).toMatchObject({ gameId, rating: 4, buyPlace: "駿河屋" });

    // Leave the shared dev server as it was: removal is two-step (preview, then confirm).
    const preview = await api.POST("/rest/v1/removeFromLibrary", { body: { gameId } });
    const token = preview.data && "confirmToken" in preview.data ? preview.data.confirmToken : undefined;
    expect(token).toMatch(/^ct_/);
    const removed = await api.POST("/rest/v1/removeFromLibrary", { body: { gameId, confirmToken: token } });
    expect(removed.data).toMatchObject({ gameId, removed: true });
  });

  it("types the error body: a 400 names the field", async () => {
    const { api } = client();
    const reply = await api.POST("/rest/v1/addToLibrary", { body: { gameId: 0 } });
    expect(reply.response.status).toBe(400);
    expect(reply.error).toMatchObject({ code: "invalid_input", field: "gameId" });
  });
});

/** Compile-time only (never called): the types refuse what the service would refuse. */
// biome-ignore lint/suspicious/noExportsInTest: exported only so that the type checker keeps it; it never runs.
export function typeChecks(api: ReturnType<typeof createRgcClient>) {
  // @ts-expect-error searchGames takes platformIds, not platformId
  void api.GET("/rest/v1/searchGames", { params: { query: { platformId: 1 } } });
  // @ts-expect-error addToLibrary is POST only
  void api.GET("/rest/v1/addToLibrary");
  // @ts-expect-error gameId is required
  void api.POST("/rest/v1/addToLibrary", { body: { rating: 4 } });
}
