// The Worker's bindings are validated once per isolate: a missing binding or secret is named in
// the answer to every request, instead of failing deep inside the first call that needs it.
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { authHeader, newAccount, sendTo } from "../support/harness";

const app = createApp();

describe("the bindings' check", () => {
  it("names a missing secret in a 500 internal_error, with no stack", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/getAccount", { headers: authHeader(account.apiKey) }, { SESSION_SECRET: undefined });
    expect(reply.status).toBe(500);
    expect(reply.body.code).toBe("internal_error");
    expect(reply.body.message).toBe(
      "The service is not configured: SESSION_SECRET: the secret is not set (wrangler secret put SESSION_SECRET). The operator must set it.",
    );
    expect(reply.body.retryable).toBe(false);
    expect(JSON.stringify(reply.body)).not.toMatch(/at .*\.ts|Error:/);
  });

  it("names every missing binding and empty secret at once, on every path", async () => {
    const reply = await sendTo(app, "/rest/v1/tools", {}, { DB: undefined, EXPORTS: undefined, EXPORT_SIGNING_SECRET: "" });
    expect(reply.status).toBe(500);
    expect(reply.body.message).toBe(
      "The service is not configured: DB: the D1 database binding is missing from wrangler.toml; " +
        "EXPORTS: the R2 bucket binding is missing from wrangler.toml; " +
        "EXPORT_SIGNING_SECRET: the secret is empty (wrangler secret put EXPORT_SIGNING_SECRET). The operator must set it.",
    );
  });

  it("lets a Worker with every binding and secret serve", async () => {
    const account = await newAccount();
    const reply = await sendTo(app, "/rest/v1/getAccount", { headers: authHeader(account.apiKey) });
    expect(reply.status).toBe(200);
  });
});
