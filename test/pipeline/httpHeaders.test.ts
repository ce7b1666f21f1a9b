// What API clients expect at the HTTP edge: rate-limit state, request ids, CORS, one JSON content
// type, our JSON error for long URLs, and links that point where the service is published.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { Bindings } from "../../src/bindings";
import { BURST_WINDOW_SEC, PLAN_LIMITS } from "../../src/platform/plans";
import { authHeader, newAccount, send, sendTo, testApp } from "../support/harness";
import { testTools } from "../support/testTools";

/** RateLimit items as { name: { r, t } }. */
function rateLimitOf(header: string | null): Record<string, { r: number; t: number }> {
  expect(header).not.toBeNull();
  return Object.fromEntries(
    header!.split(",").map((item) => {
      const [name, ...params] = item.trim().split(";");
      const values = Object.fromEntries(params.map((param) => param.split("=") as [string, string]));
      return [JSON.parse(name!), { r: Number(values.r), t: Number(values.t) }];
    }),
  );
}

describe("rate-limit headers", () => {
  it("publishes both limits and what remains of them on every tool answer", async () => {
    const account = await newAccount({ plan: "LIGHT" });
    const first = await account.call("getAccount");
    const { burstLimit, dailyQuota } = PLAN_LIMITS.LIGHT;
    expect(first.headers.get("RateLimit-Policy")).toBe(`"burst";q=${burstLimit};w=${BURST_WINDOW_SEC}, "daily";q=${dailyQuota};w=86400`);
    const state = rateLimitOf(first.headers.get("RateLimit"));
    expect(state.daily!.r).toBe(dailyQuota - 1);
    expect(state.burst!.r).toBeLessThan(burstLimit);
    expect(state.burst!.t).toBeLessThanOrEqual(BURST_WINDOW_SEC);
    expect(state.daily!.t).toBeLessThanOrEqual(86_400);
    const second = rateLimitOf((await account.call("getAccount")).headers.get("RateLimit"));
    expect(second.daily!.r).toBe(dailyQuota - 2);
  });

  it("publishes them on errors too, with a refunded call counted back", async () => {
    const account = await newAccount({ plan: "FREE" });
    const refused = await account.call("getConsoles");
    expect(refused.status).toBe(403);
    expect(rateLimitOf(refused.headers.get("RateLimit")).daily!.r).toBe(PLAN_LIMITS.FREE.dailyQuota);
    const invalid = await account.call("getLibrary", { limit: 0 });
    expect(invalid.status).toBe(400);
    expect(rateLimitOf(invalid.headers.get("RateLimit")).daily!.r).toBe(PLAN_LIMITS.FREE.dailyQuota - 1);
  });

  it("is absent where no tool ran: the catalog and a call without a key", async () => {
    expect((await send("/rest/v1/tools")).headers.get("RateLimit")).toBeNull();
    expect((await send("/rest/v1/getAccount")).headers.get("RateLimit")).toBeNull();
  });
});

describe("request ids", () => {
  it("uses a client's printable X-Request-Id, in the header, error bodies and all", async () => {
    const reply = await send("/rest/v1/getAccount", { headers: { "X-Request-Id": "my-trace-0001" } });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("X-Request-Id")).toBe("my-trace-0001");
    expect(reply.body.requestId).toBe("my-trace-0001");
  });

  it("replaces one that is too long or not printable", async () => {
    for (const sent of ["x".repeat(129), "has space", "tab\there"]) {
      const reply = await send("/rest/v1/tools", { headers: { "X-Request-Id": sent } });
      expect(reply.headers.get("X-Request-Id")).toMatch(/^req_[A-Za-z0-9]{20}$/);
    }
  });
});

