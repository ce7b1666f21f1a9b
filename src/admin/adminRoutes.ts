import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { createDb } from "../platform/db";
import { notFound } from "../platform/errors";
import { type Paging, pageArgs, pageLimitOf, pageOf, pageOffset } from "../platform/paging";
import { KEY_PRESETS, PLANS, SCOPES, type Scope, upgradeUrlOf } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { coerceQuery } from "../platform/queryCoercion";
import { readJsonObject, readTextBody } from "../platform/requestBody";
import { parseWith, refuseMalformedText } from "../platform/validation";
import { findUser } from "../tools/account/queries";
import { MASTER_DATASETS, type MasterDataset } from "../tools/games/masterRows";
import { importMasterDataset } from "./masterImport";
import { operatorAuthentication } from "./operatorAuth";
import { insertApiKey, insertUser, listUsers, revokeApiKey, updateUser } from "./queries";

const createUserInput = z.strictObject({ plan: z.enum(PLANS), name: z.string().min(1).max(100).optional() });
const updateUserInput = z
  .strictObject({ plan: z.enum(PLANS).optional(), suspended: z.boolean().optional() })
  .refine((patch) => patch.plan !== undefined || patch.suspended !== undefined, "give plan and/or suspended");
const USERS_PAGING: Paging = { cap: 100, defaultLimit: 50, capReason: "the user list is capped at 100 per page" };
const usersPageLimit = pageLimitOf("listUsers", USERS_PAGING);
const listUsersInput = z.strictObject(pageArgs(USERS_PAGING));
const createKeyInput = z
  .strictObject({
    preset: z.enum(["viewOnly", "standard", "individual"]),
    scopes: z.array(z.enum(SCOPES)).min(1).optional(),
    name: z.string().min(1).max(100).optional(),
  })
  .refine((key) => (key.preset === "individual") === (key.scopes !== undefined), {
    path: ["scopes"],
    message: "scopes are required with the individual preset and only with it",
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

/** The operator API: not a tool, not in the catalog, guarded by the ADMIN_TOKEN secret. */
export function createAdminRouter() {
  const admin = new Hono<AppEnv>();

  admin.use("*", operatorAuthentication());

  admin.get("/users", async (c) => {
    const args = parseWith(listUsersInput, coerceQuery(listUsersInput.shape, new URL(c.req.url).searchParams));
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
    const user = await updateUser(createDb(c.env.DB), c.req.param("userId"), args);
    if (!user) throw notFound("The user");
    return c.json({ userId: user.id, plan: user.plan, suspended: user.suspended, name: user.name });
  });

  admin.post("/users/:userId/keys", async (c) => {
    const args = await readBody(c, createKeyInput);
    const db = createDb(c.env.DB);
    const user = await findUser(db, c.req.param("userId"));
    if (!user) throw notFound("The user");
    const scopes: readonly Scope[] = args.preset === "individual" ? [...new Set(args.scopes)] : KEY_PRESETS[args.preset];
    const issued = await insertApiKey(
      db,
      { userId: user.id, plan: user.plan, upgradeUrl: upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url)) },
      scopes,
      args.name ?? null,
    );
    return c.json({ keyId: issued.keyId, apiKey: issued.apiKey, scopes, userId: user.id }, 201);
  });

  admin.post("/master/:dataset", async (c) => {
    const dataset = parseWith(masterDatasetParam, c.req.param("dataset"));
    const body = await readTextBody(c.req.raw, MASTER_IMPORT_BYTES);
    return c.json(await importMasterDataset(createDb(c.env.DB), dataset, body));
  });

  admin.delete("/keys/:keyId", async (c) => {
    const revoked = await revokeApiKey(createDb(c.env.DB), c.req.param("keyId"));
    if (!revoked) throw notFound("The active key");
    return c.json(revoked);
  });

  return admin;
}
