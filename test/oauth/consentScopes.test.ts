// The consent page starts from what the client asked for: a client (oauth4webapi) asking for all
// seven scopes, as mcp-remote does, finds them preselected, and its Allow as shown grants them;
// exactly the preset a client's scopes are, when they are one; a delete scope only when asked; a
// scope name this service does not have ignored with a note; the person may change the choice.
import { describe, expect, it } from "vitest";
import { SCOPES } from "../../src/platform/plans";
import { mcpCall, mcpClient } from "../support/mcp";
import { answerConsent, authorizationRequest, discover, exchangeCode, register, tokensOf } from "../support/oauthClient";
import { signedInPerson } from "../support/pagesBrowser";

/** What the page's form would post as shown: the checked preset and the ticked scopes. */
function preselected(html: string): { preset: string | undefined; scopes: string[] } {
  const checked = (name: string) => [...html.matchAll(new RegExp(`name="${name}" value="([^"]+)" checked`, "g"))].map((match) => match[1]!);
  return { preset: checked("preset")[0], scopes: checked("scopes") };
}

/** A person's consent page for a client asking for `scope` (none: the parameter left out). */
async function consentPageFor(scope: string | null, headers: Record<string, string> = {}) {
  const { browser } = await signedInPerson();
  const as = await discover();
  const client = await register(as);
  const request = await authorizationRequest(as, client, { scope });
  const page = await browser.get(request.path, headers);
  expect(page.status, page.text).toBe(200);
  return { browser, as, client, request, page };
}

describe("the consent page preselects what the client asked for", () => {
  it("all seven scopes, as mcp-remote asks: preselected as individual settings, and Allow as shown grants them all", async () => {
    const { browser, as, client, request, page } = await consentPageFor(SCOPES.join(" "));
    const shown = preselected(page.text);
    expect(shown).toEqual({ preset: "individual", scopes: [...SCOPES] });
    expect(page.text).toContain(`id="asked-scopes">The permissions the application asked for (${SCOPES.join(", ")})`);
    expect(page.text).not.toContain('id="ignored-scopes"');
    // Each scope named in words beside its box.
    expect(page.text).toContain("Remove library entries, wishlist items, copies");
    const answer = await answerConsent(browser, page, { decision: "approve", ...shown, preset: shown.preset! });
    expect(answer.status, answer.text).toBe(302);
    const tokens = await tokensOf(as, client, await exchangeCode(as, client, request, new URL(answer.headers.get("Location")!)));
    expect(tokens.scope?.split(" ").sort()).toEqual([...SCOPES].sort());
    const connected = await mcpClient(tokens.access_token, "/mcp/oauth");
    try {
      const removal = await mcpCall(connected, "removeFromLibrary", { gameId: 1 });
      expect(removal.body?.code).not.toBe("insufficient_scope");
    } finally {
      await connected.close();
    }
  });

  it("names the scopes in Japanese on a Japanese page", async () => {
    const { page } = await consentPageFor(SCOPES.join(" "), { "Accept-Language": "ja" });
    expect(page.text).toContain("アプリが求めた権限");
    expect(page.text).toContain("プレイ記録・プレイログ・本体・メンテナンス記録の削除");
  });

  it("a preset's exact scopes preselect that preset; a delete scope is never ticked unless asked", async () => {
    const viewOnly = await consentPageFor("games:read play:read library:read");
    expect(preselected(viewOnly.page.text)).toEqual({ preset: "viewOnly", scopes: ["library:read", "play:read", "games:read"] });
    const standard = await consentPageFor("library:read library:write play:read play:write games:read");
    expect(preselected(standard.page.text)).toEqual({
      preset: "standard",
      scopes: ["library:read", "library:write", "play:read", "play:write", "games:read"],
    });
    const some = await consentPageFor("library:read library:delete");
    expect(preselected(some.page.text)).toEqual({ preset: "individual", scopes: ["library:read", "library:delete"] });
  });

  it("no scope asked: view only, and says so", async () => {
    const { page } = await consentPageFor(null);
    expect(preselected(page.text)).toEqual({ preset: "viewOnly", scopes: [] });
    expect(page.text).toContain("The application named no permissions");
  });

  it("ignores a scope this service does not have, with a note (escaped)", async () => {
    const { page } = await consentPageFor("library:read admin:all <b>x</b>");
    expect(preselected(page.text)).toEqual({ preset: "individual", scopes: ["library:read"] });
    expect(page.text).toContain('id="ignored-scopes">Permissions this service does not have were ignored: admin:all, &lt;b&gt;x&lt;/b&gt;');
  });

  it("the person may change the choice: all seven asked, view only granted", async () => {
    const { browser, as, client, request, page } = await consentPageFor(SCOPES.join(" "));
    const answer = await answerConsent(browser, page, { decision: "approve", preset: "viewOnly" });
    expect(answer.status, answer.text).toBe(302);
    const tokens = await tokensOf(as, client, await exchangeCode(as, client, request, new URL(answer.headers.get("Location")!)));
    expect(tokens.scope?.split(" ").sort()).toEqual(["games:read", "library:read", "play:read"]);
  });
});
