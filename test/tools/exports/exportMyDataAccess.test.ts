// exportMyData across plans, scopes and users. Master rows, the seeded main account and readers:
// ./myDataSupport.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../../src/platform/db";
import { ApiError } from "../../../src/platform/errors";
import type { Plan } from "../../../src/platform/plans";
import { openMyDataSource } from "../../../src/tools/exports/myData/index";
import { callWith, newAccount, player, send } from "../../support/harness";
import { expectError, ok, okDone } from "../../support/replies";
import { A, type Args, column, daysFromToday, exportOf, main, P1, seedMyData, W2, yearsAgo } from "./myDataSupport";

beforeAll(seedMyData, 120_000);

describe("exportMyData: plans and scopes", () => {
  it("FREE: library, wishlist, playRecords and playLogs; other datasets are 403 plan_required naming dataset", async () => {
    const free = await newAccount({ plan: "FREE" });
    for (const dataset of ["library", "wishlist", "playRecords", "playLogs"]) ok(await free.call("exportMyData", { dataset }), dataset);
    for (const dataset of ["tags", "consoles", "collections", "customGames"]) {
      const reply = await free.call("exportMyData", { dataset });
      expectError(reply, 403, "plan_required", "dataset");
      expect(reply.body.upgradeUrl).toBeTruthy();
    }
  });

  it("LIGHT: adds tags and consoles; collections and customGames are 403 naming dataset", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    for (const dataset of ["library", "wishlist", "playRecords", "playLogs", "tags", "consoles"])
      ok(await light.call("exportMyData", { dataset }), dataset);
    for (const dataset of ["collections", "customGames"])
      expectError(await light.call("exportMyData", { dataset }), 403, "plan_required", "dataset");
  });

  it("FREE: removed arguments are 403 naming them; narrowed purchase dates and prices too", async () => {
    const free = await newAccount({ plan: "FREE" });
    const removed: [Args, string][] = [
      [{ dataset: "playRecords", includeHistory: true }, "includeHistory"],
      [{ dataset: "playRecords", includeHistory: false }, "includeHistory"],
      [{ dataset: "playRecords", consoleIds: ["con_x"] }, "consoleIds"],
      [{ dataset: "library", name: "x" }, "name"],
      [{ dataset: "library", unrated: true }, "unrated"],
      [{ dataset: "library", purposeTypes: ["PLAY"] }, "purposeTypes"],
      [{ dataset: "library", collectionTypes: ["TAG"] }, "collectionTypes"],
      [{ dataset: "library", buyDateFrom: yearsAgo(6) }, "buyDateFrom"],
      [{ dataset: "library", buyDateTo: "2015-01-01" }, "buyDateTo"],
      [{ dataset: "library", buyPriceFrom: 50_001 }, "buyPriceFrom"],
      [{ dataset: "library", buyPriceTo: 100_000 }, "buyPriceTo"],
    ];
    for (const [args, field] of removed) expectError(await free.call("exportMyData", args), 403, "plan_required", field);
    ok(
      await free.call("exportMyData", {
        dataset: "library",
        buyDateFrom: yearsAgo(4),
        buyDateTo: daysFromToday(0),
        buyPriceFrom: 0,
        buyPriceTo: 50_000,
      }),
    );
    ok(await free.call("exportMyData", { dataset: "playRecords", statuses: ["PLAYING"] }));
  });

  it("LIGHT: includeHistory, purposeTypes and collectionTypes are 403; name is up to 10 characters", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    expectError(await light.call("exportMyData", { dataset: "playRecords", includeHistory: true }), 403, "plan_required", "includeHistory");
    expectError(await light.call("exportMyData", { dataset: "consoles", purposeTypes: ["PLAY"] }), 403, "plan_required", "purposeTypes");
    expectError(
      await light.call("exportMyData", { dataset: "consoles", collectionTypes: ["TAG"] }),
      403,
      "plan_required",
      "collectionTypes",
    );
    expectError(await light.call("exportMyData", { dataset: "consoles", name: "12345678901" }), 403, "plan_required", "name");
    ok(await light.call("exportMyData", { dataset: "consoles", name: "1234567890", unrated: true }));
    ok(await light.call("exportMyData", { dataset: "playRecords", consoleIds: ["con_x"] }));
    ok(await light.call("exportMyData", { dataset: "library", buyDateFrom: "2000-01-01", buyPriceTo: 100_000 }));
  });

  it("the catalog publishes the plan differences that are enforced", async () => {
    const { tools } = ok(await send("/rest/v1/tools"));
    const tool = tools.find((t: { name: string }) => t.name === "exportMyData");
    expect(tool).toMatchObject({
      methods: ["POST"],
      restOnly: true,
      scopes: ["library:read", "play:read", "games:read"],
      plans: ["FREE", "LIGHT", "PREMIUM"],
    });
    expect(tool.planDifferences.FREE.removedProperties).toEqual([
      "includeHistory",
      "consoleIds",
      "tagIds",
      "name",
      "unrated",
      "purposeTypes",
      "collectionTypes",
    ]);
    expect(Object.keys(tool.planDifferences.FREE.changedProperties)).toEqual([
      "dataset",
      "buyDateFrom",
      "buyDateTo",
      "buyPriceFrom",
      "buyPriceTo",
    ]);
    expect(tool.planDifferences.FREE.changedProperties.buyPriceTo.maximum).toBe(50_000);
    expect(tool.planDifferences.FREE.changedProperties.buyDateFrom.description).toMatch(/5 years/);
    expect(tool.planDifferences.LIGHT.removedProperties).toEqual(["includeHistory", "purposeTypes", "collectionTypes"]);
    expect(tool.planDifferences.LIGHT.changedProperties.name.maxLength).toBe(10);
    expect(tool.planDifferences.LIGHT.changedProperties.dataset.enum).toEqual([
      "library",
      "wishlist",
      "playRecords",
      "playLogs",
      "tags",
      "consoles",
    ]);
  });

  it("at download, the plan held then decides: a lowered plan refuses what it no longer allows", async () => {
    const expectPlanRequired = async (plan: Plan, dataset: string, args: Args, field: string) => {
      const error = await openMyDataSource({ db: createDb(env.DB), userId: main.userId, plan, now: new Date() }, dataset, args).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("plan_required");
      expect((error as ApiError).details.field).toBe(field);
    };
    await expectPlanRequired("LIGHT", "playRecords", { includeHistory: true }, "includeHistory");
    await expectPlanRequired("FREE", "tags", {}, "dataset");
    await expectPlanRequired("LIGHT", "collections", {}, "dataset");
    await expectPlanRequired("FREE", "library", { buyPriceTo: 60_000 }, "buyPriceTo");
  });

  it("needs library:read, play:read and games:read", async () => {
    const account = await newAccount();
    for (const missing of ["library:read", "play:read", "games:read"] as const) {
      const scopes = (["library:read", "play:read", "games:read"] as const).filter((s) => s !== missing);
      const { apiKey } = await account.newKey([...scopes]);
      const reply = await callWith(apiKey, "exportMyData", { dataset: "library" });
      expectError(reply, 403, "insufficient_scope");
    }
    const { apiKey } = await account.newKey(["library:read", "play:read", "games:read"]);
    ok(await callWith(apiKey, "exportMyData", { dataset: "library" }));
  });
});

