const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 characters from the platform CSPRNG. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
      if (bytes[i]! < 248) out += ALPHABET[bytes[i]! % 62];
    }
  }
  return out;
}

/** A prefixed string id such as `usr_3kT9…`; the prefix tells a reader what the id names. */
export const newId = (prefix: string) => `${prefix}_${randomBase62(16)}`;

/** An opaque revision: a new one on every write of the record it belongs to. */
export const newRevision = () => randomBase62(12);
