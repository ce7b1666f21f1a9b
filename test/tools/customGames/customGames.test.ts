// Custom games over a tiny fictional master (ids 740000+, marker word ヴェルダ in every title).
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, callWith, newAccount } from "../../support/harness";
import { ean13, importFixture, insertCustomPlatform, toNdjson } from "../../support/master";

const PLATFORM = 740001;
const ROOT_GENRE = 740001;
const CHILD_GENRE = 740002;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "ヴェルダ機", nameEn: "Verda", shortName: null, maker: null, releaseDate: null }]),
    companies: toNdjson([{ companyId: 740001, name: "ヴェルダソフト", nameKana: null, nameEn: null }]),
    genres: toNdjson([
      { genreId: ROOT_GENRE, name: "ヴェルダRPG", parentId: null, taxonomyKey: "verda_rpg" },
      { genreId: CHILD_GENRE, name: "ヴェルダARPG", parentId: ROOT_GENRE, taxonomyKey: "verda_rpg.action" },
    ]),
  });
});

const add = (account: Account, args: Record<string, unknown>) => account.call("addCustomGame", { platformId: PLATFORM, ...args });
const search = (account: Account, query: string) => account.call("searchGames", { query, fields: [] });

describe("addCustomGame", () => {
  it("registers a game only its owner sees, everywhere a gameId works", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const reply = await add(owner, {
      title: "ヴェルダの試作版",
      titleReading: "ゔぇるだのしさくばん",
      titleEn: ["Verda Prototype"],
      aliases: ["ヴェル試"],
      genreId: ROOT_GENRE,
      genreSubId: CHILD_GENRE,
      releaseDate: "1995-03-01",
      janCode: ean13("274000000001"),
      modelNumber: ["VRD-001"],
      price: 4800,
    });
    expect(reply.status).toBe(200);
    const { item, revision } = reply.body;
    expect(item.gameId).toBeGreaterThanOrEqual(1_000_000_000);
    expect(item).toMatchObject({
      title: "ヴェルダの試作版",
      custom: true,
      dbSlug: null,
      platform: { platformId: PLATFORM, name: "ヴェルダ機" },
    });
    expect(item.specs).toEqual({ modelNumber: ["VRD-001"], price: 4800, janCode: ean13("274000000001") });
    expect(revision).toMatch(/^[0-9a-f]{16}$/);

    const found = await search(owner, "ヴェルダの試作");
    expect(found.body.items.map((g: { gameId: number }) => g.gameId)).toContain(item.gameId);
    expect((await owner.call("searchGames", { janCode: ean13("274000000001") })).body.items[0]).toMatchObject({
      gameId: item.gameId,
      matchedBy: "janCode",
    });
    expect((await owner.call("searchGames", { query: "ヴェル試" })).body.items[0]).toMatchObject({ matchedBy: "alias", exact: true });
    expect((await search(other, "ヴェルダの試作")).body.items).toEqual([]);
    expect((await other.call("getGamesBatch", { gameIds: [item.gameId] })).body.notFoundGameIds).toEqual([item.gameId]);
    expect((await owner.call("getAccount")).body.registered.customGames).toEqual({ count: 1, limit: 1000 });
  });

  it("may sit on the owner's custom platform, not on another user's", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const platformId = await insertCustomPlatform(owner.userId, "自作機");
    expect((await add(owner, { title: "ヴェルダ自作", platformId })).status).toBe(200);
    const refused = await add(other, { title: "ヴェルダ自作", platformId });
    expect(refused.status).toBe(404);
    expect(refused.body.field).toBe("platformId");
  });

  it.each([
    [{ title: undefined }, "title"],
    [{ title: "" }, "title"],
    [{ titleReading: "カタカナ" }, "titleReading"],
    [{ janCode: "4900000000001" }, "janCode"],
    [{ releaseDate: "1995-02-30" }, "releaseDate"],
    [{ price: -1 }, "price"],
    [{ genreId: CHILD_GENRE }, "genreId"],
    [{ dbSlug: "x" }, "dbSlug"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const account = await newAccount();
    const reply = await add(account, { title: "ヴェルダ", ...args });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("answers 404 for a platform, publisher or genre that does not exist", async () => {
    const account = await newAccount();
    expect((await add(account, { title: "ヴェルダ", platformId: 749999 })).body).toMatchObject({ code: "not_found", field: "platformId" });
    expect((await add(account, { title: "ヴェルダ", publisherId: 749999 })).body.field).toBe("publisherId");
    expect((await add(account, { title: "ヴェルダ", genreSubId: 749999 })).body.field).toBe("genreSubId");
  });

  it("gives 20 parallel adds of one user and parallel adds of another distinct ids, all succeeding", async () => {
    const [first, second] = await Promise.all([newAccount(), newAccount()]);
    const replies = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => add(first, { title: `ヴェルダ並行${i}` })),
      ...Array.from({ length: 8 }, (_, i) => add(second, { title: `ヴェルダ並走${i}` })),
    ]);
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    const ids = replies.map((r) => r.body.item.gameId as number);
    expect(new Set(ids).size).toBe(28);
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(1_000_000_000);
    }
    expect((await first.call("getAccount")).body.registered.customGames.count).toBe(20);
    const batch = await first.call("getGamesBatch", { gameIds: ids.slice(0, 20) });
    expect(batch.body.items.map((g: { title: string }) => g.title).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `ヴェルダ並行${i}`).sort(),
    );
  });

  it("numbers custom games so that an id does not count the service's custom games", async () => {
    const account = await newAccount();
    const a = (await add(account, { title: "ヴェルダ番号一" })).body.item.gameId as number;
    const b = (await add(account, { title: "ヴェルダ番号二" })).body.item.gameId as number;
    // Consecutive adds do not get neighbouring ids (a random id repeats a neighbour with odds ~1e-15).
    expect(Math.abs(b - a)).toBeGreaterThan(1_000);
  });

  it("is PREMIUM only and needs library:write", async () => {
    for (const plan of ["FREE", "LIGHT"] as const) {
      const reply = await add(await newAccount({ plan }), { title: "ヴェルダ" });
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe("plan_required");
    }
    expect((await add(await newAccount({ scopes: ["games:read"] }), { title: "ヴェルダ" })).body.code).toBe("insufficient_scope");
  });
});

