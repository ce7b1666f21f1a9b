import { eq, lte, type SQL } from "drizzle-orm";
import { z } from "zod";
import { consumedConfirmTokens } from "../db/schema";
import type { AuthContext } from "./auth";
import { type Db, queryBatch, statements } from "./db";
import { ApiError } from "./errors";
import { canonical, sha256Hex } from "./hashing";
import { randomBase62 } from "./ids";
import { positiveId } from "./schemas";

/**
 * Two-step confirmation for deletions and FREE/LIGHT replays: the first call changes nothing and
 * answers with a summary and a confirmToken; the same call with the token does the work. A token
 * lives in KV for ten minutes and is bound to the user, the tool, the canonical arguments and the
 * target's revision: when the target changed in between, the second call gets a fresh preview
 * instead of acting on what the user did not see.
 *
 * A token runs at most once. KV cannot promise that (a get then a delete is not atomic, and KV is
 * not consistent), so the use is recorded in D1: a row of consumed_confirm_tokens, keyed by the
 * token's hash, inserted by the very batch that does the work. Its PRIMARY KEY refuses a second
 * insert, which breaks (rolls back) a second batch however the calls interleave; a work batch that
 * fails for any other reason leaves the token unused. Rows are pruned once their token expired.
 */
export const CONFIRM_TOKEN_TTL_SEC = 600;

export const confirmTokenArg = z
  .string()
  // Its form is the service's own (not a published pattern): a malformed token is refused all the same.
  .refine((token) => /^ct_[A-Za-z0-9]{32}$/.test(token), "must be a confirmToken from this tool's preview")
  .optional()
  .describe("Two-step: omit for a preview; confirm with its token (10 min).");

export const confirmPreviewSchema = z
  .object({
    confirmRequired: z.literal(true),
    summary: z.string().describe("What is deleted and what else it affects."),
    confirmToken: z.string(),
    expiresInSec: z.number().int(),
    expiresAt: z.string(),
    targetChanged: z.boolean().describe("True when an earlier preview's target changed; confirm this one instead."),
  })
  .meta({ id: "ConfirmPreview" });
export type ConfirmPreview = z.infer<typeof confirmPreviewSchema>;

/** What a two-step tool answers: the preview, or its own result once confirmed. */
export const twoStepResult = <T extends z.ZodType>(result: T) => z.union([confirmPreviewSchema, result]);

/** The result of a confirmed removal: the removed target's id fields plus `removed: true`. */
export const removalResult = <S extends z.ZodRawShape>(ids: S) => twoStepResult(z.object({ ...ids, removed: z.literal(true) }));

export const TWO_STEP_NOTE = "Two-step: the preview (200) changes nothing; the token is valid 10 minutes for the same arguments.";

/**
 * What a two-step removal of one game of the caller's declares (removeFromLibrary,
 * removeFromWishlist, removeCustomGame). Fresh schemas per tool: OpenAPI names each tool's result.
 */
export const gameRemoval = () => ({
  kind: "delete" as const,
  input: z.strictObject({ gameId: positiveId, confirmToken: confirmTokenArg }),
  output: removalResult({ gameId: z.number().int() }),
  notes: [TWO_STEP_NOTE],
});

/**
 * The token's single-use marker: one statement that execute() puts in the D1 batch that does the
 * work (anywhere in it). It is opaque on purpose: only confirm.ts makes one.
 */
export type ConfirmMarker = SQL & { readonly __confirmMarker: true };

/** What a two-step tool knows about its target before acting. */
export interface ConfirmPlan<R> {
  /** Changes whenever the target (or what its deletion would take with it) changes. */
  targetRevision: string;
  summary: string;
  /**
   * Does the work, with `marker` in the same D1 batch as the write it authorises: the marker
   * commits with the write or not at all, and breaks the batch of a second use of the token.
   * After execute() returns, confirmTwoStep checks that this call's marker was written, so a plan
   * that leaves it out fails on its first confirmation (500) instead of running twice.
   */
  execute(marker: ConfirmMarker): Promise<R>;
}

interface StoredToken {
  userId: string;
  tool: string;
  argumentsHash: string;
  targetRevision: string;
  expiresAt: string;
}

const tokenKey = (token: string) => `confirm:${token}`;

const refused = (message: string) =>
  new ApiError("invalid_input", `confirmToken: ${message} Call again without confirmToken for a new preview.`, {
    field: "confirmToken",
  });

/** What a two-step call needs of its tool's context (a ToolContext fits): the tool it serves, KV for tokens, D1 for markers. */
export interface ConfirmContext {
  tool: string;
  env: { KV: KVNamespace };
  db: Db;
  auth: AuthContext;
  now: Date;
}

const alreadyUsed = () => refused("was already used.");

/** One use of a token: the marker row this call writes, told apart from another call's by useId. */
type TokenUse = typeof consumedConfirmTokens.$inferSelect;

const markerOf = (use: TokenUse) => statements.insert(consumedConfirmTokens).values(use).getSQL() as ConfirmMarker;

