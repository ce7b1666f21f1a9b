// Every OAuth endpoint answers malformed input with the OAuth error it names (a 4xx), never a 5xx:
// generated requests (fast-check, a fixed seed) with over-long and odd client_id, redirect_uri,
// state, scope, resource, codes and tokens, wrong content types, broken, huge or non-object bodies,
// and odd methods, fired at /oauth/authorize, /oauth/token (codes, refreshes, revocation),
// /oauth/register and the .well-known documents. Every answer >= 500 is collected and listed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { freshAddress } from "../support/accountsHarness";
import { ORIGIN, textOf } from "../support/harness";
import { fromAssistant } from "../support/oauthClient";
import { ODD_TEXT } from "../support/schemaExamples";

const SEED = 20_261_202;
const RUNS = 200;

/** Odd parameter values: long ones past every limit (a client_id of 520+ bytes was a 500), odd text, URLs that lead nowhere good. */
const oddValue = fc.oneof(
  fc.string({ maxLength: 40, unit: "grapheme" }),
  fc.string({ maxLength: 12, unit: "binary" }),
  fc.constantFrom(...ODD_TEXT, "", " ", ":", "::", "a:b:c", "a:b:c:d", "%zz", "\ud800", "a\u0000b", "\r\n"),
  fc.integer({ min: 400, max: 4_000 }).map((length) => "a".repeat(length)),
  fc.integer({ min: 100, max: 700 }).map((length) => `https://client.invalid/${"p".repeat(length)}`),
  fc.integer({ min: 100, max: 700 }).map((length) => `${"u".repeat(length)}:${"g".repeat(length)}:secret`),
  fc.constantFrom(
    "https://127.0.0.1/client.json",
    "https://localhost/client.json",
    "https://[::1]/client.json",
    "https://10.0.0.1/client.json",
    "https://169.254.169.254/latest/meta-data",
    "http://client.invalid/client.json",
    "https://client.invalid/",
    "https://user:pass@client.invalid/x",
    "https://client.invalid/a/../b",
    "javascript:alert(1)",
    "cursor://anysphere.cursor-retrieval/oauth/callback",
    "https://api.test/mcp/oauth",
    "https://api.test/mcp/oauth#frag",
    "https://api.test/mcp/oauth?x=1",
  ),
);

const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "resource",
  "code_challenge",
  "code_challenge_method",
];
const TOKEN_PARAMS = [
  "grant_type",
  "code",
  "refresh_token",
  "token",
  "token_type_hint",
  "client_id",
  "client_secret",
  "redirect_uri",
  "code_verifier",
  "scope",
  "resource",
];
const REGISTRATION_FIELDS = [
  "client_name",
  "redirect_uris",
  "grant_types",
  "response_types",
  "token_endpoint_auth_method",
  "scope",
  "client_uri",
  "logo_uri",
];

/** A set of parameters: some of the endpoint's own with odd values (some repeated), and a few plausible ones. */
const paramsOf = (names: string[], plausible: Record<string, string[]>) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom(...names),
        fc.oneof(
          { weight: 3, arbitrary: oddValue },
          { weight: 1, arbitrary: fc.constantFrom("code", "S256", "authorization_code", "refresh_token", "none") },
        ),
      ),
      { maxLength: 10 },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [name, values] of Object.entries(plausible)) params.set(name, values[0]!);
      for (const [name, value] of pairs) params.append(name, value);
      return params;
    });

const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "application/json",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded; charset=latin1",
  null,
];

/** A body: a form, JSON of any shape, broken JSON, bytes that are not UTF-8, or a huge one. */
const bodyOf = (params: fc.Arbitrary<URLSearchParams>) =>
  fc.oneof(
    { weight: 4, arbitrary: params.map((form) => form.toString()) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom("{", "[]", "null", '"x"', '{"redirect_uris":', "%", "a=%zz&b", "=&=&") },
    { weight: 1, arbitrary: fc.constant(new Uint8Array([0xff, 0xfe, 0x00, 0x61])) },
    { weight: 1, arbitrary: fc.integer({ min: 17_000, max: 200_000 }).map((length) => `client_id=${"a".repeat(length)}`) },
  );

interface Probe {
  method: string;
  path: string;
  contentType?: string | null;
  body?: string | Uint8Array;
}

const authorizeProbe: fc.Arbitrary<Probe> = paramsOf(AUTHORIZE_PARAMS, {}).map((params) => ({
  method: "GET",
  path: `/oauth/authorize?${params}`,
}));

const tokenProbe: fc.Arbitrary<Probe> = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT"),
  path: fc.constant("/oauth/token"),
  contentType: fc.constantFrom(...CONTENT_TYPES),
  body: bodyOf(
    fc.oneof(
      paramsOf(TOKEN_PARAMS, { grant_type: ["authorization_code"] }),
      paramsOf(TOKEN_PARAMS, { grant_type: ["refresh_token"] }),
      paramsOf(TOKEN_PARAMS, {}),
    ),
  ),
});

