// Assertions on tool replies that many suites share.
import { expect } from "vitest";
import type { OutputOf, Reply, ToolReply } from "./harness";

/**
 * The body of a 200 reply; anything else fails the test, showing the body. Typed as the tool's
 * output when the reply comes from a call naming a registered tool (any otherwise).
 */
export function ok<N extends string>(reply: ToolReply<N> | Reply, what = ""): OutputOf<N> {
  expect(reply.status, `${what} ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
}

/** ok() with the body untyped, for suites whose assertions were written against untyped bodies; prefer ok(). */
export function okAny(reply: Reply, what = ""): any {
  return ok(reply, what);
}

/** A two-step tool's preview (the first call, without confirmToken): nothing was done yet. */
type Preview = { confirmRequired: true };

/**
 * The body of a two-step tool's 200 reply that did the work: ok(reply), failing on a confirm
 * preview instead, and typed without the preview branch of the tool's output.
 */
export function okDone<N extends string>(reply: ToolReply<N> | Reply, what = ""): Exclude<OutputOf<N>, Preview> {
  ok(reply, what);
  expect(reply.body?.confirmRequired, `${what} answered a confirm preview: ${JSON.stringify(reply.body)}`).toBeUndefined();
  return reply.body;
}

/** The body of a two-step tool's 200 preview: ok(reply), failing unless it is one, typed as the preview branch. */
export function okPreview<N extends string>(reply: ToolReply<N> | Reply, what = ""): Extract<OutputOf<N>, Preview> {
  ok(reply, what);
  expect(reply.body?.confirmRequired, `${what} did not answer a confirm preview: ${JSON.stringify(reply.body)}`).toBe(true);
  return reply.body;
}

/** Fails unless the reply is that error (and names that field, when given). */
export function expectError(reply: Reply, status: number, code: string, field?: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(code);
  if (field !== undefined) expect(reply.body.field, JSON.stringify(reply.body)).toBe(field);
}
