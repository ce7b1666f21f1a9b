import { z } from "zod";

/** Every `limit` above this is first reduced to it, then to the tool's own cap. */
export const GLOBAL_LIMIT_CEILING = 1000;

/** The `limit` argument: an integer >= 1; larger-than-allowed values are reduced, not refused. */
export const limitArg = (toolCap: number, defaultLimit: number) =>
  z
    .number()
    .min(1)
    // Not .int(): that also refuses integers past 2^53, which the spec reduces to 1000 instead.
    .refine(Number.isInteger, "must be an integer")
    .meta({ type: "integer" })
    .optional()
    .describe(`Up to ${toolCap} (default ${defaultLimit}).`);

export const pageArg = z.number().int().min(1).default(1).describe("From 1.");

/**
 * A list tool's page size, declared once on its definition: the registry builds its `limit`
 * argument from it (pageArgs, limitArgOf) and resolves calls' limits by it (ToolContext.pageLimit).
 */
export interface Paging {
  cap: number;
  defaultLimit: number;
  /** What limitReason says when the tool's cap applies; default "<tool> returns at most <cap> per page". */
  capReason?: string;
}

export const limitArgOf = (paging: Paging) => limitArg(paging.cap, paging.defaultLimit);

/** The `page` and `limit` arguments of a paged list. */
export const pageArgs = (paging: Paging) => ({ page: pageArg, limit: limitArgOf(paging) });

/** Resolves a call's `limit` by a tool's paging: the global ceiling, the tool's cap, then any field-group caps. */
export type PageLimit = (requested: number | undefined, fieldCaps?: readonly PageCap[]) => LimitResolution;

export function pageLimitOf(toolName: string, paging: Paging): PageLimit {
  const toolCap = { cap: paging.cap, reason: paging.capReason ?? `${toolName} returns at most ${paging.cap} per page` };
  return (requested, fieldCaps = []) => resolveLimit(requested, paging.defaultLimit, [toolCap, ...fieldCaps]);
}

export interface PageCap {
  cap: number;
  reason: string;
}

export interface LimitResolution {
  effectiveLimit: number;
  limitReduced: boolean;
  limitReason: string | null;
}

/** Applies the global ceiling, the tool's cap and any field-group caps, reporting the tightest. */
export function resolveLimit(requested: number | undefined, defaultLimit: number, caps: readonly PageCap[]): LimitResolution {
  const wanted = requested ?? defaultLimit;
  let effectiveLimit = wanted;
  let limitReason: string | null = null;
  const ceilings: PageCap[] = [
    { cap: GLOBAL_LIMIT_CEILING, reason: `limit above ${GLOBAL_LIMIT_CEILING} is reduced to ${GLOBAL_LIMIT_CEILING}` },
    ...caps,
  ];
  for (const { cap, reason } of ceilings) {
    if (effectiveLimit > cap) {
      effectiveLimit = cap;
      limitReason = reason;
    }
  }
  return { effectiveLimit, limitReduced: effectiveLimit < wanted, limitReason };
}

export const pageEnvelopeFields = {
  page: z.number().int(),
  returnedCount: z.number().int(),
  totalCount: z.number().int(),
  hasMore: z.boolean(),
  effectiveLimit: z.number().int(),
  limitReduced: z.boolean(),
  limitReason: z.string().nullable(),
};

export const pagedEnvelope = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), ...pageEnvelopeFields });

export function pageOf<T>(items: T[], page: number, totalCount: number, limit: LimitResolution) {
  return {
    items,
    page,
    returnedCount: items.length,
    totalCount,
    hasMore: (page - 1) * limit.effectiveLimit + items.length < totalCount,
    ...limit,
  };
}

export const pageOffset = (page: number, limit: LimitResolution) => (page - 1) * limit.effectiveLimit;

/** The rows a page reads: how many, and how many come before it. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** The window of this page number at the resolved limit. */
export const pageWindow = (page: number, limit: LimitResolution): PageWindow => ({
  limit: limit.effectiveLimit,
  offset: pageOffset(page, limit),
});
