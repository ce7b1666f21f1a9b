import type { Bindings } from "../bindings";

/**
 * The origin of the absolute links the service answers (export downloads, import uploads, the
 * default upgrade page): PUBLIC_BASE_URL when it is configured, as it is when deployed, so that a
 * request's Host header never decides where links point; unset (local dev), the origin the request
 * reached. A PUBLIC_BASE_URL that is no URL is a deployment mistake, answered as a 500 and logged.
 */
export function publicOrigin(env: Pick<Bindings, "PUBLIC_BASE_URL">, requestUrl: string): string {
  return new URL(env.PUBLIC_BASE_URL?.trim() || requestUrl).origin;
}
