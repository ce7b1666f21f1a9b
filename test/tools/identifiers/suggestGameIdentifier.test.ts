// Identifier suggestions over a tiny fictional master (ids 840000+, marker word ヤドリギ): a JAN
// code or model number suggested by one account, seen only by its author until the operator
// approves it, then master data for everyone (search, master export, games generation).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchLink, ndjsonOf } from "../../support/downloads";
import { type Account, ADMIN_TOKEN, admin, newAccount, sendTo, testApp } from "../../support/harness";
import { ean13, fictionalGame, importFixture, insertCustomGame, storedGeneration, toNdjson } from "../../support/master";
import { mcpCall, mcpClient } from "../../support/mcp";
import { race } from "../../support/race";
import { expectError, ok } from "../../support/replies";

const PLATFORM = 840001;
const game = (n: number) => 840100 + n;
const EDITION = 840901;
const HELD_JAN = ean13("499999840001");

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "ヤドリギ機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson(
      Array.from({ length: 40 }, (_, i) =>
        fictionalGame({
          gameId: game(i + 1),
          title: `ヤドリギ物語${i + 1}`,
          platformId: PLATFORM,
          ...(i === 0 ? { janCode: HELD_JAN, modelNumber: ["YDR-0001"] } : {}),
          ...(i === 1
            ? {
                editions: [
                  { gameEditionId: EDITION, title: "廉価版", modelNumber: ["YDR-0002B"], releaseDate: null, price: null, janCode: null },
                ],
              }
            : {}),
        }),
      ),
    ),
  });
});

/** A JAN with a right check digit, unique per call of the file. */
let janSerial = 100;
const freshJan = () => ean13(`4999998${String(janSerial++).padStart(5, "0")}`);

const suggest = (account: Account, args: Record<string, unknown>) => account.call("suggestGameIdentifier", args);
const searchJan = async (account: Account, janCode: string) => ok(await account.call("searchGames", { janCode }));
const foundIds = (body: { items: { gameId: number }[] }) => body.items.map((item) => item.gameId);
const approve = (id: string) => admin("POST", `/identifiers/${id}/approve`);

