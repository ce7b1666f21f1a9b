import { zodToOpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../platform/errors";
import { IDEMPOTENCY_HEADER } from "../platform/idempotency";
import { pageEnvelopeFields } from "../platform/paging";
import { valueKind } from "../platform/queryCoercion";
import { BOOKMARK_HEADER } from "../platform/readSessions";
import { fullDescription, publishedPlanDifferences } from "./catalog";
import { annotationsOf, methodsOf, TOOL_PATH_PREFIX, type ToolDefinition, takesIdempotencyKey } from "./defineTool";

export const errorBodySchema = z
  .object({
    error: z.string().optional().describe("Entry errors (authentication, routing, quota, maintenance)."),
    code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]).optional(),
    message: z.string().optional(),
    field: z.string().optional().describe("The offending argument."),
    retryable: z.boolean().optional(),
    retryAfterSec: z.number().int().optional(),
    requestId: z.string().optional(),
    resetAt: z.string().optional(),
    remaining: z.number().int().optional(),
    scopes: z.array(z.string()).optional(),
    upgradeUrl: z.string().optional(),
    saved: z.boolean().optional(),
  })
  .describe("Error body: every property is optional; extra properties may appear.");

type Header = [type: "string" | "integer", description: string];

interface ErrorAnswer {
  status: string;
  /** Its name under components/responses. */
  name: string;
  description: string;
  headers?: Record<string, Header>;
  /** Only requests with a body can answer it. */
  bodyOnly?: true;
}

/** The error answers every tool can give, published once under components/responses. */
const ERROR_RESPONSES: ErrorAnswer[] = [
  { status: "400", name: "BadRequest", description: "Invalid input (the field is named)." },
  {
    status: "401",
    name: "Unauthorized",
    description:
      "No usable `Authorization: Bearer` header (`unauthorized`), or an API key refused (`invalid_token`, its `reason`: `unknown`, `revoked` or `expired`).",
    headers: {
      "WWW-Authenticate": ["string", '`Bearer`; for a refused key with `error="invalid_token"` and `error_description` (RFC 6750).'],
    },
  },
  { status: "403", name: "Forbidden", description: "insufficient_scope, plan_required or access_suspended." },
  { status: "404", name: "NotFound", description: "Target or tool not found." },
  {
    status: "405",
    name: "MethodNotAllowed",
    description: "HTTP method not allowed on this path.",
    headers: { Allow: ["string", "The methods the path takes."] },
  },
  { status: "413", name: "PayloadTooLarge", description: "payload_too_large: the body is over 1 MiB.", bodyOnly: true },
  {
    status: "414",
    name: "UriTooLong",
    description: "uri_too_long: the path and query are over 8 KiB; send long arguments in a POST body.",
  },
  {
    status: "429",
    name: "TooManyRequests",
    description: "Burst limit or daily quota reached; see Retry-After.",
    headers: { "Retry-After": ["integer", "Seconds to wait."] },
  },
  { status: "500", name: "InternalError", description: "Unexpected error; quote requestId." },
  {
    status: "503",
    name: "ServiceUnavailable",
    description: "Maintenance or temporary failure; see Retry-After.",
    headers: { "Retry-After": ["integer", "Seconds to wait."] },
  },
];

const ERROR_SCHEMA_REF = { $ref: "#/components/schemas/Error" };
const errorContent = { "application/json": { schema: ERROR_SCHEMA_REF } };

/** One line per tool family (a tool's `family` is its OpenAPI tag), in the order docs list them. */
const FAMILY_DESCRIPTIONS: Record<string, string> = {
  account: "Your account: plan, API key scopes, registered counts and today's quota.",
  games: "Game master data: search by title, kana reading, JAN or model number; browse; platforms, genres, publishers.",
  library: "The games you own: purchase data, rating, attributes, links and memo.",
  wishlist: "Games you mean to buy, with priority, price and place.",
  physicalCopies: "Each physical copy of a game you own, beyond the library entry (PREMIUM).",
  customGames: "Games you add yourself when the master data lacks them (PREMIUM).",
  customMaster: "Your own platforms and publishers for custom games (PREMIUM).",
  play: "Play records (one per play-through, with status and dates) and the play logs of each session.",
  consoles: "The consoles you own and their maintenance logs.",
  tags: "Your tags and the games carrying them.",
  collections: "Collections of games (by tag, platform, genre, release dates or a list) and their progress (PREMIUM).",
  attributes: "Attributes of a copy (boxed, manual, sealed ...): the system list and your own.",
  exports: "Downloads of your data and of the master data (REST only).",
  imports: "Restores of your exports and imports from other trackers, through a signed upload link (REST only).",
};

