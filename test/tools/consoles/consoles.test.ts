// Owned consoles (addConsole, updateConsole, getConsoles, removeConsole) over a tiny fictional
// platform master (ids 780000+, marker word ネビュラ). Each test seeds its own accounts.
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, authHeader, callWith, newAccount, type Reply, send } from "../../support/harness";
import { importFixture, insertCustomPlatform, toNdjson } from "../../support/master";

const P1 = 780001;
const P2 = 780002;
const P3 = 780003;
const MISSING_PLATFORM = 789999;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([
      { platformId: P1, name: "ネビュラ機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P2, name: "ネビュラ携帯機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P3, name: "ネビュラ据置機", nameEn: null, shortName: null, maker: null, releaseDate: null },
    ]),
  });
});

const PLATFORM_NAMES: Record<number, string> = { [P1]: "ネビュラ機", [P2]: "ネビュラ携帯機", [P3]: "ネビュラ据置機" };

/** A pause so consecutive writes get distinct createdAt / updatedAt values. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const add = (account: Account, args: Record<string, unknown>) => account.call("addConsole", args);
const update = (account: Account, args: Record<string, unknown>) => account.call("updateConsole", args);
const list = (account: Account, args: Record<string, unknown> = {}, method: "GET" | "POST" = "POST") =>
  account.call("getConsoles", args, method);
const remove = (account: Account, args: Record<string, unknown>) => account.call("removeConsole", args);
const ids = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body.items as { consoleId: string }[]).map((item) => item.consoleId);
};

async function added(account: Account, args: Record<string, unknown>): Promise<string> {
  const reply = await add(account, args);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.item.consoleId as string;
}

/**
 * Five consoles, added in the order A..E, whose values make every inclusive bound, every empty
 * value and every sort direction show:
 *
 * | c | name          | publisherName          | rating | buyDate    | buyPrice |
 * (A also has a memo and three platforms; B, last by name in any collation, has the only nameKana.)
 * | A | Nebula Alpha  | ネビュラ電機            | 5      | 2020-01-01 | 10000    |
 * | B | ネビュラ ミニ  | -                      | 3      | 2020-01-02 | 9999     |
 * | C | Star Box      | Orbit Corp             | -      | 2019-12-31 | 0        |
 * | D | Comet 64      | ＮＥＢＵＬＡ Ｇａｍｅｓ  | 1      | -          | 10001    |
 * | E | Meteor        | -                      | 4      | 2020-01-03 | -        |
 */
async function seeded(plan: "LIGHT" | "PREMIUM" = "PREMIUM") {
  const account = await newAccount({ plan });
  const A = await added(account, {
    name: "Nebula Alpha",
    publisherName: "ネビュラ電機",
    rating: 5,
    buyDate: "2020-01-01",
    buyPrice: 10000,
    buyPlace: "中古屋",
    memo: "初期型",
    platformPriorities: [
      { platformId: P2, priority: 2 },
      { platformId: P3, priority: 5 },
      { platformId: P1, priority: 2 },
    ],
  });
  await tick();
  const B = await added(account, { name: "ネビュラ ミニ", nameKana: "ねびゅらみに", rating: 3, buyDate: "2020-01-02", buyPrice: 9999 });
  await tick();
  const C = await added(account, { name: "Star Box", publisherName: "Orbit Corp", buyDate: "2019-12-31", buyPrice: 0 });
  await tick();
  const D = await added(account, { name: "Comet 64", publisherName: "ＮＥＢＵＬＡ Ｇａｍｅｓ", rating: 1, buyPrice: 10001 });
  await tick();
  const E = await added(account, { name: "Meteor", rating: 4, buyDate: "2020-01-03" });
  return { account, A, B, C, D, E };
}

const CORE_KEYS = ["consoleId", "name", "publisherName", "rating"];
const PURCHASE_KEYS = ["buyDate", "buyPlace", "buyPrice"];

