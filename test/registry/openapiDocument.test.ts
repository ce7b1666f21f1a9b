/// <reference types="vite/client" />
// The OpenAPI document as linters and generators want it (`npm run lint:openapi` runs Redocly and
// Spectral on it): servers, licence, one described tag per family, comma-separated arrays in GET,
// and each shared shape once under components, referenced everywhere else.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import typesSource from "../../client/openapi.d.ts?raw";
import { ERROR_STATUS } from "../../src/platform/errors";
import { tools } from "../../src/tools";
import { ORIGIN, send, textOf } from "../support/harness";

type Node = Record<string, any>;
const document = async () => (await send("/rest/v1/openapi.json")).body as Node;
const operations = (doc: Node) =>
  Object.entries(doc.paths as Record<string, Record<string, Node>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Every object in `node`, with where it is. */
function* objects(node: unknown, at: string): Generator<[string, Node]> {
  if (Array.isArray(node)) for (const [i, child] of node.entries()) yield* objects(child, `${at}/${i}`);
  else if (node && typeof node === "object") {
    yield [at, node as Node];
    for (const [key, child] of Object.entries(node)) yield* objects(child, `${at}/${key}`);
  }
}

describe("GET /rest/v1/openapi.json for linters and generators", () => {
  it("has a relative server, a licence and one described tag per tool family, in registry order", async () => {
    const doc = await document();
    expect(doc.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: expect.any(String) });
    const families = [...new Set(tools.map((tool) => tool.family))];
    expect(doc.tags.map((tag: Node) => tag.name)).toEqual(families);
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w{3,}/);
    for (const { path, operation } of operations(doc)) expect(families, path).toContain(operation.tags[0]);
  });

  it("declares every array argument of a GET as one comma-separated parameter (style form, explode false)", async () => {
    const arrays = operations(await document()).flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((p: Node) => p.schema.type === "array"),
    );
    expect(arrays.length).toBeGreaterThan(10);
    for (const parameter of arrays) expect(parameter, parameter.name).toMatchObject({ in: "query", style: "form", explode: false });
    const search = (await document()).paths["/rest/v1/searchGames"].get.parameters;
    expect(search.find((p: Node) => p.name === "platformIds")).toMatchObject({ style: "form", explode: false });
  });

  it("names the shared shapes once under components and refers to them", async () => {
    const doc = await document();
    const schemas = doc.components.schemas as Node;
    for (const name of [
      "Game",
      "GameEdition",
      "LibraryEntry",
      "WishlistEntry",
      "PlayRecord",
      "PlayLog",
      "OwnedConsole",
      "MaintenanceLog",
      "Tag",
      "Collection",
      "Attribute",
      "PhysicalCopy",
      "ConfirmPreview",
      "Error",
    ]) {
      expect(schemas, name).toHaveProperty(name);
    }
    const library = doc.paths["/rest/v1/getLibrary"];
    for (const method of ["get", "post"])
      expect(library[method].responses["200"].content["application/json"].schema).toEqual(ref("LibraryEntryPage"));
    expect(schemas.LibraryEntryPage.properties.items.items).toEqual(ref("LibraryEntry"));
    expect(schemas.LibraryEntry.properties.game).toEqual(ref("Game"));
    expect(doc.paths["/rest/v1/getPlayRecords"].get.responses["200"].content["application/json"].schema).toEqual(ref("PlayRecordPage"));
    expect(doc.paths["/rest/v1/getGamePlayHistory"].get.responses["200"].content["application/json"].schema).toEqual(ref("PlayRecordPage"));
    expect(schemas.RemoveFromLibraryResult.anyOf[0]).toEqual(ref("ConfirmPreview"));
    expect(doc.paths["/rest/v1/getAccount"].get.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
  });

  it("never spells a named shape out again in place of its $ref", async () => {
    const doc = await document();
    const named = new Map(Object.entries(doc.components.schemas as Record<string, Node>).map(([name, s]) => [JSON.stringify(s), name]));
    // Component roots are left out: two tools' results may have the same shape under their own names.
    const inlined = [...objects(doc, "#")].filter(
      ([at, node]) => named.has(JSON.stringify(node)) && !/^#\/components\/schemas\/[^/]+$/.test(at),
    );
    expect(inlined.map(([at, node]) => `${at} = ${named.get(JSON.stringify(node))}`)).toEqual([]);
  });

  it("leaves the catalog's schemas self-contained: component names never reach it", async () => {
    const catalog = JSON.stringify((await send("/rest/v1/tools")).body);
    expect(catalog).not.toContain('"$ref"');
    expect(catalog).not.toContain('"$defs"');
    expect(catalog).not.toContain('"id":"Game"');
  });
});

describe("the error answers openapi.json publishes", () => {
  /**
   * Every error code the service can answer, derived from the source: the codes ApiError takes
   * (ERROR_STATUS, which its type confines them to) and any written into a JSON body by hand.
   */
  function answeredCodes(): string[] {
    const sources = import.meta.glob("../../src/**/*.ts", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
    const byHand = Object.values(sources).flatMap((text) =>
      [...text.matchAll(/JSON\.stringify\(\s*\{\s*(?:error:\s*"[a-z_]+",\s*)?code:\s*"([a-z_]+)"/g)].map((match) => match[1]!),
    );
    return [...new Set([...Object.keys(ERROR_STATUS), ...byHand])].sort();
  }

  it("lists every code the service can answer in the Error schema", async () => {
    const codes = answeredCodes();
    expect(codes).toEqual(expect.arrayContaining(["range_not_satisfiable", "uri_too_long", "payload_too_large"]));
    expect([...(await document()).components.schemas.Error.properties.code.enum].sort()).toEqual(codes);
  });

  it("declares a 409 on every write that honours Idempotency-Key, naming idempotency_conflict and the tool's own conflicts", async () => {
    const doc = await document();
    for (const tool of tools) {
      for (const [method, operation] of Object.entries(doc.paths[`/rest/v1/${tool.name}`] as Record<string, Node>)) {
        const conflict = operation.responses["409"];
        if (tool.kind === "read") {
          expect(conflict, `${tool.name} ${method}`).toBeUndefined();
          continue;
        }
        const codes = conflict?.content["application/json"].schema.allOf[1].properties.code.enum;
        expect(codes, tool.name).toEqual([...(tool.conflicts ?? []), "idempotency_conflict"]);
        expect(conflict.description, tool.name).toContain("idempotency_conflict");
        const header = (operation.parameters ?? []).find((p: Node) => p.in === "header" && p.name === "Idempotency-Key");
        expect(header, tool.name).toMatchObject({ required: false, schema: { type: "string", maxLength: 255 } });
      }
    }
  });

  it("declares 414 on every operation and 413 on every POST", async () => {
    for (const { path, method, operation } of operations(await document())) {
      expect(operation.responses["414"], `${method} ${path}`).toEqual({ $ref: "#/components/responses/UriTooLong" });
      if (method === "post") expect(operation.responses["413"], path).toEqual({ $ref: "#/components/responses/PayloadTooLarge" });
    }
  });
});

describe("client/openapi.d.ts", () => {
  const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

  it("was generated from the document the service serves (else run `npm run client:types`)", async () => {
    const text = await textOf(await exports.default.fetch(new Request(`${ORIGIN}/rest/v1/openapi.json`)));
    const digest = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
    expect(/^\/\/ openapi\.json sha256: ([0-9a-f]{64})$/m.exec(typesSource)?.[1]).toBe(digest);
  });
});
