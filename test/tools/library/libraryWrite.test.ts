// addToLibrary, updateLibraryEntry and removeFromLibrary over a tiny fictional master (ids 750000+,
// marker word ルミナ in every title). Every test makes its own accounts.
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { confirmTokenArg, confirmTwoStep } from "../../../src/platform/confirm";
import { defineTool } from "../../../src/registry/defineTool";
import { type Account, callWith, newAccount, player, type Reply, send, sendTo, testApp } from "../../support/harness";
import { insertCustomGame } from "../../support/master";
import { importLibraryMaster, KASUMI_GAME } from "../../support/masterSets";
import { headStartOf, RACE_ROUNDS, race } from "../../support/race";
import { expectError } from "../../support/replies";

const PA = 750001;
const PB = 750002;

const KASUMI = 750001; // ルミナ 霞の迷宮, PA, C1, RPG, 1991-01-10
const IZUMI = 750002; // ルミナ 泉の章
const UMI = 750003; // ルミナ 海鳴り, undated
const ASAHI = 750004; // ルミナ 朝日の塔, no publisher
const MISSING = 759999; // no such game

const VIEW_ONLY = ["library:read", "play:read", "games:read"] as const;
const STANDARD = [...VIEW_ONLY, "library:write", "play:write"] as const;

/** Every field group but latestPlay: what the write tools answer with. */
const WRITE_ITEM_KEYS = [
  "attributes",
  "buyDate",
  "buyPlace",
  "buyPrice",
  "createdAt",
  "game",
  "gameId",
  "memo",
  "rating",
  "revision",
  "updatedAt",
  "userLinks",
];

beforeAll(importLibraryMaster);

const add = (account: Account, args: Record<string, unknown>) => account.call("addToLibrary", args);
const update = (account: Account, args: Record<string, unknown>) => account.call("updateLibraryEntry", args);
const remove = (account: Account, args: Record<string, unknown>) => account.call("removeFromLibrary", args);
const keysOf = (value: object) => Object.keys(value).sort();

/** The caller's entries with every group but game and latestPlay, keyed by gameId. */
async function entries(account: Account): Promise<Map<number, any>> {
  const reply = await account.call("getLibrary", { fields: ["purchase", "attributes", "userLinks", "memo", "timestamps"], limit: 200 });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return new Map((reply.body.items as any[]).map((item) => [item.gameId, item]));
}

const entryOf = async (account: Account, gameId: number) => (await entries(account)).get(gameId);

/** Every field of an entry but its attributes, as sent and as answered. */
const PURCHASE = {
  rating: 4,
  buyDate: "2020-02-29",
  buyPrice: 4980,
  buyPlace: "ルミナ堂 本店",
  memo: "初回版を確保した",
  userLinks: [{ name: "攻略メモ", url: "https://example.com/lumina/kasumi" }],
};
const FULL = { ...PURCHASE, attributes: ["box", "説明書あり"] };

