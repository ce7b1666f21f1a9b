// GET /docs works offline: the page loads nothing from another origin, and the Scalar bundle it
// loads is this Worker's static asset (wrangler.toml [assets]), the file src/faces/docsBundle.json pins.
// In tests the asset layer is reached through the ASSETS binding (a test's fetch of the Worker
// skips it); over HTTP, `npm run dev` serves it like a deployment. The page rendering in a real
// browser is checked by `npm run check:docs`.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SCALAR_BUNDLE_PATH } from "../../src/faces/docs";
import docsBundle from "../../src/faces/docsBundle.json";
import { send } from "../support/harness";
import { attributes } from "../support/html";

const assets = (env as unknown as { ASSETS: Fetcher }).ASSETS;

describe("GET /docs", () => {
  it("names only same-origin scripts and styles: the pinned bundle, no CDN, no font host", async () => {
    const reply = await send("/docs");
    expect(reply.status).toBe(200);
    const html = reply.body as string;
    expect(attributes(html, "src")).toEqual([SCALAR_BUNDLE_PATH]);
    for (const url of [...attributes(html, "src"), ...attributes(html, "href")]) expect(url).toMatch(/^\/(?!\/)/);
    expect(html).not.toMatch(/https?:\/\/|\/\/cdn|@import/i);
    expect(html).toContain('"url": "/rest/v1/openapi.json"');
    expect(html).toContain('"withDefaultFonts": false');
  });
});

describe("the reference bundle", () => {
  it("is the file docsBundle.json pins, served as JavaScript with an ETag and 304 once the browser has it", async () => {
    const first = await assets.fetch(`https://api.test${SCALAR_BUNDLE_PATH}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toMatch(/^(text|application)\/javascript/);
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^"[^"]+"$/);
    const bytes = await first.arrayBuffer();
    const sha512 = new Uint8Array(await crypto.subtle.digest("SHA-512", bytes));
    expect(`sha512-${btoa(String.fromCharCode(...sha512))}`).toBe(docsBundle.integrity);
    expect(new TextDecoder().decode(bytes)).toContain("createApiReference");
    const again = await assets.fetch(`https://api.test${SCALAR_BUNDLE_PATH}`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
  });
});
