import { z } from "zod";
import type { AuthContext } from "./auth";
import { ApiError } from "./errors";
import { sha256Hex } from "./hashing";
import { randomBase62 } from "./ids";

/**
 * Two-step confirmation for deletions (and, later, replays): the first call changes nothing and
 * answers with a summary and a confirmToken; the same call with the token does the work. A token
 * lives in KV for ten minutes, is used once, and is bound to the user, the tool, the canonical
 * arguments and the target's revision: when the target changed in between, the second call gets
 * a fresh preview instead of acting on what the user did not see.
 */
export const CONFIRM_TOKEN_TTL_SEC = 600;

export const confirmTokenArg = z
  .string()
  .regex(/^ct_[A-Za-z0-9]{32}$/, "must be a confirmToken from this tool's preview")
  .optional()
  .describe("Omit on the first call; send the token from its preview to confirm (valid 10 minutes).");

export const confirmPreviewSchema = z.object({
  confirmRequired: z.literal(true),
  summary: z.string().describe("What is deleted and what else it affects."),
  confirmToken: z.string(),
  expiresInSec: z.number().int(),
  expiresAt: z.string(),
  targetChanged: z.boolean().describe("True when an earlier preview's target changed; confirm this one instead."),
});
export type ConfirmPreview = z.infer<typeof confirmPreviewSchema>;

/** What a two-step tool answers: the preview, or its own result once confirmed. */
export const twoStepResult = <T extends z.ZodType>(result: T) => z.union([confirmPreviewSchema, result]);

/** The result of a confirmed removal: the removed target's id fields plus `removed: true`. */
export const removalResult = <S extends z.ZodRawShape>(ids: S) => twoStepResult(z.object({ ...ids, removed: z.literal(true) }));

export const TWO_STEP_NOTE = "Two-step: the preview (200) changes nothing; the token is valid 10 minutes for the same arguments.";

/** What a two-step tool knows about its target before acting. */
export interface ConfirmPlan<R> {
  /** Changes whenever the target (or what its deletion would take with it) changes. */
  targetRevision: string;
  summary: string;
  execute(): Promise<R>;
}

interface StoredToken {
  userId: string;
  tool: string;
  argumentsHash: string;
  targetRevision: string;
  expiresAt: string;
}

const tokenKey = (token: string) => `confirm:${token}`;

/** Key order and the token itself do not change what a call means. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, v]) => key !== "confirmToken" && v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, v]) => [key, canonical(v)]),
    );
  }
  return value;
}

const refused = (message: string) =>
  new ApiError("invalid_input", `confirmToken: ${message} Call again without confirmToken for a new preview.`, {
    field: "confirmToken",
  });

export interface ConfirmContext {
  kv: KVNamespace;
  auth: AuthContext;
  now: Date;
}

async function preview(ctx: ConfirmContext, bound: Omit<StoredToken, "expiresAt">, summary: string, targetChanged: boolean) {
  const confirmToken = `ct_${randomBase62(32)}`;
  const expiresAt = new Date(ctx.now.getTime() + CONFIRM_TOKEN_TTL_SEC * 1000).toISOString();
  const stored: StoredToken = { ...bound, expiresAt };
  await ctx.kv.put(tokenKey(confirmToken), JSON.stringify(stored), { expirationTtl: CONFIRM_TOKEN_TTL_SEC });
  return { confirmRequired: true as const, summary, confirmToken, expiresInSec: CONFIRM_TOKEN_TTL_SEC, expiresAt, targetChanged };
}

/** Runs `plan` two-step: a preview without a token, the work with a valid one. */
export async function confirmTwoStep<R>(
  ctx: ConfirmContext,
  tool: string,
  args: { confirmToken?: string },
  plan: ConfirmPlan<R>,
): Promise<R | ConfirmPreview> {
  const bound = {
    userId: ctx.auth.userId,
    tool,
    argumentsHash: await sha256Hex(JSON.stringify(canonical(args))),
    targetRevision: plan.targetRevision,
  };
  if (args.confirmToken === undefined) return preview(ctx, bound, plan.summary, false);

  const text = await ctx.kv.get(tokenKey(args.confirmToken));
  const stored = text === null ? null : (JSON.parse(text) as StoredToken);
  if (!stored || Date.parse(stored.expiresAt) <= ctx.now.getTime()) throw refused("unknown or expired.");
  if (stored.userId !== bound.userId || stored.tool !== tool) throw refused("was not issued for this call.");
  if (stored.argumentsHash !== bound.argumentsHash) throw refused("was issued for other arguments.");
  await ctx.kv.delete(tokenKey(args.confirmToken));
  if (stored.targetRevision !== bound.targetRevision) return preview(ctx, bound, plan.summary, true);
  return plan.execute();
}
