import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { createDb } from "../platform/db";
import { ApiError, methodNotAllowed } from "../platform/errors";
import { upgradeUrlOf } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { DOWNLOAD_PATH_PREFIX, invalidExportLink } from "../platform/signedLinks";
import { resultOrThrow, runChargedWork } from "../registry/chargedWork";
import { admitDownload, downloadFailure, EXPORT_OPENERS, type ExportOpeners } from "../tools/exports/downloads";
import { exportFileOf } from "../tools/exports/produceExportFile";
import { errorResponse } from "./httpHeaders";

/**
 * The download face: `GET /downloads/v1/<token>` (and HEAD). The registry's charged-work wrapper
 * admits the download (the link, its user's standing, the charge: admitDownload), has the file
 * produced into R2 unless this link's file is already there (exportFileOf), and gives the charge
 * back when nothing was delivered; this face serves the file with Range support. Our own failures
 * answer 503 with Retry-After (downloadFailure).
 */

type ByteRange = { start: number; end: number };

/**
 * A single `bytes=` range against a file of `size` bytes: null to send the whole file (no Range,
 * several ranges, or an If-Range that no longer matches), "unsatisfiable" for a 416.
 */
export function parseRange(header: string | undefined, size: number, ifRangeMatches: boolean): ByteRange | null | "unsatisfiable" {
  if (!header || !ifRangeMatches) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === "" && last === "") return null;
  let start: number;
  let end: number;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== "" && Number(last) < start) return null;
  }
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

function fileHeaders(object: R2Object): Headers {
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Last-Modified", object.uploaded.toUTCString());
  headers.set("Accept-Ranges", "bytes");
  // The URL is a bearer credential and the file personal: nothing may keep a copy.
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  return headers;
}

/**
 * Answers with the stored file: whole (200), one range (206) or 416. The body is read with
 * `etagMatches`, so the headers and the bytes always describe the same object.
 */
async function serveFile(c: Context<AppEnv>, bucket: R2Bucket, object: R2Object): Promise<Response> {
  const headers = fileHeaders(object);
  const ifRange = c.req.header("If-Range");
  const range = parseRange(c.req.header("Range"), object.size, ifRange === undefined || ifRange === object.httpEtag);
  if (range === "unsatisfiable") {
    const refused = errorResponse(new ApiError("range_not_satisfiable", `The file has ${object.size} bytes.`), c.get("requestId"));
    refused.headers.set("Content-Range", `bytes */${object.size}`);
    return refused;
  }
  const length = range ? range.end - range.start + 1 : object.size;
  headers.set("Content-Length", String(length));
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${object.size}`);
  const status = range ? 206 : 200;
  if (c.req.method === "HEAD") return new Response(null, { status, headers });

  const body = await bucket.get(object.key, {
    onlyIf: { etagMatches: object.etag },
    ...(range ? { range: { offset: range.start, length } } : {}),
  });
  if (!body || !("body" in body)) throw new Error(`the export file ${object.key} changed or vanished while being served`);
  return new Response(body.body, { status, headers });
}

async function download(c: Context<AppEnv>, openers: ExportOpeners): Promise<Response> {
  const now = new Date();
  const db = createDb(c.env.DB);
  const requestId = c.get("requestId");
  const production = {
    env: c.env,
    db,
    now,
    openers,
    upgradeUrl: upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url)),
    waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
  };
  const outcome = await runChargedWork({
    event: "download",
    requestId,
    tool: null,
    face: "downloads",
    accounting: c.env,
    admit: () => admitDownload(production, c.req.param("token") ?? "", c.req.method === "HEAD"),
    work: async (admitted) => {
      try {
        return await serveFile(c, c.env.EXPORTS, await exportFileOf(production, admitted));
      } catch (error) {
        throw downloadFailure(error, requestId);
      }
    },
    // A range past the end of the file delivers nothing.
    deliveredNothing: (response) => response.status === 416,
    statusOf: (response) => response.status,
  });
  return resultOrThrow(outcome);
}

export interface DownloadRouteOptions {
  /** Where the export sources come from (tests give failing ones). */
  openers?: ExportOpeners;
  /** The path prefix (default /downloads/v1/). */
  prefix?: string;
}

/** Mounts GET (and so HEAD) `<prefix><token>`; other methods there answer 405. */
export function mountDownloadRoutes(app: Hono<AppEnv>, options: DownloadRouteOptions = {}): void {
  const prefix = options.prefix ?? DOWNLOAD_PATH_PREFIX;
  const openers = options.openers ?? EXPORT_OPENERS;
  app.get(`${prefix}:token`, (c) => download(c, openers));
  app.all(`${prefix}*`, (c) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") throw invalidExportLink();
    throw methodNotAllowed(["GET", "HEAD"]);
  });
}