describe("CORS", () => {
  const preflight = (path: string, origin: string) =>
    send(path, {
      method: "OPTIONS",
      headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" },
    });

  it("answers preflights on tool paths and /mcp, allowing Authorization and Content-Type", async () => {
    for (const path of ["/rest/v1/addToLibrary", "/mcp"]) {
      const reply = await preflight(path, "https://app.example");
      expect(reply.status, path).toBe(204);
      expect(reply.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(reply.headers.get("Access-Control-Allow-Headers")).toMatch(/Authorization/);
      expect(reply.headers.get("Access-Control-Allow-Headers")).toMatch(/Content-Type/);
      expect(reply.headers.get("Access-Control-Allow-Methods")).toBe("GET,POST,PUT");
    }
  });

  it("exposes the rate-limit and request-id headers to browser code", async () => {
    const account = await newAccount();
    const reply = await send("/rest/v1/getAccount", { headers: { ...authHeader(account.apiKey), Origin: "https://app.example" } });
    expect(reply.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const exposed = reply.headers.get("Access-Control-Expose-Headers")!.split(",");
    expect(exposed).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy", "X-Request-Id", "Retry-After"]));
  });

  it("allows only the configured origins when CORS_ORIGINS is set", async () => {
    const app = testApp(testTools);
    const init = (origin: string) => ({ method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "GET" } });
    const allowed = await sendTo(app, "/rest/v1/getAccount", init("https://mine.example"), { CORS_ORIGINS: "https://mine.example" });
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://mine.example");
    const other = await sendTo(app, "/rest/v1/getAccount", init("https://other.example"), { CORS_ORIGINS: "https://mine.example" });
    expect(other.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("leaves an OPTIONS that is no preflight a 405 like any other method", async () => {
    const reply = await send("/rest/v1/getAccount", { method: "OPTIONS" });
    expect(reply.status).toBe(405);
  });
});

describe("content type", () => {
  it("is application/json with charset for every JSON answer, success and error, REST and MCP", async () => {
    const account = await newAccount();
    const replies = [
      await account.call("getAccount"),
      await send("/rest/v1/getAccount"),
      await send("/rest/v1/tools"),
      await send("/nowhere"),
      await send("/mcp", {
        method: "POST",
        headers: { ...authHeader(account.apiKey), "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    ];
    for (const reply of replies) expect(reply.headers.get("Content-Type")).toBe("application/json; charset=UTF-8");
  });
});

describe("long URLs", () => {
  const longQuery = (bytes: number) => `?query=${"a".repeat(bytes - "?query=".length)}`;

  it("answers a path and query over 8 KiB with our JSON 414 and the request id, on every path", async () => {
    const account = await newAccount();
    for (const path of ["/rest/v1/searchGames", "/rest/v1/nothing", "/admin/v1/users", "/downloads/v1/x", "/docs"]) {
      const reply = await send(`${path}${longQuery(9000)}`, { headers: { ...authHeader(account.apiKey), "X-Request-Id": "long-url-1" } });
      expect(reply.status, path).toBe(414);
      expect(reply.headers.get("Content-Type")).toBe("application/json; charset=UTF-8");
      expect(reply.body).toMatchObject({ error: "uri_too_long", code: "uri_too_long", limitBytes: 8192, requestId: "long-url-1" });
    }
  });

  it("reads a path and query of exactly 8 KiB", async () => {
    const account = await newAccount();
    const path = "/rest/v1/searchGames";
    const reply = await send(`${path}${longQuery(8192 - path.length)}`, { headers: authHeader(account.apiKey) });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("query");
  });
});

describe("the origin of returned links", () => {
  const exportAt = (origin: string, apiKey: string, bindings: Partial<Bindings>) =>
    createApp().request(
      `${origin}/rest/v1/exportMyData`,
      {
        method: "POST",
        headers: { ...authHeader(apiKey), "Content-Type": "application/json" },
        body: JSON.stringify({ dataset: "library" }),
      },
      { ...env, ...bindings },
    );

  it("is PUBLIC_BASE_URL when it is set, whatever Host the request names", async () => {
    const account = await newAccount();
    const reply = await exportAt("https://attacker.example", account.apiKey, { PUBLIC_BASE_URL: "https://api.retro-games.example/" });
    expect(reply.status).toBe(200);
    const { url } = (await reply.json()) as { url: string };
    expect(url.startsWith("https://api.retro-games.example/downloads/v1/")).toBe(true);
  });

  it("is the origin the request reached when PUBLIC_BASE_URL is unset (local dev)", async () => {
    const account = await newAccount();
    const reply = await exportAt("http://127.0.0.1:8787", account.apiKey, {});
    const { url } = (await reply.json()) as { url: string };
    expect(url.startsWith("http://127.0.0.1:8787/downloads/v1/")).toBe(true);
  });
});