describe("addConsole", () => {
  it("adds a console and answers it with every field group", async () => {
    const account = await newAccount({ plan: "LIGHT" });
    const reply = await add(account, {
      name: "Nebula Alpha",
      nameKana: "ねびゅらあるふぁ",
      memo: "初期型、電池交換済み",
      rating: 4,
      buyDate: "2024-02-29",
      buyPrice: 12800,
      buyPlace: "中古屋",
      publisherName: "ネビュラ電機",
      platformPriorities: [
        { platformId: P1, priority: 2 },
        { platformId: P3, priority: 5 },
        { platformId: P2, priority: 2 },
      ],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { item } = reply.body;
    expect(item.consoleId).toMatch(/^con_/);
    expect(item).toMatchObject({
      name: "Nebula Alpha",
      nameKana: "ねびゅらあるふぁ",
      memo: "初期型、電池交換済み",
      rating: 4,
      buyDate: "2024-02-29",
      buyPrice: 12800,
      buyPlace: "中古屋",
      publisherName: "ネビュラ電機",
    });
    // priority desc, then platformId asc
    expect(item.platforms).toEqual([
      { platformId: P3, name: PLATFORM_NAMES[P3], priority: 5 },
      { platformId: P1, name: PLATFORM_NAMES[P1], priority: 2 },
      { platformId: P2, name: PLATFORM_NAMES[P2], priority: 2 },
    ]);
    expect(typeof item.createdAt).toBe("string");
    expect(typeof item.updatedAt).toBe("string");
    expect(Object.keys(item).some((key) => /maint|log/i.test(key))).toBe(false);
    expect(ids(await list(account))).toEqual([item.consoleId]);
  });

  it("takes a name alone; every other field is null and platforms empty", async () => {
    const account = await newAccount();
    const reply = await add(account, { name: "ネビュラ ミニ" });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({
      name: "ネビュラ ミニ",
      nameKana: null,
      memo: null,
      rating: null,
      buyDate: null,
      buyPrice: null,
      buyPlace: null,
      publisherName: null,
      platforms: [],
    });
  });

  it("accepts explicit nulls, the boundary lengths, a zero price and the caller's own custom platform", async () => {
    const account = await newAccount();
    const custom = await insertCustomPlatform(account.userId, "ネビュラ自作機");
    const reply = await add(account, {
      name: "x".repeat(100),
      nameKana: "か".repeat(100),
      memo: "m".repeat(2000),
      rating: null,
      buyDate: null,
      buyPrice: 0,
      buyPlace: "p".repeat(100),
      publisherName: "q".repeat(100),
      platformPriorities: [
        { platformId: custom, priority: 1 },
        { platformId: P1, priority: 5 },
      ],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({ rating: null, buyDate: null, buyPrice: 0 });
    expect(reply.body.item.platforms).toEqual([
      { platformId: P1, name: PLATFORM_NAMES[P1], priority: 5 },
      { platformId: custom, name: "ネビュラ自作機", priority: 1 },
    ]);
  });

  it("accepts twenty platforms", async () => {
    const account = await newAccount();
    const platforms = await Promise.all(Array.from({ length: 17 }, (_, i) => insertCustomPlatform(account.userId, `ネビュラ互換${i}`)));
    const platformPriorities = [P1, P2, P3, ...platforms].map((platformId) => ({ platformId, priority: 3 }));
    const reply = await add(account, { name: "全部入り", platformPriorities });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item.platforms).toHaveLength(20);
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "x".repeat(101) }, "name"],
    [{ name: null }, "name"],
    [{ name: "n", nameKana: "" }, "nameKana"],
    [{ name: "n", nameKana: "か".repeat(101) }, "nameKana"],
    [{ name: "n", memo: "" }, "memo"],
    [{ name: "n", memo: "m".repeat(2001) }, "memo"],
    [{ name: "n", rating: 0 }, "rating"],
    [{ name: "n", rating: 6 }, "rating"],
    [{ name: "n", rating: 2.5 }, "rating"],
    [{ name: "n", buyDate: "2024-02-30" }, "buyDate"],
    [{ name: "n", buyDate: "2024/01/01" }, "buyDate"],
    [{ name: "n", buyPrice: -1 }, "buyPrice"],
    [{ name: "n", buyPrice: "100" }, "buyPrice"],
    [{ name: "n", buyPlace: "" }, "buyPlace"],
    [{ name: "n", buyPlace: "p".repeat(101) }, "buyPlace"],
    [{ name: "n", publisherName: "" }, "publisherName"],
    [{ name: "n", publisherName: "q".repeat(101) }, "publisherName"],
    [{ name: "n", platformPriorities: [{ platformId: P1, priority: 0 }] }, "platformPriorities[0].priority"],
    [
      {
        name: "n",
        platformPriorities: [
          { platformId: P1, priority: 2 },
          { platformId: P2, priority: 6 },
        ],
      },
      "platformPriorities[1].priority",
    ],
    [{ name: "n", platformPriorities: [{ platformId: P1 }] }, "platformPriorities[0].priority"],
    [{ name: "n", platformPriorities: [{ priority: 3 }] }, "platformPriorities[0].platformId"],
    [{ name: "n", platformPriorities: [{ platformId: 0, priority: 3 }] }, "platformPriorities[0].platformId"],
    [{ name: "n", sortBy: "name" }, "sortBy"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const reply = await add(await newAccount(), args);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
  });

  it("refuses a duplicate platformId and more than 20 platforms with 400 naming platformPriorities, adding nothing", async () => {
    const account = await newAccount();
    const duplicate = await add(account, {
      name: "n",
      platformPriorities: [
        { platformId: P1, priority: 2 },
        { platformId: P1, priority: 3 },
      ],
    });
    expect(duplicate.status, JSON.stringify(duplicate.body)).toBe(400);
    expect(duplicate.body.field).toMatch(/^platformPriorities/);
    const many = Array.from({ length: 21 }, (_, i) => ({ platformId: 780100 + i, priority: 1 }));
    const tooMany = await add(account, { name: "n", platformPriorities: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.field).toMatch(/^platformPriorities/);
    expect(ids(await list(account))).toEqual([]);
  });

  it("answers 404 naming the platform for an unknown platform or another user's custom platform, adding nothing", async () => {
    const [a, b] = await Promise.all([newAccount(), newAccount()]);
    const theirs = await insertCustomPlatform(b.userId, "ネビュラ他人機");
    const unknown = await add(a, {
      name: "n",
      platformPriorities: [
        { platformId: P1, priority: 2 },
        { platformId: MISSING_PLATFORM, priority: 3 },
      ],
    });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    expect(unknown.body).toMatchObject({ code: "not_found", field: "platformPriorities[1].platformId" });
    const foreign = await add(a, { name: "n", platformPriorities: [{ platformId: theirs, priority: 3 }] });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "not_found", field: "platformPriorities[0].platformId" });
    expect(ids(await list(a))).toEqual([]);
  });

  it("is LIGHT and PREMIUM only: FREE gets 403 plan_required with an upgradeUrl", async () => {
    const free = await newAccount({ plan: "FREE" });
    const reply = await add(free, { name: "Nebula Alpha" });
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("plan_required");
    expect(reply.body.upgradeUrl).toMatch(/^https?:\/\//);
  });

  it("needs play:write", async () => {
    const viewer = await newAccount({ scopes: ["play:read", "library:read", "library:write", "games:read"] });
    const reply = await add(viewer, { name: "Nebula Alpha" });
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("insufficient_scope");
    const owner = await newAccount();
    expect((await owner.call("getAccount")).body.registered.consoles).toEqual({ count: 0, limit: 500 });
  });

  it("counts consoles in getAccount and stops LIGHT at 50 with 403 plan_required", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    // Spread the calls over three keys so no single key meets its burst limit.
    const keys = [
      light.apiKey,
      (await light.newKey(["play:read", "play:write"])).apiKey,
      (await light.newKey(["play:read", "play:write"])).apiKey,
    ];
    for (let i = 0; i < 50; i++) {
      const reply = await callWith(keys[i % 3]!, "addConsole", { name: `ネビュラ ${i}` });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    expect((await light.call("getAccount")).body.registered.consoles).toEqual({ count: 50, limit: 50 });
    const over = await callWith(keys[1]!, "addConsole", { name: "one more" });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe("plan_required");
    expect(over.body.upgradeUrl).toBeTruthy();
    expect((await list(light, { fields: [] })).body.totalCount).toBe(50);
  });

  it("holds the plan limit against concurrent adds", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    const keys = [
      light.apiKey,
      (await light.newKey(["play:read", "play:write"])).apiKey,
      (await light.newKey(["play:read", "play:write"])).apiKey,
    ];
    for (let i = 0; i < 48; i++) {
      const reply = await callWith(keys[i % 3]!, "addConsole", { name: `ネビュラ ${i}` });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    const racing = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => callWith(keys[i % 3]!, "addConsole", { name: `競争 ${i}` })));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 403, 403, 403, 403]);
    expect((await light.call("getAccount")).body.registered.consoles).toEqual({ count: 50, limit: 50 });
  });
});

