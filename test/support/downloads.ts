// Export download helpers: raw responses (bytes, headers) of download links, from the real Worker
// or from an app built with test export sources, the quota a user has used, and the multipart
// uploads the R2 writer has recorded as in progress.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { createApp } from "../../src/app";
import type { Bindings } from "../../src/bindings";
import { MULTIPART_RECORDS_PREFIX } from "../../src/platform/exportStorage";
import { DOWNLOAD_PATH_PREFIX } from "../../src/platform/signedLinks";
import { ORIGIN } from "./harness";

/** The token of a download URL. */
export const tokenOf = (url: string) => {
  const path = new URL(url).pathname;
  if (!path.startsWith(DOWNLOAD_PATH_PREFIX)) throw new Error(`not a download URL: ${url}`);
  return path.slice(DOWNLOAD_PATH_PREFIX.length);
};

/** GET (or another method) on a download URL through the deployed-shape Worker: the raw response. */
export function fetchLink(url: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${new URL(url).pathname}`, init));
}

/** The same request to an app built with other export sources, mounted under `prefix`. */
export async function fetchLinkFrom(
  app: ReturnType<typeof createApp>,
  prefix: string,
  url: string,
  init: RequestInit = {},
  bindings: Partial<Bindings> = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.request(`${ORIGIN}${prefix}${tokenOf(url)}`, init, { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The NDJSON body's rows. */
export const ndjsonOf = (text: string) =>
  text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, any>);

/** The multipart uploads recorded as in progress (src/platform/exportStorage.ts) for keys under `keyPrefix`. */
export async function recordedUploads(keyPrefix: string): Promise<{ key: string; uploadId: string }[]> {
  const { objects } = await env.EXPORTS.list({ prefix: MULTIPART_RECORDS_PREFIX, include: ["customMetadata"] });
  return objects
    .map((object) => ({ key: object.customMetadata?.key ?? "", uploadId: object.customMetadata?.uploadId ?? "" }))
    .filter((upload) => upload.key.startsWith(keyPrefix));
}

/** Whether R2 still takes parts for the upload: false once it was aborted (or completed). */
export async function uploadStillOpen(upload: { key: string; uploadId: string }): Promise<boolean> {
  return env.EXPORTS.resumeMultipartUpload(upload.key, upload.uploadId)
    .uploadPart(99, new Uint8Array(1))
    .then(
      () => true,
      () => false,
    );
}