describe("addToLibrary", () => {
  it("adds an entry and answers {item, revision} with every field group but latestPlay", async () => {
    const account = await newAccount({ plan: "FREE" });
    const own = (await account.call("addAttribute", { label: "ルミナ帯あり" })).body.item;
    const reply = await add(account, { gameId: KASUMI, ...FULL, attributes: ["box", "説明書あり", "ルミナ帯あり"] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { item, revision } = reply.body;
    expect(typeof revision).toBe("string");
    expect(revision.length).toBeGreaterThan(0);
    expect(item.revision).toBe(revision);
    expect(keysOf(item)).toEqual(WRITE_ITEM_KEYS);
    expect(item).toMatchObject({ gameId: KASUMI, ...PURCHASE });
    expect(item.attributes).toEqual([
      { id: "box", label: "箱あり", custom: false },
      { id: "manual", label: "説明書あり", custom: false },
      { id: own.id, label: "ルミナ帯あり", custom: true },
    ]);
    expect(item.game).toMatchObject(KASUMI_GAME);
    expect(Number.isNaN(Date.parse(item.createdAt))).toBe(false);
    expect(Number.isNaN(Date.parse(item.updatedAt))).toBe(false);

    // What getLibrary lists is what the add answered.
    const { game: _game, ...withoutGame } = item;
    const listed = await account.call("getLibrary", { fields: ["purchase", "attributes", "userLinks", "memo", "timestamps"] });
    expect(listed.body.items).toEqual([withoutGame]);
    expect(listed.body.totalCount).toBe(1);
  });

  it("adds a bare entry: every value of every group is null or empty, not omitted", async () => {
    const account = await newAccount({ plan: "FREE" });
    const reply = await add(account, { gameId: ASAHI });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(keysOf(reply.body.item)).toEqual(WRITE_ITEM_KEYS);
    expect(reply.body.item).toMatchObject({
      gameId: ASAHI,
      rating: null,
      buyDate: null,
      buyPrice: null,
      buyPlace: null,
      memo: null,
      userLinks: [],
      attributes: [],
    });
    expect(reply.body.item.game).toMatchObject({ gameId: ASAHI, publisher: null, title: "ルミナ 朝日の塔" });
  });

  it("accepts explicit nulls for every nullable field", async () => {
    const account = await newAccount();
    const reply = await add(account, { gameId: UMI, rating: null, buyDate: null, buyPrice: null, buyPlace: null, memo: null });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({ rating: null, buyDate: null, buyPrice: null, buyPlace: null, memo: null });
  });

  it("accepts every value at its bounds", async () => {
    const account = await newAccount();
    const ownLabels = Array.from({ length: 12 }, (_, i) => `ルミナ属性${i}`);
    for (const label of ownLabels) expect((await account.call("addAttribute", { label })).status).toBe(200);
    const systemIds = ["box", "manual", "sealed", "used", "limited", "download", "loose", "reprint"];
    const url500 = `https://example.com/${"a".repeat(500 - "https://example.com/".length)}`;
    expect(url500).toHaveLength(500);
    const userLinks = Array.from({ length: 20 }, (_, i) => ({
      name: `${i}`.padEnd(50, "n"),
      url: i === 0 ? url500 : `http://example.com/${i}`,
    }));
    const reply = await add(account, {
      gameId: KASUMI,
      rating: 5,
      buyDate: "2000-02-29",
      buyPrice: 0,
      buyPlace: "店".repeat(100),
      memo: "メ".repeat(2000),
      userLinks,
      attributes: [...systemIds, ...ownLabels],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({ rating: 5, buyPrice: 0, buyPlace: "店".repeat(100), memo: "メ".repeat(2000), userLinks });
    expect(reply.body.item.attributes).toHaveLength(20);
    expect((await add(account, { gameId: IZUMI, rating: 1, buyPrice: 1234.5 })).body.item).toMatchObject({ rating: 1, buyPrice: 1234.5 });
  });

  it("resolves attributes given by id or exact label to the same attribute", async () => {
    const account = await newAccount();
    const own = (await account.call("addAttribute", { label: "ルミナ帯あり" })).body.item;
    const byLabel = await add(account, { gameId: KASUMI, attributes: ["箱あり", "ルミナ帯あり"] });
    const byId = await add(account, { gameId: IZUMI, attributes: ["box", own.id] });
    const expected = [
      { id: "box", label: "箱あり", custom: false },
      { id: own.id, label: "ルミナ帯あり", custom: true },
    ];
    expect(byLabel.body.item.attributes).toEqual(expected);
    expect(byId.body.item.attributes).toEqual(expected);
  });

  it("answers 409 already_exists for a game already in the library and keeps the entry", async () => {
    const account = await newAccount({ plan: "FREE" });
    const first = await add(account, { gameId: KASUMI, rating: 3 });
    const again = await add(account, { gameId: KASUMI, rating: 5 });
    expectError(again, 409, "already_exists");
    const entry = await entryOf(account, KASUMI);
    expect(entry).toMatchObject({ rating: 3, revision: first.body.revision });
    expect((await account.call("getAccount")).body.registered.library).toEqual({ count: 1, limit: 500 });
  });

  it("adds a game once when two adds race: one 200, one 409, never a 500", async () => {
    const account = await newAccount();
    const replies = await Promise.all([add(account, { gameId: KASUMI, rating: 1 }), add(account, { gameId: KASUMI, rating: 2 })]);
    expect(replies.map((r) => r.status).sort(), JSON.stringify(replies.map((r) => r.body))).toEqual([200, 409]);
    expect(replies.find((r) => r.status === 409)!.body.code).toBe("already_exists");
    expect((await entries(account)).size).toBe(1);
  });

  it("answers 404 not_found for an unknown game and for another user's custom game; adds the caller's own", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const customId = await insertCustomGame(owner.userId, {
      title: "ルミナ 自作ソフト",
      titleReading: "るみなじさくそふと",
      platformId: PB,
    });
    expectError(await add(owner, { gameId: MISSING }), 404, "not_found");
    expectError(await add(other, { gameId: customId }), 404, "not_found");
    expect((await entries(other)).size).toBe(0);

    const own = await add(owner, { gameId: customId, rating: 2 });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.item.game).toMatchObject({
      gameId: customId,
      title: "ルミナ 自作ソフト",
      custom: true,
      dbSlug: null,
      platform: { platformId: PB },
    });
  });

  it.each([
    [{ rating: 0 }, "rating"],
    [{ rating: 6 }, "rating"],
    [{ rating: 2.5 }, "rating"],
    [{ rating: "3" }, "rating"],
    [{ buyDate: "2021-02-29" }, "buyDate"],
    [{ buyDate: "2021/01/01" }, "buyDate"],
    [{ buyDate: "2021-13-01" }, "buyDate"],
    [{ buyPrice: -1 }, "buyPrice"],
    [{ buyPrice: "100" }, "buyPrice"],
    [{ buyPlace: "" }, "buyPlace"],
    [{ buyPlace: "x".repeat(101) }, "buyPlace"],
    [{ memo: "" }, "memo"],
    [{ memo: "x".repeat(2001) }, "memo"],
    [{ userLinks: Array.from({ length: 21 }, (_, i) => ({ name: `l${i}`, url: `https://example.com/${i}` })) }, "userLinks"],
    [{ userLinks: [{ name: "", url: "https://example.com" }] }, "userLinks[0].name"],
    [{ userLinks: [{ name: "x".repeat(51), url: "https://example.com" }] }, "userLinks[0].name"],
    [
      {
        userLinks: [
          { name: "ok", url: "https://example.com" },
          { name: "ftp", url: "ftp://example.com/x" },
        ],
      },
      "userLinks[1].url",
    ],
    [{ userLinks: [{ name: "js", url: "javascript:alert(1)" }] }, "userLinks[0].url"],
    [{ userLinks: [{ name: "text", url: "not a url" }] }, "userLinks[0].url"],
    [{ userLinks: [{ name: "long", url: `https://example.com/${"a".repeat(481)}` }] }, "userLinks[0].url"],
    [{ userLinks: [{ name: "no url" }] }, "userLinks[0].url"],
    [{ attributes: ["box", "ルミナ存在しない属性"] }, "attributes[1]"],
    [{ attributes: [5] }, "attributes[0]"],
    [{ gameId: "750001" }, "gameId"],
    [{ gameId: undefined }, "gameId"],
    [{ unknownArgument: 1 }, "unknownArgument"],
  ])("refuses %j with 400 naming %s and adds nothing", async (args, field) => {
    const account = await newAccount();
    const reply = await add(account, { gameId: KASUMI, ...args });
    expectError(reply, 400, "invalid_input", field);
    expect((await entries(account)).size).toBe(0);
  });

  it("refuses more than 20 attributes with 400 naming attributes", async () => {
    const account = await newAccount();
    const reply = await add(account, { gameId: KASUMI, attributes: Array.from({ length: 21 }, (_, i) => `ルミナ${i}`) });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toMatch(/^attributes/);
  });

  it("refuses another user's attribute as unknown (400 naming it)", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const theirs = (await b.call("addAttribute", { label: "ルミナ他人の帯" })).body.item;
    expectError(await add(a, { gameId: KASUMI, attributes: [theirs.label] }), 400, "invalid_input", "attributes[0]");
    expectError(await add(a, { gameId: KASUMI, attributes: ["box", theirs.id] }), 400, "invalid_input", "attributes[1]");
    expect((await entries(a)).size).toBe(0);
  });

  it("shows the count and the plan's limit in getAccount, on every plan", async () => {
    for (const [plan, limit] of [
      ["FREE", 500],
      ["LIGHT", 3000],
      ["PREMIUM", 50000],
    ] as const) {
      const account = await newAccount({ plan });
      expect((await account.call("getAccount")).body.registered.library, plan).toEqual({ count: 0, limit });
      expect((await add(account, { gameId: KASUMI })).status, plan).toBe(200);
      expect((await add(account, { gameId: IZUMI })).status, plan).toBe(200);
      expect((await account.call("getAccount")).body.registered.library, plan).toEqual({ count: 2, limit });
    }
  });

  it("needs library:write: a view-only key is refused with 403 and adds nothing", async () => {
    const viewer = await newAccount({ scopes: [...VIEW_ONLY] });
    const reply = await add(viewer, { gameId: KASUMI });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["library:write"] });
    expect((await entries(viewer)).size).toBe(0);
  });

  it("is POST only and needs a key", async () => {
    const account = await newAccount();
    expect((await account.call("addToLibrary", { gameId: KASUMI }, "GET")).status).toBe(405);
    expect((await send("/rest/v1/addToLibrary", { method: "POST", body: JSON.stringify({ gameId: KASUMI }) })).status).toBe(401);
    expect((await entries(account)).size).toBe(0);
  });
});