/**
 * The component name of a schema: the id a shared shape declares where it is defined
 * (`.meta({ id: "Game" })`), or one given here to a tool's result.
 */
const componentName = (schema: z.ZodType): string | undefined =>
  z.globalRegistry.get(schema)?.id ?? zodToOpenAPIRegistry.get(schema)?._internal?.refId;

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const pageFieldNames = Object.keys(pageEnvelopeFields);

/**
 * The shared name of a page of a named item, e.g. LibraryEntryPage: only for `pagedEnvelope(item)`
 * itself (the page fields and nothing else, no metadata of its own), so every tool answering with
 * it answers the very same shape.
 */
function envelopeName(output: z.ZodType): string | undefined {
  if (!(output instanceof z.ZodObject) || z.globalRegistry.get(output) !== undefined) return undefined;
  const shape = output.shape as Record<string, z.ZodType>;
  const items = shape.items;
  if (Object.keys(shape).length !== pageFieldNames.length + 1 || !(items instanceof z.ZodArray)) return undefined;
  if (!pageFieldNames.every((key) => shape[key] === pageEnvelopeFields[key as keyof typeof pageEnvelopeFields])) return undefined;
  const itemName = z.globalRegistry.get(items.element as z.ZodType)?.id;
  return itemName && `${itemName}Page`;
}

/**
 * Every tool's result gets a component name unless its shape has one: `<Item>Page` for a page of a
 * named shape (one component however many tools answer with it), else `<Tool>Result`, so the GET
 * and POST forms of a read tool, and generated clients, share one type. The name is kept in the
 * OpenAPI generator's own metadata (zod-to-openapi), which the catalog never reads, and depends on
 * the tool alone, never on which tools were named before.
 */
function nameToolOutputs(tools: readonly ToolDefinition[]): void {
  for (const tool of tools) {
    if (componentName(tool.output)) continue;
    const refId = envelopeName(tool.output) ?? `${pascal(tool.name)}Result`;
    zodToOpenAPIRegistry.add(tool.output, { ...zodToOpenAPIRegistry.get(tool.output), _internal: { refId } });
  }
}

/** GET carries every argument but object ones, which are POST-only. */
function queryInput(tool: ToolDefinition) {
  const shape = Object.fromEntries(Object.entries(tool.input.shape).filter(([, schema]) => valueKind(schema as z.ZodType) !== "object"));
  return z.object(shape);
}

/** The Idempotency-Key header a write takes (REST), as readIdempotencyKey reads it. */
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      "1 to 255 printable ASCII characters, no spaces. A retry with the same key, tool and arguments within 24 hours gets the first answer again (Idempotent-Replayed: true) and writes nothing.",
    ),
});

const replayedHeader = {
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key.",
    schema: { type: "string" },
  },
};

/** The D1 bookmark every call takes and answers (readSessions.ts). */
const bookmarkHeaders = z.object({
  [BOOKMARK_HEADER]: z
    .string()
    .optional()
    .describe("The X-D1-Bookmark of an earlier answer, sent back as it was: this call reads at least what that one saw or wrote."),
});

const bookmarkAnswered = {
  [BOOKMARK_HEADER]: {
    description: "Where the database stood after this call; send it back with the next call to read at least as much.",
    schema: { type: "string" },
  },
};

/** The 409 codes a tool can answer: its own conflicts, and idempotency_conflict wherever an Idempotency-Key is honoured. */
const conflictCodesOf = (tool: ToolDefinition): ErrorCode[] => [
  ...(tool.conflicts ?? []),
  ...(takesIdempotencyKey(tool) ? (["idempotency_conflict"] as const) : []),
];

