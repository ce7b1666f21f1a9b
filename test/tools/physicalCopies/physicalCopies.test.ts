// Physical copies over a tiny fictional master (ids 770000+, marker word アステル in every title).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, newAccount, player } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";
import { headStartOf, RACE_ROUNDS, race } from "../../support/race";
import { expectError } from "../../support/replies";

const GAME = 770101;
beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: 770001, name: "アステル機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson([
      fictionalGame({
        gameId: GAME,
        title: "アステル物語",
        titleReading: "あすてるものがたり",
        platformId: 770001,
        releaseDate: "1992-02-02",
      }),
    ]),
  });
});

const LIBRARY = { gameId: GAME, rating: 4, buyDate: "2020-01-01", buyPrice: 3000, buyPlace: "中古屋", memo: "初代", attributes: ["box"] };

async function owner(): Promise<Account> {
  const account = await newAccount();
  expect((await account.call("addToLibrary", LIBRARY)).status).toBe(200);
  return account;
}
const copies = (account: Account) => account.call("getPhysicalCopies", { gameId: GAME }, "GET");
const revisionOf = async (account: Account) => (await copies(account)).body.revision as string;
const add = async (account: Account, args: Record<string, unknown>) =>
  account.call("addPhysicalCopy", { gameId: GAME, revision: await revisionOf(account), ...args });
const library = async (account: Account) =>
  (await account.call("getLibrary", { fields: ["purchase", "memo", "attributes"] })).body.items[0];

describe("addPhysicalCopy: the transition table", () => {
  it("materialize with no copies: one copy that inherits the library entry", async () => {
    const account = await owner();
    const reply = await add(account, { mode: "materialize" });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ remainingCount: 1, libraryEntryRetained: true, librarySynced: false });
    expect(reply.body.createdPhysicalIds).toEqual([reply.body.item.physicalId]);
    expect(reply.body.activePhysicalId).toBe(reply.body.item.physicalId);
    expect(reply.body.item).toMatchObject({
      gameId: GAME,
      quantity: 1,
      isActive: true,
      rating: 4,
      buyDate: "2020-01-01",
      buyPrice: 3000,
      buyPlace: "中古屋",
      memo: "初代",
      editionRef: { kind: "base" },
    });
    expect(reply.body.item.attributes.map((a: { id: string }) => a.id)).toEqual(["box"]);
    expect(reply.body.revision).toBe(await revisionOf(account));
  });

  it("additional with no copies: the inherited original and the new copy, created together", async () => {
    const account = await owner();
    const reply = await add(account, { mode: "additional", buyPrice: 500, buyPlace: "フリマ", quantity: 2 });
    expect(reply.body.createdPhysicalIds).toHaveLength(2);
    const list = (await copies(account)).body;
    expect(list.totalCount).toBe(2);
    const [original, extra] = list.items;
    expect(original).toMatchObject({ buyPrice: 3000, buyPlace: "中古屋", isActive: true, quantity: 1 });
    expect(extra).toMatchObject({ buyPrice: 500, buyPlace: "フリマ", isActive: false, quantity: 2, rating: null });
    expect(reply.body).toMatchObject({ activePhysicalId: original.physicalId, remainingCount: 2, librarySynced: false });
    expect((await library(account)).buyPrice).toBe(3000);
  });

  it("additional with copies: one more row and a new revision", async () => {
    const account = await owner();
    await add(account, { mode: "materialize" });
    const before = await revisionOf(account);
    const reply = await account.call("addPhysicalCopy", { gameId: GAME, mode: "additional", revision: before, memo: "二本目" });
    expect(reply.body.createdPhysicalIds).toHaveLength(1);
    expect(reply.body.remainingCount).toBe(2);
    expect(reply.body.revision).not.toBe(before);
  });

  it("makeActive: the copy becomes representative and overwrites the library entry", async () => {
    const account = await owner();
    await add(account, { mode: "materialize" });
    const reply = await add(account, {
      mode: "additional",
      makeActive: true,
      buyPrice: 9800,
      buyPlace: "専門店",
      rating: 5,
      memo: "美品",
      attributes: ["sealed"],
    });
    expect(reply.body).toMatchObject({ librarySynced: true, activePhysicalId: reply.body.item.physicalId });
    expect((await copies(account)).body.items.map((c: { isActive: boolean }) => c.isActive)).toEqual([false, true]);
    expect(await library(account)).toMatchObject({ buyPrice: 9800, buyPlace: "専門店", rating: 5, memo: "美品", buyDate: null });
    expect((await library(account)).attributes.map((a: { id: string }) => a.id)).toEqual(["sealed"]);
  });

  it("refuses materialize once copies exist (409 already_exists), writing nothing", async () => {
    const account = await owner();
    await add(account, { mode: "materialize" });
    const reply = await add(account, { mode: "materialize" });
    expectError(reply, 409, "already_exists");
    expect((await copies(account)).body.totalCount).toBe(1);
  });

  it("refuses a stale revision (409 revision_conflict), writing nothing", async () => {
    const account = await owner();
    const stale = await revisionOf(account);
    await add(account, { mode: "materialize" });
    const reply = await account.call("addPhysicalCopy", { gameId: GAME, mode: "additional", revision: stale });
    expectError(reply, 409, "revision_conflict");
    expect((await copies(account)).body.totalCount).toBe(1);
  });

  it("lets exactly one of two racing writers with one revision through", async () => {
    const account = await owner();
    const revision = await revisionOf(account);
    const replies = await Promise.all([1, 2].map(() => account.call("addPhysicalCopy", { gameId: GAME, mode: "additional", revision })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await copies(account)).body.totalCount).toBe(2);
  });

  it("needs the library entry, PREMIUM, a mode and a revision", async () => {
    const account = await newAccount();
    expect((await account.call("addPhysicalCopy", { gameId: GAME, mode: "materialize", revision: "x" })).status).toBe(404);
    const light = await newAccount({ plan: "LIGHT" });
    expect((await light.call("addPhysicalCopy", { gameId: GAME, mode: "materialize", revision: "x" })).body.code).toBe("plan_required");
    const premium = await owner();
    expect((await premium.call("addPhysicalCopy", { gameId: GAME, revision: "x" })).body.field).toBe("mode");
    expect((await premium.call("addPhysicalCopy", { gameId: GAME, mode: "additional" })).body.field).toBe("revision");
    expect((await premium.call("addPhysicalCopy", { gameId: GAME, mode: "sometimes", revision: "x" })).body.field).toBe("mode");
    expect((await premium.call("addPhysicalCopy", { gameId: GAME, mode: "additional", revision: "x", quantity: 0 })).body.field).toBe(
      "quantity",
    );
    expect(
      (await premium.call("addPhysicalCopy", { gameId: GAME, mode: "additional", revision: "x", editionRef: { kind: "limited" } })).status,
    ).toBe(400);
  });
});