describe("updateCustomGame", () => {
  it("keeps omitted fields, clears null ones, re-indexes search and returns a new revision", async () => {
    const account = await newAccount();
    const { item, revision } = (await add(account, { title: "ヴェルダ旧題", releaseDate: "1990-01-01", aliases: ["旧ヴェル"] })).body;
    const reply = await account.call("updateCustomGame", { gameId: item.gameId, title: "ヴェルダ新題", releaseDate: null, revision });
    expect(reply.status).toBe(200);
    expect(reply.body.item).toMatchObject({ title: "ヴェルダ新題", releaseDate: null });
    expect(reply.body.revision).not.toBe(revision);
    expect((await search(account, "ヴェルダ新題")).body.items[0].gameId).toBe(item.gameId);
    // The old title matches only through the fallback within one edit (旧 -> 新), never as typed.
    const old = await search(account, "ヴェルダ旧題");
    expect(old.body.items.map((i: { exact: boolean }) => i.exact)).toEqual([false]);
    expect(old.body.hint).toContain("as typed");
    // Two-character terms go through their own index, which must follow the update too.
    expect((await search(account, "新題")).body.items.map((i: { gameId: number }) => i.gameId)).toEqual([item.gameId]);
    expect((await search(account, "旧題")).body.items).toEqual([]);
    expect((await account.call("searchGames", { query: "旧ヴェル" })).body.items[0].gameId).toBe(item.gameId);
  });

  it("answers 409 revision_conflict for a stale revision and changes nothing", async () => {
    const account = await newAccount();
    const { item, revision } = (await add(account, { title: "ヴェルダ改" })).body;
    await account.call("updateCustomGame", { gameId: item.gameId, price: 1000 });
    const stale = await account.call("updateCustomGame", { gameId: item.gameId, title: "ヴェルダ改二", revision });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("revision_conflict");
    expect((await account.call("getGamesBatch", { gameIds: [item.gameId] })).body.items[0].title).toBe("ヴェルダ改");
  });

  it("lets one of several racing updates with one revision through; the others are 409 and wrote nothing (issue 21, item 1)", async () => {
    const account = await newAccount();
    const { item, revision } = (await add(account, { title: "ヴェルダ競争" })).body;
    const titles = ["ヴェルダ甲", "ヴェルダ乙", "ヴェルダ丙"];
    const replies = await Promise.all(titles.map((title) => account.call("updateCustomGame", { gameId: item.gameId, title, revision })));
    expect(replies.map((r) => r.status).sort(), JSON.stringify(replies.map((r) => r.body))).toEqual([200, 409, 409]);
    const winner = titles[replies.findIndex((r) => r.status === 200)];
    expect((await account.call("getGamesBatch", { gameIds: [item.gameId] })).body.items[0].title).toBe(winner);
  });

  it("never lets a patch without revision undo a concurrent patch of another field (issue 21, item 1)", async () => {
    const account = await newAccount();
    const { item } = (await add(account, { title: "ヴェルダ並行" })).body;
    for (let round = 1; round <= 8; round++) {
      const [priced, dated] = await Promise.all([
        account.call("updateCustomGame", { gameId: item.gameId, price: round * 100 }),
        account.call("updateCustomGame", { gameId: item.gameId, releaseDate: `199${round}-01-01` }),
      ]);
      const { specs, releaseDate } = (await account.call("getGamesBatch", { gameIds: [item.gameId] })).body.items[0];
      // Each patch answered 200 is kept; a 409 wrote nothing.
      if (priced.status === 200) expect(specs.price, `round ${round}`).toBe(round * 100);
      else expect(priced.body.code, JSON.stringify(priced.body)).toBe("revision_conflict");
      if (dated.status === 200) expect(releaseDate, `round ${round}`).toBe(`199${round}-01-01`);
      else expect(dated.body.code, JSON.stringify(dated.body)).toBe("revision_conflict");
    }
  });

  it("still takes updates once a custom publisher's removal changed the game behind its revision", async () => {
    const account = await newAccount();
    const { companyId } = (await account.call("addCustomPublisher", { name: "ヴェルダ同人" })).body.item;
    const { item, revision } = (await add(account, { title: "ヴェルダ同人作", publisherId: companyId })).body;
    const { confirmToken } = (await account.call("removeCustomPublisher", { companyId })).body;
    expect((await account.call("removeCustomPublisher", { companyId, confirmToken })).status).toBe(200);
    expect((await account.call("updateCustomGame", { gameId: item.gameId, title: "ヴェルダ改題", revision })).body.code).toBe(
      "revision_conflict",
    );
    const reply = await account.call("updateCustomGame", { gameId: item.gameId, title: "ヴェルダ改題" });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({ title: "ヴェルダ改題", publisher: null });
  });

  it("treats another user's game and official games as not found", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const { item } = (await add(owner, { title: "ヴェルダ私物" })).body;
    expect((await other.call("updateCustomGame", { gameId: item.gameId, title: "x" })).status).toBe(404);
    expect((await owner.call("updateCustomGame", { gameId: 1, title: "x" })).status).toBe(404);
    expect((await owner.call("updateCustomGame", { gameId: item.gameId, title: null })).body.field).toBe("title");
  });
});

