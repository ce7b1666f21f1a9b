import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { sha256Hex } from "../platform/hashing";

/**
 * A bearer token of the accounts (session cookies, invite links, ceremony tokens): 32 random bytes,
 * base64url. Only `hashToken` of it is stored, so a copy of the database lets no one in.
 */
export const randomToken = () => isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(32)));

export const hashToken = (token: string) => sha256Hex(token);

/** An instant `ms` after `now`, as the ISO text the accounts' expiry columns compare. */
export const isoAfter = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();
