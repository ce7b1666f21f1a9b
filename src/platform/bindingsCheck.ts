import { z } from "zod";
import type { Bindings } from "../bindings";
import { ApiError } from "./errors";

/** A binding of wrangler.toml: an object the runtime hands the Worker. */
const binding = (kind: string) =>
  z.custom<object>((value) => typeof value === "object" && value !== null, { error: `the ${kind} binding is missing from wrangler.toml` });

/** A Worker secret: `wrangler secret put` in production; locally the environment, `.dev.vars` or `npm run dev`. */
const secret = (name: string) =>
  z.string({ error: `the secret is not set (wrangler secret put ${name})` }).min(1, `the secret is empty (wrangler secret put ${name})`);

/** What the Worker cannot serve without: its storage bindings and its secrets. */
const REQUIRED = z.object({
  DB: binding("D1 database"),
  KV: binding("KV namespace"),
  OAUTH_KV: binding("KV namespace"),
  EXPORTS: binding("R2 bucket"),
  ACCOUNTING: binding("Durable Object namespace"),
  ADMIN_TOKEN: secret("ADMIN_TOKEN"),
  EXPORT_SIGNING_SECRET: secret("EXPORT_SIGNING_SECRET"),
  SESSION_SECRET: secret("SESSION_SECRET"),
});

/** The verdict on each set of bindings the isolate was given: null when complete. */
const checked = new WeakMap<object, ApiError | null>();

/** The misconfiguration as the answer to every request: each missing binding or secret named, no stack. */
function misconfigured(issues: readonly z.core.$ZodIssue[]): ApiError {
  const missing = issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
  console.error(JSON.stringify({ event: "misconfigured", missing }));
  return new ApiError("internal_error", `The service is not configured: ${missing.join("; ")}. The operator must set it.`, {
    retryable: false,
  });
}

/**
 * Validates the Worker's bindings once per isolate (per bindings object): null when every one the
 * Worker needs is there, else the error every request is answered with until the operator fixes it.
 */
export function bindingsProblem(env: Bindings): ApiError | null {
  let verdict = checked.get(env);
  if (verdict === undefined) {
    const parsed = REQUIRED.safeParse(env);
    verdict = parsed.success ? null : misconfigured(parsed.error.issues);
    checked.set(env, verdict);
  }
  return verdict;
}