describe("updateLibraryEntry", () => {
  it("keeps omitted fields, clears null ones, and answers {item, revision} with a new revision", async () => {
    const account = await newAccount({ plan: "FREE" });
    const added = (await add(account, { gameId: KASUMI, ...FULL })).body;

    const rated = await update(account, { gameId: KASUMI, rating: 2 });
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    expect(keysOf(rated.body.item)).toEqual(WRITE_ITEM_KEYS);
    expect(rated.body.revision).not.toBe(added.revision);
    expect(rated.body.item.revision).toBe(rated.body.revision);
    expect(rated.body.item).toMatchObject({
      ...FULL,
      attributes: added.item.attributes,
      rating: 2,
      createdAt: added.item.createdAt,
    });
    expect(rated.body.item.game).toMatchObject({ gameId: KASUMI, title: "ルミナ 霞の迷宮" });
    expect(Date.parse(rated.body.item.updatedAt)).toBeGreaterThanOrEqual(Date.parse(added.item.updatedAt));

    const cleared = await update(account, { gameId: KASUMI, rating: null, buyDate: null, buyPrice: null, buyPlace: null, memo: null });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.item).toMatchObject({
      rating: null,
      buyDate: null,
      buyPrice: null,
      buyPlace: null,
      memo: null,
      userLinks: FULL.userLinks,
      attributes: added.item.attributes,
    });
    expect(cleared.body.revision).not.toBe(rated.body.revision);

    const { game: _game, ...listed } = cleared.body.item;
    expect(await entryOf(account, KASUMI)).toEqual(listed);
  });

  it("replaces the whole attribute set and the links; [] clears them", async () => {
    const account = await newAccount();
    await account.call("addAttribute", { label: "ルミナ帯あり" });
    await add(account, { gameId: KASUMI, ...FULL });

    const replaced = await update(account, {
      gameId: KASUMI,
      attributes: ["未開封", "ルミナ帯あり"],
      userLinks: [{ name: "新", url: "https://example.com/new" }],
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.item.attributes.map((a: { id: string }) => a.id)).toEqual(["sealed", expect.stringMatching(/.+/)]);
    expect(replaced.body.item.attributes.map((a: { label: string }) => a.label)).toEqual(["未開封", "ルミナ帯あり"]);
    expect(replaced.body.item.userLinks).toEqual([{ name: "新", url: "https://example.com/new" }]);

    const kept = await update(account, { gameId: KASUMI, memo: "メモだけ" });
    expect(kept.body.item.attributes.map((a: { label: string }) => a.label)).toEqual(["未開封", "ルミナ帯あり"]);
    expect(kept.body.item.userLinks).toHaveLength(1);

    const emptied = await update(account, { gameId: KASUMI, attributes: [], userLinks: [] });
    expect(emptied.status, JSON.stringify(emptied.body)).toBe(200);
    expect(emptied.body.item).toMatchObject({ attributes: [], userLinks: [], memo: "メモだけ", rating: FULL.rating });
    expect(await entryOf(account, KASUMI)).toMatchObject({ attributes: [], userLinks: [] });
  });

  it("accepts the current revision (from the write or from getLibrary) and refuses a stale one with 409, changing nothing", async () => {
    const account = await newAccount({ plan: "FREE" });
    const { revision: first } = (await add(account, { gameId: KASUMI, rating: 1 })).body;

    const second = await update(account, { gameId: KASUMI, rating: 2, revision: first });
    expect(second.status, JSON.stringify(second.body)).toBe(200);

    const stale = await update(account, { gameId: KASUMI, rating: 5, memo: "上書き", revision: first });
    expectError(stale, 409, "revision_conflict");
    expect(await entryOf(account, KASUMI)).toMatchObject({ rating: 2, memo: null, revision: second.body.revision });

    const listedRevision = (await account.call("getLibrary", { fields: [] })).body.items[0].revision;
    expect(listedRevision).toBe(second.body.revision);
    const third = await update(account, { gameId: KASUMI, rating: 3, revision: listedRevision });
    expect(third.status, JSON.stringify(third.body)).toBe(200);
    expect(third.body.item.rating).toBe(3);
  });

  it("lets only one of two racing updates with the same revision win", async () => {
    const account = await newAccount();
    const { revision } = (await add(account, { gameId: KASUMI, rating: 1 })).body;
    const replies = await Promise.all([
      update(account, { gameId: KASUMI, rating: 4, revision }),
      update(account, { gameId: KASUMI, rating: 5, revision }),
    ]);
    expect(replies.map((r) => r.status).sort(), JSON.stringify(replies.map((r) => r.body))).toEqual([200, 409]);
    const winner = replies.find((r) => r.status === 200)!;
    expect(replies.find((r) => r.status === 409)!.body.code).toBe("revision_conflict");
    expect(await entryOf(account, KASUMI)).toMatchObject({ rating: winner.body.item.rating, revision: winner.body.revision });
  });

  it("answers 404 for a game not in the caller's library, an unknown game and another user's entry", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await add(a, { gameId: KASUMI, rating: 4 });
    await add(b, { gameId: IZUMI, rating: 4, memo: "Bのメモ" });
    expectError(await update(a, { gameId: IZUMI, rating: 1 }), 404, "not_found");
    expectError(await update(a, { gameId: MISSING, rating: 1 }), 404, "not_found");
    expect(await entryOf(b, IZUMI)).toMatchObject({ rating: 4, memo: "Bのメモ" });
    expect((await entries(a)).has(IZUMI)).toBe(false);
  });

  it("changes only the caller's entry when two users own the same game", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await add(a, { gameId: KASUMI, rating: 4, buyPlace: "Aの店" });
    const bAdded = (await add(b, { gameId: KASUMI, rating: 3, buyPlace: "Bの店" })).body;
    expect((await update(a, { gameId: KASUMI, rating: 1, buyPlace: null })).status).toBe(200);
    expect(await entryOf(b, KASUMI)).toMatchObject({ rating: 3, buyPlace: "Bの店", revision: bAdded.revision });
  });

  it.each([
    [{ rating: 6 }, "rating"],
    [{ buyDate: "2020-02-30" }, "buyDate"],
    [{ buyPrice: -0.5 }, "buyPrice"],
    [{ buyPlace: "x".repeat(101) }, "buyPlace"],
    [{ memo: "" }, "memo"],
    [{ userLinks: [{ name: "bad", url: "ftp://example.com" }] }, "userLinks[0].url"],
    [{ attributes: ["ルミナ存在しない属性"] }, "attributes[0]"],
    [{ gameId: undefined, rating: 3 }, "gameId"],
    [{ unknownArgument: true }, "unknownArgument"],
  ])("refuses %j with 400 naming %s and changes nothing", async (args, field) => {
    const account = await newAccount();
    const { revision } = (await add(account, { gameId: KASUMI, ...FULL })).body;
    expectError(await update(account, { gameId: KASUMI, ...args }), 400, "invalid_input", field);
    expect(await entryOf(account, KASUMI)).toMatchObject({ rating: FULL.rating, revision });
  });

  it("needs library:write", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI, rating: 3 });
    const viewer = await account.newKey([...VIEW_ONLY]);
    const reply = await callWith(viewer.apiKey, "updateLibraryEntry", { gameId: KASUMI, rating: 1 });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["library:write"] });
    expect(await entryOf(account, KASUMI)).toMatchObject({ rating: 3 });
    const standard = await account.newKey([...STANDARD]);
    expect((await callWith(standard.apiKey, "updateLibraryEntry", { gameId: KASUMI, rating: 1 })).status).toBe(200);
    expect((await account.call("updateLibraryEntry", { gameId: KASUMI }, "GET")).status).toBe(405);
  });

  it("no longer lists an attribute its owner removed", async () => {
    const account = await newAccount();
    const own = (await account.call("addAttribute", { label: "ルミナ消える帯" })).body.item;
    await add(account, { gameId: KASUMI, attributes: ["box", own.id] });
    const preview = await account.call("removeAttribute", { attribute: own.id });
    expect((await account.call("removeAttribute", { attribute: own.id, confirmToken: preview.body.confirmToken })).body.removed).toBe(true);
    expect((await entryOf(account, KASUMI)).attributes).toEqual([{ id: "box", label: "箱あり", custom: false }]);
  });
});