describe("removeCustomGame (two-step)", () => {
  it("previews, then removes with the token; search no longer finds it", async () => {
    const account = await newAccount();
    const { item } = (await add(account, { title: "ヴェルダ消去予定" })).body;
    const preview = await account.call("removeCustomGame", { gameId: item.gameId });
    expect(preview.body).toMatchObject({ confirmRequired: true });
    expect(preview.body.summary).toContain("ヴェルダ消去予定");
    expect((await search(account, "ヴェルダ消去予定")).body.items).toHaveLength(1);
    const done = await account.call("removeCustomGame", { gameId: item.gameId, confirmToken: preview.body.confirmToken });
    expect(done.body).toEqual({ gameId: item.gameId, removed: true });
    expect((await search(account, "ヴェルダ消去予定")).body.items).toEqual([]);
    expect((await search(account, "消去")).body.items).toEqual([]);
  });

  it("answers a game changed after the preview with a fresh preview", async () => {
    const account = await newAccount();
    const { item } = (await add(account, { title: "ヴェルダ変化" })).body;
    const { confirmToken } = (await account.call("removeCustomGame", { gameId: item.gameId })).body;
    await account.call("updateCustomGame", { gameId: item.gameId, title: "ヴェルダ変化後" });
    const reply = await account.call("removeCustomGame", { gameId: item.gameId, confirmToken });
    expect(reply.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(reply.body.summary).toContain("ヴェルダ変化後");
    expect((await search(account, "ヴェルダ変化後")).body.items).toHaveLength(1);
  });

  it("treats another user's game as not found and needs library:delete", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const { item } = (await add(owner, { title: "ヴェルダ他人" })).body;
    expect((await other.call("removeCustomGame", { gameId: item.gameId })).status).toBe(404);
    const writer = await owner.newKey(["library:read", "library:write", "games:read"]);
    expect((await callWith(writer.apiKey, "removeCustomGame", { gameId: item.gameId })).body.code).toBe("insufficient_scope");
  });
});
