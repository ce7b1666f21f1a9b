// Keys on the settings page: created per preset (and working as their scopes say), shown once,
// revoked after a confirmation (401 at once), expired (401), held to the plan's key limit (also
// when created at once), escaped, paged.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listKeys } from "../../src/accounts/apiKeys";
import { dayIn } from "../../src/platform/time";
import { expireKey } from "../support/accounting";
import { admin, callWith } from "../support/harness";
import { db, type PagesBrowser, rowIds, signedInPerson } from "../support/pagesBrowser";

type Fields = Record<string, string | string[]>;

/** The secret shown once in the answer to the form, and the key's id. */
function shownKey(html: string) {
  const apiKey = /<code id="new-key">([^<]+)<\/code>/.exec(html)?.[1];
  return { apiKey, keyId: apiKey ? `key_${apiKey.slice(4, 20)}` : undefined };
}

async function createKey(browser: PagesBrowser, fields: Fields) {
  const reply = await browser.postForm("/settings/keys", fields);
  expect(reply.status, reply.text).toBe(201);
  const { apiKey } = shownKey(reply.text);
  expect(apiKey).toMatch(/^rgc_/);
  return { reply, apiKey: apiKey! };
}

const status = async (apiKey: string, tool: string) => (await callWith(apiKey, tool, {})).status;

const keyCount = async (userId: string) => (await listKeys(env, db, userId, 1, 100)).totalCount;

describe("creating a key on the settings page", () => {
  it("view-only: reads, and cannot write (403 on addToLibrary)", async () => {
    const { browser } = await signedInPerson();
    const { reply, apiKey } = await createKey(browser, { name: "reader", preset: "viewOnly" });
    expect(reply.text).toContain('id="copy-new-key"');
    expect(reply.text).toContain("shown only this once");
    expect(reply.headers.get("Cache-Control")).toBe("no-store");
    expect(await status(apiKey, "getLibrary")).toBe(200);
    const write = await callWith(apiKey, "addToLibrary", {});
    expect(write.status).toBe(403);
    expect(write.body.code).toBe("insufficient_scope");
  });

  it("standard: writes, cannot remove; its own scopes ticked agree with it", async () => {
    const { browser } = await signedInPerson();
    const standard = ["library:read", "play:read", "games:read", "library:write", "play:write"];
    const { reply, apiKey } = await createKey(browser, { preset: "standard", scopes: standard });
    expect(reply.text).toContain("Scopes: library:read, play:read, games:read, library:write, play:write");
    expect(await status(apiKey, "addToLibrary")).toBe(400);
    expect(await status(apiKey, "removeFromLibrary")).toBe(403);
    expect(await status(apiKey, "removePlayRecord")).toBe(403);
  });

  it("refuses a preset with scopes that disagree (a delete scope with view only) with a 400 naming scopes in the page's language, making nothing", async () => {
    const { browser, userId } = await signedInPerson();
    const ja = await browser.postForm("/settings/keys", { preset: "viewOnly", scopes: "library:delete" }, { "Accept-Language": "ja" });
    expect(ja.status).toBe(400);
    expect(ja.text).toContain('<html lang="ja">');
    expect(ja.text).toMatch(/<form id="create-key"[\s\S]*class="error" role="alert">権限: 選んだ権限が「閲覧のみ」/);
    expect(ja.text).toContain('name="scopes" value="library:delete" checked');
    const en = await browser.postForm("/settings/keys", { preset: "standard", scopes: ["library:read", "play:delete"] });
    expect(en.status).toBe(400);
    expect(en.text).toContain("Permissions: the permissions ticked do not match &quot;Standard&quot;");
    expect(shownKey(ja.text).apiKey ?? shownKey(en.text).apiKey).toBeUndefined();
    expect(await keyCount(userId)).toBe(0);
  });

  it("individual settings: exactly the scopes chosen, delete included", async () => {
    const { browser } = await signedInPerson();
    const { reply, apiKey } = await createKey(browser, { preset: "individual", scopes: ["library:read", "library:delete"] });
    expect(reply.text).toContain("Scopes: library:read, library:delete");
    expect(await status(apiKey, "removeFromLibrary")).toBe(400);
    expect(await status(apiKey, "addToLibrary")).toBe(403);
    expect(await status(apiKey, "getPlayRecords")).toBe(403);
  });

  it("refuses individual settings without a scope, and an unknown expiry, beside the form with what was typed (nothing made)", async () => {
    const { browser, userId } = await signedInPerson();
    const noScopes = await browser.postForm("/settings/keys", { name: "half done", preset: "individual" }, { "Accept-Language": "ja" });
    expect(noScopes.status).toBe(400);
    expect(noScopes.text).toContain('<html lang="ja">');
    expect(noScopes.text).toMatch(/<form id="create-key"[\s\S]*class="error" role="alert">権限: 個別設定では/);
    expect(noScopes.text).toContain('value="half done"');
    expect(noScopes.text).toContain('name="preset" value="individual" checked');
    const badExpiry = await browser.postForm("/settings/keys", { preset: "viewOnly", expiresInDays: "7" });
    expect(badExpiry.status).toBe(400);
    expect(badExpiry.text).toContain("Expiry date: choose a date from");
    const badPreset = await browser.postForm("/settings/keys", { preset: "everything" });
    expect(badPreset.status).toBe(400);
    expect(shownKey(badPreset.text).apiKey).toBeUndefined();
    expect(await keyCount(userId)).toBe(0);
  });

  it("shows the key once: in the answer to the form, never in a later page or a URL", async () => {
    const { browser } = await signedInPerson();
    const { reply, apiKey } = await createKey(browser, { name: "once", preset: "viewOnly", expiresInDays: "90" });
    expect(reply.headers.get("Location")).toBeNull();
    const { keyId } = shownKey(reply.text);
    const later = [
      await browser.get("/settings/keys"),
      await browser.get("/settings/activity"),
      await browser.get(`/settings/keys/${keyId}/revoke`),
    ];
    for (const page of later) {
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(apiKey);
      expect(page.text).not.toContain(apiKey.slice(20));
    }
    expect(later[0]!.text).toContain(`<tr data-key-id="${keyId}" data-state="active">`);
    const in90Days = dayIn(new Date(Date.now() + 90 * 86_400_000), "Asia/Tokyo");
    expect(later[0]!.text).toContain(in90Days);
    expect(later[1]!.text).toContain('data-kind="keyCreated"');
  });

  it("renders a key name with markup inert", async () => {
    const { browser } = await signedInPerson();
    const name = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const { reply } = await createKey(browser, { name, preset: "viewOnly" });
    const settings = await browser.get("/settings/keys");
    for (const html of [reply.text, settings.text]) {
      expect(html).not.toContain("<script>alert");
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
    }
  });
});

