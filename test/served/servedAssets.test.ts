// What `npm run dev` serves over HTTP (test/setup/devServer.ts starts it once for the served
// project): the static script, stylesheet and reference bundle with public/_headers' policies.
import { describe, expect, it } from "vitest";
import { SCALAR_BUNDLE_PATH } from "../../src/faces/docs";
import { PAGE_CSP } from "../../src/faces/pages/layout";
import { attributes } from "../support/html";
import { servedDevServer } from "../support/servedDevServer";

const { url: base } = await servedDevServer();

describe("public/settings/ over HTTP", () => {
  it("is what npm run dev serves, with public/_headers' policy; the pages answer over HTTP too", async () => {
    const script = await fetch(`${base}/settings/passkeys.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("Content-Security-Policy")).toBe(PAGE_CSP);
    await script.arrayBuffer();
    const settings = await fetch(`${base}/settings`, { redirect: "manual" });
    expect(settings.status).toBe(303);
    expect(settings.headers.get("Location")).toBe("/signin");
    const signIn = await fetch(`${base}/signin`);
    expect(signIn.headers.get("Content-Security-Policy")).toBe(PAGE_CSP);
    expect(await signIn.text()).toContain('src="/settings/passkeys.js"');
  });
});

describe("the reference bundle over HTTP", () => {
  it("is what npm run dev serves over HTTP, with public/_headers' long cache", async () => {
    const url = `${base}${SCALAR_BUNDLE_PATH}`;
    const reply = await fetch(url);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Content-Type")).toMatch(/javascript/);
    expect(reply.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const etag = reply.headers.get("ETag")!;
    expect((await reply.text()).length).toBeGreaterThan(1_000_000);
    expect((await fetch(url, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const page = await fetch(`${base}/docs`);
    expect(attributes(await page.text(), "src")).toEqual([SCALAR_BUNDLE_PATH]);
  });
});
