import { z } from "zod";
import type { Bindings } from "../bindings";
import { ApiError } from "./errors";
import type { ExportRequest } from "./exportSource";
import { constantTimeEqual, hmacSha256, requiredSecret } from "./hashing";
import { randomBase62 } from "./ids";

/**
 * Export download links: `{origin}/downloads/v1/{token}`, where the token is
 * base64url(JSON payload) "." base64url(HMAC-SHA-256 of the first part, keyed by the Worker secret
 * EXPORT_SIGNING_SECRET). The payload names the user, what to export and the expiry; a random
 * nonce makes every link unguessable and names the R2 object its file is kept in. A link is a
 * bearer credential: whoever holds it may download until it expires.
 */
export const DOWNLOAD_PATH_PREFIX = "/downloads/v1/";
export const EXPORT_LINK_TTL_SEC = 900;
/** Longer tokens are refused before any work (filters make tokens of a few hundred characters). */
const MAX_TOKEN_LENGTH = 8_192;

const payloadSchema = z.object({
  v: z.literal(1),
  uid: z.string().min(1),
  kind: z.enum(["myData", "masterData"]),
  dataset: z.string().min(1),
  format: z.enum(["json", "csv", "ndjson"]),
  args: z.record(z.string(), z.unknown()),
  /** Expiry, seconds since the epoch. */
  exp: z.number().int(),
  nonce: z.string().regex(/^[A-Za-z0-9]{22}$/),
});
export type ExportLinkPayload = z.infer<typeof payloadSchema>;

/** What the download route knows once a link is verified. */
export interface VerifiedExportLink {
  userId: string;
  request: ExportRequest;
  expiresAt: Date;
  /** Unique per link: the key of the link's file in R2. */
  nonce: string;
}

export interface IssuedExportLink {
  url: string;
  expiresInSec: typeof EXPORT_LINK_TTL_SEC;
  expiresAt: string;
}

/** What signing and verifying links need of the environment: the secret. */
type SigningEnv = Pick<Bindings, "EXPORT_SIGNING_SECRET">;