describe("revoking a key", () => {
  it("asks first, then revokes: the key gets 401 at once and stays listed as revoked", async () => {
    const { browser } = await signedInPerson();
    const { reply, apiKey } = await createKey(browser, { preset: "viewOnly" });
    const { keyId } = shownKey(reply.text);
    const settings = await browser.get("/settings/keys");
    expect(settings.text).toContain(`href="/settings/keys/${keyId}/revoke"`);
    const confirm = await browser.get(`/settings/keys/${keyId}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('id="confirm-revoke"');
    // It names the key the person is about to revoke by what the list shows (its prefix), never the secret.
    expect(confirm.text).toContain(`(${apiKey.slice(0, "rgc_".length + 6)}…)`);
    expect(confirm.text).not.toContain(apiKey);
    expect(await status(apiKey, "getAccount")).toBe(200);
    const revoked = await browser.postForm(`/settings/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("Location")).toBe("/settings/keys?notice=keyRevoked");
    expect(await status(apiKey, "getAccount")).toBe(401);
    const after = await browser.get("/settings/keys?notice=keyRevoked");
    expect(after.text).toContain("The key was revoked.");
    expect(after.text).toContain(`<tr data-key-id="${keyId}" data-state="revoked">`);
    expect(after.text).not.toContain(`href="/settings/keys/${keyId}/revoke"`);
    expect((await browser.get("/settings/activity")).text).toContain('data-kind="keyRevoked"');
    expect((await browser.postForm(`/settings/keys/${keyId}/revoke`)).status).toBe(404);
  });

  it("an unknown key's confirmation is a 404 page", async () => {
    const { browser } = await signedInPerson();
    const reply = await browser.get("/settings/keys/key_doesnotexist00/revoke?lang=ja");
    expect(reply.status).toBe(404);
    expect(reply.text).toContain("見つかりません");
  });
});

describe("an expired key", () => {
  it("is listed as expired and answers 401 like a revoked one", async () => {
    const { browser } = await signedInPerson();
    const { reply, apiKey } = await createKey(browser, { preset: "viewOnly", expiresInDays: "30" });
    const { keyId } = shownKey(reply.text);
    expect(await status(apiKey, "getAccount")).toBe(200);
    await expireKey(keyId!);
    expect(await status(apiKey, "getAccount")).toBe(401);
    const settings = await browser.get("/settings/keys");
    expect(settings.text).toMatch(
      new RegExp(`<tr data-key-id="${keyId}" data-state="expired">[\\s\\S]*?<td data-label="State" class="state-expired">expired</td>`),
    );
    expect(settings.text).not.toContain(`href="/settings/keys/${keyId}/revoke"`);
  });
});

describe("the plan's key limit", () => {
  it("refuses a FREE person's fourth key with the limit's message beside the form", async () => {
    const { browser, userId } = await signedInPerson("FREE");
    for (let i = 0; i < 3; i++) await createKey(browser, { preset: "viewOnly" });
    const refused = await browser.postForm("/settings/keys", { name: "fourth", preset: "viewOnly" });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("The FREE plan allows 3 active API keys");
    expect(refused.text).toContain('href="https://retro-games.example/account/plan"');
    expect(shownKey(refused.text).apiKey).toBeUndefined();
    expect(await keyCount(userId)).toBe(3);
  });

  it("holds when keys are created at once", async () => {
    const { browser, userId } = await signedInPerson("FREE");
    const replies = await Promise.all(Array.from({ length: 6 }, () => browser.postForm("/settings/keys", { preset: "viewOnly" })));
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(3);
    expect(replies.filter((reply) => reply.status === 403)).toHaveLength(3);
    expect(await keyCount(userId)).toBe(3);
  });
});

describe("the key list", () => {
  it("pages by ?keysPage=, newest first, 20 a page", async () => {
    const { browser, userId } = await signedInPerson();
    const made: string[] = [];
    for (let i = 0; i < 22; i++) {
      const reply = await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly", name: `key ${i}` });
      made.push(reply.body.keyId);
    }
    const first = await browser.get("/settings/keys");
    const second = await browser.get("/settings/keys?keysPage=2");
    expect(rowIds(first.text, "keys", "data-key-id")).toEqual(made.slice(2).reverse());
    expect(rowIds(second.text, "keys", "data-key-id")).toEqual(made.slice(0, 2).reverse());
    expect(first.text).toContain('href="/settings/keys?keysPage=2#keys"');
    expect(first.text).toContain("Page 1 of 2");
    expect(second.text).toContain('href="/settings/keys?keysPage=1#keys"');
    expect((await browser.get("/settings/keys?keysPage=abc")).status).toBe(200);
  });
});
