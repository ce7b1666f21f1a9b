// Shared by the console suites (consolesWrite, consolesRead, consolesRemove): a tiny fictional
// platform master (ids 780000+, marker word ネビュラ), the calls the suites make, and the seeded
// account of five consoles.
import { expect } from "vitest";
import { type Account, newAccount, type Reply } from "../../support/harness";
import { importFixture, toNdjson } from "../../support/master";

export const P1 = 780001;
export const P2 = 780002;
export const P3 = 780003;
export const MISSING_PLATFORM = 789999;

/** Imports the suites' platforms (each file's beforeAll). */
export async function importConsolePlatforms() {
  await importFixture({
    platforms: toNdjson([
      { platformId: P1, name: "ネビュラ機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P2, name: "ネビュラ携帯機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P3, name: "ネビュラ据置機", nameEn: null, shortName: null, maker: null, releaseDate: null },
    ]),
  });
}

export const PLATFORM_NAMES: Record<number, string> = { [P1]: "ネビュラ機", [P2]: "ネビュラ携帯機", [P3]: "ネビュラ据置機" };

/** A pause so consecutive writes get distinct createdAt / updatedAt values. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

export const add = (account: Account, args: Record<string, unknown>) => account.call("addConsole", args);
export const update = (account: Account, args: Record<string, unknown>) => account.call("updateConsole", args);
export const list = (account: Account, args: Record<string, unknown> = {}, method: "GET" | "POST" = "POST") =>
  account.call("getConsoles", args, method);
export const remove = (account: Account, args: Record<string, unknown>) => account.call("removeConsole", args);
export const ids = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body.items as { consoleId: string }[]).map((item) => item.consoleId);
};

export async function added(account: Account, args: Record<string, unknown>): Promise<string> {
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
export async function seeded(plan: "LIGHT" | "PREMIUM" = "PREMIUM") {
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

export const CORE_KEYS = ["consoleId", "name", "publisherName", "rating"];
export const PURCHASE_KEYS = ["buyDate", "buyPlace", "buyPrice"];
