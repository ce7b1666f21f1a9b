import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveLimit } from "../../src/platform/paging";
import { coerceQuery } from "../../src/platform/queryCoercion";
import { type Account, authHeader, newAccount, send, sendTo, testApp, toQuery } from "../support/harness";
import { testTools } from "../support/testTools";

const app = testApp(testTools);

async function echo(account: Account, args: Record<string, unknown>, method: "GET" | "POST" | "PUT" = "POST") {
  if (method === "GET") {
    return sendTo(app, `/rest/v1/testEcho${toQuery(args)}`, { headers: authHeader(account.apiKey) });
  }
  return sendTo(app, "/rest/v1/testEcho", {
    method,
    headers: authHeader(account.apiKey),
    body: JSON.stringify(args),
  });
}

describe("HTTP methods", () => {
  it("accepts GET and POST on a read tool, and PUT exactly like POST", async () => {
    const account = await newAccount();
    for (const method of ["GET", "POST", "PUT"] as const) {
      const reply = await echo(account, { ids: [1, 2] }, method);
      expect(reply.status, method).toBe(200);
      expect(reply.body.input.ids).toEqual([1, 2]);
    }
  });

  it("answers 405 with an Allow header for DELETE, PATCH and OPTIONS anywhere under /rest/v1", async () => {
    for (const method of ["DELETE", "PATCH", "OPTIONS"]) {
      for (const path of ["/rest/v1/getAccount", "/rest/v1/noSuchTool"]) {
        const reply = await send(path, { method });
        expect(reply.status, `${method} ${path}`).toBe(405);
        expect(reply.headers.get("Allow")).toBe("GET, POST, PUT");
        expect(reply.body.error).toBe("method_not_allowed");
      }
    }
  });

  it("refuses GET on a write tool with 405 naming POST and PUT", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/testPremiumWrite?value=1", { headers: authHeader(account.apiKey) });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("Allow")).toBe("POST, PUT");
  });

  it("answers an unknown tool with 404 not_found", async () => {
    const account = await newAccount();
    const reply = await account.call("noSuchTool");
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ error: "not_found", code: "not_found" });
    expect(reply.body.requestId).toMatch(/^req_/);
  });
});

describe("GET query coercion", () => {
  it("splits comma arrays, reads numbers and booleans by schema and decodes percent-encoding", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/testEcho?ids=3,1,2&flag=false&count=7&text=%E3%83%9E%E3%83%AA%E3%82%AA%20%26%203", {
      headers: authHeader(account.apiKey),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.input).toMatchObject({ ids: [3, 1, 2], flag: false, count: 7, text: "マリオ & 3" });
  });

  it("reads `fields=` with no value as an empty array", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/testEcho?fields=", { headers: authHeader(account.apiKey) });
    expect(reply.body.input.fields).toEqual([]);
  });

  it("keeps 'false' false: booleans are never coerced by truthiness", () => {
    const shape = { flag: z.boolean().optional() };
    expect(coerceQuery(shape, new URLSearchParams("flag=false"))).toEqual({ flag: false });
    expect(coerceQuery(shape, new URLSearchParams("flag=true"))).toEqual({ flag: true });
    expect(coerceQuery(shape, new URLSearchParams("flag=yes"))).toEqual({ flag: "yes" });
  });

  it.each([
    ["ids=1,x", "ids[1]"],
    ["flag=maybe", "flag"],
    ["count=12abc", "count"],
    ["count=1&count=2", "count"],
    ["unknownArg=1", "unknownArg"],
    ["externalId=5", "externalId"],
  ])("refuses %s with 400 invalid_input naming %s", async (query, field) => {
    const account = await newAccount();
    const reply = await sendTo(app, `/rest/v1/testEcho?${query}`, { headers: authHeader(account.apiKey) });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
    expect(reply.body.message).toContain(field);
  });

  it("accepts object arguments in POST JSON", async () => {
    const account = await newAccount();
    const reply = await echo(account, { externalId: { dbId: 42 } });
    expect(reply.status).toBe(200);
    expect(reply.body.input.externalId).toEqual({ dbId: 42 });
  });
});

