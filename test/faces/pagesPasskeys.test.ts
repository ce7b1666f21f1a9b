// Passkeys and activity on the settings page: adding one with the script's steps, removing one
// after a confirmation (never the last, also when two removals race), and the activity list paged.
import { describe, expect, it } from "vitest";
import { recordEvent } from "../../src/accounts/events";
import { listPasskeys } from "../../src/accounts/passkeys";
import { SoftwareAuthenticator } from "../support/authenticator";
import { db, PagesBrowser, rowIds, signedInPerson } from "../support/pagesBrowser";

describe("adding a passkey", () => {
  it("registers another authenticator's passkey for the signed-in person, who can then sign in with it", async () => {
    const { browser, userId } = await signedInPerson();
    const phone = new SoftwareAuthenticator();
    const added = await browser.addPasskey("phone", phone);
    expect(added.status).toBe(200);
    expect(added.json).toEqual({ redirect: "/settings/passkeys?notice=passkeyAdded" });
    const settings = await browser.get("/settings/passkeys?notice=passkeyAdded");
    expect(settings.text).toContain("The passkey was added.");
    expect(rowIds(settings.text, "passkeys", "data-passkey-id")).toHaveLength(2);
    expect(settings.text).toContain('value="phone"');
    const onThePhone = new PagesBrowser({ authenticator: phone });
    expect((await onThePhone.signIn()).status).toBe(200);
    expect((await onThePhone.get("/settings")).text).toContain('<dd id="plan">PREMIUM</dd>');
    expect((await listPasskeys(db, userId)).map((passkey) => passkey.name)).toContain("phone");
  });

  it("keeps the chosen language on the way back", async () => {
    const { browser } = await signedInPerson();
    const csrf = { "X-CSRF-Token": browser.csrf! };
    const added = await browser.register(
      "/settings/passkeys/options?lang=ja",
      "/settings/passkeys/verify?lang=ja",
      csrf,
      undefined,
      new SoftwareAuthenticator(),
    );
    expect(added.json.redirect).toBe("/settings/passkeys?notice=passkeyAdded&lang=ja");
  });
});

describe("removing a passkey", () => {
  it("asks first, then removes it: it signs in no more", async () => {
    const { browser, userId } = await signedInPerson();
    const phone = new SoftwareAuthenticator();
    await browser.addPasskey("phone", phone);
    const phoneKey = (await listPasskeys(db, userId)).find((passkey) => passkey.name === "phone")!;
    const confirm = await browser.get(`/settings/passkeys/${phoneKey.passkeyId}/remove?lang=ja`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("「phone」ではサインインできなくなります。");
    expect(confirm.text).toContain('id="confirm-remove"');
    const removed = await browser.postForm(`/settings/passkeys/${phoneKey.passkeyId}/remove`);
    expect(removed.status).toBe(303);
    expect(removed.headers.get("Location")).toBe("/settings/passkeys?notice=passkeyRemoved");
    const settings = await browser.get("/settings/passkeys");
    expect(rowIds(settings.text, "passkeys", "data-passkey-id")).not.toContain(phoneKey.passkeyId);
    expect((await browser.get("/settings/activity")).text).toContain('data-kind="passkeyRemoved"');
    const signIn = await new PagesBrowser({ authenticator: phone }).signIn();
    expect(signIn.status).toBe(401);
  });

  it("refuses to remove the last one, with the reason on a page", async () => {
    const { browser, userId } = await signedInPerson();
    const [only] = await listPasskeys(db, userId);
    const refused = await browser.postForm(`/settings/passkeys/${only!.passkeyId}/remove`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(refused.text).toContain("add another before removing this one");
    expect(await listPasskeys(db, userId)).toHaveLength(1);
  });

  it("leaves one when the last two are removed at once", async () => {
    const { browser, userId } = await signedInPerson();
    await browser.addPasskey("phone");
    const both = await listPasskeys(db, userId);
    const replies = await Promise.all(both.map((passkey) => browser.postForm(`/settings/passkeys/${passkey.passkeyId}/remove`)));
    expect(replies.map((reply) => reply.status).sort()).toEqual([303, 400]);
    expect(await listPasskeys(db, userId)).toHaveLength(1);
  });

  it("an unknown passkey's confirmation is a 404 page", async () => {
    const { browser } = await signedInPerson();
    expect((await browser.get("/settings/passkeys/no-such-passkey/remove")).status).toBe(404);
    expect((await browser.postForm("/settings/passkeys/no-such-passkey/remove")).status).toBe(404);
  });
});

describe("the activity list", () => {
  it("shows the whole list 25 a page, newest first, in both languages", async () => {
    const { browser, userId } = await signedInPerson();
    for (let i = 0; i < 30; i++) await recordEvent(db, userId, "keyCreated", { keyId: `key_${i}`, name: `key number ${i}` });
    const first = await browser.get("/settings/activity");
    const second = await browser.get("/settings/activity?page=2&lang=ja");
    expect(first.text.match(/<tr data-kind=/g)).toHaveLength(25);
    expect(first.text).toContain("key number 29");
    expect(first.text).toContain('href="/settings/activity?page=2"');
    expect(second.text.match(/<tr data-kind=/g)).toHaveLength(32 - 25);
    expect(second.text).toContain("キーを作成");
    expect(second.text).toContain("パスキーを追加");
    expect(second.text).toContain('href="/settings/activity?page=1&amp;lang=ja"');
  });
});
