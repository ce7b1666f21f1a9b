import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Every error the service can answer with, and the HTTP status it maps to. */
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  /** A bearer token presented and refused (RFC 6750): unknown, revoked or expired; `reason` says which. */
  invalid_token: 401,
  insufficient_scope: 403,
  plan_required: 403,
  access_suspended: 403,
  not_found: 404,
  /** A download link past its expiry: the client must ask the export tool for a new one. */
  link_expired: 410,
  method_not_allowed: 405,
  payload_too_large: 413,
  /** A request target (path and query) longer than the service reads: long arguments go in a POST body. */
  uri_too_long: 414,
  /** A download's Range that the file cannot satisfy. */
  range_not_satisfiable: 416,
  already_exists: 409,
  revision_conflict: 409,
  /** An Idempotency-Key reused for another request, or one whose first request still runs. */
  idempotency_conflict: 409,
  /** MCP only: the person declined a two-step tool's confirmation form; nothing changed. */
  confirmation_declined: 409,
  rate_limited: 429,
  quota_exceeded: 429,
  internal_error: 500,
  maintenance: 503,
  unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Entry errors (authentication, routing, quota, maintenance) carry the spec's `error` key;
 * tool errors carry `code` and `message`. Every body carries `code` so one check fits both.
 */
const ENTRY_ERRORS: ReadonlySet<ErrorCode> = new Set([
  "unauthorized",
  "invalid_token",
  "method_not_allowed",
  "payload_too_large",
  "uri_too_long",
  "rate_limited",
  "quota_exceeded",
  "maintenance",
  "unavailable",
  "internal_error",
]);

export interface ErrorDetails {
  /** The offending argument, for invalid_input and plan_required. */
  field?: string;
  scopes?: string[];
  upgradeUrl?: string;
  retryable?: boolean;
  retryAfterSec?: number;
  resetAt?: string;
  remaining?: number;
  saved?: boolean;
  /** Marks a routing failure (unknown tool) as an entry error. */
  entry?: boolean;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = details;
  }

  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }

  toBody(requestId: string): Record<string, unknown> {
    const { entry, ...details } = this.details;
    const isEntry = entry === true || ENTRY_ERRORS.has(this.code);
    return {
      ...(isEntry ? { error: this.code } : {}),
      code: this.code,
      message: this.message,
      ...details,
      requestId,
    };
  }
}

export const invalidInput = (field: string, message: string) => new ApiError("invalid_input", message, { field });

export const notFound = (what: string) => new ApiError("not_found", `${what} was not found.`);

/** 405 with the Allow header listing what the path accepts. */
export const methodNotAllowed = (allowed: readonly string[]) =>
  new ApiError("method_not_allowed", `Use ${allowed.join(", ")} on this path.`, { allow: allowed.join(", ") });

/**
 * Any thrown value as the error a face answers with. An ApiError is passed through; anything else
 * is a bug, logged with its stack and answered as internal_error with the request id to quote.
 */
export function asApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  console.error(JSON.stringify({ requestId, error: String(error), stack: (error as Error)?.stack }));
  if (isPassingFailure(error)) {
    return new ApiError("unavailable", "A storage object of this service was briefly unavailable; retry shortly.", {
      retryable: true,
      retryAfterSec: PASSING_FAILURE_RETRY_AFTER_SEC,
    });
  }
  return new ApiError("internal_error", "An unexpected error occurred; quote requestId when reporting it.", { retryable: false });
}

const PASSING_FAILURE_RETRY_AFTER_SEC = 1;

/**
 * A failure the runtime marks as passing: a Durable Object (a user's accounting object) that was
 * overloaded or reset during the request carries `overloaded` or `retryable`, as Cloudflare
 * documents; the same call a moment later may well succeed, so it is a 503 to retry, not a bug.
 */
const isPassingFailure = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  ((error as { overloaded?: unknown }).overloaded === true || (error as { retryable?: unknown }).retryable === true);
