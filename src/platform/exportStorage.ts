import { DAY_MS } from "./time";

/**
 * Export files in R2. Every key lives under `exports/`:
 * - `exports/links/<nonce>`: the file of one download link, kept (custom metadata `expiresAt`)
 *   until the link expires, so downloads of the same link within its 15 minutes are served from
 *   R2 instead of being produced again; beside it, while it is being produced,
 *   `exports/links/<nonce>.claim` (see producedOnce);
 * - `exports/parts/...`: shared building blocks (the official games of one platform at one master
 *   generation), kept while that generation is current.
 * Files are written as they are produced, never held whole: see StreamedObjectWriter.
 */
export const EXPORTS_PREFIX = "exports/";
export const LINK_FILES_PREFIX = `${EXPORTS_PREFIX}links/`;
export const PARTS_PREFIX = `${EXPORTS_PREFIX}parts/`;

export const linkFileKey = (nonce: string) => `${LINK_FILES_PREFIX}${nonce}`;
/** The claim of the one request producing a link's file (see producedOnce); its `expiresAt` is the link's. */
export const linkClaimKey = (nonce: string) => `${linkFileKey(nonce)}.claim`;

/**
 * One small object per multipart upload in progress (custom metadata `key` and `uploadId`),
 * written when StreamedObjectWriter starts the upload and deleted when it completes or aborts it:
 * the R2 binding cannot list multipart uploads, so this is how the scheduled cleanup finds the
 * ones a dead process left behind (abortAbandonedUploads).
 */
export const MULTIPART_RECORDS_PREFIX = "multipart-uploads/";

/** A multipart upload still recorded this long after it started belongs to a writer that died (no request lives this long). */
export const ABANDONED_UPLOAD_MS = 60 * 60 * 1000;

/** R2's smallest multipart part (every part but the last must have it; all but the last are equal). */
export const PART_BYTES = 5 * 1024 * 1024;

const encoder = new TextEncoder();

/** Whether the operation succeeded (its failure is an answer here, not an error). */
const succeeded = (operation: Promise<unknown>) =>
  operation.then(
    () => true,
    () => false,
  );

function takeBytes(chunks: Uint8Array[], count: number): Uint8Array {
  const out = new Uint8Array(count);
  let filled = 0;
  while (filled < count) {
    const chunk = chunks[0]!;
    const used = Math.min(chunk.length, count - filled);
    out.set(chunk.subarray(0, used), filled);
    filled += used;
    if (used === chunk.length) chunks.shift();
    else chunks[0] = chunk.subarray(used);
  }
  return out;
}

/**
 * Writes an R2 object from text and bytes given piece by piece. Pieces are gathered into parts of
 * exactly PART_BYTES, each sent as soon as it is full through a multipart upload, so memory holds
 * at most one part whatever the file's size. A file smaller than one part is one plain put. The
 * object appears only when close() completes: a reader never sees half a file. A multipart upload
 * is recorded while it runs (MULTIPART_RECORDS_PREFIX), so that one whose writer dies is found and
 * aborted by the scheduled cleanup.
 */
