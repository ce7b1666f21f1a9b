import { type ApiError, invalidInput } from "../platform/errors";
import { readJsonObject, readTextBody } from "../platform/requestBody";
import { refuseMalformedText } from "../platform/validation";

/**
 * What the OAuth endpoints take before the library reads a request: sizes and shapes it cannot
 * turn into a 5xx (a client_id becomes a KV key, limited to 512 bytes; a body it parses whole).
 * A refusal is an ApiError naming the parameter; the endpoint answers it in OAuth's words.
 */

/** An OAuth form or registration is a few short fields; RFC 7591 metadata a few kilobytes. */
export const OAUTH_BODY_BYTES = 16_384;

/**
 * The longest value of each parameter, in UTF-8 bytes. A client_id is a KV key with a 7-byte
 * prefix (`client:`), and a Client ID Metadata Document URL is kept well inside that; a code or
 * token is `<userId>:<grantId>:<secret>` (under 100 bytes here), and names a KV key too.
 */
const PARAMETER_BYTES: Record<string, number> = {
  client_id: 400,
  code: 400,
  refresh_token: 400,
  token: 400,
  redirect_uri: 2_000,
  resource: 2_000,
  state: 1_000,
  scope: 1_000,
  code_verifier: 128,
  code_challenge: 128,
};
const OTHER_PARAMETER_BYTES = 2_000;

const encoder = new TextEncoder();
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Refuses a parameter sent twice (RFC 6749 3.1 and 3.2), too long, or holding control characters or invalid Unicode. */
export function checkParameters(params: URLSearchParams): void {
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (seen.has(name)) throw invalidInput(name, `${name} is sent more than once.`);
    seen.add(name);
    const limit = PARAMETER_BYTES[name] ?? OTHER_PARAMETER_BYTES;
    if (encoder.encode(value).byteLength > limit) throw invalidInput(name, `${name} is longer than ${limit} bytes.`);
    if (CONTROL.test(value)) throw invalidInput(name, `${name} contains control characters.`);
    refuseMalformedText({ [name]: value });
  }
}

/** An OAuth form POST (token, revocation): application/x-www-form-urlencoded, checked as above. */
export async function readOAuthForm(request: Request): Promise<{ form: URLSearchParams; text: string }> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers.get("Content-Type") ?? "")) {
    throw invalidInput("(body)", "Send the parameters as a form (Content-Type: application/x-www-form-urlencoded).");
  }
  const text = await readTextBody(request, OAUTH_BODY_BYTES);
  const form = new URLSearchParams(text);
  checkParameters(form);
  return { form, text };
}

/** An RFC 7591 registration: a JSON object; its fields are the library's to judge. */
export async function readRegistration(request: Request): Promise<Record<string, unknown>> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get("Content-Type") ?? "")) {
    throw invalidInput("(body)", "Send the client metadata as JSON (Content-Type: application/json).");
  }
  const body = await readJsonObject(request, OAUTH_BODY_BYTES);
  if (Object.keys(body).length === 0) throw invalidInput("(body)", "The client metadata is empty.");
  refuseMalformedText(body);
  return body;
}

/** The OAuth error code an endpoint answers a refusal with: a client_id problem is invalid_client (RFC 7591 names its own). */
export type OAuthErrorCode = "invalid_request" | "invalid_client" | "invalid_grant" | "invalid_client_metadata";

/**
 * A refusal in OAuth's words (RFC 6749 5.2): `error`, `error_description`, never cached; 401 for
 * invalid_client, as the library answers an unknown client, else 400.
 */
export function oauthErrorResponse(error: ApiError, code: OAuthErrorCode = "invalid_request"): Response {
  const status = code === "invalid_client" ? 401 : 400;
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache" });
  return new Response(JSON.stringify({ error: code, error_description: error.message }), { status, headers });
}

/** The OAuth code of a refused parameter at the token endpoint: the client is named by client_id. */
export const tokenErrorCodeOf = (error: ApiError): OAuthErrorCode =>
  error.details.field === "client_id" ? "invalid_client" : "invalid_request";
