// searchGames over rows of the catalog converted from libretro-database's DATs
// (fixtures/master/libretro.*: three real PlayStation games as seed/master/libretro-games.ndjson has
// them): the serial as the spine prints it, with or without its hyphen, romaji titles, the
// hiragana reading and the nicknames.
import { beforeAll, describe, expect, it } from "vitest";
import games from "../../fixtures/master/libretro.games.ndjson?raw";
import platforms from "../../fixtures/master/libretro.platforms.ndjson?raw";
import { type Account, newAccount } from "../../support/harness";
import { gameIdsOf, importFixture } from "../../support/master";

const PLAYSTATION = 101;
const FF7 = 100901;
const TOKIMEKI = 103283;
const A_RESSHA_4 = 100023; // its PlayStation the Best edition is SLPS-91019

beforeAll(async () => {
  await importFixture({ platforms, games });
});

const search = (account: Account, args: Record<string, unknown>) => account.call("searchGames", args, "POST");

describe("searchGames on the DAT catalog", () => {
  it("finds a PlayStation game by the serial on its spine, with or without the hyphen", async () => {
    const account = await newAccount({ plan: "FREE" });
    for (const modelNumber of ["SLPS-00700", "SLPS00700", "slps 00700", "SLPS-00702"]) {
      const reply = await search(account, { modelNumber });
      expect(reply.status).toBe(200);
      expect(gameIdsOf(reply), modelNumber).toEqual([FF7]);
      expect(reply.body.items[0]).toMatchObject({ matchedBy: "modelNumber", exact: true, edition: false });
    }
  });

  it("credits libretro-database for these games in coverage.note", async () => {
    const account = await newAccount();
    const reply = await search(account, { modelNumber: "SLPS-00700", includeCoverage: true });
    expect(reply.body.coverage.note).toContain(
      "PlayStation, Dreamcast, Neo Geo CD, 3DO, PC-9801, WonderSwan and MSX games, from libretro-database (CC BY-SA 4.0",
    );
  });

  it("finds a re-release by its own serial, as an edition", async () => {
    const account = await newAccount();
    const reply = await search(account, { modelNumber: "SLPS91019" });
    expect(gameIdsOf(reply)).toEqual([A_RESSHA_4]);
    expect(reply.body.items[0]).toMatchObject({ matchedBy: "modelNumber", exact: true, edition: true });
  });

  it("finds PlayStation games by a romaji title, their reading and their nicknames", async () => {
    const account = await newAccount();
    const cases: Array<[string, number]> = [
      ["Final Fantasy VII", FF7],
      ["final fantasy 7", FF7],
      ["ファイナルファンタジー7", FF7],
      ["FF7", FF7],
      ["Tokimeki Memorial Forever", TOKIMEKI],
      ["ときめきめもりある", TOKIMEKI],
      ["ときメモ", TOKIMEKI],
    ];
    for (const [query, gameId] of cases) {
      const reply = await search(account, { query, platformIds: [PLAYSTATION] });
      expect(reply.status, query).toBe(200);
      expect(gameIdsOf(reply), query).toEqual([gameId]);
    }
  });

  it("names the field of a serial that is not one", async () => {
    const account = await newAccount();
    for (const modelNumber of ["--", `SLPS-${"0".repeat(40)}`]) {
      const reply = await search(account, { modelNumber });
      expect(reply.status, modelNumber).toBe(400);
      expect(JSON.stringify(reply.body)).toContain("modelNumber");
    }
  });
});
