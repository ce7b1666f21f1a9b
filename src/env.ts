import type { AuthContext } from "./platform/auth";

export interface Bindings {
  DB: D1Database;
  KV: KVNamespace;
  EXPORTS: R2Bucket;
  /** Operator API secret; a Worker secret in production, `.dev.vars` or the environment locally. */
  ADMIN_TOKEN?: string;
  /** "on" answers every endpoint with 503 and Retry-After. */
  MAINTENANCE_MODE?: string;
  UPGRADE_URL?: string;
}

export interface Variables {
  requestId: string;
  auth: AuthContext;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