describe("removeFromLibrary (two-step)", () => {
  it("previews without changing anything, then removes with the token", async () => {
    const account = await newAccount({ plan: "FREE" });
    await add(account, { gameId: KASUMI, ...FULL });
    await add(account, { gameId: IZUMI });

    const preview = await remove(account, { gameId: KASUMI });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ confirmRequired: true, targetChanged: false, expiresInSec: 600 });
    expect(preview.body.summary).toContain("ルミナ 霞の迷宮");
    expect(preview.body.confirmToken).toEqual(expect.any(String));
    expect(Date.parse(preview.body.expiresAt)).toBeGreaterThan(Date.now());
    expect((await entries(account)).has(KASUMI)).toBe(true);
    expect((await account.call("getAccount")).body.registered.library).toEqual({ count: 2, limit: 500 });

    const done = await remove(account, { gameId: KASUMI, confirmToken: preview.body.confirmToken });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ gameId: KASUMI, removed: true });
    expect([...(await entries(account)).keys()]).toEqual([IZUMI]);
    expect((await account.call("getAccount")).body.registered.library).toEqual({ count: 1, limit: 500 });
    expectError(await remove(account, { gameId: KASUMI }), 404, "not_found");
    expectError(await update(account, { gameId: KASUMI, rating: 1 }), 404, "not_found");

    // The game can be added again, as a fresh entry.
    const again = await add(account, { gameId: KASUMI });
    expect(again.status).toBe(200);
    expect(again.body.item).toMatchObject({ rating: null, memo: null, attributes: [] });
  });

  it("uses a token once", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI });
    const { confirmToken } = (await remove(account, { gameId: KASUMI })).body;
    expect((await remove(account, { gameId: KASUMI, confirmToken })).body.removed).toBe(true);
    await add(account, { gameId: KASUMI });
    expectError(await remove(account, { gameId: KASUMI, confirmToken }), 400, "invalid_input", "confirmToken");
    expect((await entries(account)).has(KASUMI)).toBe(true);
  });

  it("refuses a token issued for another game", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI });
    await add(account, { gameId: IZUMI });
    const { confirmToken } = (await remove(account, { gameId: KASUMI })).body;
    expectError(await remove(account, { gameId: IZUMI, confirmToken }), 400, "invalid_input", "confirmToken");
    expect([...(await entries(account)).keys()].sort()).toEqual([KASUMI, IZUMI]);
  });

  it("refuses another user's token", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await add(a, { gameId: KASUMI });
    await add(b, { gameId: KASUMI });
    const { confirmToken } = (await remove(a, { gameId: KASUMI })).body;
    expectError(await remove(b, { gameId: KASUMI, confirmToken }), 400, "invalid_input", "confirmToken");
    expect((await entries(b)).has(KASUMI)).toBe(true);
    expect((await entries(a)).has(KASUMI)).toBe(true);
  });

  it("refuses a token of another remove tool", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI });
    await account.call("addAttribute", { label: "ルミナ帯あり" });
    const { confirmToken } = (await account.call("removeAttribute", { attribute: "ルミナ帯あり" })).body;
    expectError(await remove(account, { gameId: KASUMI, confirmToken }), 400, "invalid_input", "confirmToken");
    expect((await entries(account)).has(KASUMI)).toBe(true);
  });

  it("refuses an expired or malformed token", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI });
    const { confirmToken } = (await remove(account, { gameId: KASUMI })).body;
    const key = `confirm:${confirmToken}`;
    const stored = JSON.parse((await env.KV.get(key))!);
    await env.KV.put(key, JSON.stringify({ ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() }));
    expectError(await remove(account, { gameId: KASUMI, confirmToken }), 400, "invalid_input", "confirmToken");
    expectError(await remove(account, { gameId: KASUMI, confirmToken: "nope" }), 400, "invalid_input", "confirmToken");
    expect((await entries(account)).has(KASUMI)).toBe(true);
  });

  it("answers an entry updated after the preview with a fresh preview, not an error, and removes nothing", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI, rating: 5 });
    const first = (await remove(account, { gameId: KASUMI })).body;
    expect((await update(account, { gameId: KASUMI, rating: 1 })).status).toBe(200);

    const reply = await remove(account, { gameId: KASUMI, confirmToken: first.confirmToken });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(reply.body.confirmToken).not.toBe(first.confirmToken);
    expect(await entryOf(account, KASUMI)).toMatchObject({ rating: 1 });

    expect((await remove(account, { gameId: KASUMI, confirmToken: reply.body.confirmToken })).body).toEqual({
      gameId: KASUMI,
      removed: true,
    });
    expect((await entries(account)).size).toBe(0);
  });

  it("answers an entry removed and added again after the preview with a fresh preview", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI, rating: 5 });
    const stale = (await remove(account, { gameId: KASUMI })).body.confirmToken;
    const other = (await remove(account, { gameId: KASUMI })).body.confirmToken;
    expect((await remove(account, { gameId: KASUMI, confirmToken: other })).body.removed).toBe(true);
    await add(account, { gameId: KASUMI, rating: 2 });

    const reply = await remove(account, { gameId: KASUMI, confirmToken: stale });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(await entryOf(account, KASUMI)).toMatchObject({ rating: 2 });
  });

  it("answers 404 when the entry was removed with another token in between", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI });
    const first = (await remove(account, { gameId: KASUMI })).body.confirmToken;
    const second = (await remove(account, { gameId: KASUMI })).body.confirmToken;
    expect((await remove(account, { gameId: KASUMI, confirmToken: first })).body.removed).toBe(true);
    expectError(await remove(account, { gameId: KASUMI, confirmToken: second }), 404, "not_found");
  });

  it("answers 404 for a game not in the library and for another user's entry, previewing nothing", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await add(b, { gameId: IZUMI });
    expectError(await remove(a, { gameId: IZUMI }), 404, "not_found");
    expectError(await remove(a, { gameId: MISSING }), 404, "not_found");
    expect((await entries(b)).has(IZUMI)).toBe(true);
  });

  it("removes only the caller's entry when two users own the same game", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await add(a, { gameId: KASUMI });
    await add(b, { gameId: KASUMI, rating: 4 });
    const { confirmToken } = (await remove(a, { gameId: KASUMI })).body;
    expect((await remove(a, { gameId: KASUMI, confirmToken })).body.removed).toBe(true);
    expect(await entryOf(b, KASUMI)).toMatchObject({ rating: 4 });
  });

  it("needs library:delete, which a standard key lacks", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI });
    for (const scopes of [STANDARD, VIEW_ONLY]) {
      const key = await account.newKey([...scopes]);
      const reply = await callWith(key.apiKey, "removeFromLibrary", { gameId: KASUMI });
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ code: "insufficient_scope", scopes: ["library:delete"] });
    }
    expect((await entries(account)).has(KASUMI)).toBe(true);
  });

  it("loses the entry of a custom game its owner removed: list, count and tools agree", async () => {
    const account = await newAccount();
    const customId = await insertCustomGame(account.userId, {
      title: "ルミナ 消える自作",
      titleReading: "るみなきえるじさく",
      platformId: PA,
    });
    await add(account, { gameId: customId, rating: 3 });
    await add(account, { gameId: KASUMI });
    const preview = await account.call("removeCustomGame", { gameId: customId });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect((await account.call("removeCustomGame", { gameId: customId, confirmToken: preview.body.confirmToken })).body.removed).toBe(true);

    expect([...(await entries(account)).keys()]).toEqual([KASUMI]);
    expect((await account.call("getAccount")).body.registered.library.count).toBe(1);
    expectError(await update(account, { gameId: customId, rating: 1 }), 404, "not_found");
    expectError(await remove(account, { gameId: customId }), 404, "not_found");
  });

  it("is POST only", async () => {
    const account = await newAccount();
    await add(account, { gameId: KASUMI });
    expect((await account.call("removeFromLibrary", { gameId: KASUMI }, "GET")).status).toBe(405);
    expect((await entries(account)).has(KASUMI)).toBe(true);
  });
});