const registrationBody = fc
  .dictionary(
    fc.constantFrom(...REGISTRATION_FIELDS, "client_id", "jwks", "software_id"),
    fc.oneof(oddValue, fc.array(oddValue, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
    { maxKeys: 6 },
  )
  .map((fields) => JSON.stringify(fields));

const registerProbe: fc.Arbitrary<Probe> = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "DELETE"),
  path: fc.constant("/oauth/register"),
  contentType: fc.constantFrom(...CONTENT_TYPES),
  body: fc.oneof(registrationBody, bodyOf(paramsOf(REGISTRATION_FIELDS, {}))),
});

const wellKnownProbe: fc.Arbitrary<Probe> = fc.record({
  method: fc.constantFrom("GET", "POST", "OPTIONS", "PUT"),
  path: fc
    .tuple(
      fc.constantFrom(
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource/mcp/oauth",
        "/.well-known/oauth-protected-resource",
        "/.well-known/openid-configuration",
      ),
      paramsOf(["resource", "client_id", "x"], {}),
    )
    .map(([path, params]) => `${path}?${params}`),
});

/** Sends a probe as a client at an address of its own (registrations are throttled per address). */
async function answerTo(probe: Probe): Promise<{ status: number; text: string }> {
  const headers = new Headers({ "CF-Connecting-IP": freshAddress() });
  if (probe.contentType) headers.set("Content-Type", probe.contentType);
  const hasBody = probe.body !== undefined && probe.method !== "GET";
  const response = await fromAssistant(`${ORIGIN}${probe.path}`, { method: probe.method, headers, body: hasBody ? probe.body : undefined });
  return { status: response.status, text: await textOf(response) };
}

const describeProbe = (probe: Probe) =>
  `${probe.method} ${probe.path.slice(0, 300)} [${probe.contentType ?? "no type"}] ${typeof probe.body === "string" ? probe.body.slice(0, 300) : probe.body ? "(bytes)" : ""}`;

async function fireAll(probes: fc.Arbitrary<Probe>): Promise<string[]> {
  const failures: string[] = [];
  await fc.assert(
    fc.asyncProperty(probes, async (probe) => {
      const { status, text } = await answerTo(probe);
      if (status >= 500) failures.push(`${status} ${describeProbe(probe)} -> ${text.slice(0, 300)}`);
    }),
    { seed: SEED, numRuns: RUNS },
  );
  return failures;
}

describe("malformed OAuth requests never answer 5xx", () => {
  for (const [name, probes] of [
    ["/oauth/authorize", authorizeProbe],
    ["/oauth/token", tokenProbe],
    ["/oauth/register", registerProbe],
    ["the .well-known documents", wellKnownProbe],
  ] as const) {
    it(name, async () => {
      expect(await fireAll(probes)).toEqual([]);
    }, 120_000);
  }

  it("a 520-byte client_id (a KV key past 512 bytes) is a 400 page on authorize and invalid_client on the token endpoint", async () => {
    const clientId = "c".repeat(520);
    const page = await answerTo({ method: "GET", path: `/oauth/authorize?response_type=code&client_id=${clientId}` });
    expect(page.status).toBe(400);
    expect(page.text).toContain("client_id is longer than 400 bytes");
    const token = await answerTo({
      method: "POST",
      path: "/oauth/token",
      contentType: "application/x-www-form-urlencoded",
      body: new URLSearchParams({ grant_type: "authorization_code", code: "a:b:c", client_id: clientId }).toString(),
    });
    expect(token.status).toBe(401);
    expect(JSON.parse(token.text)).toMatchObject({ error: "invalid_client" });
  });

  it("a token request that is no form is invalid_request (400 JSON), as is a parameter sent twice", async () => {
    const json = await answerTo({ method: "POST", path: "/oauth/token", contentType: "application/json", body: "{}" });
    expect(json.status).toBe(400);
    expect(JSON.parse(json.text)).toMatchObject({ error: "invalid_request" });
    const twice = await answerTo({
      method: "POST",
      path: "/oauth/token",
      contentType: "application/x-www-form-urlencoded",
      body: "grant_type=refresh_token&refresh_token=a:b:c&refresh_token=a:b:d",
    });
    expect(JSON.parse(twice.text)).toMatchObject({ error: "invalid_request", error_description: "refresh_token is sent more than once." });
  });

  it("a registration that is not a JSON object is invalid_client_metadata (400 JSON)", async () => {
    for (const body of ["{", "[]", "null", "{}"]) {
      const refused = await answerTo({ method: "POST", path: "/oauth/register", contentType: "application/json", body });
      expect(refused.status, body).toBe(400);
      expect(JSON.parse(refused.text), body).toMatchObject({ error: "invalid_client_metadata" });
    }
  });
});
