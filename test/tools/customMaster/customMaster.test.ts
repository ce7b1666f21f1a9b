// Custom platforms and publishers (PREMIUM) over a tiny fictional master (ids 830000+, marker
// word オルビナ in every name). Custom records are made through the tools themselves.
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { randomCustomId } from "../../../src/platform/customIds";
import { createDb } from "../../../src/platform/db";
import { ApiError } from "../../../src/platform/errors";
import { REGISTERED_LIMITS } from "../../../src/platform/plans";
import { runConditional } from "../../../src/platform/registeredLimits";
import { type Account, callWith, newAccount, type Reply } from "../../support/harness";
import { importFixture, importMaster, insertCustomCompany, insertCustomPlatform, toNdjson } from "../../support/master";

const OFFICIAL_PLATFORM = 830001;
const OFFICIAL_COMPANY = 830001;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([
      { platformId: OFFICIAL_PLATFORM, name: "オルビナ公式機", nameEn: "Orbina", shortName: null, maker: null, releaseDate: null },
    ]),
    companies: toNdjson([{ companyId: OFFICIAL_COMPANY, name: "オルビナ公式社", nameKana: "おるびなこうしきしゃ", nameEn: null }]),
  });
});

const addPlatform = (account: Account, args: Record<string, unknown>) => account.call("addCustomPlatform", args);
const addPublisher = (account: Account, args: Record<string, unknown>) => account.call("addCustomPublisher", args);
async function newPlatform(account: Account, name: string, args: Record<string, unknown> = {}): Promise<number> {
  const reply = await addPlatform(account, { name, ...args });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.item.platformId;
}
async function newPublisher(account: Account, name: string, args: Record<string, unknown> = {}): Promise<number> {
  const reply = await addPublisher(account, { name, ...args });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.item.companyId;
}

/** Every item of listPlatforms / listPublishers (all pages). */
async function listed(account: Account, tool: "listPlatforms" | "listPublishers", args: Record<string, unknown> = {}) {
  const items: any[] = [];
  for (let page = 1; page <= 100; page++) {
    const reply = await account.call(tool, { ...args, page, limit: 100 });
    expect(reply.status).toBe(200);
    items.push(...reply.body.items);
    if (!reply.body.hasMore) break;
  }
  return items;
}

/** Runs a two-step removal to the end; the confirmation's reply. */
async function removeConfirmed(account: Account, tool: string, args: Record<string, unknown>): Promise<Reply> {
  const preview = await account.call(tool, args);
  expect(preview.body.confirmRequired, JSON.stringify(preview.body)).toBe(true);
  return account.call(tool, { ...args, confirmToken: preview.body.confirmToken });
}

const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();

