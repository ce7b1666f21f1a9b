// Assertions on tool replies that many suites share.
import { expect } from "vitest";
import type { Reply } from "./harness";

/** The body of a 200 reply; anything else fails the test, showing the body. */
export function ok(reply: Reply, what = ""): any {
  expect(reply.status, `${what} ${JSON.stringify(reply.body)}`).toBe(200);
  return reply.body;
}

/** Fails unless the reply is that error (and names that field, when given). */
export function expectError(reply: Reply, status: number, code: string, field?: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.code, JSON.stringify(reply.body)).toBe(code);
  if (field !== undefined) expect(reply.body.field, JSON.stringify(reply.body)).toBe(field);
}
