// Client ID Metadata Documents (MCP 2026-07-28): a client names itself by an https URL serving its
// metadata and registers nothing. The Worker fetches the document through the fetcher its app was
// built with: here the test serves the client's host itself, and records every fetch, so the
// production rules (https only, no private, loopback or link-local address, no redirect, 5 KB, 5 s,
// client_id equal to the URL, redirect URIs checked, cached as Cache-Control says) are seen too.
import { afterEach, describe, expect, it } from "vitest";
import type { MetadataFetch } from "../../src/accounts/clientMetadata";
import { createApp } from "../../src/app";
import { tools } from "../../src/tools";
import { mcpCall, mcpClient } from "../support/mcp";
import { authorizationRequest, consentTo, discover, exchangeCode, REDIRECT_URI, refresh, tokensOf, viaApp } from "../support/oauthClient";
import { signedInPerson } from "../support/pagesBrowser";

const HOST = "https://assistant.example";
let documentCount = 0;
/** A metadata URL of its own per test: stored clients are shared by every test of the run. */
const newClientId = () => `${HOST}/oauth/client-${Date.now().toString(36)}-${documentCount++}.json`;

const documentOf = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Metadata Assistant",
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  ...extra,
});

/** The client's host as this test serves it: what each URL answers, and every request the Worker made. */
const served = new Map<string, (request: Request) => Response | Promise<Response>>();
const fetched: string[] = [];
const clientHost: MetadataFetch = async (request) => {
  fetched.push(request.url);
  const answer = served.get(request.url);
  return answer ? answer(request) : new Response("not found", { status: 404 });
};
const app = createApp(tools, { fetchClientMetadata: clientHost });
const via = viaApp(app);

afterEach(() => {
  served.clear();
  fetched.length = 0;
});

function serve(clientId: string, document: unknown = documentOf(clientId), cacheControl = "max-age=600") {
  served.set(clientId, () => Response.json(document, { headers: { "Cache-Control": cacheControl } }));
}

/** The consent page (or the refusal page) for an authorization request of this client. */
async function authorizePage(clientId: string) {
  const { browser } = await signedInPerson("PREMIUM", "collector", { app });
  const as = await discover(via);
  const request = await authorizationRequest(as, { client_id: clientId, token_endpoint_auth_method: "none" });
  return browser.get(request.path);
}

async function expectRefused(clientId: string, words: string) {
  const page = await authorizePage(clientId);
  expect(page.status, page.text).toBe(400);
  expect(page.text).toContain("This application could not be verified");
  expect(page.text).toContain(words);
}

describe("a client named by its metadata document URL", () => {
  it("connects end to end without registering (oauth4webapi), calls a tool over /mcp/oauth, and refreshes", async () => {
    const clientId = newClientId();
    serve(clientId);
    const { browser, userId } = await signedInPerson("PREMIUM", "collector", { app });
    const as = await discover(via);
    expect(as.client_id_metadata_document_supported).toBe(true);
    const client = { client_id: clientId, token_endpoint_auth_method: "none" };
    const request = await authorizationRequest(as, client);
    const page = await browser.get(request.path);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('id="client-domain">assistant.example');
    expect(page.text).toContain("Metadata Assistant");
    const callback = await consentTo(browser, request);
    const tokens = await tokensOf(as, client, await exchangeCode(as, client, request, callback, request.verifier, via));
    const mcp = await mcpClient(tokens.access_token, "/mcp/oauth");
    try {
      expect((await mcpCall(mcp, "getAccount")).body.userId).toBe(userId);
    } finally {
      await mcp.close();
    }
    expect((await refresh(as, client, tokens.refresh_token!, via)).access_token).toBeDefined();
    // Fresh for its max-age: fetched once for the consent, the exchange and the refresh.
    expect(fetched).toEqual([clientId]);
  });

  it("is fetched as the production rules say: no redirect followed, Accept JSON", async () => {
    const clientId = newClientId();
    let seen: Request | undefined;
    served.set(clientId, (request) => {
      seen = request;
      return Response.json(documentOf(clientId));
    });
    expect((await authorizePage(clientId)).status).toBe(200);
    expect(seen?.redirect).toBe("manual");
    expect(seen?.headers.get("Accept")).toBe("application/json");
  });
});

