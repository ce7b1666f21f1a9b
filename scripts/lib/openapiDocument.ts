// The OpenAPI document exactly as GET /rest/v1/openapi.json serves it, built from the registry
// without a server: `npm run lint:openapi` and `npm run client:types` read it.
import { CATALOG_REVISION } from "../../src/registry/catalogRevision";
import { openApiDocument } from "../../src/registry/publishedForms";
import { tools } from "../../src/tools";

/** The served body, byte for byte (the route answers `JSON.stringify` of the same object). */
export const openApiDocumentText = (): string => JSON.stringify(openApiDocument(tools, CATALOG_REVISION));
