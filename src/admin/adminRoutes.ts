import { type Context, Hono } from "hono";
import { z } from "zod";
import { issueKeyFor, keyChoiceInput, keyOf, listKeys } from "../accounts/apiKeys";
import { revokeKey } from "../accounts/connectedAssistants";
import { createInvite, invitePath } from "../accounts/invites";
import { grantHelpersFor } from "../accounts/oauthServer";
import type { Bindings } from "../bindings";
import type { AppEnv } from "../env";
import { createDb, type Db } from "../platform/db";
import { notFound } from "../platform/errors";
import { type Paging, pageArgs, pageLimitOf, pageOf, pageOffset } from "../platform/paging";
import { PLANS, upgradeUrlOf } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { coerceQuery } from "../platform/queryCoercion";
import { readJsonObject, readTextBody } from "../platform/requestBody";
import { parseWith, refuseMalformedText } from "../platform/validation";
import { findUser } from "../tools/account/queries";
import { MASTER_DATASETS, type MasterDataset } from "../tools/games/masterRows";
import { SUGGESTION_STATUSES, type SuggestionRow, toSuggestion } from "../tools/identifiers/items";
import { suggestionQueue } from "../tools/identifiers/queries";
import { approveSuggestion, rejectSuggestion } from "../tools/identifiers/review";
import { importMasterDataset } from "./masterImport";
import { operatorAuthentication } from "./operatorAuth";
import { insertUser, listUsers, updateUser } from "./queries";

const createUserInput = z.strictObject({ plan: z.enum(PLANS), name: z.string().min(1).max(100).optional() });
const updateUserInput = z
  .strictObject({ plan: z.enum(PLANS).optional(), suspended: z.boolean().optional() })
  .refine((patch) => patch.plan !== undefined || patch.suspended !== undefined, "give plan and/or suspended");
const USERS_PAGING: Paging = { cap: 100, defaultLimit: 50, capReason: "the user list is capped at 100 per page" };
const usersPageLimit = pageLimitOf("listUsers", USERS_PAGING);
const listUsersInput = z.strictObject(pageArgs(USERS_PAGING));
const KEYS_PAGING: Paging = { cap: 100, defaultLimit: 50, capReason: "the key list is capped at 100 per page" };
const keysPageLimit = pageLimitOf("listKeys", KEYS_PAGING);
const listKeysInput = z.strictObject(pageArgs(KEYS_PAGING));

const SUGGESTIONS_PAGING: Paging = { cap: 100, defaultLimit: 50, capReason: "the suggestion list is capped at 100 per page" };
const suggestionsPageLimit = pageLimitOf("listIdentifierSuggestions", SUGGESTIONS_PAGING);
const listSuggestionsInput = z.strictObject({ status: z.enum(SUGGESTION_STATUSES).default("open"), ...pageArgs(SUGGESTIONS_PAGING) });
const rejectInput = z.strictObject({ reason: z.string().min(1).max(200).optional() });

/** A suggestion as the operator reviews it: who made it, and the conflict it opened, if any. */
const reviewedSuggestion = (row: SuggestionRow) => ({
  ...toSuggestion(row),
  userId: row.userId,
  conflictGameId: row.conflictGameId,
  reviewedBy: row.reviewedBy,
  reviewReason: row.reviewReason,
  reviewedAt: row.reviewedAt,
});

const ADMIN_BODY_BYTES = 65_536;
/** NDJSON bytes per import request; `npm run admin -- master import` splits larger files. */
const MASTER_IMPORT_BYTES = 8 * 1024 * 1024;
const masterDatasetParam = z.enum(Object.keys(MASTER_DATASETS) as [MasterDataset, ...MasterDataset[]], {
  error: "dataset must be platforms, companies, genres or games",
});

/** A JSON body checked against `schema`; text is refused, as in tool calls, when it holds invalid Unicode. */
async function readBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const body = await readJsonObject(c.req.raw, ADMIN_BODY_BYTES);
  refuseMalformedText(body);
  return parseWith(schema, body);
}

/** The query string checked against `schema`, its numbers read as tool calls read them. */
const readQuery = <S extends z.ZodObject>(c: Context<AppEnv>, schema: S): z.output<S> =>
  parseWith(schema, coerceQuery(schema.shape, new URL(c.req.url).searchParams));

async function existingUser(db: Db, userId: string) {
  const user = await findUser(db, userId);
  if (!user) throw notFound("The user");
  return user;
}

/**
 * Where an invite link points: the public origin, except that a loopback address is named
 * `localhost`, since browsers refuse passkeys on an IP-address origin (local dev serves on
 * 127.0.0.1, which localhost reaches too).
 */