describe("addCustomPlatform", () => {
  it("registers a platform only its owner sees, with a random id in the custom range", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const reply = await addPlatform(owner, {
      name: "オルビナ自作機",
      nameEn: "Orbina DIY",
      shortName: "ODIY",
      maker: "自宅工房",
      releaseDate: "2001-02-03",
    });
    expect(reply.status).toBe(200);
    const { item, revision } = reply.body;
    expect(item).toEqual({
      platformId: item.platformId,
      name: "オルビナ自作機",
      nameEn: "Orbina DIY",
      shortName: "ODIY",
      maker: "自宅工房",
      releaseDate: "2001-02-03",
      custom: true,
    });
    expect(item.platformId).toBeGreaterThanOrEqual(1_000_000_000);
    expect(Number.isSafeInteger(item.platformId)).toBe(true);
    expect(revision).toMatch(/^[0-9a-f]{16}$/);

    const mine = await listed(owner, "listPlatforms");
    expect(mine.find((p) => p.platformId === item.platformId)).toEqual({ ...item, gameCount: 0 });
    expect(mine.find((p) => p.platformId === OFFICIAL_PLATFORM)).toMatchObject({ custom: false });
    expect((await listed(other, "listPlatforms")).some((p) => p.platformId === item.platformId)).toBe(false);
    expect((await owner.call("getAccount")).body.registered.customPlatforms).toEqual({ count: 1, limit: 100 });
  });

  it("defaults omitted fields to null", async () => {
    const account = await newAccount();
    const { item } = (await addPlatform(account, { name: "オルビナ最小" })).body;
    expect(item).toMatchObject({ name: "オルビナ最小", nameEn: null, shortName: null, maker: null, releaseDate: null, custom: true });
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "x".repeat(101) }, "name"],
    [{ name: "オルビナ", shortName: "x".repeat(21) }, "shortName"],
    [{ name: "オルビナ", releaseDate: "2001-02-30" }, "releaseDate"],
    [{ name: "オルビナ", platformId: 5 }, "platformId"],
    [{ name: "オルビナ", custom: true }, "custom"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const reply = await addPlatform(await newAccount(), args);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("refuses a name the user already gave a custom platform (409), even from parallel calls", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const replies = await Promise.all(Array.from({ length: 6 }, () => addPlatform(owner, { name: "オルビナ重複機" })));
    expect(statuses(replies)).toEqual([200, 409, 409, 409, 409, 409]);
    expect(replies.find((r) => r.status === 409)!.body).toMatchObject({ code: "already_exists", field: "name" });
    // Another user's name and an official platform's name are not the user's own names.
    expect((await addPlatform(other, { name: "オルビナ重複機" })).status).toBe(200);
    expect((await addPlatform(owner, { name: "オルビナ公式機" })).status).toBe(200);
    expect((await owner.call("getAccount")).body.registered.customPlatforms.count).toBe(2);
  });

  it("gives parallel adds distinct ids, all succeeding", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const replies = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => addPlatform(a, { name: `オルビナ並行${i}` })),
      ...Array.from({ length: 5 }, (_, i) => addPlatform(b, { name: `オルビナ並行${i}` })),
    ]);
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    expect(new Set(replies.map((r) => r.body.item.platformId)).size).toBe(15);
  });

  it("stops at the plan's limit inside the batch, even for parallel adds", async () => {
    const account = await newAccount();
    const limit = REGISTERED_LIMITS.customPlatforms.PREMIUM;
    await Promise.all(Array.from({ length: limit - 2 }, (_, i) => insertCustomPlatform(account.userId, `オルビナ既存${i}`)));
    const replies = await Promise.all(Array.from({ length: 5 }, (_, i) => addPlatform(account, { name: `オルビナ限界${i}` })));
    expect(statuses(replies)).toEqual([200, 200, 403, 403, 403]);
    expect(replies.find((r) => r.status === 403)!.body).toMatchObject({ code: "plan_required" });
    expect((await account.call("getAccount")).body.registered.customPlatforms).toEqual({ count: limit, limit });
  });

  it("is PREMIUM only and needs library:write", async () => {
    for (const plan of ["FREE", "LIGHT"] as const) {
      const reply = await addPlatform(await newAccount({ plan }), { name: "オルビナ" });
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe("plan_required");
    }
    const reader = await newAccount({ scopes: ["games:read", "library:read"] });
    expect((await addPlatform(reader, { name: "オルビナ" })).body.code).toBe("insufficient_scope");
  });
});

