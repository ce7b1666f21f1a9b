import { sha256Hex } from "../platform/hashing";
import { catalogTools } from "./catalog";
import type { ToolDefinition } from "./defineTool";
import { buildOpenApiDocument } from "./openapi";

/** GET /rest/v1/tools: the catalog, named by its revision. */
export const catalogDocument = (tools: readonly ToolDefinition[], revision: string) => ({ revision, tools: catalogTools(tools) });

/** GET /rest/v1/openapi.json: the same catalog as OpenAPI 3.1, named by the same revision. */
export const openApiDocument = (tools: readonly ToolDefinition[], revision: string) => ({
  ...buildOpenApiDocument(tools),
  "x-svc-revision": revision,
});

/**
 * The revision names what both forms publish: a hash of both bodies (with the revision left
 * blank), so a change to either, even one only the OpenAPI form shows (a tag, an error answer),
 * changes it and no client is told 304 for a document that changed. scripts/catalog-revision.ts
 * writes it at build time; a test keeps it honest.
 */
export async function computeCatalogRevision(tools: readonly ToolDefinition[]): Promise<string> {
  const forms = [catalogDocument(tools, ""), openApiDocument(tools, "")];
  return (await sha256Hex(JSON.stringify(forms))).slice(0, 20);
}