describe("updatePhysicalCopy", () => {
  it("patches a copy; changing the representative keeps the library in step", async () => {
    const account = await owner();
    const { item } = (await add(account, { mode: "materialize" })).body;
    const reply = await account.call("updatePhysicalCopy", {
      physicalId: item.physicalId,
      revision: await revisionOf(account),
      memo: "箱傷み",
      buyPlace: null,
    });
    expect(reply.body.item).toMatchObject({ memo: "箱傷み", buyPlace: null, buyPrice: 3000 });
    expect(reply.body.librarySynced).toBe(true);
    expect(await library(account)).toMatchObject({ memo: "箱傷み", buyPlace: null });
  });

  it("leaves the library alone when a non-representative copy changes; a stale revision is 409", async () => {
    const account = await owner();
    const { createdPhysicalIds } = (await add(account, { mode: "additional" })).body;
    const stale = await revisionOf(account);
    const reply = await account.call("updatePhysicalCopy", { physicalId: createdPhysicalIds[1], revision: stale, memo: "予備" });
    expect(reply.body.librarySynced).toBe(false);
    expect((await library(account)).memo).toBe("初代");
    expect((await account.call("updatePhysicalCopy", { physicalId: createdPhysicalIds[1], revision: stale, memo: "x" })).status).toBe(409);
  });

  it("treats another user's copy as not found", async () => {
    const [a, b] = await Promise.all([owner(), owner()]);
    const { item } = (await add(a, { mode: "materialize" })).body;
    expect((await b.call("updatePhysicalCopy", { physicalId: item.physicalId, revision: await revisionOf(b), memo: "x" })).status).toBe(
      404,
    );
    expect((await b.call("getPhysicalCopies", { gameId: GAME })).body.totalCount).toBe(0);
  });
});

