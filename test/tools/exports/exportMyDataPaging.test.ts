// exportMyData over a large library: keyset pages without duplicates or gaps, over the 1,200 bulk
// games of ./myDataSupport.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../../src/platform/plans";
import { player } from "../../support/harness";
import { ok } from "../../support/replies";
import { type Args, BULK_COUNT, BULK_FIRST, column, exportOf, importMyDataMaster } from "./myDataSupport";

beforeAll(() => importMyDataMaster({ bulk: true }), 120_000);

describe("exportMyData: a large library in keyset pages", () => {
  it("reads 1,200 entries in pages of 500, in getLibrary's order, without duplicates or gaps", async () => {
    const big = await player({ plan: "PREMIUM" }, 1);
    const userId = big.account.userId;
    // Few distinct sort values (and empty ones) so ties straddle page boundaries.
    const entries = Array.from({ length: BULK_COUNT }, (_, i) => ({
      g: BULK_FIRST + i,
      price: i % 7 === 0 ? null : (i % 13) * 100,
      updated: `2024-01-0${(i % 5) + 1}T00:00:00.000Z`,
    }));
    await env.DB.prepare(
      `INSERT INTO library_entries (user_id, game_id, rating, buy_date, buy_price, buy_place, buy_place_key, memo, user_links, attribute_ids, created_at, updated_at, revision)
       SELECT ?, j.value ->> '$.g', NULL, NULL, j.value ->> '$.price', NULL, NULL, 'メモ' || (j.value ->> '$.g'), '[]', '["box"]', j.value ->> '$.updated', j.value ->> '$.updated', 'rev'
       FROM json_each(?) j`,
    )
      .bind(userId, JSON.stringify(entries))
      .run();

    const byPrice = (a: (typeof entries)[number], b: (typeof entries)[number]) =>
      a.price === b.price ? a.g - b.g : a.price === null ? 1 : b.price === null ? -1 : a.price - b.price;
    const byUpdatedDesc = (a: (typeof entries)[number], b: (typeof entries)[number]) =>
      a.updated === b.updated ? a.g - b.g : a.updated < b.updated ? 1 : -1;

    const cases: [Args, number[]][] = [
      [{ sortBy: "buyPrice", sortOrder: "asc" }, [...entries].sort(byPrice).map((e) => e.g)],
      [{}, [...entries].sort(byUpdatedDesc).map((e) => e.g)],
      [{ sortBy: "title", sortOrder: "desc" }, [...entries].map((e) => e.g).sort((a, b) => b - a)],
    ];
    const who = { call: big.call, userId, plan: "PREMIUM" as Plan };
    for (const [args, expected] of cases) {
      const { rows, pageSizes, body } = await exportOf(who, { dataset: "library", ...args });
      expect(body.rowCount).toBe(BULK_COUNT);
      expect(pageSizes).toEqual([500, 500, 200]);
      const ids = column(rows, "gameId") as number[];
      expect(new Set(ids).size).toBe(BULK_COUNT);
      expect(ids, JSON.stringify(args)).toEqual(expected);
      const listed: number[] = [];
      for (let page = 1; page <= 6; page++) {
        listed.push(
          ...ok(await big.call("getLibrary", { ...args, fields: [], limit: 200, page })).items.map(
            (item: { gameId: number }) => item.gameId,
          ),
        );
      }
      expect(ids, `same order as getLibrary ${JSON.stringify(args)}`).toEqual(listed);
    }
    const { rows } = await exportOf(who, { dataset: "library", buyPriceFrom: 1200 });
    expect(rows).toHaveLength(entries.filter((e) => e.price !== null && e.price >= 1200).length);
    expect(rows[0]).toMatchObject({
      gameTitle: expect.stringMatching(/^ヘリオス大全\d{4}$/),
      attributes: ["箱あり"],
      memo: expect.stringMatching(/^メモ/),
    });
  }, 120_000);
});
