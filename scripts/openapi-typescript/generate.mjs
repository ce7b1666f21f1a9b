// TypeScript types from an OpenAPI document, by openapi-typescript. This folder is a package of its
// own (a `file:` devDependency of the project) because openapi-typescript prints its output with
// TypeScript 5's compiler API, which the project's TypeScript 7 does not have: npm installs
// typescript@5 here, beside openapi-typescript, and nowhere else.
import openapiTS, { astToString } from "openapi-typescript";

/** The `.d.ts` text for an OpenAPI document (an object, already parsed). */
export async function generateTypes(document) {
  const ast = await openapiTS(document, { rootTypes: true, rootTypesNoSchemaPrefix: true });
  return astToString(ast);
}