describe("removePhysicalCopy and removeFromLibrary", () => {
  it("removes a copy in two steps; the oldest remaining copy inherits the representative role", async () => {
    const account = await owner();
    const { createdPhysicalIds } = (await add(account, { mode: "additional" })).body;
    const [original, extra] = createdPhysicalIds;
    const preview = await account.call("removePhysicalCopy", { physicalId: original });
    expect(preview.body).toMatchObject({ confirmRequired: true });
    expect(preview.body.summary).toContain("1 left");
    expect((await copies(account)).body.totalCount).toBe(2);
    const done = await account.call("removePhysicalCopy", { physicalId: original, confirmToken: preview.body.confirmToken });
    expect(done.body).toMatchObject({ removed: true, remainingCount: 1, activePhysicalId: extra, libraryEntryRetained: true });
    expect((await copies(account)).body.items[0]).toMatchObject({ physicalId: extra, isActive: true });
  });

  it("takes no revision", async () => {
    const account = await owner();
    const { item } = (await add(account, { mode: "materialize" })).body;
    const reply = await account.call("removePhysicalCopy", { physicalId: item.physicalId, revision: await revisionOf(account) });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toBe("revision");
  });

  it("removing the game from the library says how many copies go, and takes them", async () => {
    const account = await owner();
    await add(account, { mode: "additional" });
    const preview = await account.call("removeFromLibrary", { gameId: GAME });
    expect(preview.body.summary).toContain("2 physical copies");
    await account.call("removeFromLibrary", { gameId: GAME, confirmToken: preview.body.confirmToken });
    await account.call("addToLibrary", { gameId: GAME });
    expect((await copies(account)).body.totalCount).toBe(0);
  });

  it("removing an attribute takes it off copies too", async () => {
    const account = await owner();
    const { id } = (await account.call("addAttribute", { label: "帯あり" })).body.item;
    await add(account, { mode: "additional", attributes: [id] });
    const preview = await account.call("removeAttribute", { attribute: id });
    expect(preview.body.summary).toContain("1 physical copy");
    await account.call("removeAttribute", { attribute: id, confirmToken: preview.body.confirmToken });
    expect((await copies(account)).body.items[1].attributes).toEqual([]);
  });
});

describe("the representative copy and the library agree (issue 13)", () => {
  it("materialize with values that differ from the library entry syncs them into the entry", async () => {
    const account = await owner();
    const reply = await add(account, { mode: "materialize", buyPrice: 2500, memo: "箱潰れ", rating: 2, attributes: [] });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ librarySynced: true, activePhysicalId: reply.body.item.physicalId });
    // The copy's own values, with the entry's date and place where the copy names none.
    const synced = { buyPrice: 2500, memo: "箱潰れ", rating: 2, buyDate: "2020-01-01", buyPlace: "中古屋", attributes: [] };
    expect(reply.body.item).toMatchObject({ isActive: true, ...synced });
    expect(await library(account)).toMatchObject(synced);
    expect(reply.body.revision).toBe(await revisionOf(account));
  });
});

describe("under concurrency (issue 13)", () => {
  it("answers addPhysicalCopy racing removeFromLibrary with its result or 404, never 500, and leaves no copy behind", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    const statuses: number[] = [];
    // Without the library entry re-checked in the writing batch, this failed at head starts 2 and 3.
    for (let round = 0; round < RACE_ROUNDS; round++) {
      expect((await p.call("addToLibrary", LIBRARY)).status).toBe(200);
      const revision = (await p.call("getPhysicalCopies", { gameId: GAME }, "GET")).body.revision;
      const { confirmToken } = (await p.call("removeFromLibrary", { gameId: GAME })).body;
      const [removed, added] = await race(
        () => p.call("removeFromLibrary", { gameId: GAME, confirmToken }),
        () => p.call("addPhysicalCopy", { gameId: GAME, mode: "additional", revision, buyPrice: round }),
        headStartOf(round),
      );
      statuses.push(added.status);
      expect([200, 404], JSON.stringify(added.body)).toContain(added.status);
      if (removed.body.removed !== true) {
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        expect((await p.call("removeFromLibrary", { gameId: GAME, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
      const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM physical_copies WHERE user_id = ? AND game_id = ?")
        .bind(p.account.userId, GAME)
        .first<number>("n");
      expect(left).toBe(0);
    }
    expect(statuses).not.toContain(500);
  }, 60_000);
});
