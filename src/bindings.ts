/**
 * The Worker's bindings and variables as wrangler.toml and the secrets give them. This file imports
 * nothing, so every layer may read it; checkBindings (platform/bindingsCheck.ts) validates them
 * once per isolate.
 */
export interface Bindings {
  DB: D1Database;
  KV: KVNamespace;
  /** The OAuth grants, tokens (hashed), registered clients and consent steps of @cloudflare/workers-oauth-provider. */
  OAUTH_KV: KVNamespace;
  EXPORTS: R2Bucket;
  /**
   * Each user's accounting object (src/platform/userAccounting.ts): quota, burst windows, usage
   * history, keys' last use. Untyped here, since this file imports nothing; accountingOf
   * (platform/admission.ts) reads it as the UserAccounting class it is.
   */
  ACCOUNTING: DurableObjectNamespace;
  /** Operator API secret; a Worker secret in production; locally the environment, `.dev.vars` or the one `npm run dev` generated. */
  ADMIN_TOKEN?: string;
  /** HMAC key of export download links; a Worker secret in production; locally the environment, `.dev.vars` or the one `npm run dev` generated. */
  EXPORT_SIGNING_SECRET?: string;
  /** HMAC key of the pages' session cookies; a Worker secret in production; locally the environment, `.dev.vars` or the one `npm run dev` generated. */
  SESSION_SECRET?: string;
  /** Who may get an account: "invite" (default; the operator invites) or "open" (anyone, FREE plan). */
  SIGNUP_MODE?: string;
  /** "on" answers every endpoint with 503 and Retry-After. */
  MAINTENANCE_MODE?: string;
  UPGRADE_URL?: string;
  /**
   * The service's public address (e.g. https://api.example.com): the origin of every absolute link
   * it answers. Unset (local dev), links use the origin the request reached.
   */
  PUBLIC_BASE_URL?: string;
  /**
   * Who the official master data comes from, as its licences ask to be credited: named in every
   * searchGames/browseGames `coverage.note`. wrangler.toml credits the embedded default catalog;
   * an operator who imports other master data says so here.
   */
  MASTER_DATA_CREDIT?: string;
  /**
   * "agreement" approves a JAN code or model number suggestion once two different accounts
   * suggested the same value for the same game (src/tools/identifiers/review.ts); unset, every
   * suggestion waits for the operator.
   */
  IDENTIFIER_AUTO_APPROVAL?: string;
  /** Origins browsers may call the API from: "*" (the default: no cookies are involved) or a comma list. */
  CORS_ORIGINS?: string;
}
