// State a client carries and hands back (an MCP confirmation's requestState): it opens only as it
// was sealed, for its purpose, until its expiry; the client can read nothing of it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openState, sealState } from "../../src/platform/sealedState";

const NOW = new Date("2026-11-26T12:00:00Z");
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe("sealed state", () => {
  it("opens as sealed, for its purpose, until it expires", async () => {
    const sealed = await sealState(env, "purpose-a", { token: "ct_secret" }, NOW, 600);
    expect(await openState(env, "purpose-a", sealed, later(599))).toEqual({ token: "ct_secret" });
    expect(await openState(env, "purpose-a", sealed, later(600))).toBeUndefined();
    expect(await openState(env, "purpose-b", sealed, NOW)).toBeUndefined();
  });

  it("hides what it holds, and refuses any change, truncation or garbage", async () => {
    const sealed = await sealState(env, "purpose-a", { token: "ct_secret" }, NOW, 600);
    expect(atob(sealed.replace(/-/g, "+").replace(/_/g, "/"))).not.toContain("ct_secret");
    const flipped = `${sealed.slice(0, 30)}${sealed[30] === "A" ? "B" : "A"}${sealed.slice(31)}`;
    for (const bad of [flipped, sealed.slice(0, -4), "", "not base64!", "A".repeat(64)]) {
      expect(await openState(env, "purpose-a", bad, NOW), bad).toBeUndefined();
    }
  });

  it("does not open under another secret", async () => {
    const sealed = await sealState(env, "purpose-a", { token: "ct_secret" }, NOW, 600);
    expect(await openState({ EXPORT_SIGNING_SECRET: "another secret" }, "purpose-a", sealed, NOW)).toBeUndefined();
  });
});
