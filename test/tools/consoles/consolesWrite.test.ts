// addConsole and updateConsole, and the platformPriorities their answers carry. Platforms and
// helpers: ./consolesSupport.ts. Each test seeds its own accounts.
import { beforeAll, describe, expect, it } from "vitest";
import { callWith, newAccount } from "../../support/harness";
import { insertCustomPlatform } from "../../support/master";
import {
  add,
  ids,
  importConsolePlatforms,
  list,
  MISSING_PLATFORM,
  P1,
  P2,
  P3,
  PLATFORM_NAMES,
  seeded,
  tick,
  update,
} from "./consolesSupport";

beforeAll(importConsolePlatforms);

/** A LIGHT account holding `count` consoles, added over three of its keys so no key meets its burst limit. */
async function lightWithConsoles(count: number) {
  const light = await newAccount({ plan: "LIGHT" });
  const keys = [
    light.apiKey,
    (await light.newKey(["play:read", "play:write"])).apiKey,
    (await light.newKey(["play:read", "play:write"])).apiKey,
  ];
  for (let i = 0; i < count; i++) {
    const reply = await callWith(keys[i % 3]!, "addConsole", { name: `ネビュラ ${i}` });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
  return { light, keys };
}

describe("addConsole", () => {
  it("adds a console and answers it with every field group", async () => {
    const account = await newAccount({ plan: "LIGHT" });
    const fields = {
      name: "Nebula Alpha",
      nameKana: "ねびゅらあるふぁ",
      memo: "初期型、電池交換済み",
      rating: 4,
      buyDate: "2024-02-29",
      buyPrice: 12800,
      buyPlace: "中古屋",
      publisherName: "ネビュラ電機",
    };
    const reply = await add(account, {
      ...fields,
      platformPriorities: [
        { platformId: P1, priority: 2 },
        { platformId: P3, priority: 5 },
        { platformId: P2, priority: 2 },
      ],
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { item } = reply.body;
    expect(item.consoleId).toMatch(/^con_/);
    expect(item).toMatchObject(fields);
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
    const { light, keys } = await lightWithConsoles(50);
    expect((await light.call("getAccount")).body.registered.consoles).toEqual({ count: 50, limit: 50 });
    const over = await callWith(keys[1]!, "addConsole", { name: "one more" });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe("plan_required");
    expect(over.body.upgradeUrl).toBeTruthy();
    expect((await list(light, { fields: [] })).body.totalCount).toBe(50);
  });

  it("holds the plan limit against concurrent adds", async () => {
    const { light, keys } = await lightWithConsoles(48);
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
