import type { Bindings } from "../../bindings";
import type { Db } from "../../platform/db";
import { formatWriter } from "../../platform/exportFormats";
import type { ExportReader } from "../../platform/exportSource";
import { linkClaimKey, linkFileKey, type ProductionClaim, producedOnce, StreamedObjectWriter } from "../../platform/exportStorage";
import type { VerifiedExportLink } from "../../platform/signedLinks";
import { utcDay } from "../../platform/time";
import type { DownloadAdmission, ExportOpeners } from "./downloads";

/** What producing a link's file needs besides the link. */
export interface ProductionContext {
  env: Bindings;
  db: Db;
  now: Date;
  /** Where the export sources come from (tests give failing ones). */
  openers: ExportOpeners;
  /** Where a plan_required raised at download time points. */
  upgradeUrl: string;
  /** Keeps work going after the answer (the request's waitUntil). */
  waitUntil(work: Promise<unknown>): void;
}

const attachment = (fileName: string) => `attachment; filename="${fileName}"`;

/**
 * The admitted download's file: the stored one, else produced once for every concurrent download of
 * the link (one produces it, the others wait for it), so they all serve the same bytes. It is
 * produced for the link's user with the plan they hold now.
 */
export function exportFileOf(ctx: ProductionContext, admitted: DownloadAdmission): Promise<R2Object> {
  const { link } = admitted;
  const reader: ExportReader = { db: ctx.db, userId: admitted.userId, plan: admitted.plan, now: ctx.now };
  const target = {
    key: linkFileKey(link.nonce),
    claimKey: linkClaimKey(link.nonce),
    claimMetadata: { expiresAt: link.expiresAt.toISOString() },
  };
  const file = producedOnce(ctx.env.EXPORTS, target, (claim) => produceFile(ctx, link, reader, claim));
  // A client that goes away cancels its request: the production (which others may be waiting for) goes on.
  ctx.waitUntil(file.catch(() => undefined));
  return file;
}

/** The link's file, produced from its source page by page into R2 (never held whole) under the claim. */
async function produceFile(
  ctx: ProductionContext,
  link: VerifiedExportLink,
  reader: ExportReader,
  claim: ProductionClaim,
): Promise<R2Object> {
  const { request } = link;
  const source = await ctx.openers[request.kind](reader, request, { env: ctx.env, upgradeUrl: ctx.upgradeUrl });
  const writer = formatWriter(request.format, { dataset: request.dataset, columns: source.columns, exportedAt: reader.now.toISOString() });
  const fileName = `${source.fileName ?? `${request.dataset}-${utcDay(reader.now)}`}.${writer.extension}`;
  const out = new StreamedObjectWriter(ctx.env.EXPORTS, linkFileKey(link.nonce), {
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
