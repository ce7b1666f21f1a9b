import type { Bindings } from "../../bindings";
import { chargeUser, type LinkAdmission } from "../../platform/admission";
import type { Db } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import type { ExportKind, ExportReader, ExportRequest, ExportSource } from "../../platform/exportSource";
import { invalidExportLink, type VerifiedExportLink, verifyExportToken } from "../../platform/signedLinks";
import { downloadCost } from "./downloadCosts";
import { openMasterDataSource } from "./masterData";
import { openMyDataSource } from "./myData";

/** What a download costs is decided in downloadCosts.ts (exportMasterData quotes it without importing the download face's machinery). */

/** The tool that issues each kind of link (a download's log line names it). */
const EXPORT_TOOLS = { myData: "exportMyData", masterData: "exportMasterData" } as const satisfies Record<ExportKind, string>;

/** A download admitted: the verified link, its user as they are now, and the charge. */
export interface DownloadAdmission extends LinkAdmission {
  link: VerifiedExportLink;
  tool: (typeof EXPORT_TOOLS)[ExportKind];
}

/**
 * Checks the link (signature, then expiry), then its user's standing (not suspended), and charges
 * the download to their daily quota in the same request to their accounting object. `free`: HEAD delivers no file, so it
 * costs nothing (it may still produce the file, once per link).
 */
export async function admitDownload(ctx: { env: Bindings; db: Db; now: Date }, token: string, free: boolean): Promise<DownloadAdmission> {
  const link = await verifyExportToken(ctx.env, token, ctx.now);
  const cost = free ? 0 : downloadCost(link.request);
  const admitted = await chargeUser(ctx.env, link.userId, ctx.now, cost, invalidExportLink);
  return { ...admitted, link, tool: EXPORT_TOOLS[link.request.kind] };
}

/** Seconds a client should wait before retrying a download that failed on our side. */
export const DOWNLOAD_RETRY_AFTER_SEC = 30;

/**
 * A download that failed as the answer to give: a refusal (plan, arguments) passes through as it
 * is; anything else is our failure, logged and answered as retryable.
 */
export function downloadFailure(error: unknown, requestId: string): unknown {
  if (error instanceof ApiError && (error.status < 500 || error.code === "unavailable")) return error;
  console.error(JSON.stringify({ requestId, exportNotDelivered: String(error), stack: (error as Error)?.stack }));
  return new ApiError("unavailable", "The file could not be produced or served; the download was not charged. Retry shortly.", {
    retryable: true,
    retryAfterSec: DOWNLOAD_RETRY_AFTER_SEC,
  });
}

export interface OpenerContext {
  env: Bindings;
  /** Where a plan_required raised at download time points. */
  upgradeUrl: string;
}

/** Opens the source a link names, for the link's user as they are at download time. */
export type ExportOpener = (reader: ExportReader, request: ExportRequest, ctx: OpenerContext) => Promise<ExportSource>;
export type ExportOpeners = Record<ExportRequest["kind"], ExportOpener>;

export const EXPORT_OPENERS: ExportOpeners = {
  myData: (reader, request, { upgradeUrl }) => openMyDataSource(reader, request.dataset, request.args, upgradeUrl),
  masterData: (reader, request, { env, upgradeUrl }) =>
    openMasterDataSource(reader, request.dataset, request.args, env.EXPORTS, upgradeUrl),
};