export class StreamedObjectWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private upload: R2MultipartUpload | null = null;
  private readonly parts: R2UploadedPart[] = [];
  private record: string | null = null;
  private written = 0;

  constructor(
    private readonly bucket: R2Bucket,
    readonly key: string,
    private readonly options: R2MultipartOptions = {},
  ) {}

  /** Bytes accepted so far. */
  get size(): number {
    return this.written;
  }

  async write(piece: string | Uint8Array): Promise<void> {
    const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.written += bytes.length;
    while (this.pendingBytes >= PART_BYTES) await this.sendPart(PART_BYTES);
  }

  private async sendPart(bytes: number): Promise<void> {
    const part = takeBytes(this.pending, bytes);
    this.pendingBytes -= bytes;
    this.upload ??= await this.startUpload();
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, part));
  }

  /** Starts the multipart upload and records it (MULTIPART_RECORDS_PREFIX) until it completes or is aborted. */
  private async startUpload(): Promise<R2MultipartUpload> {
    const upload = await this.bucket.createMultipartUpload(this.key, this.options);
    this.record = `${MULTIPART_RECORDS_PREFIX}${crypto.randomUUID()}`;
    await this.bucket.put(this.record, "", { customMetadata: { key: this.key, uploadId: upload.uploadId } });
    return upload;
  }

  private async forgetUpload(): Promise<void> {
    if (this.record) await this.bucket.delete(this.record);
    this.record = null;
  }

  async close(): Promise<R2Object> {
    if (!this.upload) {
      const whole = takeBytes(this.pending, this.pendingBytes);
      this.pendingBytes = 0;
      return this.bucket.put(this.key, whole, this.options);
    }
    if (this.pendingBytes > 0) await this.sendPart(this.pendingBytes);
    const object = await this.upload.complete(this.parts);
    await this.forgetUpload();
    return object;
  }

  /**
   * Drops what was sent: an unfinished multipart upload leaves no object behind. Should the abort
   * fail, the upload stays recorded for the scheduled cleanup.
   */
  async abort(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    if (this.upload && (await succeeded(this.upload.abort()))) await this.forgetUpload();
  }
}

/**
 * Aborts the multipart uploads recorded more than ABANDONED_UPLOAD_MS before `now`: a process that
 * died mid-write (a killed upload, a crashed export) never completed nor aborted them, and their
 * parts would stay stored. Answers how many were aborted. Run by the scheduled handler; the
 * bucket's lifecycle rules (abort after a day) are the backstop.
 */
export async function abortAbandonedUploads(bucket: R2Bucket, now: Date): Promise<number> {
  let aborted = 0;
  for await (const records of listObjects(bucket, MULTIPART_RECORDS_PREFIX)) {
    for (const record of records) {
      if (record.uploaded.getTime() + ABANDONED_UPLOAD_MS > now.getTime()) continue;
      const { key, uploadId } = record.customMetadata ?? {};
      // One that completed or was aborted just before its record went cannot be aborted again: the record goes anyway.
      if (key && uploadId && (await succeeded(bucket.resumeMultipartUpload(key, uploadId).abort()))) aborted++;
      await bucket.delete(record.key);
    }
  }
  return aborted;
}

/** How long a claim holds unless its producer renews it: past that, the producer is taken for dead. */
const CLAIM_LEASE_MS = 30_000;
/** A producer renews its claim once this much of the lease has gone. */
const CLAIM_RENEW_AFTER_MS = CLAIM_LEASE_MS / 3;
/** How often a request waiting for another one's production looks again: the first wait, doubled up to the last. */
const WAIT_FIRST_MS = 50;
const WAIT_MAX_MS = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The claim was taken over (its lease ran out while this request still produced): another request produces now. */
class ClaimLost extends Error {}

/**
 * One request's right to produce an object: a small R2 object written with a conditional put, so of
 * requests racing for it exactly one succeeds. Its custom metadata `leaseUntil` says how long it
 * holds; the producer renews it (again conditionally, on its own ETag) while it works, so a claim
 * whose lease has run out belongs to a request that died, and may be taken over.
 */
export class ProductionClaim {
  private renewedAt: number;

  private constructor(
    private readonly bucket: R2Bucket,
    private readonly key: string,
    private readonly metadata: Record<string, string>,
    private etag: string,
  ) {
    this.renewedAt = Date.now();
  }

  private static write(bucket: R2Bucket, key: string, metadata: Record<string, string>, onlyIf: R2Conditional) {
    const leaseUntil = new Date(Date.now() + CLAIM_LEASE_MS).toISOString();
    return bucket.put(key, "", { onlyIf, customMetadata: { ...metadata, leaseUntil } });
  }

