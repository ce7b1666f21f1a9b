import { z } from "zod";
import { annotationsOf, type LowerPlan, methodsOf, type PlanDifference, type ToolDefinition } from "./defineTool";

export type JsonSchema = Record<string, unknown>;

/**
 * Published schemas drop two artefacts of generation: integer bounds that only restate
 * JavaScript's safe-integer range, and `additionalProperties: false` on results, since every
 * response object may carry more properties than listed.
 */
function tidy(node: unknown, io: "input" | "output"): void {
  if (Array.isArray(node)) {
    for (const child of node) tidy(child, io);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const schema = node as JsonSchema;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (io === "output" && schema.additionalProperties === false) delete schema.additionalProperties;
  for (const child of Object.values(schema)) tidy(child, io);
}

/**
 * A result that is one of several objects (a two-step preview or the confirmed result) is still
 * an object: saying so at the root lets MCP clients, which require an object schema, check it.
 */
function markObjectUnion(schema: JsonSchema): void {
  const variants = schema.anyOf as JsonSchema[] | undefined;
  if (schema.type === undefined && variants?.every((variant) => variant.type === "object")) schema.type = "object";
}

/**
 * Shapes several tools share carry an id (`.meta({ id: "Game" })`): their name under
 * components/schemas in OpenAPI. The catalog and MCP inline them instead, so that every tool's
 * schema stands alone: z.toJSONSchema reads zod's metadata through this view, which hides the ids.
 */
const metadataWithoutIds = {
  get(schema: z.core.$ZodType) {
    const meta = z.globalRegistry.get(schema);
    if (meta?.id === undefined) return meta;
    const { id: _id, ...rest } = meta;
    return Object.keys(rest).length > 0 ? rest : undefined;
  },
} as unknown as typeof z.globalRegistry;

export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    metadata: metadataWithoutIds,
  }) as JsonSchema;
  tidy(json, io);
  markObjectUnion(json);
  return json;
}

export const fullDescription = (tool: ToolDefinition) => `${tool.description} ${tool.restNote}`;

function publishDifference(difference: PlanDifference) {
  return {
    ...(difference.removedProperties ? { removedProperties: difference.removedProperties } : {}),
    ...(difference.changedProperties
      ? {
          changedProperties: Object.fromEntries(
            Object.entries(difference.changedProperties).map(([name, schema]) => [name, toJsonSchema(schema, "input")]),
          ),
        }
      : {}),
    ...(difference.required ? { required: difference.required } : {}),
  };
}

export function publishedPlanDifferences(tool: ToolDefinition) {
  const entries = Object.entries(tool.planDifferences ?? {}) as [LowerPlan, PlanDifference][];
  return entries.length === 0 ? undefined : Object.fromEntries(entries.map(([plan, d]) => [plan, publishDifference(d)]));
}

export function catalogEntry(tool: ToolDefinition) {
  const planDifferences = publishedPlanDifferences(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: fullDescription(tool),
    scopes: [...tool.scopes],
    plans: [...tool.plans],
    methods: methodsOf(tool),
    annotations: annotationsOf(tool),
    inputSchema: toJsonSchema(tool.input, "input"),
    outputSchema: toJsonSchema(tool.output, "output"),
    ...(planDifferences ? { planDifferences } : {}),
    notes: tool.notes ?? [],
    ...(tool.restOnly ? { restOnly: true } : {}),
  };
}

export const catalogTools = (tools: readonly ToolDefinition[]) => tools.map(catalogEntry);

/** The tools the MCP face lists: all but the REST-only ones (exports, imports). */
export const mcpTools = (tools: readonly ToolDefinition[]) => tools.filter((tool) => !tool.restOnly);
