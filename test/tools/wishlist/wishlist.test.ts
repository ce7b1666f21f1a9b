// Wishlist tools over a tiny fictional master (ids 760000+, marker word ソレイユ in every title).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { accountDay } from "../../support/days";
import { type Account, callWith, newAccount } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";

const P1 = 760001;
const P2 = 760002;
const game = (gameId: number, title: string, titleReading: string, platformId: number, releaseDate: string | null) =>
  fictionalGame({ gameId, title, titleReading, platformId, releaseDate });
const A = 760101;
const B = 760102;
const C = 760103;
const D = 760104;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([
      { platformId: P1, name: "ソレイユ機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P2, name: "ソレイユ携帯機", nameEn: null, shortName: null, maker: null, releaseDate: null },
    ]),
    games: toNdjson([
      game(A, "ソレイユの冒険", "それいゆのぼうけん", P1, "1991-04-01"),
      game(B, "ソレイユ大作戦", "それいゆだいさくせん", P1, "1993-07-20"),
      game(C, "ソレイユ・パズル", "それいゆぱずる", P2, null),
      game(D, "ソレイユ外伝", "それいゆがいでん", P2, "1995-12-01"),
    ]),
  });
});

const wish = (account: Account, args: Record<string, unknown>) => account.call("addToWishlist", args);
const list = (account: Account, args: Record<string, unknown> = {}, method: "GET" | "POST" = "POST") =>
  account.call("getWishlist", args, method);
const ids = (reply: { body: { items: { gameId: number }[] } }) => reply.body.items.map((i) => i.gameId);
const daysFromToday = (days: number) => accountDay(days);

async function seeded() {
  const account = await newAccount();
  await wish(account, { gameId: A, priority: 5, wishDate: daysFromToday(-3), wishPrice: 3000, wishPlace: "Akihabara Shop" });
  await wish(account, { gameId: B, priority: 2, wishDate: daysFromToday(0), wishPrice: 5000, wishPlace: "通販" });
  await wish(account, { gameId: C, priority: null, wishDate: null, wishPrice: 4000 });
  await wish(account, { gameId: D, priority: 4, wishDate: daysFromToday(10) });
  return account;
}

describe("addToWishlist", () => {
  it("adds a game with its plans and lists it", async () => {
    const account = await newAccount({ plan: "FREE" });
    const plans = { priority: 5, wishDate: "2030-01-01", wishPrice: 2980, wishPlace: "駅前", memo: "箱付き" };
    const reply = await wish(account, { gameId: A, ...plans });
    expect(reply.status).toBe(200);
    expect(reply.body.item).toMatchObject({ gameId: A, ...plans });
    expect(reply.body.item.game).toMatchObject({ gameId: A, title: "ソレイユの冒険" });
    expect(ids(await list(account))).toEqual([A]);
    expect((await account.call("getAccount")).body.registered.wishlist).toEqual({ count: 1, limit: 100 });
  });

  it("refuses a game already wished for, or already owned, with 409", async () => {
    const account = await newAccount();
    await wish(account, { gameId: A });
    expect((await wish(account, { gameId: A })).body).toMatchObject({ code: "already_exists", field: "gameId" });
    await account.call("addToLibrary", { gameId: B });
    const owned = await wish(account, { gameId: B });
    expect(owned.status).toBe(409);
    expect(owned.body.message).toContain("library");
  });

  it.each([
    [{ gameId: 769999 }, 404],
    [{ gameId: A, priority: 6 }, 400],
    [{ gameId: A, wishDate: "2030-02-30" }, 400],
    [{ gameId: A, wishPrice: -1 }, 400],
    [{ gameId: A, wishPlace: "" }, 400],
    [{}, 400],
  ])("answers %j with %i", async (args, status) => {
    expect((await wish(await newAccount(), args)).status).toBe(status);
  });

  it("needs library:write", async () => {
    const viewer = await newAccount({ scopes: ["library:read", "games:read"] });
    expect((await wish(viewer, { gameId: A })).body.code).toBe("insufficient_scope");
  });
});

describe("addToLibrary takes the game off the wishlist", () => {
  it("moves a wished game into the library", async () => {
    const account = await newAccount();
    await wish(account, { gameId: A, priority: 3 });
    const added = await account.call("addToLibrary", { gameId: A });
    expect(added.body.removedFromWishlist).toBe(true);
    expect(ids(await list(account))).toEqual([]);
    expect((await account.call("addToLibrary", { gameId: B })).body.removedFromWishlist).toBe(false);
  });
});