describe("exportMyData: isolation", () => {
  it("another user's rows never appear, in any dataset", async () => {
    const other = await player({ plan: "PREMIUM" }, 1);
    ok(await other.call("addToLibrary", { gameId: A, memo: "他人のメモ" }));
    ok(await other.call("addToWishlist", { gameId: W2 }));
    const { playId } = okDone(await other.call("addPlayRecord", { gameId: A }));
    ok(await other.call("addPlayLog", { playId, playTime: 5 }));
    const consoleId = ok(await other.call("addConsole", { name: "ヘリオス本体一号" })).item.consoleId;
    const tagId = ok(await other.call("addTag", { name: "名作" })).item.tagId;
    const collectionId = ok(await other.call("addCollection", { name: "ヘリオス全集", type: "INDIVIDUAL", gameIds: [A] })).item
      .collectionId;
    const customId = ok(await other.call("addCustomGame", { title: "ヘリオス他人作", platformId: P1 })).item.gameId;
    const otherWho = { call: other.call, userId: other.account.userId, plan: "PREMIUM" as Plan };

    const theirs: Record<string, [string, unknown[]]> = {
      library: ["gameId", [A]],
      wishlist: ["gameId", [W2]],
      playRecords: ["playId", [playId]],
      playLogs: ["playId", [playId]],
      consoles: ["consoleId", [consoleId]],
      tags: ["tagId", [tagId]],
      collections: ["collectionId", [collectionId]],
      customGames: ["gameId", [customId]],
    };
    for (const [dataset, [idKey, ids]] of Object.entries(theirs)) {
      const mine = await exportOf(main, { dataset });
      const own = await exportOf(otherWho, { dataset });
      expect(column(own.rows, idKey), dataset).toEqual(ids);
      if (dataset !== "library" && dataset !== "wishlist") {
        for (const id of ids) expect(column(mine.rows, idKey), dataset).not.toContain(id);
      }
    }
    const mineA = (await exportOf(main, { dataset: "library" })).rows.find((row) => row.gameId === A)!;
    expect(mineA.memo).toBe("最高");
    const ownW2 = (await exportOf(otherWho, { dataset: "wishlist" })).rows[0]!;
    expect(ownW2.priority).toBeNull();
    const mineW2 = (await exportOf(main, { dataset: "wishlist" })).rows.find((row) => row.gameId === W2)!;
    expect(mineW2.priority).toBe(2);
    expect(column((await exportOf(main, { dataset: "customGames" })).rows, "gameId")).not.toContain(customId);
  });
});
