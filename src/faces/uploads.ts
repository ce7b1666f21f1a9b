import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { createDb } from "../platform/db";
import { methodNotAllowed } from "../platform/errors";
import { upgradeUrlOf } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { UPLOAD_PATH_PREFIX } from "../platform/signedLinks";
import { resultOrThrow, runChargedWork } from "../registry/chargedWork";
import { acceptUpload, admitUpload } from "../tools/imports/acceptUpload";

/**
 * The upload face: `PUT /uploads/v1/<token>` with the file as the body. The registry's
 * charged-work wrapper admits the upload (admitUpload) and runs its acceptance (acceptUpload, in
 * the imports family); this face answers the job's status.
 */
async function upload(c: Context<AppEnv>): Promise<Response> {
  const now = new Date();
  const db = createDb(c.env.DB);
  const acceptance = {
    env: c.env,
    db,
    now,
    bucket: c.env.EXPORTS,
    upgradeUrl: upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url)),
    waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
  };
  const file = { body: c.req.raw.body, declaredBytes: Number(c.req.header("Content-Length") ?? "0") };
  const outcome = await runChargedWork({
    event: "upload",
    requestId: c.get("requestId"),
    tool: "importMyData",
    face: "uploads",
    accounting: c.env,
    admit: () => admitUpload(acceptance, c.req.param("token") ?? ""),
    work: (uploader) => acceptUpload(acceptance, uploader, file),
  });
  return c.json(resultOrThrow(outcome), 200);
}

/** Mounts PUT `<prefix><token>`; other methods there answer 405. */
export function mountUploadRoutes(app: Hono<AppEnv>, prefix = UPLOAD_PATH_PREFIX): void {
  app.put(`${prefix}:token`, (c) => upload(c));
  app.all(`${prefix}*`, () => {
    throw methodNotAllowed(["PUT"]);
  });
}