describe("under concurrency (issue 13)", () => {
  it("runs one removeFromLibrary token once, however many confirmations race", async () => {
    const p = await player({ plan: "PREMIUM" }, 3);
    for (let round = 0; round < 3; round++) {
      expect((await p.call("addToLibrary", { gameId: KASUMI })).status).toBe(200);
      const { confirmToken } = (await p.call("removeFromLibrary", { gameId: KASUMI })).body;
      const replies = await Promise.all(Array.from({ length: 15 }, () => p.call("removeFromLibrary", { gameId: KASUMI, confirmToken })));
      const removed = replies.filter((r) => r.status === 200 && r.body.removed === true);
      expect(removed, JSON.stringify(replies.map((r) => r.body))).toHaveLength(1);
      for (const loser of replies.filter((r) => !(r.status === 200 && r.body.removed === true))) {
        // Already used (400 naming confirmToken), or the entry is already gone (404).
        expect([400, 404], JSON.stringify(loser.body)).toContain(loser.status);
        if (loser.status === 400) expect(loser.body).toMatchObject({ code: "invalid_input", field: "confirmToken" });
      }
      // Used means used: once added again, the token still does nothing.
      expect((await p.call("addToLibrary", { gameId: KASUMI })).status).toBe(200);
      expectError(await p.call("removeFromLibrary", { gameId: KASUMI, confirmToken }), 400, "invalid_input", "confirmToken");
      expect((await p.call("getLibrary", { fields: [] })).body.totalCount).toBe(1);
      const again = (await p.call("removeFromLibrary", { gameId: KASUMI })).body.confirmToken;
      expect((await p.call("removeFromLibrary", { gameId: KASUMI, confirmToken: again })).body.removed).toBe(true);
    }
  }, 60_000);

  it("fails loudly (500) when a two-step tool's plan leaves the token's marker out of its batch", async () => {
    const forgetful = defineTool({
      name: "testForgetfulRemove",
      family: "test",
      title: "テスト",
      description: "Test tool.",
      restNote: "Test only.",
      scopes: [],
      plans: ["FREE", "LIGHT", "PREMIUM"],
      kind: "delete",
      input: z.strictObject({ confirmToken: confirmTokenArg }),
      output: z.any(),
      async handler(ctx, args) {
        const { db } = ctx;
        return confirmTwoStep(ctx, args, {
          targetRevision: "t",
          summary: "Removes nothing.",
          async execute() {
            await db.run(sql`SELECT 1`);
            return { removed: true };
          },
        });
      },
    });
    const app = testApp([forgetful]);
    const account = await newAccount();
    const call = (args: Record<string, unknown>) =>
      sendTo(app, "/rest/v1/testForgetfulRemove", {
        method: "POST",
        headers: { Authorization: `Bearer ${account.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify(args),
      });
    const { confirmToken } = (await call({})).body;
    expect((await call({ confirmToken })).status).toBe(500);
  });

  it("answers updateLibraryEntry racing a removal with its result or 404, never 500", async () => {
    const p = await player({ plan: "PREMIUM" }, 4);
    const statuses: number[] = [];
    for (let round = 0; round < RACE_ROUNDS; round++) {
      expect((await p.call("addToLibrary", { gameId: KASUMI })).status).toBe(200);
      const { confirmToken } = (await p.call("removeFromLibrary", { gameId: KASUMI })).body;
      const [removed, updated] = await race(
        () => p.call("removeFromLibrary", { gameId: KASUMI, confirmToken }),
        () => p.call("updateLibraryEntry", { gameId: KASUMI, memo: `round ${round}` }),
        headStartOf(round),
      );
      statuses.push(updated.status);
      expect([200, 404], JSON.stringify(updated.body)).toContain(updated.status);
      if (updated.status === 200) expect(updated.body.item.memo).toBe(`round ${round}`);
      if (removed.body.removed !== true) {
        // The update won: the removal saw a changed entry and answered a fresh preview.
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        expect((await p.call("removeFromLibrary", { gameId: KASUMI, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
    }
    expect(statuses).not.toContain(500);
  }, 60_000);

  it("never keeps an entry of a custom game removed while addToLibrary adds it (issue 21)", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const added = await p.call("addCustomGame", { title: `ルミナ 競う自作${round}`, platformId: PA });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const gameId = added.body.item.gameId as number;
      const { confirmToken } = (await p.call("removeCustomGame", { gameId })).body;
      const [removed, entry] = await race(
        () => p.call("removeCustomGame", { gameId, confirmToken }),
        () => p.call("addToLibrary", { gameId }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(entry.body)).toContain(entry.status);
      if (removed.body.removed !== true) {
        // The add won: the removal saw the new entry and previewed again, now naming it.
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        expect((await p.call("removeCustomGame", { gameId, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
      const orphans = await env.DB.prepare(
        "SELECT COUNT(*) AS n FROM library_entries l WHERE l.user_id = ? AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = l.game_id)",
      )
        .bind(p.account.userId)
        .first<number>("n");
      expect(orphans, `round ${round}: ${JSON.stringify(entry.body)}`).toBe(0);
    }
    expect((await p.call("getAccount")).body.registered.library.count).toBe(0);
  }, 60_000);

  it("never stores an own attribute removed while addToLibrary or updateLibraryEntry names it (issue 21)", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    const dangling = () =>
      env.DB.prepare(
        `SELECT COUNT(*) AS n FROM library_entries l, json_each(l.attribute_ids) a WHERE l.user_id = ?1
           AND a.value LIKE 'attr_%' AND NOT EXISTS (SELECT 1 FROM attributes t WHERE t.id = a.value)`,
      )
        .bind(p.account.userId)
        .first<number>("n");
    expect((await p.call("addToLibrary", { gameId: IZUMI })).status).toBe(200);
    // Each write sweeps every head start (a write on odd rounds only met odd head starts before).
    for (let round = 0; round < 2 * RACE_ROUNDS; round++) {
      const label = `競争ラベル${round}`;
      expect((await p.call("addAttribute", { label })).status).toBe(200);
      const { confirmToken } = (await p.call("removeAttribute", { attribute: label })).body;
      const write: () => Promise<Reply> =
        round % 2 === 0
          ? () => p.call("addToLibrary", { gameId: KASUMI, attributes: [label] })
          : () => p.call("updateLibraryEntry", { gameId: IZUMI, attributes: [label] });
      const [removed, written] = await race(
        () => p.call("removeAttribute", { attribute: label, confirmToken }),
        write,
        headStartOf(round >> 1),
      );
      expect([200, 400], JSON.stringify(written.body)).toContain(written.status);
      if (removed.body.removed !== true) {
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        expect((await p.call("removeAttribute", { attribute: label, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
      expect(await dangling(), `round ${round}: ${JSON.stringify(written.body)}`).toBe(0);
      if (round % 2 === 0 && written.status === 200) {
        const { confirmToken: again } = (await p.call("removeFromLibrary", { gameId: KASUMI })).body;
        expect((await p.call("removeFromLibrary", { gameId: KASUMI, confirmToken: again })).body.removed).toBe(true);
      }
    }
  }, 60_000);

  it("keeps the revision and updatedAt of an update that changes nothing", async () => {
    const account = await newAccount();
    const { revision } = (await add(account, { gameId: KASUMI, ...FULL })).body;
    const before = await entryOf(account, KASUMI);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await update(account, { gameId: KASUMI, rating: FULL.rating, memo: FULL.memo, attributes: FULL.attributes, revision });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.revision).toBe(revision);
    expect(same.body.item.updatedAt).toBe(before.updatedAt);
    expect((await update(account, { gameId: KASUMI })).body.revision).toBe(revision);
    // A real change still moves both.
    const changed = await update(account, { gameId: KASUMI, rating: 1, revision });
    expect(changed.body.revision).not.toBe(revision);
    expect(changed.body.item.updatedAt).not.toBe(before.updatedAt);
  });
});