describe("updateCustomPlatform", () => {
  it("patches only the fields sent, null clears, and answers a new revision", async () => {
    const account = await newAccount();
    const { item, revision } = (await addPlatform(account, { name: "オルビナ旧名", nameEn: "Old", maker: "工房" })).body;
    const reply = await account.call("updateCustomPlatform", { platformId: item.platformId, name: "オルビナ新名", maker: null, revision });
    expect(reply.status).toBe(200);
    expect(reply.body.item).toEqual({ ...item, name: "オルビナ新名", maker: null });
    expect(reply.body.revision).not.toBe(revision);
    expect((await listed(account, "listPlatforms")).find((p) => p.platformId === item.platformId)).toMatchObject({
      name: "オルビナ新名",
      nameEn: "Old",
      maker: null,
    });
  });

  it("answers 409 revision_conflict for a stale revision, and lets one of parallel updates with it win", async () => {
    const account = await newAccount();
    const { item, revision } = (await addPlatform(account, { name: "オルビナ改" })).body;
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        account.call("updateCustomPlatform", { platformId: item.platformId, nameEn: `Rev ${i}`, revision }),
      ),
    );
    expect(statuses(replies)).toEqual([200, 409, 409, 409]);
    expect(replies.find((r) => r.status === 409)!.body).toMatchObject({ code: "revision_conflict", field: "revision" });
    const winner = replies.find((r) => r.status === 200)!.body.item.nameEn;
    expect((await listed(account, "listPlatforms")).find((p) => p.platformId === item.platformId).nameEn).toBe(winner);
  });

  it("applies parallel patches without a revision on top of each other", async () => {
    const account = await newAccount();
    const platformId = await newPlatform(account, "オルビナ合成");
    const replies = await Promise.all([
      account.call("updateCustomPlatform", { platformId, nameEn: "Merged" }),
      account.call("updateCustomPlatform", { platformId, maker: "合成工房" }),
      account.call("updateCustomPlatform", { platformId, shortName: "OM" }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await listed(account, "listPlatforms")).find((p) => p.platformId === platformId)).toMatchObject({
      name: "オルビナ合成",
      nameEn: "Merged",
      maker: "合成工房",
      shortName: "OM",
    });
  });

  it("refuses a name of another of the user's platforms (409), a null name (400), and others' or official ids (404)", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const first = await newPlatform(owner, "オルビナ一号");
    await newPlatform(owner, "オルビナ二号");
    expect((await owner.call("updateCustomPlatform", { platformId: first, name: "オルビナ二号" })).body).toMatchObject({
      code: "already_exists",
      field: "name",
    });
    expect((await owner.call("updateCustomPlatform", { platformId: first, name: null })).body).toMatchObject({
      code: "invalid_input",
      field: "name",
    });
    expect((await other.call("updateCustomPlatform", { platformId: first, name: "x" })).body.code).toBe("not_found");
    expect((await owner.call("updateCustomPlatform", { platformId: OFFICIAL_PLATFORM, name: "x" })).status).toBe(404);
    expect((await owner.call("updateCustomPlatform", { platformId: 2 ** 53, name: "x" })).body.field).toBe("platformId");
  });

  it("is PREMIUM only and needs library:write", async () => {
    const owner = await newAccount();
    const platformId = await newPlatform(owner, "オルビナ権限");
    const reader = await owner.newKey(["games:read", "library:read"]);
    expect((await callWith(reader.apiKey, "updateCustomPlatform", { platformId, name: "x" })).body.code).toBe("insufficient_scope");
    expect((await (await newAccount({ plan: "LIGHT" })).call("updateCustomPlatform", { platformId, name: "x" })).body.code).toBe(
      "plan_required",
    );
  });
});

