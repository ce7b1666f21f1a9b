// Where OAuth is served: the service's public origin (PUBLIC_BASE_URL, also behind a tunnel to a
// local server that sees plain http), a loopback address for `wrangler dev`, never plain http
// elsewhere (a clear 404, not a failure); and desktop apps that sign in through their own scheme.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { admin, sendTo, textOf } from "../support/harness";
import { answerConsent, authorizationRequest, discover, register } from "../support/oauthClient";
import { signedInPerson } from "../support/pagesBrowser";

const app = createApp();

describe("behind a tunnel (PUBLIC_BASE_URL set, the Worker reached over http)", () => {
  const tunnel = { PUBLIC_BASE_URL: "https://tunnel.example" };

  it("answers the metadata, the challenge and the token endpoint at the public https origin", async () => {
    const metadata = await sendTo(app, "/.well-known/oauth-authorization-server", {}, tunnel);
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ issuer: "https://tunnel.example", token_endpoint: "https://tunnel.example/oauth/token" });
    const resource = await sendTo(app, "/.well-known/oauth-protected-resource/mcp/oauth", {}, tunnel);
    expect(resource.body).toMatchObject({
      resource: "https://tunnel.example/mcp/oauth",
      authorization_servers: ["https://tunnel.example"],
    });
    const challenge = await sendTo(app, "/mcp/oauth", { method: "POST", body: "{}" }, tunnel);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get("WWW-Authenticate")).toContain("https://tunnel.example/.well-known/oauth-protected-resource/mcp/oauth");
    const token = await sendTo(
      app,
      "/oauth/token",
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "grant_type=authorization_code&code=a:b:c&client_id=x",
      },
      tunnel,
    );
    expect(token.status).toBe(401);
    expect(token.body.error).toBe("invalid_client");
  });
});

describe("plain http on a host that is not loopback", () => {
  it("serves no OAuth: 404 with the reason, on every OAuth path", async () => {
    for (const path of [
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-protected-resource/mcp/oauth",
      "/oauth/token",
      "/oauth/authorize",
    ]) {
      const response = await exports.default.fetch(
        new Request(`http://192.168.1.5:8787${path}`, { method: path === "/oauth/token" ? "POST" : "GET" }),
      );
      expect(response.status, path).toBe(404);
      expect(await textOf(response), path).toContain("PUBLIC_BASE_URL");
    }
    const mcp = await exports.default.fetch(new Request("http://192.168.1.5:8787/mcp/oauth", { method: "POST", body: "{}" }));
    expect(mcp.status).toBe(404);
  });

  it("still lets the operator revoke a key there", async () => {
    const user = await admin("POST", "/users", { plan: "FREE", name: "lan" });
    const key = await admin("POST", `/users/${user.body.userId}/keys`, { preset: "viewOnly" });
    const revoked = await exports.default.fetch(
      new Request(`http://192.168.1.5:8787/admin/v1/keys/${key.body.keyId}`, {
        method: "DELETE",
        headers: { Authorization: "Bearer test-admin-token" },
      }),
    );
    expect(revoked.status).toBe(200);
  });
});

describe("a desktop app's own redirect scheme (Cursor's cursor://)", () => {
  const APP_REDIRECT = "cursor://anysphere.cursor-mcp/oauth/callback";

  it("registers beside its web callback, is shown as that app, and gets its code there", async () => {
    const { browser } = await signedInPerson();
    const as = await discover();
    const client = await register(as, {
      client_name: "Cursor",
      redirect_uris: [APP_REDIRECT, "https://www.cursor.com/agents/mcp/oauth/callback"],
    });
    const request = await authorizationRequest(as, client, { redirect_uri: APP_REDIRECT });
    const page = await browser.get(request.path);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('id="redirect-host"><strong>cursor://anysphere.cursor-mcp</strong>');
    expect(page.text).toContain('id="loopback-warning"');
    expect(page.headers.get("Content-Security-Policy")).toContain("form-action 'self' cursor:;");
    const allowed = await answerConsent(browser, page, { decision: "approve", preset: "viewOnly" });
    expect(allowed.status).toBe(302);
    expect(allowed.headers.get("Location")).toMatch(/^cursor:\/\/anysphere\.cursor-mcp\/oauth\/callback\?code=/);
    const settings = await browser.get("/settings/assistants");
    expect(settings.text).toContain("cursor://anysphere.cursor-mcp");
  });
});