describe("getWishlist", () => {
  it("sorts by priority, highest first, empty last, by default", async () => {
    const account = await seeded();
    expect(ids(await list(account))).toEqual([A, D, B, C]);
    expect(ids(await list(account, { sortBy: "priority", sortOrder: "asc" }))).toEqual([B, D, A, C]);
  });

  it.each([
    ["wishDate", "asc", [A, B, D, C]],
    ["wishPrice", "desc", [B, C, A, D]],
    ["title", "asc", [D, B, A, C]], // readings: が < だ < の < ぱ
    ["releaseDate", "desc", [D, B, A, C]],
  ] as const)("sorts by %s %s with empty values last", async (sortBy, sortOrder, expected) => {
    const account = await seeded();
    expect(ids(await list(account, { sortBy, sortOrder }))).toEqual(expected);
  });

  it("sorts by createdAt, recently added first by default, ties by gameId across pages; title without sortOrder A to Z", async () => {
    const account = await seeded();
    expect(ids(await list(account, { sortBy: "createdAt" }))).toEqual([D, C, B, A]);
    expect(ids(await list(account, { sortBy: "createdAt", sortOrder: "asc" }))).toEqual([A, B, C, D]);
    expect(ids(await list(account, { sortBy: "title" }))).toEqual([D, B, A, C]);
    await env.DB.prepare("UPDATE wishlist_entries SET created_at = '2026-01-01T00:00:00.000Z' WHERE user_id = ?")
      .bind(account.userId)
      .run();
    for (const sortOrder of ["asc", "desc"] as const) {
      const pages = [];
      for (const page of [1, 2]) pages.push(await list(account, { sortBy: "createdAt", sortOrder, limit: 2, page }, "GET"));
      expect(pages.flatMap(ids)).toEqual([A, B, C, D]);
      expect(pages.map((p) => p.body.hasMore)).toEqual([true, false]);
    }
  });

  it("filters overdue plans around today (UTC), and not overdue ones including undated", async () => {
    const account = await seeded();
    expect(ids(await list(account, { wishDateOverdue: "overdue" }))).toEqual([A]);
    expect(ids(await list(account, { wishDateOverdue: "not_overdue" }))).toEqual([D, B, C]);
  });

  it("applies inclusive ranges and place, platform and title filters", async () => {
    const account = await seeded();
    expect(ids(await list(account, { wishPriceFrom: 3000, wishPriceTo: 4000 }))).toEqual([A, C]);
    expect(ids(await list(account, { priorityFrom: 4 }))).toEqual([A, D]);
    expect(ids(await list(account, { wishDateFrom: daysFromToday(0), wishDateTo: daysFromToday(10) }))).toEqual([D, B]);
    expect(ids(await list(account, { wishPlace: "akihabara" }))).toEqual([A]);
    expect(ids(await list(account, { platformIds: [P2] }))).toEqual([D, C]);
    expect(ids(await list(account, { title: "ぱずる" }))).toEqual([C]);
    expect(ids(await list(account, { releaseDateFrom: "1991-04-01", releaseDateTo: "1993-07-20" }))).toEqual([A, B]);
  });

  it("reads GET arguments and field groups; [] gives the core fields", async () => {
    const account = await seeded();
    const core = await list(account, { platformIds: [P1, P2], fields: [] }, "GET");
    expect(core.status).toBe(200);
    expect(Object.keys(core.body.items[0]).sort()).toEqual(["gameId", "priority", "revision"]);
    const memoOnly = await list(account, { fields: ["memo"] });
    expect(Object.keys(memoOnly.body.items[0]).sort()).toEqual(["gameId", "memo", "priority", "revision"]);
  });

  it("pages stably and caps the page when game is asked for", async () => {
    const account = await seeded();
    const first = await list(account, { limit: 2 });
    const second = await list(account, { limit: 2, page: 2 });
    expect(first.body).toMatchObject({ totalCount: 4, hasMore: true, returnedCount: 2 });
    expect(second.body.hasMore).toBe(false);
    expect([...ids(first), ...ids(second)]).toEqual([A, D, B, C]);
    expect((await list(account, { limit: 500 })).body).toMatchObject({ effectiveLimit: 100, limitReduced: true });
    expect((await list(account, { limit: 500, fields: [] })).body.effectiveLimit).toBe(200);
  });

  it.each([
    [{ wishDateOverdue: "late" }, "wishDateOverdue"],
    [{ priorityFrom: 0 }, "priorityFrom"],
    [{ wishPriceFrom: 5000, wishPriceTo: 1000 }, "wishPriceTo"],
    [{ wishPlace: "x".repeat(31) }, "wishPlace"],
    [{ sortBy: "rating" }, "sortBy"],
  ])("refuses %j naming %s", async (args, field) => {
    const reply = await list(await newAccount(), args);
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe(field);
  });

  it("shows only the caller's wishlist", async () => {
    const [a, b] = await Promise.all([seeded(), newAccount()]);
    expect(ids(await list(b))).toEqual([]);
    expect(ids(await list(a))).toHaveLength(4);
  });
});

describe("updateWishlistEntry", () => {
  it("patches: omitted kept, null clears; a stale revision is 409 and changes nothing", async () => {
    const account = await newAccount();
    const { revision } = (await wish(account, { gameId: A, priority: 3, wishPlace: "駅前", memo: "x" })).body;
    const updated = await account.call("updateWishlistEntry", { gameId: A, wishPlace: null, priority: 5, revision });
    expect(updated.body.item).toMatchObject({ priority: 5, wishPlace: null, memo: "x" });
    const stale = await account.call("updateWishlistEntry", { gameId: A, priority: 1, revision });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("revision_conflict");
    expect(ids(await list(account, { priorityFrom: 5 }))).toEqual([A]);
  });

  it("treats another user's entry as not found", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await wish(a, { gameId: A });
    expect((await b.call("updateWishlistEntry", { gameId: A, priority: 1 })).status).toBe(404);
  });
});

describe("removeFromWishlist (two-step)", () => {
  it("previews, then removes with the token; other users and keys without delete are refused", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    await wish(a, { gameId: A });
    expect((await b.call("removeFromWishlist", { gameId: A })).status).toBe(404);
    const writer = await a.newKey(["library:read", "library:write"]);
    expect((await callWith(writer.apiKey, "removeFromWishlist", { gameId: A })).body.code).toBe("insufficient_scope");

    const preview = await a.call("removeFromWishlist", { gameId: A });
    expect(preview.body).toMatchObject({ confirmRequired: true });
    expect(preview.body.summary).toContain("ソレイユの冒険");
    expect(ids(await list(a))).toEqual([A]);
    expect((await a.call("removeFromWishlist", { gameId: A, confirmToken: preview.body.confirmToken })).body).toEqual({
      gameId: A,
      removed: true,
    });
    expect(ids(await list(a))).toEqual([]);
  });
});