describe("removeCustomPlatform (two-step)", () => {
  it("previews, then removes with the token; consoles stop listing it", async () => {
    const account = await newAccount();
    const platformId = await newPlatform(account, "オルビナ消去機");
    const console = await account.call("addConsole", {
      name: "オルビナ本体",
      platformPriorities: [
        { platformId, priority: 5 },
        { platformId: OFFICIAL_PLATFORM, priority: 1 },
      ],
    });
    expect(console.status).toBe(200);
    const consoleId = console.body.item.consoleId;

    const preview = await account.call("removeCustomPlatform", { platformId });
    expect(preview.body).toMatchObject({ confirmRequired: true, targetChanged: false });
    expect(preview.body.summary).toBe("Removes your custom platform 'オルビナ消去機'. 1 console stops listing it: 'オルビナ本体'.");
    expect((await listed(account, "listPlatforms")).some((p) => p.platformId === platformId)).toBe(true);
    const done = await account.call("removeCustomPlatform", { platformId, confirmToken: preview.body.confirmToken });
    expect(done.body).toEqual({ platformId, removed: true });

    expect((await listed(account, "listPlatforms")).some((p) => p.platformId === platformId)).toBe(false);
    const consoles = await account.call("getConsoles", { fields: ["platforms"] });
    const item = consoles.body.items.find((c: { consoleId: string }) => c.consoleId === consoleId);
    expect(item.platforms).toEqual([{ platformId: OFFICIAL_PLATFORM, name: "オルビナ公式機", priority: 1 }]);
    expect((await account.call("getAccount")).body.registered.customPlatforms.count).toBe(0);
    expect((await account.call("addCustomGame", { title: "オルビナ", platformId })).body).toMatchObject({
      code: "not_found",
      field: "platformId",
    });
  });

  it("refuses a platform that custom games or a PLATFORM collection use (400 naming platformId)", async () => {
    const account = await newAccount();
    const platformId = await newPlatform(account, "オルビナ使用中");
    const game = (await account.call("addCustomGame", { title: "オルビナの遊び", platformId })).body.item;
    const refused = await account.call("removeCustomPlatform", { platformId });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "invalid_input", field: "platformId", customGameCount: 1, collectionCount: 0 });
    expect(refused.body.message).toContain("1 of your custom games");

    // Moving the game away frees the platform; a PLATFORM collection holds it again.
    expect((await account.call("updateCustomGame", { gameId: game.gameId, platformId: OFFICIAL_PLATFORM })).status).toBe(200);
    const collection = await account.call("addCollection", { name: "オルビナ全部", type: "PLATFORM", platformId });
    expect(collection.status).toBe(200);
    expect((await account.call("removeCustomPlatform", { platformId })).body).toMatchObject({
      field: "platformId",
      customGameCount: 0,
      collectionCount: 1,
    });
    expect((await removeConfirmed(account, "removeCollection", { collectionId: collection.body.item.collectionId })).status).toBe(200);
    expect((await removeConfirmed(account, "removeCustomPlatform", { platformId })).body).toEqual({ platformId, removed: true });
  });

  it("answers a platform changed after the preview with a fresh preview", async () => {
    const account = await newAccount();
    const platformId = await newPlatform(account, "オルビナ変化");
    const { confirmToken } = (await account.call("removeCustomPlatform", { platformId })).body;
    await account.call("updateCustomPlatform", { platformId, name: "オルビナ変化後" });
    const reply = await account.call("removeCustomPlatform", { platformId, confirmToken });
    expect(reply.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(reply.body.summary).toContain("オルビナ変化後");
    expect((await listed(account, "listPlatforms")).some((p) => p.platformId === platformId)).toBe(true);
  });

  it("asks again when another console lists the platform instead since the preview, though as many do (issue 21)", async () => {
    const account = await newAccount();
    const platformId = await newPlatform(account, "オルビナ入替機");
    const listing = async (name: string) =>
      (await account.call("addConsole", { name, platformPriorities: [{ platformId, priority: 3 }] })).body.item.consoleId as string;
    const first = await listing("オルビナ旧本体");
    const preview = await account.call("removeCustomPlatform", { platformId });
    expect((await removeConfirmed(account, "removeConsole", { consoleId: first })).status).toBe(200);
    await listing("オルビナ新本体");
    const reply = await account.call("removeCustomPlatform", { platformId, confirmToken: preview.body.confirmToken });
    expect(reply.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(reply.body.summary).toContain("1 console stops listing it: 'オルビナ新本体'.");
  });

  it("never leaves a custom game on a removed platform when the add and the removal race", async () => {
    for (let round = 0; round < 3; round++) {
      const account = await newAccount();
      const platformId = await newPlatform(account, `オルビナ競争${round}`);
      const { confirmToken } = (await account.call("removeCustomPlatform", { platformId })).body;
      const [added, removed] = await Promise.all([
        account.call("addCustomGame", { title: `オルビナ競争ソフト${round}`, platformId }),
        account.call("removeCustomPlatform", { platformId, confirmToken }),
      ]);
      if (added.status === 200) {
        // The game won: the removal was refused (or re-previewed), the platform is still there.
        expect(removed.body.removed).toBeUndefined();
        expect((await listed(account, "listPlatforms")).find((p) => p.platformId === platformId)).toMatchObject({ gameCount: 1 });
      } else {
        expect(added.body).toMatchObject({ code: "not_found", field: "platformId" });
        expect(removed.body).toEqual({ platformId, removed: true });
        expect((await account.call("getAccount")).body.registered.customGames.count).toBe(0);
      }
    }
  });

  it("treats another user's and official platforms as not found, and needs library:delete", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const platformId = await newPlatform(owner, "オルビナ他人");
    expect((await other.call("removeCustomPlatform", { platformId })).status).toBe(404);
    expect((await owner.call("removeCustomPlatform", { platformId: OFFICIAL_PLATFORM })).status).toBe(404);
    const writer = await owner.newKey(["library:read", "library:write", "games:read"]);
    expect((await callWith(writer.apiKey, "removeCustomPlatform", { platformId })).body.code).toBe("insufficient_scope");
    expect((await (await newAccount({ plan: "LIGHT" })).call("removeCustomPlatform", { platformId })).body.code).toBe("plan_required");
  });
});

