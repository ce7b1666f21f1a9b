// A typed client of the REST face: openapi-fetch over the types `npm run client:types` generates
// (client/openapi.d.ts). test/faces/openapiClient.test.ts calls the running service through it.
import createClient from "openapi-fetch";
import type { paths } from "./openapi";

export type * from "./openapi";

export interface RgcClientOptions {
  /** Where the service is, e.g. http://127.0.0.1:8787. */
  baseUrl: string;
  /** An API key: `rgc_` + 48 characters. */
  apiKey: string;
  /** Another fetch (a test's in-process Worker, a proxy ...). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * Every path and argument is typed from the OpenAPI document. Arrays in GET go as one
 * comma-separated parameter (`platformIds=1,2`), as the document declares them
 * (`style: form, explode: false`); openapi-fetch would otherwise repeat the parameter.
 */
export function createRgcClient({ baseUrl, apiKey, fetch }: RgcClientOptions) {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    querySerializer: { array: { style: "form", explode: false } },
    ...(fetch ? { fetch } : {}),
  });
}
