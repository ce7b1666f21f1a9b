import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Bindings } from "../bindings";
import { requiredSecret } from "./hashing";

/**
 * State a client carries between two calls and hands back (an MCP `requestState`): encrypted and
 * authenticated with AES-GCM, so the client can neither read what it holds (a confirm token
 * meant for the person's answer, not the model) nor change it. The key is derived (HKDF-SHA-256)
 * from EXPORT_SIGNING_SECRET, the secret of everything the service hands out to come back, with
 * the state's purpose as the derivation's info: a state of one purpose never opens as another.
 */

type SealingEnv = Pick<Bindings, "EXPORT_SIGNING_SECRET">;

const encoder = new TextEncoder();
const IV_BYTES = 12;

async function keyFor(env: SealingEnv, purpose: string): Promise<CryptoKey> {
  const secret = requiredSecret(env.EXPORT_SIGNING_SECRET, "EXPORT_SIGNING_SECRET", "client-held state can be neither sealed nor opened");
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(purpose) },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

interface Sealed<T> {
  payload: T;
  /** Unix seconds after which the state no longer opens. */
  exp: number;
}

/** Seals `payload` for `purpose`, openable until `ttlSec` from `now`. */
export async function sealState<T>(env: SealingEnv, purpose: string, payload: T, now: Date, ttlSec: number): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const plain: Sealed<T> = { payload, exp: Math.floor(now.getTime() / 1000) + ttlSec };
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyFor(env, purpose), encoder.encode(JSON.stringify(plain)));
  const bytes = new Uint8Array(IV_BYTES + sealed.byteLength);
  bytes.set(iv);
  bytes.set(new Uint8Array(sealed), IV_BYTES);
  return isoBase64URL.fromBuffer(bytes);
}

/** The payload of a state sealed for `purpose`, or undefined when it is not one (forged, changed, another purpose's) or expired. */
export async function openState<T>(env: SealingEnv, purpose: string, state: string, now: Date): Promise<T | undefined> {
  if (!/^[A-Za-z0-9_-]{24,4096}$/.test(state)) return undefined;
  const bytes = isoBase64URL.toBuffer(state);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, IV_BYTES) },
      await keyFor(env, purpose),
      bytes.slice(IV_BYTES),
    );
    const sealed = JSON.parse(new TextDecoder().decode(plain)) as Sealed<T>;
    return sealed.exp > now.getTime() / 1000 ? sealed.payload : undefined;
  } catch {
    return undefined;
  }
}