describe("updateConsole", () => {
  it("patches: omitted fields are kept, null clears, updatedAt moves and createdAt stays", async () => {
    const { account, A } = await seeded();
    const before = (await list(account, { fields: ["purchase", "memo", "platforms", "timestamps"], name: "alpha" })).body.items[0];
    await tick();
    const reply = await update(account, {
      consoleId: A,
      rating: null,
      buyPlace: null,
      memo: "基板交換",
      publisherName: null,
      nameKana: "ねびゅら",
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.item).toMatchObject({
      consoleId: A,
      name: "Nebula Alpha",
      nameKana: "ねびゅら",
      memo: "基板交換",
      rating: null,
      buyDate: "2020-01-01",
      buyPrice: 10000,
      buyPlace: null,
      publisherName: null,
      createdAt: before.createdAt,
    });
    expect(reply.body.item.platforms).toEqual(before.platforms);
    expect(reply.body.item.updatedAt > before.updatedAt).toBe(true);

    const cleared = await update(account, { consoleId: A, nameKana: null, memo: null, buyDate: null, buyPrice: null });
    expect(cleared.body.item).toMatchObject({ nameKana: null, memo: null, buyDate: null, buyPrice: null, name: "Nebula Alpha" });
    const listed = (await list(account, { fields: ["purchase", "memo"], unrated: true })).body.items.map(
      (i: { consoleId: string }) => i.consoleId,
    );
    expect(listed).toContain(A);
  });

  it("renames, and the name filter follows the new name and publisher", async () => {
    const { account, A, D } = await seeded();
    const reply = await update(account, { consoleId: A, name: "Quasar", publisherName: "Pulsar Works" });
    expect(reply.body.item).toMatchObject({ name: "Quasar", publisherName: "Pulsar Works" });
    expect(ids(await list(account, { name: "quasar" }))).toEqual([A]);
    expect(ids(await list(account, { name: "pulsar" }))).toEqual([A]);
    expect(ids(await list(account, { name: "alpha" }))).toEqual([]);
    expect(ids(await list(account, { name: "電機" }))).toEqual([]);
    expect(ids(await list(account, { name: "nebula" }))).toEqual([D]);
  });

  it("replaces the platform set; omitted keeps it and [] clears it", async () => {
    const { account, A } = await seeded();
    const replaced = await update(account, { consoleId: A, platformPriorities: [{ platformId: P2, priority: 4 }] });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.item.platforms).toEqual([{ platformId: P2, name: PLATFORM_NAMES[P2], priority: 4 }]);
    const kept = await update(account, { consoleId: A, rating: 2 });
    expect(kept.body.item.platforms).toEqual([{ platformId: P2, name: PLATFORM_NAMES[P2], priority: 4 }]);
    const listed = await list(account, { fields: ["platforms"], name: "alpha" });
    expect(listed.body.items[0].platforms).toEqual([{ platformId: P2, name: PLATFORM_NAMES[P2], priority: 4 }]);
    const cleared = await update(account, { consoleId: A, platformPriorities: [] });
    expect(cleared.body.item.platforms).toEqual([]);
    expect((await list(account, { fields: ["platforms"], name: "alpha" })).body.items[0].platforms).toEqual([]);
  });

  it("accepts the caller's custom platform and refuses another user's or an unknown one with 404, changing nothing", async () => {
    const { account, A } = await seeded();
    const other = await newAccount();
    const mine = await insertCustomPlatform(account.userId, "ネビュラ自作機");
    const theirs = await insertCustomPlatform(other.userId, "ネビュラ他人機");
    const ok = await update(account, { consoleId: A, platformPriorities: [{ platformId: mine, priority: 5 }] });
    expect(ok.body.item.platforms).toEqual([{ platformId: mine, name: "ネビュラ自作機", priority: 5 }]);
    const foreign = await update(account, {
      consoleId: A,
      rating: 1,
      platformPriorities: [
        { platformId: P1, priority: 1 },
        { platformId: theirs, priority: 1 },
      ],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "not_found", field: "platformPriorities[1].platformId" });
    const unknown = await update(account, { consoleId: A, platformPriorities: [{ platformId: MISSING_PLATFORM, priority: 1 }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.field).toBe("platformPriorities[0].platformId");
    const now = (await list(account, { fields: ["platforms"], name: "alpha" })).body.items[0];
    expect(now.rating).toBe(5);
    expect(now.platforms).toEqual([{ platformId: mine, name: "ネビュラ自作機", priority: 5 }]);
  });

  it("keeps both of two concurrent patches to different fields (omitted fields are kept)", async () => {
    const { account, A } = await seeded();
    const [rating, memo, platforms] = await Promise.all([
      update(account, { consoleId: A, rating: 1 }),
      update(account, { consoleId: A, memo: "並行更新" }),
      update(account, { consoleId: A, platformPriorities: [{ platformId: P2, priority: 4 }] }),
    ]);
    expect([rating.status, memo.status, platforms.status]).toEqual([200, 200, 200]);
    const now = (await list(account, { name: "alpha", fields: ["memo", "platforms"] })).body.items[0];
    expect(now).toMatchObject({ rating: 1, memo: "並行更新" });
    expect(now.platforms).toEqual([{ platformId: P2, name: PLATFORM_NAMES[P2], priority: 4 }]);
  });

  it.each([
    [{ name: null }, "name"],
    [{ name: "" }, "name"],
    [{ name: "x".repeat(101) }, "name"],
    [{ rating: 6 }, "rating"],
    [{ rating: 0 }, "rating"],
    [{ buyDate: "2024-02-30" }, "buyDate"],
    [{ buyPrice: -5 }, "buyPrice"],
    [{ memo: "m".repeat(2001) }, "memo"],
    [{ nameKana: "" }, "nameKana"],
    [{ buyPlace: "p".repeat(101) }, "buyPlace"],
    [{ publisherName: "q".repeat(101) }, "publisherName"],
    [{ platformPriorities: [{ platformId: P1, priority: 0 }] }, "platformPriorities[0].priority"],
    [{ unknownField: 1 }, "unknownField"],
  ])("refuses %j with 400 naming %s, changing nothing", async (patch, field) => {
    const { account, A } = await seeded();
    const reply = await update(account, { consoleId: A, ...patch });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_input", field });
    const now = (await list(account, { name: "alpha" })).body.items[0];
    expect(now).toMatchObject({ name: "Nebula Alpha", rating: 5, buyDate: "2020-01-01" });
  });

  it("refuses a duplicate platformId with 400 naming platformPriorities", async () => {
    const { account, A } = await seeded();
    const reply = await update(account, {
      consoleId: A,
      platformPriorities: [
        { platformId: P2, priority: 1 },
        { platformId: P2, priority: 5 },
      ],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.field).toMatch(/^platformPriorities/);
  });

  it("needs a consoleId, and answers 404 for an unknown one or another user's console, changing nothing", async () => {
    const [{ account: a, A }, b] = await Promise.all([seeded(), newAccount()]);
    const missing = await update(a, { rating: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe("consoleId");
    expect((await update(a, { consoleId: "con_doesnotexist000", rating: 1 })).status).toBe(404);
    const foreign = await update(b, { consoleId: A, rating: 1, name: "盗った" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect((await list(a, { name: "alpha" })).body.items[0]).toMatchObject({ name: "Nebula Alpha", rating: 5 });
  });

  it("needs play:write and LIGHT or above", async () => {
    const { account, A } = await seeded("LIGHT");
    const reader = await account.newKey(["play:read"]);
    const refused = await callWith(reader.apiKey, "updateConsole", { consoleId: A, rating: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const free = await newAccount({ plan: "FREE" });
    const plan = await update(free, { consoleId: A, rating: 1 });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect(plan.body.upgradeUrl).toBeTruthy();
    expect((await update(account, { consoleId: A, rating: 2 })).body.item.rating).toBe(2);
  });
});

describe("getConsoles", () => {
  it("sorts by rating, highest first, unrated last, by default; asc keeps unrated last", async () => {
    const { account, A, B, C, D, E } = await seeded();
    expect(ids(await list(account))).toEqual([A, E, B, D, C]);
    expect(ids(await list(account, { sortBy: "rating" }))).toEqual([A, E, B, D, C]);
    expect(ids(await list(account, { sortOrder: "asc" }))).toEqual([D, B, E, A, C]);
    expect(ids(await list(account, { sortBy: "rating", sortOrder: "asc" }))).toEqual([D, B, E, A, C]);
  });

  it.each([
    ["buyDate", "asc", "C A B E D"],
    ["buyDate", "desc", "E B A C D"],
    ["buyPrice", "asc", "C B A D E"],
    ["buyPrice", "desc", "D A B C E"],
    ["name", "asc", "D E A C B"],
    ["name", "desc", "B C A E D"],
    ["createdAt", "asc", "A B C D E"],
    ["createdAt", "desc", "E D C B A"],
  ] as const)("sorts by %s %s with empty values last", async (sortBy, sortOrder, expected) => {
    const seed = await seeded();
    const want = expected.split(" ").map((letter) => seed[letter as "A" | "B" | "C" | "D" | "E"]);
    expect(ids(await list(seed.account, { sortBy, sortOrder }))).toEqual(want);
  });

  it("sorts by the name alone: the publisher never decides between names", async () => {
    const account = await newAccount();
    const plain = await added(account, { name: "Meteor", publisherName: "Zeta Corp" });
    const longer = await added(account, { name: "Meteor X" });
    const other = await added(account, { name: "Meteorite", publisherName: "Alpha Inc" });
    expect(ids(await list(account, { sortBy: "name", sortOrder: "asc" }))).toEqual([plain, longer, other]);
    expect(ids(await list(account, { sortBy: "name", sortOrder: "desc" }))).toEqual([other, longer, plain]);
  });

  it("sorts by updatedAt both ways", async () => {
    const { account, A, B, C, D, E } = await seeded();
    await tick();
    await update(account, { consoleId: C, memo: "更新1" });
    await tick();
    await update(account, { consoleId: A, memo: "更新2" });
    expect(ids(await list(account, { sortBy: "updatedAt", sortOrder: "asc" }))).toEqual([B, D, E, C, A]);
    expect(ids(await list(account, { sortBy: "updatedAt", sortOrder: "desc" }))).toEqual([A, C, E, D, B]);
  });

  it("filters by rating with inclusive bounds, and by unrated true / false", async () => {
    const { account, A, B, C, D, E } = await seeded();
    expect(ids(await list(account, { ratingFrom: 3 }))).toEqual([A, E, B]);
    expect(ids(await list(account, { ratingFrom: 4 }))).toEqual([A, E]);
    expect(ids(await list(account, { ratingTo: 3 }))).toEqual([B, D]);
    expect(ids(await list(account, { ratingTo: 1 }))).toEqual([D]);
    expect(ids(await list(account, { ratingFrom: 3, ratingTo: 4 }))).toEqual([E, B]);
    expect(ids(await list(account, { ratingFrom: 3, ratingTo: 3 }))).toEqual([B]);
    expect(ids(await list(account, { ratingFrom: 1, ratingTo: 5 }))).toEqual([A, E, B, D]);
    expect(ids(await list(account, { unrated: true }))).toEqual([C]);
    expect(ids(await list(account, { unrated: false }))).toEqual([A, E, B, D]);
  });

  it("filters by buy date with inclusive bounds, leaving undated consoles out", async () => {
    const { account, A, B, C, E } = await seeded();
    expect(ids(await list(account, { buyDateFrom: "2020-01-01", buyDateTo: "2020-01-02" }))).toEqual([A, B]);
    expect(ids(await list(account, { buyDateFrom: "2020-01-02" }))).toEqual([E, B]);
    expect(ids(await list(account, { buyDateTo: "2019-12-31" }))).toEqual([C]);
    expect(ids(await list(account, { buyDateTo: "2020-01-01" }))).toEqual([A, C]);
    expect(ids(await list(account, { buyDateFrom: "2020-01-03", buyDateTo: "2020-01-03" }))).toEqual([E]);
    expect(ids(await list(account, { buyDateFrom: "2020-01-04" }))).toEqual([]);
  });

  it("filters by buy price with inclusive integer bounds, leaving unpriced consoles out", async () => {
    const { account, A, B, C, D } = await seeded();
    expect(ids(await list(account, { buyPriceFrom: 9999, buyPriceTo: 10000 }))).toEqual([A, B]);
    expect(ids(await list(account, { buyPriceFrom: 10000 }))).toEqual([A, D]);
    expect(ids(await list(account, { buyPriceTo: 0 }))).toEqual([C]);
    expect(ids(await list(account, { buyPriceFrom: 0 }))).toEqual([A, B, D, C]);
    expect(ids(await list(account, { buyPriceFrom: 10001, buyPriceTo: 10001 }))).toEqual([D]);
    expect(ids(await list(account, { buyPriceFrom: 10002 }))).toEqual([]);
  });

  it("filters by name: a substring of the name or the publisher, ignoring case and width", async () => {
    const { account, A, B, C, D, E } = await seeded();
    expect(ids(await list(account, { name: "nebula" }))).toEqual([A, D]);
    expect(ids(await list(account, { name: "ＮＥＢＵＬＡ" }))).toEqual([A, D]);
    expect(ids(await list(account, { name: "ネビュラ" }))).toEqual([A, B]);
    expect(ids(await list(account, { name: "ﾈﾋﾞｭﾗ" }))).toEqual([A, B]);
    expect(ids(await list(account, { name: "ｏｒｂｉｔ" }))).toEqual([C]);
    expect(ids(await list(account, { name: "METEOR" }))).toEqual([E]);
    expect(ids(await list(account, { name: "Comet 64" }))).toEqual([D]);
    expect(ids(await list(account, { name: "saturn" }))).toEqual([]);
    expect(ids(await list(account, { name: "x".repeat(30) }))).toEqual([]);
  });

  it("does not match a name filter that spans the name and the publisher", async () => {
    const { account } = await seeded();
    expect(ids(await list(account, { name: "Alpha ネビュラ" }))).toEqual([]);
    expect(ids(await list(account, { name: "box orbit" }))).toEqual([]);
  });

  it("reads % and _ in the name filter literally", async () => {
    const account = await newAccount();
    const percent = await added(account, { name: "100% Nebula" });
    const underscore = await added(account, { name: "Nebula_2" });
    await added(account, { name: "Nebula Zero" });
    expect(ids(await list(account, { name: "%" }))).toEqual([percent]);
    expect(ids(await list(account, { name: "_" }))).toEqual([underscore]);
    expect(ids(await list(account, { name: "0%" }, "GET"))).toEqual([percent]);
  });

  it("combines filters (AND) and reads GET arguments", async () => {
    const { account, A, B, E } = await seeded();
    expect(ids(await list(account, { ratingFrom: 3, buyPriceTo: 9999 }))).toEqual([B]);
    expect(ids(await list(account, { ratingFrom: 3, buyDateFrom: "2020-01-02", sortBy: "buyDate", sortOrder: "asc" }, "GET"))).toEqual([
      B,
      E,
    ]);
    expect(ids(await list(account, { unrated: false, name: "ネビュラ" }, "GET"))).toEqual([A, B]);
    expect(ids(await list(account, { unrated: true, ratingFrom: 1 }))).toEqual([]);
  });

  it("gives purchase by default, core fields for [] and GET `fields=`, and only the asked groups otherwise", async () => {
    const { account, A } = await seeded();
    const byDefault = (await list(account, { name: "alpha" })).body.items[0];
    expect(Object.keys(byDefault).sort()).toEqual([...CORE_KEYS, ...PURCHASE_KEYS].sort());
    expect(byDefault).toEqual({
      consoleId: A,
      name: "Nebula Alpha",
      rating: 5,
      publisherName: "ネビュラ電機",
      buyDate: "2020-01-01",
      buyPrice: 10000,
      buyPlace: "中古屋",
    });

    const core = await list(account, { name: "alpha", fields: [] });
    expect(Object.keys(core.body.items[0]).sort()).toEqual(CORE_KEYS);
    const coreGet = await send("/rest/v1/getConsoles?name=alpha&fields=", { headers: authHeader(account.apiKey) });
    expect(coreGet.status).toBe(200);
    expect(Object.keys(coreGet.body.items[0]).sort()).toEqual(CORE_KEYS);

    const memo = (await list(account, { name: "alpha", fields: ["memo"] })).body.items[0];
    expect(Object.keys(memo).sort()).toEqual([...CORE_KEYS, "memo", "nameKana"].sort());
    expect(memo).toMatchObject({ memo: "初期型", nameKana: null });
    const memoB = (await list(account, { name: "ミニ", fields: ["memo"] })).body.items[0];
    expect(memoB).toMatchObject({ memo: null, nameKana: "ねびゅらみに" });

    const platforms = (await list(account, { name: "alpha", fields: ["platforms"] })).body.items[0];
    expect(Object.keys(platforms).sort()).toEqual([...CORE_KEYS, "platformPriorities", "platforms"].sort());
    expect(platforms.platforms).toEqual([
      { platformId: P3, name: PLATFORM_NAMES[P3], priority: 5 },
      { platformId: P1, name: PLATFORM_NAMES[P1], priority: 2 },
      { platformId: P2, name: PLATFORM_NAMES[P2], priority: 2 },
    ]);

    const timestamps = (await list(account, { name: "alpha", fields: ["timestamps"] })).body.items[0];
    expect(Object.keys(timestamps).sort()).toEqual([...CORE_KEYS, "createdAt", "updatedAt"].sort());

    const everything = await list(account, { fields: ["purchase", "memo", "platforms", "timestamps"] }, "GET");
    expect(everything.status).toBe(200);
    for (const item of everything.body.items) {
      expect(Object.keys(item).sort()).toEqual(
        [...CORE_KEYS, ...PURCHASE_KEYS, "memo", "nameKana", "platforms", "platformPriorities", "createdAt", "updatedAt"].sort(),
      );
    }
    const minis = everything.body.items.filter((item: { name: string }) => item.name === "ネビュラ ミニ");
    expect(minis[0]).toMatchObject({ memo: null, nameKana: "ねびゅらみに", publisherName: null, platforms: [], buyPlace: null });
  });

  it("never shows maintenance history in console items", async () => {
    const { account, A } = await seeded();
    const log = await account.call("addConsoleMaintenanceLog", { consoleId: A, title: "電池交換" });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const reply = await list(account, { fields: ["purchase", "memo", "platforms", "timestamps"] });
    for (const item of reply.body.items) {
      expect(JSON.stringify(item)).not.toContain("電池交換");
      expect(Object.keys(item).some((key) => /maint|log/i.test(key))).toBe(false);
    }
    const updated = await update(account, { consoleId: A, rating: 4 });
    expect(JSON.stringify(updated.body.item)).not.toContain("電池交換");
  });

  it("pages with a full envelope, and paging never repeats or skips a console", async () => {
    const { account, A, B, C, D, E } = await seeded();
    const first = await list(account, { limit: 2 });
    const second = await list(account, { limit: 2, page: 2 });
    const third = await list(account, { limit: 2, page: 3 });
    const fourth = await list(account, { limit: 2, page: 4 });
    expect(first.body).toMatchObject({ page: 1, returnedCount: 2, totalCount: 5, hasMore: true, effectiveLimit: 2, limitReduced: false });
    expect(second.body).toMatchObject({ page: 2, returnedCount: 2, totalCount: 5, hasMore: true });
    expect(third.body).toMatchObject({ page: 3, returnedCount: 1, totalCount: 5, hasMore: false });
    expect(fourth.body).toMatchObject({ page: 4, returnedCount: 0, totalCount: 5, hasMore: false, items: [] });
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual([A, E, B, D, C]);
    const whole = await list(account);
    expect(whole.body).toMatchObject({ page: 1, returnedCount: 5, totalCount: 5, hasMore: false, effectiveLimit: 50, limitReduced: false });
  });

  it("breaks ties stably across pages", async () => {
    const account = await newAccount();
    // Added together, so their creation times may coincide.
    await Promise.all(Array.from({ length: 7 }, (_, i) => added(account, { name: `ネビュラ同点 ${i}`, rating: 2 })));
    for (const sortBy of ["rating", "buyDate", "createdAt"] as const) {
      for (const sortOrder of ["asc", "desc"] as const) {
        const whole = ids(await list(account, { sortBy, sortOrder }));
        const paged: string[] = [];
        for (let page = 1; page <= 4; page++) paged.push(...ids(await list(account, { sortBy, sortOrder, limit: 2, page })));
        expect(paged, `${sortBy} ${sortOrder}`).toEqual(whole);
        expect(new Set(paged).size).toBe(7);
      }
    }
  });

  it("reduces limits: above 1000 to 1000 and then to 200, reported in the envelope", async () => {
    const { account } = await seeded();
    const capped = await list(account, { limit: 5000 });
    expect(capped.body).toMatchObject({ effectiveLimit: 200, limitReduced: true, totalCount: 5, returnedCount: 5 });
    expect(typeof capped.body.limitReason).toBe("string");
    const cut = await list(account, { limit: 201 });
    expect(cut.body).toMatchObject({ effectiveLimit: 200, limitReduced: true });
    const exact = await list(account, { limit: 200 });
    expect(exact.body).toMatchObject({ effectiveLimit: 200, limitReduced: false, limitReason: null });
    const one = await list(account, { limit: 1 }, "GET");
    expect(one.body).toMatchObject({ effectiveLimit: 1, returnedCount: 1, hasMore: true });
  });

  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 1.5 }, "limit"],
    [{ page: 0 }, "page"],
    [{ ratingFrom: 0 }, "ratingFrom"],
    [{ ratingTo: 6 }, "ratingTo"],
    [{ ratingFrom: 4, ratingTo: 3 }, "ratingTo"],
    [{ buyDateFrom: "2020-01-02", buyDateTo: "2020-01-01" }, "buyDateTo"],
    [{ buyDateFrom: "2020-02-30" }, "buyDateFrom"],
    [{ buyPriceFrom: 100, buyPriceTo: 99 }, "buyPriceTo"],
    [{ buyPriceFrom: 9.5 }, "buyPriceFrom"],
    [{ name: "x".repeat(31) }, "name"],
    [{ unrated: "yes" }, "unrated"],
    [{ sortBy: "title" }, "sortBy"],
    [{ sortOrder: "up" }, "sortOrder"],
    [{ fields: ["maintenance"] }, "fields"],
    [{ consoleId: "con_x" }, "consoleId"],
  ])("refuses %j with 400 naming %s", async (args, field) => {
    const reply = await list(await newAccount({ plan: "LIGHT" }), args);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.code).toBe("invalid_input");
    expect(reply.body.field).toMatch(new RegExp(`^${field}`));
  });

  it("shows only the caller's consoles", async () => {
    const [{ account: a }, b] = await Promise.all([seeded(), newAccount()]);
    expect(ids(await list(b))).toEqual([]);
    expect((await list(b)).body.totalCount).toBe(0);
    await added(b, { name: "Nebula Beta" });
    expect(ids(await list(b, { name: "nebula" }))).toHaveLength(1);
    expect((await list(a)).body.totalCount).toBe(5);
  });

  it("needs play:read and LIGHT or above", async () => {
    const { account } = await seeded("LIGHT");
    const writer = await account.newKey(["play:write", "library:read"]);
    const refused = await callWith(writer.apiKey, "getConsoles", {}, "GET");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const free = await newAccount({ plan: "FREE" });
    const plan = await list(free, {}, "GET");
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect(plan.body.upgradeUrl).toBeTruthy();
    const reader = await account.newKey(["play:read"]);
    expect((await callWith(reader.apiKey, "getConsoles", {}, "GET")).body.totalCount).toBe(5);
  });
});

describe("removeConsole (two-step)", () => {
  async function withLogs() {
    const seed = await seeded();
    for (const title of ["電池交換", "端子清掃"]) {
      const reply = await seed.account.call("addConsoleMaintenanceLog", { consoleId: seed.A, title });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    return seed;
  }
  const logsOf = (account: Account, consoleId: string) => account.call("getConsoleMaintenanceLogs", { consoleId });

  it("previews without changing anything, naming the console and its maintenance logs", async () => {
    const { account, A } = await withLogs();
    const preview = await remove(account, { consoleId: A });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ confirmRequired: true, targetChanged: false, expiresInSec: 600 });
    expect(preview.body.confirmToken).toEqual(expect.any(String));
    expect(Date.parse(preview.body.expiresAt)).toBeGreaterThan(Date.now());
    expect(preview.body.summary).toContain("Nebula Alpha");
    expect(preview.body.summary).toMatch(/maintenance/i);
    expect(preview.body.summary).toMatch(/\b2\b/);
    expect(ids(await list(account))).toContain(A);
    expect((await logsOf(account, A)).body.totalCount).toBe(2);
    expect((await account.call("getAccount")).body.registered.consoles.count).toBe(5);
  });

  it("removes the console and its maintenance logs with the token; other consoles keep theirs", async () => {
    const { account, A, B } = await withLogs();
    const keep = await account.call("addConsoleMaintenanceLog", { consoleId: B, title: "ファン清掃" });
    const doomedLogs = (await logsOf(account, A)).body.items.map((log: { maintenanceLogId: string }) => log.maintenanceLogId);
    const preview = await remove(account, { consoleId: A });
    const done = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ consoleId: A, removed: true });
    expect(ids(await list(account))).not.toContain(A);
    expect((await list(account)).body.totalCount).toBe(4);
    expect((await account.call("getAccount")).body.registered.consoles.count).toBe(4);
    expect((await logsOf(account, A)).status).toBe(404);
    for (const maintenanceLogId of doomedLogs) {
      expect((await account.call("updateConsoleMaintenanceLog", { maintenanceLogId, title: "残骸" })).status).toBe(404);
    }
    expect((await logsOf(account, B)).body.items.map((log: { maintenanceLogId: string }) => log.maintenanceLogId)).toEqual([
      keep.body.item.maintenanceLogId,
    ]);
    expect((await update(account, { consoleId: A, rating: 1 })).status).toBe(404);
    expect((await remove(account, { consoleId: A })).status).toBe(404);
  });

  it("refuses a used token, a token for other arguments, another tool's or user's token and a malformed one, naming confirmToken", async () => {
    const [{ account, A, B }, other] = await Promise.all([seeded(), newAccount()]);
    const theirs = await added(other, { name: "他人の機械" });

    const forA = await remove(account, { consoleId: A });
    const wrongArgs = await remove(account, { consoleId: B, confirmToken: forA.body.confirmToken });
    expect(wrongArgs.status).toBe(400);
    expect(wrongArgs.body).toMatchObject({ code: "invalid_input", field: "confirmToken" });
    expect(ids(await list(account))).toContain(B);

    const otherUser = await remove(other, { consoleId: theirs, confirmToken: forA.body.confirmToken });
    expect(otherUser.status).toBe(400);
    expect(otherUser.body.field).toBe("confirmToken");
    expect(ids(await list(other))).toEqual([theirs]);

    const fresh = await remove(account, { consoleId: A });
    expect((await remove(account, { consoleId: A, confirmToken: fresh.body.confirmToken })).status).toBe(200);
    const reused = await remove(account, { consoleId: B, confirmToken: fresh.body.confirmToken });
    expect(reused.status).toBe(400);
    expect(reused.body.field).toBe("confirmToken");

    const log = await account.call("addConsoleMaintenanceLog", { consoleId: B, title: "清掃" });
    const logPreview = await account.call("removeConsoleMaintenanceLog", {
      consoleId: B,
      maintenanceLogId: log.body.item.maintenanceLogId,
    });
    expect(logPreview.status, JSON.stringify(logPreview.body)).toBe(200);
    const otherTool = await remove(account, { consoleId: B, confirmToken: logPreview.body.confirmToken });
    expect(otherTool.status).toBe(400);
    expect(otherTool.body.field).toBe("confirmToken");

    const malformed = await remove(account, { consoleId: B, confirmToken: "not-a-token" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("confirmToken");
    expect(ids(await list(account))).toContain(B);
  });

  it("uses a token once even when the first use succeeded (same arguments)", async () => {
    const { account, A } = await seeded();
    const preview = await remove(account, { consoleId: A });
    await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    const again = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect([400, 404]).toContain(again.status);
    if (again.status === 400) expect(again.body.field).toBe("confirmToken");
  });

  it("answers a new preview (targetChanged) when a maintenance log was added after the preview", async () => {
    const { account, A } = await seeded();
    const preview = await remove(account, { consoleId: A });
    await account.call("addConsoleMaintenanceLog", { consoleId: A, title: "電池交換" });
    const second = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(second.body.confirmToken).not.toBe(preview.body.confirmToken);
    expect(second.body.summary).toMatch(/\b1\b/);
    expect(ids(await list(account))).toContain(A);
    const done = await remove(account, { consoleId: A, confirmToken: second.body.confirmToken });
    expect(done.body).toMatchObject({ consoleId: A, removed: true });
  });

  it("answers a new preview (targetChanged) when the console itself changed after the preview", async () => {
    const { account, A } = await seeded();
    const preview = await remove(account, { consoleId: A });
    await tick();
    expect((await update(account, { consoleId: A, name: "Nebula Alpha改" })).status).toBe(200);
    const second = await remove(account, { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(second.body).toMatchObject({ confirmRequired: true, targetChanged: true });
    expect(second.body.summary).toContain("Nebula Alpha改");
    expect(ids(await list(account))).toContain(A);
  });

  it("treats another user's console and an unknown id as not found, in both steps", async () => {
    const [{ account: a, A }, b] = await Promise.all([seeded(), newAccount()]);
    const preview = await remove(b, { consoleId: A });
    expect(preview.status).toBe(404);
    expect(preview.body.code).toBe("not_found");
    expect((await remove(b, { consoleId: "con_doesnotexist000" })).status).toBe(404);
    const ownToken = (await remove(a, { consoleId: A })).body.confirmToken;
    expect((await remove(b, { consoleId: A, confirmToken: ownToken })).status).toBe(404);
    expect(ids(await list(a))).toContain(A);
    const missing = await remove(a, {});
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe("consoleId");
  });

  it("needs play:delete and LIGHT or above", async () => {
    const { account, A } = await seeded("LIGHT");
    const writer = await account.newKey(["play:read", "play:write"]);
    const refused = await callWith(writer.apiKey, "removeConsole", { consoleId: A });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("insufficient_scope");
    const preview = await remove(account, { consoleId: A });
    const confirm = await callWith(writer.apiKey, "removeConsole", { consoleId: A, confirmToken: preview.body.confirmToken });
    expect(confirm.status).toBe(403);
    expect(ids(await list(account))).toContain(A);
    const free = await newAccount({ plan: "FREE" });
    const plan = await remove(free, { consoleId: A });
    expect(plan.status).toBe(403);
    expect(plan.body.code).toBe("plan_required");
    expect(plan.body.upgradeUrl).toBeTruthy();
  });
});

describe("catalog entries", () => {
  it("lists the console tools for LIGHT and PREMIUM with their scopes and methods", async () => {
    const reply = await send("/rest/v1/tools");
    const byName = Object.fromEntries(reply.body.tools.map((t: { name: string }) => [t.name, t]));
    const expected: Record<string, [string, string[]]> = {
      addConsole: ["play:write", ["POST"]],
      updateConsole: ["play:write", ["POST"]],
      getConsoles: ["play:read", ["GET", "POST"]],
      removeConsole: ["play:delete", ["POST"]],
      addConsoleMaintenanceLog: ["play:write", ["POST"]],
      updateConsoleMaintenanceLog: ["play:write", ["POST"]],
      getConsoleMaintenanceLogs: ["play:read", ["GET", "POST"]],
      removeConsoleMaintenanceLog: ["play:delete", ["POST"]],
    };
    for (const [name, [scope, methods]] of Object.entries(expected)) {
      expect(byName[name], name).toBeDefined();
      expect(byName[name].plans, name).toEqual(["LIGHT", "PREMIUM"]);
      expect(byName[name].scopes, name).toEqual([scope]);
      expect(byName[name].methods, name).toEqual(methods);
    }
  });

  it("answers GET on a write tool with 405", async () => {
    const account = await newAccount();
    const reply = await account.call("addConsole", { name: "x" }, "GET");
    expect(reply.status).toBe(405);
  });
});

describe("platformPriorities in answers (issue 13)", () => {
  it("addConsole, updateConsole and getConsoles (fields platforms) answer platformPriorities beside platforms", async () => {
    const account = await newAccount({ plan: "LIGHT" });
    const sent = [
      { platformId: P1, priority: 2 },
      { platformId: P3, priority: 5 },
    ];
    const expected = [
      { platformId: P3, priority: 5 },
      { platformId: P1, priority: 2 },
    ];
    const created = await add(account, { name: "ネビュラ優先", platformPriorities: sent });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.item.platformPriorities).toEqual(expected);
    expect(created.body.item.platforms).toEqual(expected.map((p) => ({ ...p, name: PLATFORM_NAMES[p.platformId] })));
    const { consoleId } = created.body.item;
    const listed = (await list(account, { fields: ["platforms"] })).body.items[0];
    expect(listed.platformPriorities).toEqual(expected);
    expect((await list(account, { fields: ["purchase"] })).body.items[0].platformPriorities).toBeUndefined();
    const updated = await update(account, { consoleId, platformPriorities: [{ platformId: P2, priority: 1 }] });
    expect(updated.body.item.platformPriorities).toEqual([{ platformId: P2, priority: 1 }]);
    // What an answer says can be sent back as it is.
    const resent = await update(account, { consoleId, platformPriorities: updated.body.item.platformPriorities });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
  });
});
