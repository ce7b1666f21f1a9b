// A passkey's default name from the User-Agent of the browser that registered it, and the day
// arithmetic of a chosen expiry date (its end in a time zone, across a daylight-saving change).
import { describe, expect, it } from "vitest";
import { deviceNameOf } from "../../src/accounts/deviceName";
import { expiryOnDay } from "../../src/accounts/keyChanges";
import { startOfDayIn } from "../../src/platform/time";

describe("deviceNameOf", () => {
  it.each([
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Safari on iPhone",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Windows"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
      "Samsung Internet on Android",
    ],
    [
      "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1",
      "Chrome on iPad",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", "Chrome on Linux"],
  ])("%s is %s", (agent, name) => {
    expect(deviceNameOf(agent)).toBe(name);
  });

  it("names nothing for an agent it cannot read", () => {
    expect(deviceNameOf(undefined)).toBeUndefined();
    expect(deviceNameOf("curl/8.5.0")).toBeUndefined();
  });
});

describe("a chosen expiry day", () => {
  it("ends when the next day begins in the time zone, also across a daylight-saving change", () => {
    expect(startOfDayIn("2027-03-01", "Asia/Tokyo").toISOString()).toBe("2027-02-28T15:00:00.000Z");
    expect(startOfDayIn("2027-03-28", "Europe/Berlin").toISOString()).toBe("2027-03-27T23:00:00.000Z");
    expect(startOfDayIn("2027-03-29", "Europe/Berlin").toISOString()).toBe("2027-03-28T22:00:00.000Z");
    expect(startOfDayIn("2027-01-01", "UTC").toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(expiryOnDay("2027-03-28", "Europe/Berlin", new Date("2027-01-10T12:00:00Z"))).toBe("2027-03-28T22:00:00.000Z");
  });

  it("takes tomorrow to a year ahead in the time zone, nothing else, naming expiresOn", () => {
    const now = new Date("2026-12-31T16:00:00Z"); // 2027-01-01 01:00 in Tokyo
    expect(expiryOnDay("2027-01-02", "Asia/Tokyo", now)).toBe("2027-01-02T15:00:00.000Z");
    expect(expiryOnDay("2028-01-01", "Asia/Tokyo", now)).toBe("2028-01-01T15:00:00.000Z");
    for (const day of ["2027-01-01", "2028-01-02", "2027-02-30", "2027-1-5", "", "soon"]) {
      expect(() => expiryOnDay(day, "Asia/Tokyo", now), day).toThrow(expect.objectContaining({ details: { field: "expiresOn" } }));
    }
  });
});
