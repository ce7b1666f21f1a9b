const encoder = new TextEncoder();

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Every call hashes its API key, so the hex text is built with a lookup table, not per-byte formatting. */
export async function sha256Hex(text: string): Promise<string> {
  return hexOf(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}

function hexOf(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX_BYTES[byte];
  return hex;
}

/** HMAC-SHA-256 of `message` keyed by `secret`: what signed links and session tokens are signed with. */
export async function hmacSha256(secret: string, message: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

export const hmacSha256Hex = async (secret: string, message: string) => hexOf(await hmacSha256(secret, message));

/**
 * A Worker secret the code cannot do without. Missing, it is a misconfiguration, not the caller's
 * fault: it surfaces as internal_error and in the log, naming the secret and what stops working.
 */
export function requiredSecret(value: string | undefined, name: string, stops: string): string {
  if (!value) throw new Error(`${name} is not set: ${stops}.`);
  return value;
}

/**
 * Compares two hex digests of one algorithm (equal length by construction) in constant time. Unlike
 * constantTimeEqual it does not hash them again: they already are hashes of the same length.
 */
export function digestsEqual(a: string, b: string): boolean {
  return a.length === b.length && crypto.subtle.timingSafeEqual(encoder.encode(a), encoder.encode(b));
}

/** Compares two secrets without leaking, through timing, how much of them matched. */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  // Hashing first gives both sides the same length, which timingSafeEqual requires.
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}

/** A value with object keys sorted and undefined (and `omit`) keys dropped: equal meaning, equal text. */
export function canonical(value: unknown, omit: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item, omit));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, v]) => !omit.includes(key) && v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, v]) => [key, canonical(v, omit)]),
    );
  }
  return value;
}
