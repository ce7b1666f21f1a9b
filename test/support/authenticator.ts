// A software authenticator for the tests: ES256 key pairs (WebCrypto) answering registration
// ("none" attestation) and sign-in (assertions) exactly as a real one would, so the server's
// @simplewebauthn verification runs for real. It holds its credentials, so a test can make several,
// reuse one to sign in, wind a counter back, or tamper with an answer.
import { type CBORType, encodeCBOR } from "@levischuck/tiny-cbor";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data included. */
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const ECDSA_P256 = { name: "ECDSA", namedCurve: "P-256" } as const;

export interface StoredCredential {
  /** base64url, as the server stores it. */
  id: string;
  rpId: string;
  /** base64url of the user handle the registration gave (the user's id). */
  userHandle: string;
  keyPair: CryptoKeyPair;
  /** The signature counter, incremented per assertion; tests may set it back. */
  counter: number;
}

type Bytes = Uint8Array<ArrayBuffer>;

/** The parts one after another, in a buffer of their own. */
function concat(parts: readonly Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const sha256 = async (bytes: Bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

const uint32 = (n: number) => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, n);
  return bytes;
};

const uint16 = (n: number) => {
  const bytes = new Uint8Array(2);
  new DataView(bytes.buffer).setUint16(0, n);
  return bytes;
};

const clientData = (type: "webauthn.create" | "webauthn.get", challenge: string, origin: string) =>
  isoUint8Array.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

/** The credential's public key as COSE_Key: EC2 (1: 2), ES256 (3: -7), P-256 (-1: 1), x (-2), y (-3). */
async function coseKey(publicKey: CryptoKey): Promise<Uint8Array> {
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", publicKey)) as ArrayBuffer);
  return encodeCBOR(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, raw.slice(1, 33)],
      [-3, raw.slice(33, 65)],
    ]),
  );
}

/** An ASN.1 DER INTEGER of an unsigned big-endian value: leading zeros dropped, one added when the high bit is set. */
function derInteger(value: Uint8Array): Bytes {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const body = value.slice(start);
  const padded = body[0]! & 0x80 ? concat([new Uint8Array([0]), body]) : body;
  return concat([new Uint8Array([0x02, padded.length]), padded]);
}

/** WebCrypto signs ECDSA as raw r||s; WebAuthn carries the DER SEQUENCE of the two integers. */
function derSignature(raw: Uint8Array): Bytes {
  const sequence = concat([derInteger(raw.slice(0, 32)), derInteger(raw.slice(32))]);
  return concat([new Uint8Array([0x30, sequence.length]), sequence]);
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  /** navigator.credentials.create: a new ES256 credential for the options' RP and user, attested as "none". */
  async createCredential(options: PublicKeyCredentialCreationOptionsJSON, origin: string): Promise<RegistrationResponseJSON> {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((descriptor) => descriptor.id));
    if (this.credentials.some((credential) => credential.rpId === rpId && excluded.has(credential.id))) {
      throw new Error("InvalidStateError: this authenticator already holds a credential of the account");
    }
    const keyPair = (await crypto.subtle.generateKey(ECDSA_P256, true, ["sign", "verify"])) as CryptoKeyPair;
    const rawId = crypto.getRandomValues(new Uint8Array(32));
    const id = isoBase64URL.fromBuffer(rawId);
    const authData = concat([
      await sha256(isoUint8Array.fromUTF8String(rpId)),
      new Uint8Array([FLAG_UP | FLAG_UV | FLAG_AT]),
      uint32(0),
      new Uint8Array(16), // AAGUID: none
      uint16(rawId.length),
      rawId,
      await coseKey(keyPair.publicKey),
    ]);
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    this.credentials.push({ id, rpId, userHandle: options.user.id, keyPair, counter: 0 });
    return {
      id,
      rawId: id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientData("webauthn.create", options.challenge, origin)),
        attestationObject: isoBase64URL.fromBuffer(new Uint8Array(attestationObject)),
        transports: ["internal"],
      },
    };
  }

  /**
   * navigator.credentials.get: an assertion by `credentialId`, else by the last credential made
   * for the RP (a discoverable request names none), its counter moved one forward.
   */
  async getAssertion(
    options: PublicKeyCredentialRequestOptionsJSON,
    origin: string,
    credentialId?: string,
  ): Promise<AuthenticationResponseJSON> {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const credential = this.credentials.findLast((held) => held.rpId === rpId && (credentialId === undefined || held.id === credentialId));
    if (!credential) throw new Error("NotAllowedError: no credential for this site");
    credential.counter += 1;
    const authData = concat([
      await sha256(isoUint8Array.fromUTF8String(rpId)),
      new Uint8Array([FLAG_UP | FLAG_UV]),
      uint32(credential.counter),
    ]);
    const clientDataJSON = clientData("webauthn.get", options.challenge, origin);
    const signed = concat([authData, await sha256(clientDataJSON)]);
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, credential.keyPair.privateKey, signed));
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(derSignature(raw)),
        userHandle: credential.userHandle,
      },
    };
  }
}

/** The answer with its clientDataJSON changed after the authenticator signed it (what an attacker in the middle would try). */
export function withClientData<R extends RegistrationResponseJSON | AuthenticationResponseJSON>(
  response: R,
  change: Record<string, unknown>,
): R {
  const data = JSON.parse(isoBase64URL.toUTF8String(response.response.clientDataJSON));
  const clientDataJSON = isoBase64URL.fromUTF8String(JSON.stringify({ ...data, ...change }));
  return { ...response, response: { ...response.response, clientDataJSON } };
}
