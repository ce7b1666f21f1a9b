import type { SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Bindings } from "../bindings";
import type { AuthContext } from "../platform/auth";
import type { Db } from "../platform/db";
import type { BatchReader, KnownCaller } from "../platform/firstReads";
import { type PageLimit, type Paging, pageLimitOf } from "../platform/paging";
import type { Plan, Scope } from "../platform/plans";

/** Every tool is served at TOOL_PATH_PREFIX + its name. */
export const TOOL_PATH_PREFIX = "/rest/v1/";

export type ToolKind = "read" | "write" | "delete";
export type ConflictCode = "already_exists" | "revision_conflict";
export type LowerPlan = Exclude<Plan, "PREMIUM">;

/** How an argument differs on a lower plan; the catalog publishes it and the server enforces it. */
export interface PlanDifference {
  /** Arguments refused on that plan (403 plan_required naming the argument). */
  removedProperties?: string[];
  /** Arguments whose allowed values are narrower on that plan: the narrower schema. */
  changedProperties?: Record<string, z.ZodType>;
  /** Required arguments on that plan, when they differ from PREMIUM's. */
  required?: string[];
}

/** The transports a tool is called through; each calls the same pipeline (registry/invokeTool.ts). The pages call it for a signed-in person (/scan). */
export type Face = "rest" | "mcp" | "pages";

export interface ToolContext {
  /** The tool being called (two-step tokens are bound to it). */
  tool: string;
  env: Bindings;
  /** The face the call came through, for the few rules that differ per face (declared by the tool). */
  face: Face;
  /** The origin the caller reached the service at, for absolute links (exports). */
  origin: string;
  db: Db;
  /** Runs a batch of reads; the tool's firstReads, when they were read ahead, answer from there. */
  read: BatchReader;
  auth: AuthContext;
  requestId: string;
  now: Date;
  /** Where plan_required errors send the user. */
  upgradeUrl: string;
  /** The call's page size by the tool's declared paging (a list tool's only way to read `limit`). */
  pageLimit: PageLimit;
}

/** What a tool's firstReads know of the call before admission: the time, and the key's user and plan when this isolate has seen it. */
export interface FirstReadsCaller extends Partial<KnownCaller> {
  now: Date;
  pageLimit: PageLimit;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  /** The tool family (library, play, ...): the folder it lives in and its OpenAPI tag. */
  family: string;
  /** Japanese display name. */
  title: string;
  /** The MCP text. */
  description: string;
  /** The one REST-specific sentence appended to the description in REST. */
  restNote: string;
  scopes: readonly Scope[];
  plans: readonly Plan[];
  kind: ToolKind;
  /**
   * MCP's idempotentHint: repeating the call with the same arguments changes nothing more. Reads and
   * removals are (a removal's confirmToken works once); a write is not unless it says true. Say
   * true only when a repeat really changes nothing, revision and updatedAt included: an update
   * whose equal values keep both (platform/writes.ts touchIfChanged) or whose required revision
   * the first call moved, an add whose repeat is a 409. test/registry/annotations.test.ts holds it.
   */
  idempotent?: boolean;
  /**
   * A write may overwrite or delete what the user has (MCP's destructiveHint, true for every write
   * and removal unless it says otherwise): a write that only ever adds says false. Left out, a new
   * write is published as destructive, the safe side for a client that asks before such a call.
   */
  destructive?: false;
  /**
   * A create whose null arguments mean the same as leaving them out (there is nothing to clear):
   * MCP lists its nullable arguments without the null, one way to say it instead of two.
   */
  nullIsOmission?: true;
  input: I;
  output: O;
  planDifferences?: Partial<Record<LowerPlan, PlanDifference>>;
  /** Rules the input schema cannot express. */
  notes?: string[];
  /** 409 codes a write tool can answer with. */
  conflicts?: readonly ConflictCode[];
  /** Exports and imports are REST only and never listed over MCP. */
  restOnly?: boolean;
  /** Daily quota units one call consumes (default 1). */
  cost?: number;
  /** A list tool's page cap and default limit; its input spreads pageArgs (or limitArgOf) of the same value. */
  paging?: Paging;
  /**
   * A read tool's first batch, when its arguments alone (and its caller's user id, if this isolate
   * has seen the key) say what it is; undefined when it needs a lookup first. The pipeline reads it
   * beside admission, and the handler's `read` of the same statements answers from there.
   */
  firstReads?(input: z.output<I>, caller: FirstReadsCaller): SQL[] | undefined;
  handler(ctx: ToolContext, input: z.output<I>): Promise<z.input<O>>;
}

/**
 * A tool as defineTool returns it: the definition keeping its literal name and its own input and
 * output schemas, so tools/types.ts can derive each tool's argument and reply types. It is still a
 * ToolDefinition, so the registry lists it with the erased element type.
 */
export type DefinedTool<N extends string = string, I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = ToolDefinition<
  I,
  O
> & { name: N };

/** Identity at runtime; it exists so that each tool file is checked against the definition type. */
export function defineTool<const N extends string, I extends z.ZodObject, O extends z.ZodType>(
  tool: ToolDefinition<I, O> & { name: N },
): DefinedTool<N, I, O> {
  return tool;
}

const pageLimits = new WeakMap<object, PageLimit>();

/** A tool's pageLimit, made once per tool: by its declared paging; a tool without one never pages. */
export function pageLimitOfTool(tool: Pick<ToolDefinition, "name" | "paging">): PageLimit {
  let pageLimit = pageLimits.get(tool);
  if (!pageLimit) {
    const { name, paging } = tool;
    pageLimit = paging
      ? pageLimitOf(name, paging)
      : () => {
          throw new Error(`${name} declares no paging`);
        };
    pageLimits.set(tool, pageLimit);
  }
  return pageLimit;
}

/** A tool that reads nothing but master data (its only scope is games:read): any D1 replica may answer it. */
export const readsMasterOnly = (tool: Pick<ToolDefinition, "scopes">) => tool.scopes.length === 1 && tool.scopes[0] === "games:read";

/** Writes and removals honour REST's Idempotency-Key; reads ignore it. */
export const takesIdempotencyKey = (tool: Pick<ToolDefinition, "kind">) => tool.kind !== "read";

export const methodsOf = (tool: Pick<ToolDefinition, "kind">): ("GET" | "POST")[] => (tool.kind === "read" ? ["GET", "POST"] : ["POST"]);

export function annotationsOf(tool: ToolDefinition) {
  return {
    title: tool.title,
    readOnlyHint: tool.kind === "read",
    destructiveHint: tool.kind !== "read" && tool.destructive !== false,
    idempotentHint: tool.idempotent ?? tool.kind !== "write",
    openWorldHint: false,
  };
}