describe("JSON bodies", () => {
  it.each([
    ["{not json", "not readable as JSON"],
    ["[1,2]", "JSON object"],
    ["null", "JSON object"],
    ['"text"', "JSON object"],
  ])("refuses the body %s with 400 invalid_input", async (body, message) => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/testEcho", { method: "POST", headers: authHeader(account.apiKey), body });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
    expect(reply.body.message).toContain(message);
  });

  it("reads an empty POST body as no arguments", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/testEcho", { method: "POST", headers: authHeader(account.apiKey) });
    expect(reply.status).toBe(200);
  });

  it("names the nested field of a wrong type", async () => {
    const account = await newAccount();
    const reply = await echo(account, { externalId: { dbId: "x" } });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("externalId.dbId");
  });

  it("refuses an over-long string and an over-long array naming the field", async () => {
    const account = await newAccount();
    expect((await echo(account, { text: "x".repeat(31) })).body.field).toBe("text");
    expect((await echo(account, { ids: Array.from({ length: 11 }, (_, i) => i) })).body.field).toBe("ids");
  });
});

describe("limit", () => {
  it.each([0, -1, 2.5, "ten"])("refuses limit=%s with 400 naming limit", async (limit) => {
    const account = await newAccount();
    for (const method of ["GET", "POST"] as const) {
      const reply = await echo(account, { limit }, method);
      expect(reply.status, method).toBe(400);
      expect(reply.body).toMatchObject({ code: "invalid_input", field: "limit" });
    }
  });

  it("reduces a limit over 1000 to 1000, then to the tool cap, and reports it", async () => {
    const account = await newAccount();
    const reply = await echo(account, { limit: 5000 });
    expect(reply.body.limit).toEqual({ effectiveLimit: 200, limitReduced: true, limitReason: "testEcho allows 200 per page" });
  });

  it("applies field-group caps after the tool cap", async () => {
    const account = await newAccount();
    expect((await echo(account, { limit: 150, fields: ["game"] })).body.limit.effectiveLimit).toBe(100);
    expect((await echo(account, { limit: 150, fields: ["game", "userLinks"] })).body.limit.effectiveLimit).toBe(50);
  });

  it("reports no reduction when the limit fits", async () => {
    const account = await newAccount();
    const reply = await echo(account, { limit: 20 });
    expect(reply.body.limit).toEqual({ effectiveLimit: 20, limitReduced: false, limitReason: null });
  });

  it("reduces to exactly 1000 before any tool cap", () => {
    expect(resolveLimit(1001, 50, [])).toMatchObject({ effectiveLimit: 1000, limitReduced: true });
    expect(resolveLimit(1000, 50, [])).toMatchObject({ effectiveLimit: 1000, limitReduced: false });
    expect(resolveLimit(undefined, 50, [{ cap: 20, reason: "cap" }])).toMatchObject({ effectiveLimit: 20, limitReduced: true });
  });
});

describe("errors", () => {
  it("hides internals of an unexpected error behind a 500 with requestId", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/testFailing", { headers: authHeader(account.apiKey) });
    expect(reply.status).toBe(500);
    expect(reply.body).toMatchObject({ error: "internal_error", code: "internal_error", retryable: false });
    expect(JSON.stringify(reply.body)).not.toContain("SQLITE");
    expect(reply.body.requestId).toBe(reply.headers.get("X-Request-Id"));
  });

  it("puts X-Request-Id on every response, success or error", async () => {
    const account = await newAccount();
    const replies = [
      await send("/rest/v1/tools"),
      await send("/rest/v1/getAccount"),
      await account.call("getAccount"),
      await send("/nowhere"),
      await send("/rest/v1/tools", { method: "POST" }),
    ];
    for (const reply of replies) expect(reply.headers.get("X-Request-Id")).toMatch(/^req_[A-Za-z0-9]{20}$/);
    const ids = new Set(replies.map((reply) => reply.headers.get("X-Request-Id")));
    expect(ids.size).toBe(replies.length);
  });

  it("answers every endpoint with 503 and Retry-After during maintenance", async () => {
    const account = await newAccount();
    for (const path of ["/rest/v1/tools", "/rest/v1/openapi.json", "/rest/v1/getAccount", "/docs", "/admin/v1/users"]) {
      const reply = await sendTo(app, path, { headers: authHeader(account.apiKey) }, { MAINTENANCE_MODE: "on" });
      expect(reply.status, path).toBe(503);
      expect(reply.headers.get("Retry-After")).toBe("300");
      expect(reply.body).toMatchObject({ error: "maintenance", retryable: true, retryAfterSec: 300 });
    }
  });
});