function pagesOrigin(env: Bindings, requestUrl: string): string {
  const origin = new URL(publicOrigin(env, requestUrl));
  if (origin.hostname === "127.0.0.1" || origin.hostname === "[::1]") origin.hostname = "localhost";
  return origin.origin;
}

/** The operator API: not a tool, not in the catalog, guarded by the ADMIN_TOKEN secret. */
export function createAdminRouter() {
  const admin = new Hono<AppEnv>();

  admin.use("*", operatorAuthentication());

  admin.get("/users", async (c) => {
    const args = readQuery(c, listUsersInput);
    const limit = usersPageLimit(args.limit);
    const { rows, totalCount } = await listUsers(createDb(c.env.DB), pageOffset(args.page, limit), limit.effectiveLimit);
    const items = rows.map((u) => ({ userId: u.id, name: u.name, plan: u.plan, suspended: u.suspended, createdAt: u.createdAt }));
    return c.json(pageOf(items, args.page, totalCount, limit));
  });

  admin.post("/users", async (c) => {
    const args = await readBody(c, createUserInput);
    const user = await insertUser(createDb(c.env.DB), args.plan, args.name ?? null);
    return c.json({ userId: user.id, plan: user.plan, name: user.name }, 201);
  });

  admin.patch("/users/:userId", async (c) => {
    const args = await readBody(c, updateUserInput);
    const user = await updateUser(c.env, createDb(c.env.DB), c.req.param("userId"), args);
    if (!user) throw notFound("The user");
    return c.json({ userId: user.id, plan: user.plan, suspended: user.suspended, name: user.name });
  });

  admin.post("/users/:userId/keys", async (c) => {
    const args = await readBody(c, keyChoiceInput);
    const db = createDb(c.env.DB);
    const user = await existingUser(db, c.req.param("userId"));
    const limit = { userId: user.id, plan: user.plan, upgradeUrl: upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url)) };
    const issued = await issueKeyFor(db, limit, args);
    return c.json({ ...issued, userId: user.id }, 201);
  });

  admin.get("/users/:userId/keys", async (c) => {
    const args = readQuery(c, listKeysInput);
    const limit = keysPageLimit(args.limit);
    const db = createDb(c.env.DB);
    const user = await existingUser(db, c.req.param("userId"));
    const { items, totalCount } = await listKeys(c.env, db, user.id, args.page, limit.effectiveLimit);
    return c.json(pageOf(items, args.page, totalCount, limit));
  });

  admin.post("/users/:userId/invites", async (c) => {
    const invite = await createInvite(createDb(c.env.DB), c.req.param("userId"));
    const url = new URL(invitePath(invite.token), pagesOrigin(c.env, c.req.url)).href;
    return c.json({ inviteId: invite.inviteId, url, expiresAt: invite.expiresAt }, 201);
  });

  admin.post("/master/:dataset", async (c) => {
    const dataset = parseWith(masterDatasetParam, c.req.param("dataset"));
    const body = await readTextBody(c.req.raw, MASTER_IMPORT_BYTES);
    return c.json(await importMasterDataset(createDb(c.env.DB), dataset, body));
  });

  admin.get("/identifiers", async (c) => {
    const args = readQuery(c, listSuggestionsInput);
    const limit = suggestionsPageLimit(args.limit);
    const { rows, totalCount } = await suggestionQueue(createDb(c.env.DB), args.status, pageOffset(args.page, limit), limit.effectiveLimit);
    return c.json(pageOf(rows.map(reviewedSuggestion), args.page, totalCount, limit));
  });

  admin.post("/identifiers/:suggestionId/approve", async (c) => {
    const row = await approveSuggestion(createDb(c.env.DB), c.req.param("suggestionId"), new Date());
    return c.json(reviewedSuggestion(row));
  });

  admin.post("/identifiers/:suggestionId/reject", async (c) => {
    const args = await readBody(c, rejectInput);
    const row = await rejectSuggestion(createDb(c.env.DB), c.req.param("suggestionId"), args.reason ?? null, new Date());
    return c.json(reviewedSuggestion(row));
  });

  admin.delete("/keys/:keyId", async (c) => {
    const db = createDb(c.env.DB);
    const keyId = c.req.param("keyId");
    const key = await keyOf(db, keyId);
    if (!key) throw notFound("The active key");
    return c.json(await revokeKey(c.env, db, grantHelpersFor(c.env, c.req.url), key.userId, keyId));
  });

  return admin;
}
