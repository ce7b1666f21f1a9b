import { describe, expect, it } from "vitest";
import { catalogTools } from "../../src/registry/catalog";
import { CATALOG_REVISION } from "../../src/registry/catalogRevision";
import { computeCatalogRevision } from "../../src/registry/publishedForms";
import { tools } from "../../src/tools";
import { authHeader, newAccount, send, sendTo, testApp } from "../support/harness";
import { testTools } from "../support/testTools";

const CATALOG_FIELDS = [
  "name",
  "title",
  "description",
  "scopes",
  "plans",
  "methods",
  "annotations",
  "inputSchema",
  "outputSchema",
  "notes",
];

describe("GET /rest/v1/tools", () => {
  it("has a committed revision that matches the catalog's content (run `npm run catalog:revision`)", async () => {
    expect(CATALOG_REVISION).toBe(await computeCatalogRevision(tools));
  });

  it("lists every registered tool with every field the spec names", async () => {
    const reply = await send("/rest/v1/tools");
    expect(reply.status).toBe(200);
    expect(reply.body.revision).toBe(CATALOG_REVISION);
    expect(reply.body.tools.map((t: { name: string }) => t.name)).toEqual(tools.map((t) => t.name));
    for (const tool of reply.body.tools) {
      for (const field of CATALOG_FIELDS) expect(tool, `${tool.name}.${field}`).toHaveProperty(field);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.methods).toEqual(tool.annotations.readOnlyHint ? ["GET", "POST"] : ["POST"]);
    }
  });

  it("publishes planDifferences only for tools whose plans differ", async () => {
    const reply = await sendTo(testApp(testTools), "/rest/v1/tools");
    const byName = Object.fromEntries(reply.body.tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.getAccount).not.toHaveProperty("planDifferences");
    expect(byName.testEcho.planDifferences).toEqual({
      FREE: {
        removedProperties: ["flag"],
        changedProperties: { count: expect.objectContaining({ type: "integer", maximum: 5 }) },
      },
      LIGHT: { required: ["text"] },
    });
  });

  it("derives annotations from the tool's kind: a write is destructive unless it declares it only adds", async () => {
    const reply = await sendTo(testApp(testTools), "/rest/v1/tools");
    const byName = Object.fromEntries(reply.body.tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.testEcho.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.testPremiumWrite.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.testPremiumWrite.methods).toEqual(["POST"]);
  });

  it("sets ETag to the revision as a quoted entity tag and answers If-None-Match with 304, quoted or not", async () => {
    const etag = `"${CATALOG_REVISION}"`;
    for (const path of ["/rest/v1/tools", "/rest/v1/openapi.json"]) {
      const first = await send(path);
      expect(first.headers.get("ETag"), path).toBe(etag);
      expect(first.headers.get("ETag")).toMatch(/^"[\x21\x23-\x7e]*"$/);
      for (const tag of [CATALOG_REVISION, etag, `W/${etag}`, `"other", ${etag}`]) {
        const again = await send(path, { headers: { "If-None-Match": tag } });
        expect(again.status, tag).toBe(304);
        expect(again.headers.get("ETag")).toBe(etag);
      }
      expect((await send(path, { headers: { "If-None-Match": '"stale"' } })).status).toBe(200);
    }
  });

  it("has a revision that covers the OpenAPI form too: a change only openapi.json shows changes it", async () => {
    const [first, ...rest] = tools;
    const retagged = [{ ...first!, family: "elsewhere" }, ...rest];
    expect(catalogTools(retagged)).toEqual(catalogTools(tools));
    expect(await computeCatalogRevision(retagged)).not.toBe(await computeCatalogRevision(tools));
  });

  it("answers the same with no key, a valid key or a bad key", async () => {
    const account = await newAccount();
    const plain = await send("/rest/v1/tools");
    const withKey = await send("/rest/v1/tools", { headers: authHeader(account.apiKey) });
    const badKey = await send("/rest/v1/tools", { headers: { Authorization: "Bearer nonsense" } });
    expect(withKey.status).toBe(200);
    expect(badKey.status).toBe(200);
    expect(withKey.body).toEqual(plain.body);
    expect(badKey.body).toEqual(plain.body);
  });

  it("answers POST with 405 Allow: GET", async () => {
    const reply = await send("/rest/v1/tools", { method: "POST" });
    expect(reply.status).toBe(405);
    expect(reply.headers.get("Allow")).toBe("GET");
  });
});

describe("GET /rest/v1/openapi.json", () => {
  it("is OpenAPI 3.1 with x-svc-revision, a GET and POST per read tool and bearer security", async () => {
    const reply = await send("/rest/v1/openapi.json");
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe("3.1.0");
    expect(reply.body["x-svc-revision"]).toBe(CATALOG_REVISION);
    expect(reply.body.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    const getAccount = reply.body.paths["/rest/v1/getAccount"];
    expect(Object.keys(getAccount).sort()).toEqual(["get", "post"]);
    expect(getAccount.get.responses).not.toHaveProperty("409");
    expect(getAccount.get.responses).toHaveProperty("401");
  });

  it("carries x-svc-plan-differences and a 409 only for tools that declare them", async () => {
    const reply = await sendTo(testApp(testTools), "/rest/v1/openapi.json");
    const echo = reply.body.paths["/rest/v1/testEcho"];
    expect(echo.post["x-svc-plan-differences"].FREE.removedProperties).toEqual(["flag"]);
    expect(echo.get.parameters.map((p: { name: string }) => p.name)).not.toContain("externalId");
    expect(reply.body.paths["/rest/v1/getAccount"].post).not.toHaveProperty("x-svc-plan-differences");
  });
});

describe("GET /docs", () => {
  it("renders an API reference page pointing at the OpenAPI document", async () => {
    const reply = await send("/docs");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Content-Type")).toContain("text/html");
    expect(reply.body).toContain("/rest/v1/openapi.json");
  });
});

describe("paging declared once per tool", () => {
  it("every tool with a limit argument declares its paging, and the argument says that paging's cap and default", () => {
    for (const tool of tools) {
      const limit = tool.input.shape.limit as { description?: string } | undefined;
      expect(Boolean(limit), `${tool.name}: a limit argument exactly when paging is declared`).toBe(tool.paging !== undefined);
      if (!limit || !tool.paging) continue;
      expect(limit.description, tool.name).toContain(`Up to ${tool.paging.cap} (default ${tool.paging.defaultLimit})`);
    }
  });

  it("a limit above a tool's cap is reduced with the tool's own reason", async () => {
    const account = await newAccount();
    for (const [tool, reason] of [
      ["getTags", "getTags returns at most 200 per page"],
      ["listGenres", "listGenres returns at most 100 main genres per page"],
    ] as const) {
      const reply = await send(`/rest/v1/${tool}?limit=500`, { headers: authHeader(account.apiKey) });
      expect(reply.body).toMatchObject({ limitReduced: true, limitReason: reason });
    }
  });
});
