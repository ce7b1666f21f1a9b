// Imports from other trackers (generic CSV, Grouvee, Yamtrack) into the library, play records and
// wishlist, matched through searchGames' own search. Games are a fictional master (ids 871000+,
// titles ヴェスタ...); fixtures are synthetic rows in each tracker's published column layout.
import { beforeAll, describe, expect, it } from "vitest";
import generic from "../../fixtures/imports/generic.csv?raw";
import grouvee from "../../fixtures/imports/grouvee.csv?raw";
import yamtrack from "../../fixtures/imports/yamtrack.csv?raw";
import { type Account, newAccount, send } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";

const P1 = 871001;
const P2 = 871002;
const SWORD = 871001;
const SHIELD = 871002;
const THIRD = 871003;
const GAIDEN = 871004;
const MAZE = 871005;
const TAIZEN_A = 871006;
const TAIZEN_B = 871007;
const BULK = 872000;
/** Platforms named as the master data names them (nameEn), which Grouvee calls otherwise; one title on both. */
const SFC = 871011;
const MD = 871012;
const TWIN_SFC = 871021;
const TWIN_MD = 871022;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([
      { platformId: P1, name: "ヴェスタ機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: P2, name: "ヴェスタ携帯機", nameEn: null, shortName: null, maker: null, releaseDate: null },
      { platformId: SFC, name: "ヴェスタファミコン", nameEn: "Super Famicom", shortName: null, maker: null, releaseDate: null },
      { platformId: MD, name: "ヴェスタドライブ", nameEn: "Mega Drive", shortName: null, maker: null, releaseDate: null },
    ]),
    games: toNdjson([
      fictionalGame({ gameId: SWORD, title: "ヴェスタの剣", titleReading: "ゔぇすたのつるぎ", platformId: P1 }),
      fictionalGame({ gameId: SHIELD, title: "ヴェスタの盾", titleReading: "ゔぇすたのたて", platformId: P1 }),
      fictionalGame({ gameId: THIRD, title: "ヴェスタ三", platformId: P1, modelNumber: ["VST-0003"] }),
      fictionalGame({ gameId: GAIDEN, title: "ヴェスタ外伝", platformId: P2 }),
      fictionalGame({ gameId: MAZE, title: "ヴェスタ迷宮", platformId: P2 }),
      fictionalGame({ gameId: TAIZEN_A, title: "ヴェスタ大全", platformId: P1 }),
      fictionalGame({ gameId: TAIZEN_B, title: "ヴェスタ大全", platformId: P2 }),
      fictionalGame({ gameId: TWIN_SFC, title: "ヴェスタ双子", platformId: SFC }),
      fictionalGame({ gameId: TWIN_MD, title: "ヴェスタ双子", platformId: MD }),
      ...Array.from({ length: 1000 }, (_, i) =>
        fictionalGame({ gameId: BULK + i, title: `ヴェスタ全集${String(i).padStart(4, "0")}`, platformId: P2 }),
      ),
    ]),
  });
}, 180_000);