  /** The claim if nobody holds it (or its holder's lease ran out), else null. */
  static async take(bucket: R2Bucket, key: string, metadata: Record<string, string>): Promise<ProductionClaim | null> {
    const fresh = await ProductionClaim.write(bucket, key, metadata, { etagDoesNotMatch: "*" });
    if (fresh) return new ProductionClaim(bucket, key, metadata, fresh.etag);
    const held = await bucket.head(key);
    if (held === null) return null; // released meanwhile: the next look decides
    const leaseUntil = Date.parse(held.customMetadata?.leaseUntil ?? "");
    if (!Number.isNaN(leaseUntil) && leaseUntil > Date.now()) return null;
    const taken = await ProductionClaim.write(bucket, key, metadata, { etagMatches: held.etag });
    return taken ? new ProductionClaim(bucket, key, metadata, taken.etag) : null;
  }

  /** Renews the lease, or throws ClaimLost if another request took the claim over. */
  async renew(): Promise<void> {
    const renewed = await ProductionClaim.write(this.bucket, this.key, this.metadata, { etagMatches: this.etag });
    if (!renewed) throw new ClaimLost(`the claim ${this.key} was taken over`);
    this.etag = renewed.etag;
    this.renewedAt = Date.now();
  }

  /** Renews the lease when a good part of it has gone (call it between pieces of work). */
  async keep(): Promise<void> {
    if (Date.now() - this.renewedAt >= CLAIM_RENEW_AFTER_MS) await this.renew();
  }

  /** Gives the claim up, unless it was taken over (then it is the other request's). */
  async release(): Promise<void> {
    const held = await this.bucket.head(this.key);
    if (held?.etag === this.etag) await this.bucket.delete(this.key);
  }
}

/**
 * The object at `key`, produced by `produce` once however many requests ask for it at the same
 * time: the request that takes the claim at `claimKey` produces it; the others wait for it (looking
 * again with a growing pause) and answer the same object. A production that fails releases the
 * claim, so a waiting request tries in turn; one that died leaves a claim whose lease runs out, and
 * a waiting request takes over. `produce` must call `claim.keep()` between pieces of work and
 * `claim.renew()` just before it makes the object visible, so that a request taken for dead never
 * replaces the object another one produced.
 */
export async function producedOnce(
  bucket: R2Bucket,
  target: { key: string; claimKey: string; claimMetadata: Record<string, string> },
  produce: (claim: ProductionClaim) => Promise<R2Object>,
): Promise<R2Object> {
  let wait = WAIT_FIRST_MS;
  for (;;) {
    const stored = await bucket.head(target.key);
    if (stored) return stored;
    const claim = await ProductionClaim.take(bucket, target.claimKey, target.claimMetadata);
    if (claim) {
      try {
        // A request that produced it may have released its claim just after this one looked.
        return (await bucket.head(target.key)) ?? (await produce(claim));
      } catch (error) {
        if (!(error instanceof ClaimLost)) throw error;
      } finally {
        await claim.release();
      }
    }
    await sleep(wait);
    wait = Math.min(wait * 2, WAIT_MAX_MS);
  }
}

/** Keys under `prefix` (with their custom metadata), a listing page at a time. */
export async function* listObjects(bucket: R2Bucket, prefix: string): AsyncIterable<R2Object[]> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, include: ["customMetadata"] });
    yield page.objects;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** Link files outlive a missing or unreadable `expiresAt` by a day at most. */
const FALLBACK_LIFETIME_MS = DAY_MS;

/**
 * Deletes the link files whose link has expired (custom metadata `expiresAt` at or before `now`).
 * Run by the scheduled handler; the bucket's lifecycle rule is the backstop.
 */
export async function removeExpiredLinkFiles(bucket: R2Bucket, now: Date): Promise<number> {
  let removed = 0;
  for await (const objects of listObjects(bucket, LINK_FILES_PREFIX)) {
    const expired = objects
      .filter((object) => {
        const expiresAt = Date.parse(object.customMetadata?.expiresAt ?? "");
        const deadline = Number.isNaN(expiresAt) ? object.uploaded.getTime() + FALLBACK_LIFETIME_MS : expiresAt;
        return deadline <= now.getTime();
      })
      .map((object) => object.key);
    if (expired.length > 0) await bucket.delete(expired);
    removed += expired.length;
  }
  return removed;
}