/** The marker row of the token, if any: which use consumed it. */
const holderQuery = (db: Db, tokenHash: string) =>
  db.select({ useId: consumedConfirmTokens.useId }).from(consumedConfirmTokens).where(eq(consumedConfirmTokens.tokenHash, tokenHash));

/** The useId that consumed the token, or null while it is unused. */
async function holderOf(db: Db, tokenHash: string): Promise<string | null> {
  const [row] = await holderQuery(db, tokenHash);
  return row?.useId ?? null;
}

async function preview(ctx: ConfirmContext, bound: Omit<StoredToken, "expiresAt">, summary: string, targetChanged: boolean) {
  const confirmToken = `ct_${randomBase62(32)}`;
  const expiresAt = new Date(ctx.now.getTime() + CONFIRM_TOKEN_TTL_SEC * 1000).toISOString();
  const stored: StoredToken = { ...bound, expiresAt };
  await ctx.env.KV.put(tokenKey(confirmToken), JSON.stringify(stored), { expirationTtl: CONFIRM_TOKEN_TTL_SEC });
  return { confirmRequired: true as const, summary, confirmToken, expiresInSec: CONFIRM_TOKEN_TTL_SEC, expiresAt, targetChanged };
}

/** What a confirm token is bound to of the call's arguments: their canonical form, the token itself left out. */
export const argumentsHashOf = (args: object) => sha256Hex(JSON.stringify(canonical(args, ["confirmToken"])));

/** Runs `plan` two-step: a preview without a token, the work with a valid one. */
export async function confirmTwoStep<R>(
  ctx: ConfirmContext,
  args: { confirmToken?: string },
  plan: ConfirmPlan<R>,
): Promise<R | ConfirmPreview> {
  const bound = {
    userId: ctx.auth.userId,
    tool: ctx.tool,
    argumentsHash: await argumentsHashOf(args),
    targetRevision: plan.targetRevision,
  };
  if (args.confirmToken === undefined) return preview(ctx, bound, plan.summary, false);

  const key = tokenKey(args.confirmToken);
  const text = await ctx.env.KV.get(key);
  const stored = text === null ? null : (JSON.parse(text) as StoredToken);
  if (!stored || Date.parse(stored.expiresAt) <= ctx.now.getTime()) throw refused("unknown or expired.");
  if (stored.userId !== bound.userId || stored.tool !== ctx.tool) throw refused("was not issued for this call.");
  if (stored.argumentsHash !== bound.argumentsHash) throw refused("was issued for other arguments.");

  const use: TokenUse = { tokenHash: await sha256Hex(args.confirmToken), useId: randomBase62(16), expiresAt: stored.expiresAt };
  if ((await holderOf(ctx.db, use.tokenHash)) !== null) throw alreadyUsed();
  if (stored.targetRevision !== bound.targetRevision) {
    // The stale token is spent too (once), so it cannot act should the target change back.
    await spend(ctx, use, key, () => queryBatch(ctx.db, [markerOf(use)]));
    return preview(ctx, bound, plan.summary, true);
  }
  return spend(ctx, use, key, () => plan.execute(markerOf(use)));
}

/**
 * Spends a token without acting on it (the person declined the confirmation it was asked with): its
 * marker is written alone, by the one statement that refuses a second marker, so a later or
 * concurrent confirmation with it is refused as already used. False when it was already used (the
 * work ran, or an earlier answer spent it). The marker outlives the token (its expiry is at most
 * the TTL from now).
 */
export async function spendWithoutActing(db: Db, confirmToken: string, now: Date): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + CONFIRM_TOKEN_TTL_SEC * 1000).toISOString();
  const spent = await db
    .insert(consumedConfirmTokens)
    .values({ tokenHash: await sha256Hex(confirmToken), useId: randomBase62(16), expiresAt })
    .onConflictDoNothing()
    .returning({ useId: consumedConfirmTokens.useId });
  return spent.length > 0;
}

/**
 * Runs `work`, whose batch holds the marker of `use`. A failure while another call holds the
 * token is that call's win: 400 already used. Afterwards the marker must be this call's (else the
 * tool's plan forgot it: a bug, answered 500); expired markers are pruned in the same round trip.
 */
async function spend<R>(ctx: ConfirmContext, use: TokenUse, key: string, work: () => Promise<R>): Promise<R> {
  let result: R;
  try {
    result = await work();
  } catch (error) {
    const holder = await holderOf(ctx.db, use.tokenHash);
    if (holder !== null && holder !== use.useId) throw alreadyUsed();
    throw error;
  }
  const [holders] = await ctx.db.batch([
    holderQuery(ctx.db, use.tokenHash),
    ctx.db.delete(consumedConfirmTokens).where(lte(consumedConfirmTokens.expiresAt, ctx.now.toISOString())),
  ]);
  if (holders[0]?.useId !== use.useId)
    throw new Error(`${ctx.tool}: ConfirmPlan.execute() did not put its confirm marker in the batch that does the work.`);
  await ctx.env.KV.delete(key);
  return result;
}