describe("the rules of a metadata document URL", () => {
  for (const [clientId, words] of [
    ["https://127.0.0.1/oauth/client.json", "public host"],
    ["https://10.1.2.3/oauth/client.json", "public host"],
    ["https://192.168.0.10/oauth/client.json", "public host"],
    ["https://169.254.169.254/latest/meta-data", "public host"],
    ["https://[::1]/oauth/client.json", "public host"],
    ["https://localhost/oauth/client.json", "public host"],
    ["https://intranet/oauth/client.json", "public host"],
    ["https://app.localhost/oauth/client.json", "public host"],
    ["https://assistant.example/a/../client.json", "normal form"],
    ["https://assistant.example:443/client.json", "normal form"],
  ] as const) {
    it(`refuses ${clientId} without fetching anything`, async () => {
      await expectRefused(clientId, words);
      expect(fetched).toEqual([]);
    });
  }

  it("refuses a redirect, and never follows it (to a private address or anywhere)", async () => {
    const clientId = newClientId();
    served.set(clientId, () => new Response(null, { status: 302, headers: { Location: "https://169.254.169.254/latest/meta-data" } }));
    await expectRefused(clientId, "redirects");
    expect(fetched).toEqual([clientId]);
  });

  it("refuses a document over 5 KB (declared or streamed)", async () => {
    const clientId = newClientId();
    serve(clientId, documentOf(clientId, { client_uri: `https://assistant.example/${"x".repeat(6_000)}` }));
    await expectRefused(clientId, "larger than 5120 bytes");
    const streamed = newClientId();
    served.set(streamed, () => {
      const body = new TextEncoder().encode(JSON.stringify(documentOf(streamed, { padding: "x".repeat(6_000) })));
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(body);
            controller.close();
          },
        }),
      );
    });
    await expectRefused(streamed, "larger than 5120 bytes");
  });

  it("refuses a document naming another client_id, unusable redirect URIs, a secret, or an answer that is not 200", async () => {
    const cases: [unknown | number, string][] = [
      [documentOf("https://other.example/client.json"), "another client_id"],
      [{ client_id: "x" }, "another client_id"],
      ["[]", "not a JSON object"],
      [null, "not a JSON object"],
      [500, "HTTP 500"],
    ];
    for (const [document, words] of cases) {
      const clientId = newClientId();
      if (typeof document === "number") served.set(clientId, () => new Response("oops", { status: document }));
      else serve(clientId, document === "[]" ? [] : document);
      await expectRefused(clientId, words);
    }
    for (const extra of [
      { redirect_uris: ["javascript:alert(1)"] },
      { redirect_uris: ["http://assistant.example/callback"] },
      { redirect_uris: [] },
      { redirect_uris: ["https://assistant.example/cb#frag"] },
    ]) {
      const clientId = newClientId();
      serve(clientId, documentOf(clientId, extra));
      await expectRefused(clientId, "redirect_uris");
    }
    const confidential = newClientId();
    serve(confidential, documentOf(confidential, { token_endpoint_auth_method: "client_secret_basic", client_secret: "s" }));
    await expectRefused(confidential, "public client");
  });

  it("refuses a redirect URI the document does not list (a page here, nothing redirected)", async () => {
    const clientId = newClientId();
    serve(clientId, documentOf(clientId, { redirect_uris: ["https://assistant.example/elsewhere"] }));
    const page = await authorizePage(clientId);
    expect(page.status).toBe(400);
    expect(page.headers.get("Location")).toBeNull();
  });

  it("gives up on a host that does not answer within 5 s", async () => {
    const clientId = newClientId();
    served.set(
      clientId,
      (request) => new Promise<Response>((_, reject) => request.signal.addEventListener("abort", () => reject(new Error("aborted")))),
    );
    await expectRefused(clientId, "within 5 s");
  });

  it("keeps even a no-store document for the 5-minute minimum, so one flow fetches it once", async () => {
    const clientId = newClientId();
    serve(clientId, documentOf(clientId), "no-store");
    expect((await authorizePage(clientId)).status).toBe(200);
    expect((await authorizePage(clientId)).status).toBe(200);
    expect(fetched).toEqual([clientId]);
  });
});