describe("custom publishers", () => {
  it("addCustomPublisher: only the owner sees it; listPublishers finds it by name, kana or English", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const reply = await addPublisher(owner, { name: "オルビナ同人会", nameKana: "オルビナドウジンカイ", nameEn: "Orbina Circle" });
    expect(reply.status).toBe(200);
    const { item, revision } = reply.body;
    expect(item).toEqual({
      companyId: item.companyId,
      name: "オルビナ同人会",
      nameKana: "オルビナドウジンカイ",
      nameEn: "Orbina Circle",
      custom: true,
    });
    expect(item.companyId).toBeGreaterThanOrEqual(1_000_000_000);
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    for (const query of ["どうじんかい", "orbina circle", "オルビナ同人"]) {
      expect(
        (await owner.call("listPublishers", { query })).body.items.map((c: { companyId: number }) => c.companyId),
        query,
      ).toContain(item.companyId);
    }
    expect((await owner.call("listPublishers", { query: "オルビナ" })).body.items).toEqual([
      { companyId: OFFICIAL_COMPANY, name: "オルビナ公式社", nameKana: "おるびなこうしきしゃ", nameEn: null, custom: false },
      item,
    ]);
    expect((await other.call("listPublishers", { query: "どうじんかい" })).body.items).toEqual([]);
    expect((await owner.call("getAccount")).body.registered.customPublishers).toEqual({ count: 1, limit: 100 });
  });

  it("addCustomPublisher: 400 naming the field, 409 for a name in use (parallel too), plan and scope", async () => {
    const account = await newAccount();
    expect((await addPublisher(account, { nameKana: "x" })).body).toMatchObject({ code: "invalid_input", field: "name" });
    expect((await addPublisher(account, { name: "オルビナ", nameEn: "x".repeat(101) })).body.field).toBe("nameEn");
    const replies = await Promise.all(Array.from({ length: 4 }, () => addPublisher(account, { name: "オルビナ重複社" })));
    expect(statuses(replies)).toEqual([200, 409, 409, 409]);
    expect((await addPublisher(await newAccount({ plan: "FREE" }), { name: "オルビナ" })).body.code).toBe("plan_required");
    expect((await addPublisher(await newAccount({ scopes: ["games:read"] }), { name: "オルビナ" })).body.code).toBe("insufficient_scope");
  });

  it("addCustomPublisher stops at the plan's limit, even for parallel adds", async () => {
    const account = await newAccount();
    const limit = REGISTERED_LIMITS.customPublishers.PREMIUM;
    await Promise.all(Array.from({ length: limit - 1 }, (_, i) => insertCustomCompany(account.userId, { name: `オルビナ既存社${i}` })));
    const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => addPublisher(account, { name: `オルビナ限界社${i}` })));
    expect(statuses(replies)).toEqual([200, 403, 403, 403]);
    expect((await account.call("getAccount")).body.registered.customPublishers).toEqual({ count: limit, limit });
  });

  it("updateCustomPublisher patches, keeps the search text current, and checks the revision", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const { item, revision } = (await addPublisher(owner, { name: "オルビナ旧社", nameKana: "おるびなきゅうしゃ" })).body;
    const reply = await owner.call("updateCustomPublisher", {
      companyId: item.companyId,
      nameKana: "おるびなしんしゃ",
      nameEn: "Orbina New",
      revision,
    });
    expect(reply.body.item).toEqual({ ...item, nameKana: "おるびなしんしゃ", nameEn: "Orbina New" });
    expect((await owner.call("listPublishers", { query: "しんしゃ" })).body.items.map((c: { companyId: number }) => c.companyId)).toEqual([
      item.companyId,
    ]);
    expect((await owner.call("listPublishers", { query: "きゅうしゃ" })).body.items).toEqual([]);
    const stale = await owner.call("updateCustomPublisher", { companyId: item.companyId, nameEn: null, revision });
    expect(stale.body).toMatchObject({ code: "revision_conflict" });
    expect((await owner.call("updateCustomPublisher", { companyId: item.companyId, nameEn: null })).body.item.nameEn).toBeNull();
    expect((await other.call("updateCustomPublisher", { companyId: item.companyId, nameEn: "x" })).status).toBe(404);
    expect((await owner.call("updateCustomPublisher", { companyId: OFFICIAL_COMPANY, nameEn: "x" })).status).toBe(404);
    const reader = await owner.newKey(["games:read"]);
    expect((await callWith(reader.apiKey, "updateCustomPublisher", { companyId: item.companyId, nameEn: "x" })).body.code).toBe(
      "insufficient_scope",
    );
  });

  it("removeCustomPublisher previews how many custom games lose it, then clears it from them", async () => {
    const account = await newAccount();
    const companyId = await newPublisher(account, "オルビナ解散社");
    const games = await Promise.all(
      [1, 2].map(
        async (i) =>
          (await account.call("addCustomGame", { title: `オルビナ解散作${i}`, platformId: OFFICIAL_PLATFORM, publisherId: companyId })).body
            .item.gameId as number,
      ),
    );
    const preview = await account.call("removeCustomPublisher", { companyId });
    expect(preview.body.summary).toBe(
      "Removes your custom publisher 'オルビナ解散社'. 2 of your custom games keep existing without a publisher: 'オルビナ解散作1' and 'オルビナ解散作2'.",
    );
    expect((await account.call("getGamesBatch", { gameIds: games })).body.items.map((g: { publisher: unknown }) => g.publisher)).toEqual([
      { companyId, name: "オルビナ解散社" },
      { companyId, name: "オルビナ解散社" },
    ]);
    const done = await account.call("removeCustomPublisher", { companyId, confirmToken: preview.body.confirmToken });
    expect(done.body).toEqual({ companyId, removed: true });
    const after = await account.call("getGamesBatch", { gameIds: games });
    expect(after.body.items.map((g: { publisher: unknown }) => g.publisher)).toEqual([null, null]);
    expect((await account.call("listPublishers", { query: "オルビナ解散" })).body.items).toEqual([]);
    expect((await account.call("browseGames", { publisherId: companyId })).body.items).toEqual([]);
  });

  it("removeCustomPublisher: a game added after the preview gives a fresh preview; 404 and scope", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const companyId = await newPublisher(owner, "オルビナ後発社");
    const { confirmToken } = (await owner.call("removeCustomPublisher", { companyId })).body;
    await owner.call("addCustomGame", { title: "オルビナ後発作", platformId: OFFICIAL_PLATFORM, publisherId: companyId });
    const reply = await owner.call("removeCustomPublisher", { companyId, confirmToken });
    expect(reply.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(reply.body.summary).toContain("1 of your custom games keeps");
    expect((await other.call("removeCustomPublisher", { companyId })).status).toBe(404);
    expect((await owner.call("removeCustomPublisher", { companyId: OFFICIAL_COMPANY })).status).toBe(404);
    const writer = await owner.newKey(["library:write", "games:read"]);
    expect((await callWith(writer.apiKey, "removeCustomPublisher", { companyId })).body.code).toBe("insufficient_scope");
    expect((await (await newAccount({ plan: "LIGHT" })).call("removeCustomPublisher", { companyId })).body.code).toBe("plan_required");
  });

  it("never leaves a custom game naming a removed publisher when the add and the removal race", async () => {
    for (let round = 0; round < 3; round++) {
      const account = await newAccount();
      const companyId = await newPublisher(account, `オルビナ競争社${round}`);
      const { confirmToken } = (await account.call("removeCustomPublisher", { companyId })).body;
      const [added, removed] = await Promise.all([
        account.call("addCustomGame", { title: `オルビナ競争作${round}`, platformId: OFFICIAL_PLATFORM, publisherId: companyId }),
        account.call("removeCustomPublisher", { companyId, confirmToken }),
      ]);
      const [publisher] = (await account.call("listPublishers", { query: `オルビナ競争社${round}` })).body.items;
      if (added.status === 200) {
        // Added first: either the removal cleared it from the game, or it saw the new game and
        // answered a fresh preview (the publisher stays, named by the game).
        const [game] = (await account.call("getGamesBatch", { gameIds: [added.body.item.gameId] })).body.items;
        if (removed.body.removed) expect([game.publisher, publisher]).toEqual([null, undefined]);
        else expect([removed.body.targetChanged, game.publisher.companyId, publisher.companyId]).toEqual([true, companyId, companyId]);
      } else {
        expect(added.body).toMatchObject({ code: "not_found", field: "publisherId" });
        expect([removed.body, publisher]).toEqual([{ companyId, removed: true }, undefined]);
      }
    }
  });
});

