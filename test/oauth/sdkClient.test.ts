// The official MCP SDK client's own OAuth support (what SDK-based assistants and editors run):
// from the 401 it discovers the server, registers itself, sends the person to the consent page,
// finishes with the code and then works with its tokens, refreshing them itself.

import { env } from "cloudflare:workers";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { listKeys } from "../../src/accounts/apiKeys";
import { ORIGIN } from "../support/harness";
import { answerConsent, fromAssistant, MCP_OAUTH_URL, REDIRECT_URI } from "../support/oauthClient";
import { db, signedInPerson } from "../support/pagesBrowser";

/** What an SDK-based assistant keeps between runs, in memory; the browser step is the test's. */
class RememberingProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "SDK Assistant",
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation = () => this.client;
  saveClientInformation = (client: OAuthClientInformationMixed) => {
    this.client = client;
  };
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => {
    this.saved = tokens;
  };
  redirectToAuthorization = (url: URL) => {
    this.authorizationUrl = url;
  };
  saveCodeVerifier = (verifier: string) => {
    this.verifier = verifier;
  };
  codeVerifier = () => this.verifier;
}

const transportFor = (provider: OAuthClientProvider) =>
  new StreamableHTTPClientTransport(new URL(MCP_OAUTH_URL), {
    authProvider: provider,
    fetch: fromAssistant,
  });

const newClient = () => new Client({ name: "sdk-oauth", version: "1" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });

describe("the MCP SDK client's OAuth", () => {
  it("discovers, registers, is sent to the consent, finishes with the code, then lists and calls tools", async () => {
    const { browser, userId } = await signedInPerson();
    const provider = new RememberingProvider();
    const transport = transportFor(provider);
    await expect(newClient().connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toBeDefined();
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${ORIGIN}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get("resource")).toBe(MCP_OAUTH_URL);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");

    const page = await browser.get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain("SDK Assistant");
    const allowed = await answerConsent(browser, page, { decision: "approve", preset: "standard" });
    const code = new URL(allowed.headers.get("Location")!).searchParams.get("code")!;
    await transport.finishAuth(code);
    expect(provider.saved?.access_token).toBeDefined();

    const client = newClient();
    await client.connect(transportFor(provider));
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(40);
    const account = await client.callTool({ name: "getAccount", arguments: {} });
    expect(account.isError).toBeFalsy();
    expect((account.structuredContent as { userId: string }).userId).toBe(userId);
    await client.close();
    const [key] = (await listKeys(env, db, userId, 1, 10, "assistants")).items;
    expect(key?.name).toBe("SDK Assistant");
    expect(key?.scopes.toSorted()).toEqual(["games:read", "library:read", "library:write", "play:read", "play:write"]);
  });
});
