import { pageEnvelopeFields } from "../platform/paging";
import type { Plan, Scope } from "../platform/plans";
import { type JsonSchema, toJsonSchema } from "./catalog";
import { annotationsOf, type ToolDefinition } from "./defineTool";
import { isDescribedOnce, isNoteSaidOnce } from "./mcpInstructions";

/**
 * What MCP tools/list shows a key: the tools it can call, each in a form written for a model's
 * context. The REST catalog keeps the full JSON Schemas, notes and plan differences; here:
 * - the input schema is the catalog's for the caller's plan (its planDifferences applied), without
 *   what only restates a rule the description or the instructions give (a date's regex and
 *   `format: date`: the instructions say dates are YYYY-MM-DD; `minLength: 1`, `additionalProperties: false`) and with a nullable type spelled
 *   `anyOf` [type, null], as clients that map schemas onto a single `type` need; the rules of
 *   arguments many tools share (paging, confirmToken, the common filters, recorded dates, text
 *   caps) are the instructions' (mcpInstructions.ts), said once instead of in every schema;
 * - the output schema gives the result's own properties and their types, one level deep: the items
 *   of a list and the objects inside a result are the same shapes in every tool (the Game object,
 *   a library entry ...), which the results show and the catalog defines once; a page's envelope
 *   is the one the instructions describe;
 * - the description carries the notes a model needs (the two-step rule is the instructions',
 *   and each removal's description says it is two-step).
 */

type Json = unknown;

const isObject = (node: Json): node is JsonSchema => typeof node === "object" && node !== null && !Array.isArray(node);

/** `type: [T, "null"]` as `anyOf: [{type: T, ...}, {type: "null"}]`; other nodes unchanged. */
function withoutTypeArray(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.type)) return schema;
  const { type, description, default: fallback, ...constraints } = schema;
  const branches = (type as string[]).map((name) => (name === "null" ? { type: "null" } : { type: name, ...constraints }));
  return {
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    anyOf: branches,
  };
}

/**
 * Caps a model hardly reaches (memos, names, ids; minutes in the hundreds of thousands) are the
 * server's to enforce, with an error naming the field; the instructions name the text caps.
 */
const MAX_LISTED_LENGTH = 30;
const MAX_LISTED_MAXIMUM = 10_000;

const listedMaximum = (node: JsonSchema) => typeof node.maximum === "number" && node.maximum <= MAX_LISTED_MAXIMUM;

const SAID_ONCE_KEYS = new Set(["description", "default", "maxItems", "maxLength"]);

/** A rating, a priority or a bound of them: 1 to 5, as the instructions say once. */
const isOneToFive = (node: JsonSchema) => node.minimum === 1 && node.maximum === 5;

/** sortOrder's values, which the instructions give. */
const isSortOrder = (values: Json) => JSON.stringify(values) === '["asc","desc"]';

/** One input schema node in its listed form (recursively). */
function leanInput(node: Json): Json {
  if (Array.isArray(node)) return node.map(leanInput);
  if (!isObject(node)) return node;
  const lean: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if (key === "pattern" && node.format !== undefined) continue;
    if (key === "format" && value === "date") continue;
    if (key === "minLength" && value === 1) continue;
    if (key === "minimum" && (value === 0 || value === 1) && !listedMaximum(node)) continue;
    if (key === "maximum" && !listedMaximum(node)) continue;
    if (key === "additionalProperties" && value === false) continue;
    // An argument the instructions describe (page, confirmToken, the shared filters) takes its default and caps from them too.
    if (SAID_ONCE_KEYS.has(key) && typeof node.description === "string" && isDescribedOnce(node.description)) continue;
    if ((key === "minimum" || key === "maximum") && isOneToFive(node)) continue;
    if (key === "enum" && isSortOrder(value)) continue;
    if (key === "maxLength" && typeof value === "number" && value > MAX_LISTED_LENGTH) continue;
    lean[key] =
      key === "properties" && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, leanInput(schema)]))
        : leanInput(value);
  }
  return withoutTypeArray(lean);
}