describe("custom games on custom platforms and publishers", () => {
  it("search, browse, batch and the lists handle a custom game on a custom platform", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const platformId = await newPlatform(owner, "オルビナ私家機");
    const companyId = await newPublisher(owner, "オルビナ私家社");
    const added = await owner.call("addCustomGame", {
      title: "オルビナ私家版ソフト",
      titleReading: "おるびなしかばんそふと",
      platformId,
      publisherId: companyId,
      releaseDate: "2003-03-03",
    });
    expect(added.status).toBe(200);
    const { gameId } = added.body.item;
    expect(added.body.item).toMatchObject({
      custom: true,
      platform: { platformId, name: "オルビナ私家機" },
      publisher: { companyId, name: "オルビナ私家社" },
    });

    const found = await owner.call("searchGames", { query: "オルビナ私家版", platformIds: [platformId], fields: [] });
    expect(found.body.items.map((g: { gameId: number }) => g.gameId)).toEqual([gameId]);
    expect((await owner.call("searchGames", { query: "私家", fields: [] })).body.items.map((g: { gameId: number }) => g.gameId)).toEqual([
      gameId,
    ]);
    const browsed = await owner.call("browseGames", { platformIds: [platformId], fields: [] });
    expect(browsed.body).toMatchObject({ totalCount: 1 });
    expect(browsed.body.items.map((g: { gameId: number }) => g.gameId)).toEqual([gameId]);
    expect(
      (await owner.call("browseGames", { publisherId: companyId, fields: [] })).body.items.map((g: { gameId: number }) => g.gameId),
    ).toEqual([gameId]);
    expect((await listed(owner, "listPlatforms")).find((p) => p.platformId === platformId)).toMatchObject({ custom: true, gameCount: 1 });

    // Renaming the platform shows in the game; the other user sees none of it.
    await owner.call("updateCustomPlatform", { platformId, name: "オルビナ私家機改" });
    expect((await owner.call("getGamesBatch", { gameIds: [gameId] })).body.items[0].platform).toEqual({
      platformId,
      name: "オルビナ私家機改",
    });
    expect((await other.call("searchGames", { query: "オルビナ私家版", fields: [] })).body.items).toEqual([]);
    expect((await other.call("browseGames", { platformIds: [platformId], fields: [] })).body.totalCount).toBe(0);
  });

  it("refuses another user's custom platform or publisher as not found, on add and update", async () => {
    const [owner, other] = await Promise.all([newAccount(), newAccount()]);
    const theirPlatform = await newPlatform(other, "オルビナ他人機");
    const theirPublisher = await newPublisher(other, "オルビナ他人社");
    expect((await owner.call("addCustomGame", { title: "オルビナ", platformId: theirPlatform })).body).toMatchObject({
      code: "not_found",
      field: "platformId",
    });
    expect(
      (await owner.call("addCustomGame", { title: "オルビナ", platformId: OFFICIAL_PLATFORM, publisherId: theirPublisher })).body,
    ).toMatchObject({
      code: "not_found",
      field: "publisherId",
    });
    const { gameId } = (
      await owner.call("addCustomGame", { title: "オルビナ自分", platformId: OFFICIAL_PLATFORM, publisherId: OFFICIAL_COMPANY })
    ).body.item;
    expect((await owner.call("updateCustomGame", { gameId, platformId: theirPlatform })).body).toMatchObject({
      code: "not_found",
      field: "platformId",
    });
    expect((await owner.call("updateCustomGame", { gameId, publisherId: theirPublisher })).body).toMatchObject({
      code: "not_found",
      field: "publisherId",
    });
  });
});

