// The time zone on the settings page: shown with today's date there, changed through its form
// (session and CSRF token), refused beside the form when it is no IANA zone; getAccount agrees.
import { describe, expect, it } from "vitest";
import { findUser } from "../../src/tools/account/queries";
import { admin, callWith } from "../support/harness";
import { db, signedInPerson } from "../support/pagesBrowser";

const zoneOf = async (userId: string) => (await findUser(db, userId))?.timeZone;

describe("the settings page's time zone", () => {
  it("shows Asia/Tokyo for a new account, changes it through the form, and getAccount answers the new zone", async () => {
    const { browser, userId } = await signedInPerson();
    const page = await browser.get("/settings");
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="time-zone" name="timeZone" value="Asia/Tokyo"');
    expect(page.text).toContain('<option value="Europe/Berlin">');
    const saved = await browser.postForm("/settings/timezone", { timeZone: "europe/berlin" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toContain("/settings?notice=timeZoneSaved#timezone-section");
    expect(await zoneOf(userId)).toBe("Europe/Berlin");
    const after = await browser.get("/settings?notice=timeZoneSaved");
    expect(after.text).toContain('value="Europe/Berlin"');
    expect(after.text).toContain("The time zone was saved.");
    const key = await admin("POST", `/users/${userId}/keys`, { preset: "viewOnly" });
    const account = await callWith(key.body.apiKey, "getAccount", {}, "GET");
    expect(account.status).toBe(200);
    expect(account.body.timeZone).toBe("Europe/Berlin");
  });

  it("refuses what is no IANA zone beside the form, in the person's language, and keeps the zone", async () => {
    const { browser, userId } = await signedInPerson();
    await browser.get("/settings");
    const refused = await browser.postForm("/settings/timezone", { timeZone: "JST<script>" }, { "Accept-Language": "ja" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('<html lang="ja">');
    expect(refused.text).toMatch(
      /<form id="time-zone-form"[\s\S]*class="error" role="alert">タイムゾーン: 「JST&lt;script&gt;」は IANA タイムゾーン名ではありません/,
    );
    expect(refused.text).not.toContain("<script>'");
    expect(refused.text).toContain('value="JST&lt;script&gt;"');
    expect(await zoneOf(userId)).toBe("Asia/Tokyo");
  });

  it("refuses the form without the session's CSRF token, or without a session, and changes nothing", async () => {
    const { browser, userId } = await signedInPerson();
    const other = await signedInPerson();
    await browser.get("/settings");
    expect((await browser.postForm("/settings/timezone", { csrf: "", timeZone: "UTC" })).status).toBe(401);
    expect((await browser.postForm("/settings/timezone", { csrf: other.browser.csrf!, timeZone: "UTC" })).status).toBe(401);
    const foreign = await browser.postForm("/settings/timezone", { timeZone: "UTC" }, { Origin: "https://evil.example" });
    expect(foreign.status).toBe(401);
    browser.cookie = undefined;
    expect((await browser.postForm("/settings/timezone", { timeZone: "UTC" })).status).toBe(401);
    expect(await zoneOf(userId)).toBe("Asia/Tokyo");
  });
});
