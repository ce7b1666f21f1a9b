import { eq } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { users } from "../db/schema";
import type { AppEnv } from "../env";
import { createDb, type Db, queryBatch, type RowOf, statements } from "../platform/db";
import { ApiError, methodNotAllowed } from "../platform/errors";
import { formatWriter } from "../platform/exportFormats";
import { linkClaimKey, linkFileKey, type ProductionClaim, producedOnce, StreamedObjectWriter } from "../platform/exportStorage";
import { upgradeUrlOf } from "../platform/plans";
import { publicOrigin } from "../platform/publicOrigin";
import { type DailyCharge, quotaExceeded, refundDailyQuota, userDailyChargeStatement } from "../platform/quota";
import { DOWNLOAD_PATH_PREFIX, type VerifiedExportLink, verifyExportToken } from "../platform/signedLinks";
import { utcDay } from "../platform/time";
import { downloadCost, EXPORT_OPENERS, type ExportOpeners } from "../tools/exports/downloads";
import type { ExportReader } from "../tools/exports/exportSource";
import { errorResponse } from "./httpHeaders";

/**
 * The download face: `GET /downloads/v1/<token>` (and HEAD). It checks the link (signature, then
 * expiry), the link user's current standing (not suspended; the plan still allows the export),
 * charges the download to their daily quota, produces the file into R2 unless this link's file is
 * already there (once, however many downloads of the link arrive together), and serves it from R2
 * with Range support. Whatever fails after the charge gives the charge back: a 503 with
 * Retry-After when the file could not be produced or served.
 */

/** Seconds a client should wait before retrying a download that failed on our side. */
export const DOWNLOAD_RETRY_AFTER_SEC = 30;

/** userQuery's row: suspended as stored (0/1), read in a raw batch with the charge. */
type LinkUser = RowOf<typeof users, "plan" | "suspended">;

const userQuery = (userId: string) =>
  statements.select({ plan: users.plan, suspended: users.suspended }).from(users).where(eq(users.id, userId)).getSQL();

const attachment = (fileName: string) => `attachment; filename="${fileName}"`;

/** The link's file, produced from its source page by page into R2 (never held whole) under the claim. */
async function produceFile(
  c: Context<AppEnv>,
  link: VerifiedExportLink,
  reader: ExportReader,
  openers: ExportOpeners,
  upgradeUrl: string,
  claim: ProductionClaim,
): Promise<R2Object> {
  const { request } = link;
  const source = await openers[request.kind](reader, request, { env: c.env, upgradeUrl });
  const writer = formatWriter(request.format, { dataset: request.dataset, columns: source.columns, exportedAt: reader.now.toISOString() });
  const fileName = `${source.fileName ?? `${request.dataset}-${utcDay(reader.now)}`}.${writer.extension}`;
  const out = new StreamedObjectWriter(c.env.EXPORTS, linkFileKey(link.nonce), {
    httpMetadata: { contentType: writer.contentType, contentDisposition: attachment(fileName) },
    customMetadata: { expiresAt: link.expiresAt.toISOString(), userId: link.userId, kind: request.kind, dataset: request.dataset },
  });
  try {
    await out.write(writer.head());
    for await (const rows of source.pages()) {
      await out.write(writer.page(rows));
      await claim.keep();
    }
    await out.write(writer.tail());
    await claim.renew();
    return await out.close();
  } catch (error) {
    await out.abort();
    throw error;
  }
}

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

/**
 * The link's file: the stored one, else produced once for every concurrent download of the link
 * (one produces it, the others wait for it), so they all serve the same bytes.
 */
function linkFile(c: Context<AppEnv>, link: VerifiedExportLink, reader: ExportReader, openers: ExportOpeners, upgradeUrl: string) {
  const target = {
    key: linkFileKey(link.nonce),
    claimKey: linkClaimKey(link.nonce),
    claimMetadata: { expiresAt: link.expiresAt.toISOString() },
  };
  return producedOnce(c.env.EXPORTS, target, (claim) => produceFile(c, link, reader, openers, upgradeUrl, claim));
}

async function admitDownload(
  db: Db,
  link: VerifiedExportLink,
  now: Date,
  cost: number,
): Promise<{ user: LinkUser; charge: DailyCharge | null }> {
  const day = utcDay(now);
  const queries = cost > 0 ? [userQuery(link.userId), userDailyChargeStatement(link.userId, day, cost)] : [userQuery(link.userId)];
  const [users, charged] = (await queryBatch(db, queries)) as [LinkUser[], { count: number }[] | undefined];
  const user = users[0];
  // The link was signed by us, so its user existed: an account removed since is simply gone.
  if (!user) throw new ApiError("not_found", "This download link is not valid. Request a new link from the export tool.");
  if (user.suspended) throw new ApiError("access_suspended", "Access for this account is suspended.");
  const charge = charged && charged.length > 0 ? { day, cost } : null;
  if (cost > 0 && !charge) throw quotaExceeded(user, now);
  return { user, charge };
}

async function download(c: Context<AppEnv>, openers: ExportOpeners): Promise<Response> {
  const now = new Date();
  const link = await verifyExportToken(c.env, c.req.param("token") ?? "", now);
  const db = createDb(c.env.DB);
  // HEAD delivers no file, so it costs nothing (it may still produce the file, once per link).
  const cost = c.req.method === "HEAD" ? 0 : downloadCost(link.request);
  const { user, charge } = await admitDownload(db, link, now, cost);
  const reader: ExportReader = { db, userId: link.userId, plan: user.plan, now };
  const upgradeUrl = upgradeUrlOf(c.env, publicOrigin(c.env, c.req.url));
  try {
    const file = linkFile(c, link, reader, openers, upgradeUrl);
    // A client that goes away cancels this request: the production (which others may be waiting for) goes on.
    c.executionCtx.waitUntil(file.catch(() => undefined));
    const object = await file;
    const response = await serveFile(c, c.env.EXPORTS, object);
    if (response.status === 416 && charge) await refundDailyQuota(db, { userId: link.userId }, charge);
    return response;
  } catch (error) {
    // Nothing was delivered: give the charge back. A refusal (plan, arguments) passes through as
    // it is; anything else is our failure, answered as retryable.
    if (charge) await refundDailyQuota(db, { userId: link.userId }, charge);
    if (error instanceof ApiError && error.status < 500) throw error;
    if (error instanceof ApiError && error.code === "unavailable") throw error;
    console.error(JSON.stringify({ requestId: c.get("requestId"), exportNotDelivered: String(error), stack: (error as Error)?.stack }));
    throw new ApiError("unavailable", "The file could not be produced or served; the download was not charged. Retry shortly.", {
      retryable: true,
      retryAfterSec: DOWNLOAD_RETRY_AFTER_SEC,
    });
  }
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
    if (c.req.method === "GET" || c.req.method === "HEAD") {
      throw new ApiError("not_found", "This download link is not valid. Request a new link from the export tool.");
    }
    throw methodNotAllowed(["GET", "HEAD"]);
  });
}
