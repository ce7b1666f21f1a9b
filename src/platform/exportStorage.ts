import { DAY_MS } from "./time";

/**
 * Export files in R2. Every key lives under `exports/`:
 * - `exports/links/<nonce>`: the file of one download link, kept (custom metadata `expiresAt`)
 *   until the link expires, so downloads of the same link within its 15 minutes are served from
 *   R2 instead of being produced again;
 * - `exports/parts/...`: shared building blocks (the official games of one platform at one master
 *   generation), kept while that generation is current.
 * Files are written as they are produced, never held whole: see StreamedObjectWriter.
 */
export const EXPORTS_PREFIX = "exports/";
export const LINK_FILES_PREFIX = `${EXPORTS_PREFIX}links/`;
export const PARTS_PREFIX = `${EXPORTS_PREFIX}parts/`;

export const linkFileKey = (nonce: string) => `${LINK_FILES_PREFIX}${nonce}`;

/** R2's smallest multipart part (every part but the last must have it; all but the last are equal). */
export const PART_BYTES = 5 * 1024 * 1024;

const encoder = new TextEncoder();

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
 * object appears only when close() completes: a reader never sees half a file.
 */
export class StreamedObjectWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private upload: R2MultipartUpload | null = null;
  private readonly parts: R2UploadedPart[] = [];
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
    this.upload ??= await this.bucket.createMultipartUpload(this.key, this.options);
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, part));
  }

  async close(): Promise<R2Object> {
    if (!this.upload) {
      const whole = takeBytes(this.pending, this.pendingBytes);
      this.pendingBytes = 0;
      return this.bucket.put(this.key, whole, this.options);
    }
    if (this.pendingBytes > 0) await this.sendPart(this.pendingBytes);
    return this.upload.complete(this.parts);
  }

  /** Drops what was sent: an unfinished multipart upload leaves no object behind. */
  async abort(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    await this.upload?.abort().catch(() => undefined);
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
