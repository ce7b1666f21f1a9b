// What a caller is told when storage fails under a call: a failure the runtime marks as passing (a
// Durable Object overloaded or reset: `overloaded` or `retryable` on the error, as Cloudflare
// documents for Durable Object calls) is a 503 to retry; anything else a 500 to report.
import { describe, expect, it } from "vitest";
import { ApiError, asApiError } from "../../src/platform/errors";

const failure = (message: string, flags: Record<string, unknown>) => Object.assign(new Error(message), flags);

describe("asApiError", () => {
  it.each([
    ["overloaded", { overloaded: true }],
    ["retryable", { retryable: true }],
  ])("answers a failure marked %s as 503 unavailable, retryable, with Retry-After", (_, flags) => {
    const answer = asApiError(failure("Durable Object is overloaded.", flags), "req_test");
    expect([answer.code, answer.status]).toEqual(["unavailable", 503]);
    expect(answer.details).toEqual({ retryable: true, retryAfterSec: 1 });
  });

  it("answers any other failure as 500 internal_error, not retryable", () => {
    for (const error of [new Error("boom"), failure("not marked", { retryable: false }), "a string", null]) {
      const answer = asApiError(error, "req_test");
      expect([answer.code, answer.status, answer.details.retryable]).toEqual(["internal_error", 500, false]);
    }
  });

  it("passes an ApiError through as it is", () => {
    const refusal = new ApiError("not_found", "The game was not found.");
    expect(asApiError(refusal, "req_test")).toBe(refusal);
  });
});