describe("master import and custom records", () => {
  it("cannot overwrite a custom platform or publisher: custom ids are outside the official range", async () => {
    const account = await newAccount();
    const platformId = await newPlatform(account, "オルビナ守備機");
    const companyId = await newPublisher(account, "オルビナ守備社");
    const platform = await importMaster(
      "platforms",
      toNdjson([{ platformId, name: "上書き", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    );
    expect(platform.status).toBe(400);
    expect(platform.body).toMatchObject({ code: "invalid_input", field: "platformId", line: 1 });
    const company = await importMaster("companies", toNdjson([{ companyId, name: "上書き", nameKana: null, nameEn: null }]));
    expect(company.body).toMatchObject({ code: "invalid_input", field: "companyId" });
    expect((await listed(account, "listPlatforms")).find((p) => p.platformId === platformId)).toMatchObject({
      name: "オルビナ守備機",
      custom: true,
    });
    expect((await account.call("listPublishers", { query: "オルビナ守備" })).body.items).toMatchObject([
      { companyId, name: "オルビナ守備社", custom: true },
    ]);
  });
});

describe("platform pieces behind the tools", () => {
  it("randomCustomId stays in [1,000,000,000, 2^53 - 1]", () => {
    for (let i = 0; i < 1000; i++) {
      const id = randomCustomId();
      expect(Number.isSafeInteger(id) && id >= 1_000_000_000).toBe(true);
    }
  });

  it("a batch broken by one of several write conditions answers that condition's error and writes nothing", async () => {
    const db = createDb(env.DB);
    const owner = `usr_cond_${randomCustomId()}`;
    const error = (field: string) => () => new ApiError("not_found", field, { field });
    const attempt = runConditional(
      db,
      [
        { holds: sql`1 = 1`, error: error("first") },
        { holds: sql`EXISTS (SELECT 1 FROM platforms WHERE id = 0)`, error: error("second") },
        { holds: sql`0 = 1`, error: error("third") },
      ],
      [sql`INSERT INTO platforms (id, name, owner_user_id, content_hash) VALUES (${randomCustomId()}, 'オルビナ条件', ${owner}, 'x')`],
    );
    await expect(attempt).rejects.toMatchObject({ details: { field: "second" } });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM platforms WHERE owner_user_id = ?").bind(owner).first("n")).toBe(0);
  });
});