function responsesOf(tool: ToolDefinition, method: "GET" | "POST") {
  const responses: Record<string, unknown> = {
    "200": {
      description: "The tool's result.",
      content: { "application/json": { schema: tool.output } },
      headers: { ...bookmarkAnswered, ...(takesIdempotencyKey(tool) ? replayedHeader : {}) },
    },
  };
  for (const { status, name, bodyOnly } of ERROR_RESPONSES) {
    if (!bodyOnly || method === "POST") responses[status] = { $ref: `#/components/responses/${name}` };
  }
  const conflicts = conflictCodesOf(tool);
  if (conflicts.length > 0) {
    responses["409"] = {
      description: `Conflict: ${conflicts.join(" or ")}.`,
      content: {
        "application/json": {
          schema: { allOf: [ERROR_SCHEMA_REF, { type: "object", properties: { code: { type: "string", enum: conflicts } } }] },
        },
      },
    };
  }
  return responses;
}

function registerErrorResponses(registry: OpenAPIHono["openAPIRegistry"]): void {
  for (const { name, description, headers } of ERROR_RESPONSES) {
    registry.registerComponent("responses", name, {
      description,
      content: errorContent,
      ...(headers && {
        headers: Object.fromEntries(
          Object.entries(headers).map(([header, [type, description]]) => [header, { description, schema: { type } }]),
        ),
      }),
    });
  }
}

type Operation = Record<string, unknown> & { parameters?: { in: string; schema?: { type?: unknown } }[] };
type Document = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

/**
 * An array argument in GET is one parameter with comma-separated items (`platformIds=1,2`), which
 * OpenAPI spells `style: form, explode: false`; clients then serialise it the way the service reads it.
 */
function markCommaSeparatedArrays(operation: Operation): void {
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === "query" && parameter.schema?.type === "array") Object.assign(parameter, { style: "form", explode: false });
  }
}

/** Components in alphabetical order, as readers of the reference and generated code look them up. */
function sortComponents(document: Document): void {
  const components = document.components as Record<string, Record<string, unknown>>;
  for (const [kind, entries] of Object.entries(components)) {
    if (Object.keys(entries).length === 0) delete components[kind];
    else components[kind] = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

function familyTags(tools: readonly ToolDefinition[]) {
  const families = [...new Set(tools.map((tool) => tool.family))];
  return families.map((name) => ({ name, description: FAMILY_DESCRIPTIONS[name] ?? `The ${name} tools.` }));
}

/** The OpenAPI form of the catalog, without the revision that names it (publishedForms.ts adds it). */
export function buildOpenApiDocument(tools: readonly ToolDefinition[]) {
  nameToolOutputs(tools);
  const api = new OpenAPIHono();
  api.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key issued to the account: `Authorization: Bearer rgc_…`.",
  });
  api.openAPIRegistry.register("Error", errorBodySchema);
  registerErrorResponses(api.openAPIRegistry);
  for (const tool of tools) {
    for (const method of methodsOf(tool)) {
      api.openAPIRegistry.registerPath({
        method: method === "GET" ? "get" : "post",
        path: `${TOOL_PATH_PREFIX}${tool.name}`,
        operationId: method === "GET" ? `${tool.name}Get` : tool.name,
        summary: tool.title,
        description: fullDescription(tool),
        tags: [tool.family],
        security: [{ apiKey: [] }],
        request:
          method === "GET"
            ? { query: queryInput(tool), headers: bookmarkHeaders }
            : {
                body: { required: true, content: { "application/json": { schema: tool.input } } },
                headers: takesIdempotencyKey(tool) ? bookmarkHeaders.extend(idempotencyHeaders.shape) : bookmarkHeaders,
              },
        responses: responsesOf(tool, method) as never,
      });
    }
  }
  const document = api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Retro Game Collection API",
      version: "v1",
      description:
        "Every tool is one path under /rest/v1/. Definitions are written for PREMIUM; lower plans differ as x-svc-plan-differences says.",
      license: { name: "Proprietary" },
    },
    // Relative: the API is wherever this document was fetched from (a deployment or `npm run dev`).
    servers: [{ url: "/", description: "The server this document is served by." }],
    tags: familyTags(tools),
  }) as unknown as Document;
  delete document.webhooks;
  sortComponents(document);
  for (const tool of tools) {
    const planDifferences = publishedPlanDifferences(tool);
    for (const operation of Object.values(document.paths[`${TOOL_PATH_PREFIX}${tool.name}`] ?? {})) {
      markCommaSeparatedArrays(operation);
      operation["x-svc-scopes"] = [...tool.scopes];
      operation["x-svc-plans"] = [...tool.plans];
      operation["x-svc-annotations"] = annotationsOf(tool);
      if (planDifferences) operation["x-svc-plan-differences"] = planDifferences;
    }
  }
  return document;
}