export interface LinkIssuer {
  env: SigningEnv;
  now: Date;
  /** The origin the caller reached the service at: the link is absolute. */
  origin: string;
  userId: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

const signingSecret = (env: SigningEnv) =>
  requiredSecret(env.EXPORT_SIGNING_SECRET, "EXPORT_SIGNING_SECRET", "export links can be neither issued nor verified");

const hmac = async (secret: string, message: string) => base64url(await hmacSha256(secret, message));

/** Signs any payload: export links and upload links share the signer (their payloads never parse as each other). */
async function signPayload(env: SigningEnv, payload: object): Promise<string> {
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  return `${body}.${await hmac(signingSecret(env), body)}`;
}

/** Signs a payload as it is; issueExportLink is what tools call. */
export async function signExportToken(env: SigningEnv, payload: ExportLinkPayload): Promise<string> {
  return signPayload(env, payload);
}

/** A signed link to the file of `request`, for the calling user, valid for 15 minutes from `now`. */
export async function issueExportLink(ctx: LinkIssuer, request: ExportRequest): Promise<IssuedExportLink> {
  const exp = Math.floor(ctx.now.getTime() / 1000) + EXPORT_LINK_TTL_SEC;
  const token = await signExportToken(ctx.env, {
    v: 1,
    uid: ctx.userId,
    kind: request.kind,
    dataset: request.dataset,
    format: request.format,
    args: request.args,
    exp,
    nonce: randomBase62(22),
  });
  return {
    url: `${ctx.origin}${DOWNLOAD_PATH_PREFIX}${token}`,
    expiresInSec: EXPORT_LINK_TTL_SEC,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

/** Malformed, altered and foreign tokens all get the same answer, so none tells anything apart. */
export const invalidExportLink = () =>
  new ApiError("not_found", "This download link is not valid. Request a new link from the export tool.");

/** How one kind of link is read back: its payload's schema, and its answers for a token that is not valid or has expired. */
interface LinkRules<P extends { exp: number }> {
  schema: z.ZodType<P>;
  invalid: () => ApiError;
  expired: (at: string) => string;
}

/**
 * Checks the signature (in constant time) before anything else, then the expiry: an expired link
 * is a 410 `link_expired`; an altered, truncated or foreign one (signed with another secret), or
 * one of another kind, is a 404 `not_found`.
 */
async function verifyToken<P extends { exp: number }>(
  rules: LinkRules<P>,
  env: SigningEnv,
  token: string,
  now: Date,
): Promise<{ payload: P; expiresAt: Date }> {
  const payload = rules.schema.safeParse(await verifiedPayload(env, token));
  if (!payload.success) throw rules.invalid();
  const expiresAt = new Date(payload.data.exp * 1000);
  if (now.getTime() < expiresAt.getTime()) return { payload: payload.data, expiresAt };
  const at = expiresAt.toISOString();
  throw new ApiError("link_expired", rules.expired(at), { expiredAt: at });
}

/** The signed JSON payload of a token, or null when the token is malformed, altered or foreign (checked in constant time). */
async function verifiedPayload(env: SigningEnv, token: string): Promise<unknown> {
  const secret = signingSecret(env);
  const parts = token.length <= MAX_TOKEN_LENGTH ? token.split(".") : [];
  const [body, signature] = parts;
  if (parts.length !== 2 || !body || !signature) return null;
  if (!(await constantTimeEqual(await hmac(secret, body), signature))) return null;
  const bytes = fromBase64url(body);
  try {
    return bytes ? JSON.parse(decoder.decode(bytes)) : null;
  } catch {
    return null;
  }
}

const EXPORT_LINK_RULES: LinkRules<ExportLinkPayload> = {
  schema: payloadSchema,
  invalid: invalidExportLink,
  expired: (at) =>
    `This download link expired at ${at}; links are valid for ${EXPORT_LINK_TTL_SEC / 60} minutes. Call the export tool again for a new link.`,
};

/** A download link's token, verified (verifyToken: 404 for anything altered or foreign, 410 past the expiry). */
export async function verifyExportToken(env: SigningEnv, token: string, now: Date): Promise<VerifiedExportLink> {
  const { payload, expiresAt } = await verifyToken(EXPORT_LINK_RULES, env, token, now);
  const { uid, kind, dataset, format, args, nonce } = payload;
  return { userId: uid, request: { kind, dataset, format, args }, expiresAt, nonce };
}

/**
 * Upload links (imports): `{origin}/uploads/v1/{token}`, signed exactly like export links, with a
 * payload of purpose "upload" naming the user and the import job. An upload token never verifies
 * as a download token and the other way round: each payload schema requires what the other lacks.
 */
export const UPLOAD_PATH_PREFIX = "/uploads/v1/";
export const UPLOAD_LINK_TTL_SEC = 3600 as const;

const uploadPayloadSchema = z.object({
  v: z.literal(1),
  purpose: z.literal("upload"),
  uid: z.string().min(1),
  job: z.string().min(1),
  exp: z.number().int(),
  nonce: z.string().regex(/^[A-Za-z0-9]{22}$/),
});

export interface VerifiedUploadLink {
  userId: string;
  jobId: string;
  expiresAt: Date;
}

/** A signed link to PUT the file of import job `jobId`, valid for an hour from `now`. */
export async function issueUploadLink(ctx: LinkIssuer, jobId: string) {
  const exp = Math.floor(ctx.now.getTime() / 1000) + UPLOAD_LINK_TTL_SEC;
  const token = await signPayload(ctx.env, { v: 1, purpose: "upload", uid: ctx.userId, job: jobId, exp, nonce: randomBase62(22) });
  return {
    uploadUrl: `${ctx.origin}${UPLOAD_PATH_PREFIX}${token}`,
    uploadExpiresInSec: UPLOAD_LINK_TTL_SEC as typeof UPLOAD_LINK_TTL_SEC,
    uploadExpiresAt: new Date(exp * 1000).toISOString(),
  };
}

export const invalidUploadLink = () => new ApiError("not_found", "This upload link is not valid. Call importMyData again for a new link.");

const UPLOAD_LINK_RULES: LinkRules<z.infer<typeof uploadPayloadSchema>> = {
  schema: uploadPayloadSchema,
  invalid: invalidUploadLink,
  expired: (at) => `This upload link expired at ${at}. Call importMyData again for a new job and link.`,
};

/** As verifyExportToken, for upload links. */
export async function verifyUploadToken(env: SigningEnv, token: string, now: Date): Promise<VerifiedUploadLink> {
  const { payload, expiresAt } = await verifyToken(UPLOAD_LINK_RULES, env, token, now);
  return { userId: payload.uid, jobId: payload.job, expiresAt };
}