/** A tool's input schema as the caller's plan takes it: PREMIUM's, less the arguments the plan refuses, with its narrower ones. */
function inputFor(tool: ToolDefinition, plan: Plan): JsonSchema {
  const schema = toJsonSchema(tool.input, "input");
  const difference = plan === "PREMIUM" ? undefined : tool.planDifferences?.[plan];
  if (difference) {
    const properties = schema.properties as Record<string, Json>;
    for (const name of difference.removedProperties ?? []) delete properties[name];
    for (const [name, narrower] of Object.entries(difference.changedProperties ?? {})) {
      const { $schema: _, ...narrowed } = toJsonSchema(narrower, "input");
      properties[name] = narrowed;
    }
    const required = difference.required ?? ((schema.required as string[] | undefined) ?? []).filter((name) => name in properties);
    if (required.length > 0) schema.required = required;
    else delete schema.required;
  }
  const lean = leanInput(schema) as JsonSchema;
  if (tool.nullIsOmission && isObject(lean.properties)) lean.properties = mapValues(lean.properties, withoutNull);
  return lean;
}

const mapValues = (record: JsonSchema, map: (value: JsonSchema) => JsonSchema) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value as JsonSchema)]));

/** `anyOf: [X, null]` as X (with the property's own description and default). */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.anyOf)) return schema;
  const kept = (schema.anyOf as JsonSchema[]).filter((branch) => branch.type !== "null");
  if (kept.length !== 1) return schema;
  const { anyOf: _, ...own } = schema;
  return { ...kept[0], ...own };
}

const ENVELOPE = Object.keys(pageEnvelopeFields);

/**
 * The keys every result of the tool carries (each variant's required ones, a two-step preview's
 * included), less a page's envelope: names, not shapes, since the results show the shapes and the
 * catalog defines them.
 */
function outputFor(tool: ToolDefinition): JsonSchema {
  const schema = toJsonSchema(tool.output, "output");
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
  const requiredOf = (variant: JsonSchema) => (variant.required as string[] | undefined) ?? [];
  const always = variants.map(requiredOf).reduce((kept, next) => kept.filter((name) => next.includes(name)));
  const isPage = ENVELOPE.every((name) => always.includes(name));
  const required = always.filter((name) => !(isPage && ENVELOPE.includes(name)));
  return required.length > 0 ? { type: "object", required } : { type: "object" };
}

/** The description a model reads: what the tool does, then the rules the catalog keeps as notes. */
function descriptionOf(tool: ToolDefinition): string {
  const notes = (tool.notes ?? []).filter((note) => !isNoteSaidOnce(note));
  return [tool.description, ...notes].join(" ");
}

/**
 * The tool's annotations less what MCP's defaults already say (readOnlyHint false, destructiveHint
 * true, idempotentHint false; the last two mean nothing for a read).
 */
export function mcpAnnotations(tool: ToolDefinition) {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotationsOf(tool);
  return {
    ...(readOnlyHint ? { readOnlyHint } : {}),
    ...(!readOnlyHint && !destructiveHint ? { destructiveHint } : {}),
    ...(!readOnlyHint && idempotentHint ? { idempotentHint } : {}),
    openWorldHint,
  };
}

/**
 * One tool as tools/list shows it to a key of `plan`. Without the catalog's Japanese title: a
 * display label for people that the model would read in every list, whose name says the same.
 */
export function mcpToolEntry(tool: ToolDefinition, plan: Plan) {
  const annotations = mcpAnnotations(tool);
  return {
    name: tool.name,
    description: descriptionOf(tool),
    inputSchema: inputFor(tool, plan),
    outputSchema: outputFor(tool),
    annotations,
  };
}

export type McpToolEntry = ReturnType<typeof mcpToolEntry>;

/** The families a client may narrow its list to (`?toolsets=`): those with tools over MCP. */
export const mcpToolsets = (tools: readonly ToolDefinition[]) => [...new Set(tools.map((tool) => tool.family))];

/** The tools a key lists: those its scopes and plan can call, of the families asked for (all when none). */
export function toolsCallableBy(
  tools: readonly ToolDefinition[],
  caller: { plan: Plan; scopes: ReadonlySet<Scope> },
  toolsets?: ReadonlySet<string>,
): ToolDefinition[] {
  return tools.filter(
    (tool) =>
      tool.plans.includes(caller.plan) &&
      tool.scopes.every((scope) => caller.scopes.has(scope)) &&
      (toolsets === undefined || toolsets.has(tool.family)),
  );
}