describe("edges of the call rules", () => {
  const usedToday = async (account: Account) => (await account.call("getAccount")).body.usage.used as number;

  it("answers HEAD on a tool path with 405, runs nothing and charges nothing", async () => {
    const account = await newAccount();
    const head = await send("/rest/v1/getAccount", { method: "HEAD", headers: authHeader(account.apiKey) });
    expect(head.status).toBe(405);
    expect(head.headers.get("Allow")).toBe("GET, POST, PUT");
    expect(await usedToday(account), "only the getAccount call itself counts").toBe(1);
  });

  it("lists in Allow only the methods the path accepts", async () => {
    const reply = await send("/rest/v1/addToLibrary", { method: "DELETE" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("Allow")).toBe("POST, PUT");
  });

  it("counts the body limit in bytes: 413 with the JSON error body past 1 MiB", async () => {
    const account = await newAccount();
    // 400,000 kana are 1.2 MB of UTF-8 though fewer than 1,048,576 characters.
    for (const memo of ["あ".repeat(400_000), "あ".repeat(1_000_000)]) {
      const reply = await echo(account, { text: memo });
      expect(reply.status).toBe(413);
      expect(reply.body).toMatchObject({ code: "payload_too_large", message: expect.any(String) });
      expect(reply.body.requestId).toMatch(/^req_/);
    }
  });

  it("refuses a body that is not UTF-8 with 400", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/testEcho", {
      method: "POST",
      headers: authHeader(account.apiKey),
      body: new Uint8Array([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("(body)");
  });

  it("reduces a limit of any size to 1000 and then to the tool's cap, instead of refusing it", async () => {
    const account = await newAccount();
    for (const method of ["GET", "POST"] as const) {
      const reply = await echo(account, { limit: method === "GET" ? "99999999999999999999" : 1e20 }, method);
      expect(reply.status, method).toBe(200);
      expect(reply.body.limit).toMatchObject({ effectiveLimit: 200, limitReduced: true });
    }
    const library = await account.call("getLibrary", { limit: "99999999999999999999" }, "GET");
    expect(library.body).toMatchObject({ effectiveLimit: 100, limitReduced: true });
  });

  it("puts getGamesBatch ids past the limit in omittedGameIds however many are sent", async () => {
    const account = await newAccount();
    const gameIds = Array.from({ length: 1001 }, (_, i) => i + 1);
    const reply = await account.call("getGamesBatch", { gameIds, fields: [] });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ limitReduced: true, omittedGameIds: gameIds.slice(100) });
  });

  it("refuses invalid Unicode (a lone surrogate) anywhere in the arguments, naming the field", async () => {
    const account = await newAccount();
    const reply = await echo(account, { text: "ok", fields: ["game"], externalId: { dbId: 1 }, ids: [1], extra: ["a", "b\ud800"] });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("extra[1]");
    const attribute = await account.call("addAttribute", { label: "\udfffラベル" });
    expect(attribute.body).toMatchObject({ code: "invalid_input", field: "label" });
  });

  it("keeps names as sent but refuses a name of only spaces", async () => {
    const account = await newAccount();
    expect((await account.call("addAttribute", { label: "   " })).body).toMatchObject({ code: "invalid_input", field: "label" });
    const kept = await account.call("addAttribute", { label: " 箱 " });
    expect(kept.body.item.label).toBe(" 箱 ");
  });
});
