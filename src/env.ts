import type { Bindings } from "./bindings";
import type { RateState } from "./platform/rateLimitHeaders";

export interface Variables {
  requestId: string;
  /** Set once a tool call is admitted: the rate-limit headers of its answer. */
  rate: RateState;
  /** The D1 bookmark after the request's tool calls (readSessions.ts), answered in X-D1-Bookmark. */
  bookmark: string;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: Variables;
}