async function importCsv(account: Account, source: string, csv: string) {
  const started = await account.call("importMyData", { source });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const uploaded = await send(new URL(started.body.uploadUrl).pathname, {
    method: "PUT",
    body: csv,
    headers: { "Content-Type": "text/csv" },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const seen = [uploaded.body];
  let status = uploaded.body;
  for (let i = 0; i < 50 && status.state === "processing"; i++) {
    const reply = await account.call("getImportStatus", { jobId: started.body.jobId });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    status = reply.body;
    seen.push(status);
  }
  return { status, seen };
}

const library = async (a: Account) => (await a.call("getLibrary", { fields: "purchase,memo,latestPlay" }, "GET")).body.items as any[];
const plays = async (a: Account) => (await a.call("getPlayRecords", { fields: "goal" }, "GET")).body.items as any[];
const wishes = async (a: Account) => (await a.call("getWishlist", { fields: "wish,memo" }, "GET")).body.items as any[];
const byGame = (items: any[]) => new Map(items.map((item) => [item.gameId, item]));

describe("importMyData from other trackers", () => {
  it("generic CSV: matches by title on a platform, by reading and by model number; reports unmatched and ambiguous rows", async () => {
    const a = await newAccount({ plan: "PREMIUM" });
    const { status } = await importCsv(a, "generic", generic);
    expect(status).toMatchObject({ finished: true, totalRows: 6, rowsAdded: 4, rowsFailed: 2 });
    expect(status.reported).toEqual([
      expect.objectContaining({ row: 5, column: "title", code: "unmatched" }),
      expect.objectContaining({ row: 6, column: "title", code: "ambiguous" }),
    ]);
    expect(status.reported[1].candidates.length).toBeGreaterThan(1);
    const owned = byGame(await library(a));
    expect([...owned.keys()].sort()).toEqual([SWORD, SHIELD, THIRD]);
    expect(owned.get(SWORD)).toMatchObject({ rating: 5, buyDate: "2021-03-04", buyPrice: 1980, buyPlace: "駿河屋", memo: "箱付き, 美品" });
    const records = byGame(await plays(a));
    expect(records.get(SWORD)).toMatchObject({ status: "COMPLETED", playStartDate: "2021-03-05", playEndDate: "2021-04-01" });
    expect(records.get(SHIELD)).toMatchObject({ status: "PLAYING", playStartDate: "2024-01-01" });
    expect(records.has(THIRD)).toBe(false);
    expect((await wishes(a)).map((w) => [w.gameId, w.memo])).toEqual([[GAIDEN, "ほしい"]]);
    // idempotent: the same file again adds nothing
    const again = await importCsv(a, "generic", generic);
    expect(again.status).toMatchObject({ rowsAdded: 0, rowsExisting: 4, rowsFailed: 2 });
  });

  it("generic CSV: a bad value is a 400 naming the row and column", async () => {
    const a = await newAccount({ plan: "FREE" });
    const started = await a.call("importMyData", { source: "generic" });
    const bad = "title,status,rating\nヴェスタの剣,COMPLETED,5\nヴェスタの盾,FINISHED,3\n";
    const refused = await send(new URL(started.body.uploadUrl).pathname, { method: "PUT", body: bad });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "invalid_input", field: "rows[2].status" });
    const noHeader = await send(new URL(started.body.uploadUrl).pathname, { method: "PUT", body: "name,shelf\nx,y\n" });
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.field).toBe("title");
  });

  it("Grouvee: shelves map to statuses (Played COMPLETED, Playing PLAYING, Backlog PLANNED, Wish List to the wishlist)", async () => {
    const a = await newAccount({ plan: "LIGHT" });
    const { status } = await importCsv(a, "grouvee", grouvee);
    expect(status).toMatchObject({ finished: true, totalRows: 4, rowsAdded: 4, rowsFailed: 0 });
    const records = byGame(await plays(a));
    expect(records.get(SWORD)).toMatchObject({ status: "COMPLETED", playStartDate: "2020-05-01", playEndDate: "2020-06-01" });
    expect(records.get(SHIELD).status).toBe("PLAYING");
    expect(records.get(MAZE).status).toBe("PLANNED");
    expect(byGame(await library(a)).get(SWORD)).toMatchObject({ rating: 4, memo: "よかった" });
    expect((await wishes(a)).map((w) => w.gameId)).toEqual([GAIDEN]);
  });

  it("Grouvee: its platform names find the master data's platforms; a Played row without dates is completed on no date", async () => {
    const a = await newAccount({ plan: "LIGHT" });
    const header = grouvee.split("\n")[0];
    const row = (id: number, shelf: string, platforms: string[]) =>
      [
        id,
        "ヴェスタ双子",
        `"{""${shelf}"": {""date_added"": ""2021-01-01T00:00:00Z"", ""url"": """"}}"`,
        `"{${platforms.map((name) => `""${name}"": {""url"": """"}`).join(", ")}}"`,
        "",
        "",
        "[]",
        ...Array(10).fill(""),
      ].join(",");
    const csv = [header, row(1, "Played", ["Super Nintendo Entertainment System"]), row(2, "Backlog", ["PC", "Sega Genesis"])].join("\n");
    const { status } = await importCsv(a, "grouvee", `${csv}\n`);
    expect(status).toMatchObject({ finished: true, totalRows: 2, rowsAdded: 2, rowsFailed: 0 });
    const records = byGame(await plays(a));
    expect(records.get(TWIN_SFC)).toMatchObject({ status: "COMPLETED", playStartDate: null, playEndDate: null });
    expect(records.get(TWIN_MD)).toMatchObject({ status: "PLANNED", playStartDate: null, playEndDate: null });
  });

  it("Yamtrack: statuses map (Completed, In progress, Paused, Dropped, Planning), scores 0-10 become 1-5, non-games are skipped", async () => {
    const a = await newAccount({ plan: "PREMIUM" });
    const { status } = await importCsv(a, "yamtrack", yamtrack);
    expect(status).toMatchObject({ finished: true, totalRows: 6, rowsAdded: 4, rowsFailed: 2 });
    expect(status.reported).toEqual([
      expect.objectContaining({ row: 5, code: "skipped" }),
      expect.objectContaining({ row: 6, column: "title", code: "ambiguous", candidates: [TAIZEN_A, TAIZEN_B] }),
    ]);
    const records = byGame(await plays(a));
    expect(records.get(SWORD)).toMatchObject({ status: "COMPLETED", playStartDate: "2022-01-01", playEndDate: "2022-02-01" });
    expect(records.get(SHIELD).status).toBe("PLAYING");
    expect(records.get(MAZE).status).toBe("PAUSED");
    // No end date in the file: none is made up (not today).
    expect(records.get(GAIDEN)).toMatchObject({ status: "DROPPED", playEndDate: null });
    const owned = byGame(await library(a));
    expect(owned.get(SWORD)).toMatchObject({ rating: 4, memo: "メモ" });
    expect(owned.get(MAZE).rating).toBe(2);
  });

  it("a Grouvee file of 1,000 rows imports in bounded steps, with progress and quota per batch", async () => {
    const a = await newAccount({ plan: "PREMIUM" });
    const header =
      "id,name,shelves,platforms,rating,review,dates,statuses,genres,franchises,series,developers,publishers,release_date,url,giantbomb_id,giantbomb_url";
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `${i + 1},ヴェスタ全集${String(i).padStart(4, "0")},"{""Played"": {}}",{},${(i % 5) + 1},,[],,,,,,,,,,`,
    );
    const { status, seen } = await importCsv(a, "grouvee", `${header}\n${lines.join("\n")}\n`);
    expect(status).toMatchObject({ finished: true, totalRows: 1000, rowsDone: 1000, rowsAdded: 1000, rowsFailed: 0, unitsCharged: 10 });
    const progress = seen.map((s) => s.rowsDone);
    expect(progress[0]).toBe(200);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
    expect(seen.length).toBeGreaterThanOrEqual(5);
    const account = await a.call("getAccount", {}, "GET");
    expect(account.body.registered.library.count).toBe(1000);
  }, 120_000);
});
