// The listed schemas under AJV, the validator the official SDK v1 client uses in Node (the workerd
// tests use cfworker's, since workerd forbids code generation): every tool's listed input and output
// schema compiles for every plan, and the lean output schema accepts whatever the catalog's full
// output schema describes, so a result valid in REST is valid over MCP.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { PLANS } from "../../src/platform/plans";
import { mcpTools, toJsonSchema } from "../../src/registry/catalog";
import { mcpToolEntry } from "../../src/registry/mcpListing";
import { tools } from "../../src/tools";
import { exampleOf } from "../support/schemaExamples";

const ajv = new AjvJsonSchemaValidator();

describe("the listed schemas under the SDK v1 client's AJV", () => {
  for (const plan of PLANS) {
    it(`compile for every tool a ${plan} key can be shown`, () => {
      for (const tool of mcpTools(tools).filter((candidate) => candidate.plans.includes(plan))) {
        const entry = mcpToolEntry(tool, plan);
        expect(() => ajv.getValidator(entry.inputSchema), `${tool.name} input`).not.toThrow();
        expect(() => ajv.getValidator(entry.outputSchema), `${tool.name} output`).not.toThrow();
      }
    });
  }

  it("list a create's arguments without null where null means leaving them out, and keep null where it clears", () => {
    const nullable = (name: string) => {
      const tool = mcpTools(tools).find((candidate) => candidate.name === name)!;
      const { properties } = mcpToolEntry(tool, "PREMIUM").inputSchema as { properties: Record<string, { anyOf?: unknown[] }> };
      return Object.keys(properties).filter((key) => properties[key]!.anyOf !== undefined);
    };
    expect(nullable("addToLibrary")).toEqual([]);
    expect(nullable("addConsoleMaintenanceLog")).toEqual([]);
    // A copy's null overwrites the inherited library data, unlike an omitted field: it stays.
    expect(nullable("addPhysicalCopy")).toContain("buyDate");
    expect(nullable("updateLibraryEntry")).toEqual(expect.arrayContaining(["buyDate", "memo", "rating"]));
  });

  it("accept, in each lean output schema, a result the catalog's full output schema describes", () => {
    for (const tool of mcpTools(tools)) {
      const full = toJsonSchema(tool.output, "output");
      const result = exampleOf(full);
      expect(ajv.getValidator(full)(result).valid, `${tool.name}: the example fits the catalog`).toBe(true);
      const verdict = ajv.getValidator(mcpToolEntry(tool, "PREMIUM").outputSchema)(result);
      expect(verdict.valid, `${tool.name}: ${verdict.errorMessage}`).toBe(true);
    }
  });
});