describe("suggestGameIdentifier", () => {
  it("stores an open suggestion and lists it for its author (FREE plan allowed)", async () => {
    const account = await newAccount({ plan: "FREE" });
    const jan = freshJan();
    const { item } = ok(
      await suggest(account, { gameId: game(3), kind: "janCode", value: `${jan.slice(0, 7)}-${jan.slice(7)}`, note: "箱裏" }),
    );
    expect(item).toMatchObject({ gameId: game(3), gameEditionId: null, kind: "janCode", value: jan, note: "箱裏", status: "open" });
    expect(item.suggestionId).toMatch(/^sug_/);
    const listed = ok(await account.call("getGameIdentifierSuggestions", {}, "GET"));
    expect(listed).toMatchObject({ totalCount: 1, items: [item] });
  });

  it("refuses a wrong check digit, a foreign prefix and an empty model number (400 naming value)", async () => {
    const account = await newAccount();
    const jan = freshJan();
    const wrong = `${jan.slice(0, 12)}${(Number(jan[12]) + 1) % 10}`;
    expectError(await suggest(account, { gameId: game(3), kind: "janCode", value: wrong }), 400, "invalid_input", "value");
    expectError(await suggest(account, { gameId: game(3), kind: "janCode", value: ean13("200000840001") }), 400, "invalid_input", "value");
    expectError(await suggest(account, { gameId: game(3), kind: "janCode", value: "49123" }), 400, "invalid_input", "value");
    expectError(await suggest(account, { gameId: game(3), kind: "modelNumber", value: " -- " }), 400, "invalid_input", "value");
    expectError(await suggest(account, { gameId: game(3), kind: "isbn", value: jan }), 400, "invalid_input", "kind");
  });

  it("answers 404 for an unknown game, an edition of another game and a custom game", async () => {
    const account = await newAccount();
    expectError(await suggest(account, { gameId: 849999, kind: "modelNumber", value: "YDR-9" }), 404, "not_found");
    expectError(await suggest(account, { gameId: game(3), gameEditionId: EDITION, kind: "modelNumber", value: "YDR-9" }), 404, "not_found");
    const custom = await insertCustomGame(account.userId, { title: "ヤドリギ自作", platformId: PLATFORM });
    expectError(await suggest(account, { gameId: custom, kind: "modelNumber", value: "YDR-9" }), 404, "not_found");
  });

  it("answers 409 for a value the game has, and for one confirmed for another game, kept as a conflict for the operator", async () => {
    const account = await newAccount();
    expectError(await suggest(account, { gameId: game(1), kind: "janCode", value: HELD_JAN }), 409, "already_exists", "value");
    expectError(await suggest(account, { gameId: game(1), kind: "modelNumber", value: "ydr 0001" }), 409, "already_exists", "value");
    const conflict = await suggest(account, { gameId: game(4), kind: "janCode", value: HELD_JAN });
    expectError(conflict, 409, "already_exists", "value");
    expect(conflict.body.conflictGameId).toBe(game(1));
    const queue = ok(await admin("GET", "/identifiers?limit=100"));
    expect(queue.items.find((row: { suggestionId: string }) => row.suggestionId === conflict.body.suggestionId)).toMatchObject({
      gameId: game(4),
      conflictGameId: game(1),
      userId: account.userId,
      status: "open",
    });
    // Approving it would move the code: refused until the master data says otherwise.
    expectError(await approve(conflict.body.suggestionId), 409, "already_exists");
    expect(foundIds(await searchJan(account, HELD_JAN))).toContain(game(1));
  });

  it("keeps one open suggestion per user, game and kind, also when fired twice at once", async () => {
    const account = await newAccount();
    expectError(
      await suggest(account, { gameId: game(5), kind: "modelNumber", value: "YDR-5A" }).then(() =>
        suggest(account, { gameId: game(5), kind: "modelNumber", value: "YDR-5B" }),
      ),
      409,
      "already_exists",
      "kind",
    );
    for (let round = 0; round < 4; round++) {
      const args = { gameId: game(6 + round), kind: "janCode", value: freshJan() };
      const replies = await Promise.all([suggest(account, args), suggest(account, args)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    }
    expect(ok(await account.call("getGameIdentifierSuggestions")).totalCount).toBe(5);
  });

  it("refuses missing scopes and never shows another user's suggestion", async () => {
    const author = await newAccount();
    const reader = await newAccount({ scopes: ["games:read", "library:read"] });
    expectError(await suggest(reader, { gameId: game(3), kind: "modelNumber", value: "YDR-X" }), 403, "insufficient_scope");
    const writerOnly = await newAccount({ scopes: ["library:write"] });
    expectError(await writerOnly.call("getGameIdentifierSuggestions"), 403, "insufficient_scope");
    const jan = freshJan();
    ok(await suggest(author, { gameId: game(11), kind: "janCode", value: jan }));
    ok(await suggest(author, { gameId: game(11), kind: "modelNumber", value: "YDR-PRIV-11" }));
    expect(ok(await reader.call("getGameIdentifierSuggestions")).totalCount).toBe(0);
    expect(foundIds(await searchJan(reader, jan))).toEqual([]);
    expect(ok(await reader.call("searchGames", { modelNumber: "PRIV-11" })).items).toEqual([]);
  });

  it("lets the author's own searches find the game by an open suggestion, edition flagged", async () => {
    const author = await newAccount();
    const jan = freshJan();
    ok(await suggest(author, { gameId: game(2), gameEditionId: EDITION, kind: "janCode", value: jan }));
    const found = await searchJan(author, jan);
    expect(found.items).toMatchObject([{ gameId: game(2), matchedBy: "janCode", exact: true, edition: true }]);
    ok(await suggest(author, { gameId: game(12), kind: "modelNumber", value: "YDR-OWN-12" }));
    const byModel = ok(await author.call("searchGames", { modelNumber: "ydrown12" }));
    expect(byModel.items).toMatchObject([{ gameId: game(12), matchedBy: "modelNumber", exact: true, edition: false }]);
    expect(ok(await author.call("searchGames", { modelNumber: "OWN-1" })).items.map((i) => i.gameId)).toEqual([game(12)]);
  });

  it("answers an unknown JAN with a hint saying how to suggest it", async () => {
    const account = await newAccount();
    const body = await searchJan(account, freshJan());
    expect(body.items).toEqual([]);
    expect(body.hint).toContain("suggestGameIdentifier");
  });

  it("says a JAN with a wrong check digit was misread, instead of inviting a suggestion", async () => {
    const account = await newAccount();
    const body = await searchJan(account, "4902370501213");
    expect(body.items).toEqual([]);
    expect(body.hint).toContain("wrong check digit");
    expect(body.hint).not.toContain("suggestGameIdentifier");
  });

  it("holds the daily limit of 50, also for calls at once (429 rate_limited with resetAt)", async () => {
    const account = await newAccount();
    const today = new Date().toISOString();
    const rows = Array.from({ length: 48 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO identifier_suggestions (id, user_id, game_id, kind, value, search_value, status, created_at) VALUES (?, ?, ?, 'modelNumber', ?, ?, 'rejected', ?)",
      ).bind(`sug_limit${account.userId}${i}`, account.userId, game(20), `L${i}`, `l${i}`, today),
    );
    await env.DB.batch(rows);
    const replies = await Promise.all(
      [21, 22, 23].map((n) => suggest(account, { gameId: game(n), kind: "modelNumber", value: `YDR-L${n}` })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const refused = replies.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({ code: "rate_limited", retryable: true, remaining: 0 });
    expect(Date.parse(refused.body.resetAt)).toBeGreaterThan(Date.now());
    expect(refused.headers.get("Retry-After")).not.toBeNull();
  });

  it("is served over MCP with the same rules", async () => {
    const account = await newAccount({ plan: "FREE" });
    const client = await mcpClient(account.apiKey);
    const reply = await mcpCall(client, "suggestGameIdentifier", { gameId: game(13), kind: "modelNumber", value: "YDR-MCP-13" });
    expect(reply.isError).toBe(false);
    expect(reply.body.item).toMatchObject({ gameId: game(13), status: "open" });
    const jan = freshJan();
    const wrong = `${jan.slice(0, 12)}${(Number(jan[12]) + 1) % 10}`;
    const bad = await mcpCall(client, "suggestGameIdentifier", { gameId: game(13), kind: "janCode", value: wrong });
    expect(bad.isError).toBe(true);
    expect(bad.body).toMatchObject({ code: "invalid_input", field: "value" });
    await client.close();
  });
});

describe("review", () => {
  it("approves: every account finds the game, the generation moves, the master export carries the code", async () => {
    const author = await newAccount();
    const other = await newAccount();
    const jan = freshJan();
    const { item } = ok(await suggest(author, { gameId: game(14), kind: "janCode", value: jan }));
    ok(await suggest(author, { gameId: game(2), gameEditionId: EDITION, kind: "modelNumber", value: "YDR-0002C" }));
    const before = await storedGeneration("games");
    const approved = ok(await approve(item.suggestionId));
    expect(approved).toMatchObject({ status: "approved", reviewedBy: "operator" });
    expect(await storedGeneration("games")).not.toBe(before);
    expect((await searchJan(other, jan)).items).toMatchObject([{ gameId: game(14), matchedBy: "janCode", edition: false }]);
    expect(ok(await author.call("getGameIdentifierSuggestions")).items.find((i) => i.suggestionId === item.suggestionId)?.status).toBe(
      "approved",
    );
    const modelId = ok(await author.call("getGameIdentifierSuggestions")).items.find((i) => i.kind === "modelNumber")!.suggestionId;
    ok(await approve(modelId));
    expect(ok(await other.call("searchGames", { modelNumber: "YDR-0002C" })).items).toMatchObject([
      { gameId: game(2), matchedBy: "modelNumber", exact: true, edition: true },
    ]);

    const exported = ok(await other.call("exportMasterData", { dataset: "games", platformId: PLATFORM }));
    expect(exported.generation).toBe(await storedGeneration("games"));
    const rows = ndjsonOf(await (await fetchLink(exported.url)).text());
    expect(rows.find((row) => row.gameId === game(14))?.janCode).toBe(jan);
    expect(rows.find((row) => row.gameId === game(2))?.editions[0].modelNumber).toEqual(["YDR-0002B", "YDR-0002C"]);

    // The operator's next import of the games (a title corrected) keeps the approved values.
    await importFixture({
      games: toNdjson([fictionalGame({ gameId: game(14), title: "ヤドリギ物語十四", platformId: PLATFORM })]),
    });
    expect((await searchJan(other, jan)).items).toMatchObject([{ gameId: game(14), title: "ヤドリギ物語十四" }]);
  });

  it("rejects: the author sees the status, nobody finds the game by the value", async () => {
    const author = await newAccount();
    const jan = freshJan();
    const { item } = ok(await suggest(author, { gameId: game(15), kind: "janCode", value: jan }));
    expect(ok(await admin("POST", `/identifiers/${item.suggestionId}/reject`, { reason: "別の版" }))).toMatchObject({
      status: "rejected",
      reviewReason: "別の版",
    });
    expect(ok(await author.call("getGameIdentifierSuggestions")).items[0]).toMatchObject({ status: "rejected" });
    expect((await searchJan(author, jan)).items).toEqual([]);
    expectError(await approve(item.suggestionId), 409, "revision_conflict");
    expectError(await approve("sug_unknown"), 404, "not_found");
  });

  it("applies two approvals of one suggestion at once exactly once", async () => {
    const author = await newAccount();
    for (let round = 0; round < 4; round++) {
      const { item } = ok(await suggest(author, { gameId: game(16), kind: "modelNumber", value: `YDR-TWICE-${round}` }));
      const before = await storedGeneration("games");
      const replies = await race(
        () => approve(item.suggestionId),
        () => approve(item.suggestionId),
        round,
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      const stored = await env.DB.prepare("SELECT model_number FROM games WHERE id = ?").bind(game(16)).first<string>("model_number");
      expect(JSON.parse(stored!).filter((code: string) => code === `YDR-TWICE-${round}`)).toHaveLength(1);
      expect(await storedGeneration("games")).not.toBe(before);
    }
  });

  it("needs the operator token", async () => {
    const reply = await sendTo(testApp([]), "/admin/v1/identifiers", { headers: { Authorization: "Bearer wrong" } });
    expect(reply.status).toBe(401);
    expect(ADMIN_TOKEN).not.toBe("wrong");
  });
});

describe("auto-approval when two accounts agree (IDENTIFIER_AUTO_APPROVAL=agreement)", () => {
  const app = testApp([]);
  const suggestOn = (account: Account, args: Record<string, unknown>, bindings = { IDENTIFIER_AUTO_APPROVAL: "agreement" }) =>
    sendTo(
      app,
      "/rest/v1/suggestGameIdentifier",
      {
        method: "POST",
        headers: { Authorization: `Bearer ${account.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify(args),
      },
      bindings,
    );

  it("approves once a second account suggests the same value, and not when it is off", async () => {
    const [a, b, c] = [await newAccount(), await newAccount(), await newAccount()];
    const jan = freshJan();
    expect(ok(await suggestOn(a, { gameId: game(17), kind: "janCode", value: jan })).item.status).toBe("open");
    expect(ok(await suggestOn(b, { gameId: game(17), kind: "janCode", value: jan })).item.status).toBe("approved");
    expect(ok(await a.call("getGameIdentifierSuggestions")).items[0]).toMatchObject({ status: "approved" });
    expect((await searchJan(c, jan)).items.map((i) => i.gameId)).toEqual([game(17)]);

    const off = freshJan();
    ok(await suggestOn(a, { gameId: game(18), kind: "janCode", value: off }, { IDENTIFIER_AUTO_APPROVAL: "" }));
    expect(ok(await suggestOn(b, { gameId: game(18), kind: "janCode", value: off }, { IDENTIFIER_AUTO_APPROVAL: "" })).item.status).toBe(
      "open",
    );
    expect((await searchJan(c, off)).items).toEqual([]);
  });

  it("approves two accounts' racing suggestions once", async () => {
    for (let round = 0; round < 4; round++) {
      const [a, b] = [await newAccount(), await newAccount()];
      const value = `YDR-AGREE-${round}`;
      const args = { gameId: game(19), kind: "modelNumber", value };
      const replies = await race(
        () => suggestOn(a, args),
        () => suggestOn(b, args),
        round,
      );
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
      const statuses = await env.DB.prepare("SELECT status FROM identifier_suggestions WHERE search_value = ?")
        .bind(value.toLowerCase().replace(/-/g, ""))
        .all<{ status: string }>();
      expect(statuses.results.map((r) => r.status)).toEqual(["approved", "approved"]);
      const stored = await env.DB.prepare("SELECT model_number FROM games WHERE id = ?").bind(game(19)).first<string>("model_number");
      expect(JSON.parse(stored!).filter((code: string) => code === value)).toHaveLength(1);
    }
  });
});

describe("the operator's review page (public/admin/)", () => {
  it("is a static page whose one script is this origin's, calling only the operator API with the typed token", async () => {
    const assets = (env as unknown as { ASSETS: Fetcher }).ASSETS;
    const page = await assets.fetch("https://api.test/admin/identifiers.html");
    expect(page.status).toBe(200);
    const markup = await page.text();
    expect(markup).toContain('<script src="/admin/identifiers.js" defer></script>');
    expect(markup).not.toMatch(/https?:\/\/|<script>|style=|\son\w+=/);
    const script = await assets.fetch("https://api.test/admin/identifiers.js");
    const code = await script.text();
    expect(code).toContain("/admin/v1");
    expect(code).not.toMatch(/https?:\/\/|import\s|eval\(|innerHTML|localStorage|sessionStorage|document\.cookie/);
  });
});
