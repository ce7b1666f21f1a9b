import { ApiError } from "./errors";

/** Tool bodies are small JSON objects; anything larger is a mistake or abuse. */
export const MAX_TOOL_BODY_BYTES = 1_048_576;

const invalidBody = (message: string) => new ApiError("invalid_input", message, { field: "(body)" });

const tooLarge = (maxBytes: number) =>
  new ApiError("payload_too_large", `The body is larger than ${maxBytes} bytes.`, { limitBytes: maxBytes });

/** The body's bytes, read no further than `maxBytes` (a declared or a streamed length past it is refused). */
async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("Content-Length");
  if (Number(declared ?? 0) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array();
  if (declared !== null) {
    // A declared length within the limit: HTTP ends the body there, so it is read in one call
    // (the per-chunk loop below costs a tool call more CPU than the call's own work).
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  return readStreamWithin(request.body, maxBytes, () => tooLarge(maxBytes));
}

/** A stream's bytes, read chunk by chunk and refused (`refusal`) as soon as they pass `maxBytes`. */
export async function readStreamWithin(stream: ReadableStream | null, maxBytes: number, refusal: () => Error): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (stream ?? []) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw refusal();
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalidBody("The body is not valid UTF-8.");
  }
}

/** The body as UTF-8 text of at most `maxBytes` bytes: 413 past it, without reading further; 400 when not UTF-8. */
export const readTextBody = async (request: Request, maxBytes: number): Promise<string> =>
  decodeUtf8(await readBodyBytes(request, maxBytes));

/** A JSON object body of at most `maxBytes` bytes (413 past it); an empty body is no arguments. */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const text = await readTextBody(request, maxBytes);
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidBody("The body is not readable as JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidBody("The body must be a JSON object of arguments.");
  }
  return parsed as Record<string, unknown>;
}
