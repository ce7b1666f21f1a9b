// The schema-portability rules the MCP Inspector (2.12, core/json/schemaLint.ts) applies to every
// tool's inputSchema and outputSchema after tools/list, restated here so a test and
// `npm run bench:mcp-context` hold the listed schemas to them:
// - boolean-schema (error): a bare `true`/`false` where a schema object is expected (not under
//   additionalProperties, unevaluatedProperties, additionalItems, unevaluatedItems);
// - type-union (warning): `type` given as an array of type names;
// - remote-ref (warning): a `$ref` that does not start with `#` (no `$id` declared);
// - untyped-schema (warning): a schema object with no constraining keyword at all (`{}` or only
//   annotations), except directly under `not`.

const BOOLEAN_VALUED = new Set(["additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"]);
const SUBSCHEMA = [
  "items",
  "contains",
  "not",
  "propertyNames",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
  "contentSchema",
];
const SUBSCHEMA_ARRAYS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"];
const CONSTRAINING = new Set([
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "items",
  "prefixItems",
  "contains",
  "additionalItems",
  "unevaluatedItems",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "dependentSchemas",
  "dependencies",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
]);

type Schema = Record<string, unknown>;
export interface Finding {
  rule: "boolean-schema" | "type-union" | "remote-ref" | "untyped-schema";
  severity: "error" | "warning";
  path: string;
}
export interface ListedTool {
  name: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

const isRecord = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

function children(node: Schema, path: string): [unknown, string, string][] {
  const found: [unknown, string, string][] = [];
  for (const key of SUBSCHEMA_MAPS) {
    const map = node[key];
    if (isRecord(map)) for (const [name, sub] of Object.entries(map)) found.push([sub, `${path}.${key}.${name}`, key]);
  }
  for (const key of SUBSCHEMA_ARRAYS) {
    const list = node[key];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) found.push([sub, `${path}.${key}[${i}]`, key]);
  }
  for (const key of SUBSCHEMA) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === "items" && Array.isArray(value)) for (const [i, sub] of value.entries()) found.push([sub, `${path}.items[${i}]`, key]);
    else found.push([value, `${path}.${key}`, key]);
  }
  return found;
}

function walk(node: unknown, path: string, keyword: string | undefined, findings: Finding[]): void {
  if (typeof node === "boolean") {
    if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) findings.push({ rule: "boolean-schema", severity: "error", path });
    return;
  }
  if (!isRecord(node)) return;
  if (Array.isArray(node.type)) findings.push({ rule: "type-union", severity: "warning", path });
  if (typeof node.$ref === "string" && node.$ref !== "" && !node.$ref.startsWith("#")) {
    findings.push({ rule: "remote-ref", severity: "warning", path });
  }
  const constrains = Object.keys(node).some((key) => CONSTRAINING.has(key)) || ("if" in node && ("then" in node || "else" in node));
  if (!constrains && keyword !== "not") findings.push({ rule: "untyped-schema", severity: "warning", path });
  for (const [child, childPath, childKeyword] of children(node, path)) walk(child, childPath, childKeyword, findings);
}

/** The Inspector's findings for one listed tool: `{ rule, severity, path }` each. */
export function portabilityFindings(tool: ListedTool): Finding[] {
  const findings: Finding[] = [];
  if (tool.inputSchema !== undefined) walk(tool.inputSchema, `${tool.name}.inputSchema`, undefined, findings);
  if (tool.outputSchema !== undefined) walk(tool.outputSchema, `${tool.name}.outputSchema`, undefined, findings);
  return findings;
}

/** How many `type` arrays a listing holds, anywhere in its schemas. */
export function typeArrays(tools: readonly ListedTool[]): number {
  return tools.flatMap(portabilityFindings).filter((finding) => finding.rule === "type-union").length;
}
