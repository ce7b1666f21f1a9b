// getConsoles (filters, sorts, field groups, paging) and the console tools' catalog entries.
// Platforms and helpers: ./consolesSupport.ts. Each test seeds its own accounts.
import { beforeAll, describe, expect, it } from "vitest";
import { authHeader, callWith, newAccount, send } from "../../support/harness";
import {
  added,
  CORE_KEYS,
  ids,
  importConsolePlatforms,
  list,
  P1,
  P2,
  P3,
  PLATFORM_NAMES,
  PURCHASE_KEYS,
  seeded,
  tick,
  update,
} from "./consolesSupport";

beforeAll(importConsolePlatforms);

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
