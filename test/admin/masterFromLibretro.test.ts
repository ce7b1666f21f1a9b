import { describe, expect, it } from "vitest";
import { convertLibretro, type LibretroInput } from "../../scripts/lib/libretro";
import { type GameRow, toNdjson } from "../../scripts/lib/masterRows";
import { generateSyntheticMaster } from "../../scripts/lib/syntheticMaster";
import snesDat from "../fixtures/libretro/dat/Nintendo - Super Nintendo Entertainment System.dat?raw";
import mdDat from "../fixtures/libretro/dat/Sega - Mega Drive - Genesis.dat?raw";
import snesPublisher from "../fixtures/libretro/metadat/publisher/Nintendo - Super Nintendo Entertainment System.dat?raw";
import mdPublisher from "../fixtures/libretro/metadat/publisher/Sega - Mega Drive - Genesis.dat?raw";
import snesReleaseMonth from "../fixtures/libretro/metadat/releasemonth/Nintendo - Super Nintendo Entertainment System.dat?raw";
import mdReleaseMonth from "../fixtures/libretro/metadat/releasemonth/Sega - Mega Drive - Genesis.dat?raw";
import snesReleaseYear from "../fixtures/libretro/metadat/releaseyear/Nintendo - Super Nintendo Entertainment System.dat?raw";
import mdReleaseYear from "../fixtures/libretro/metadat/releaseyear/Sega - Mega Drive - Genesis.dat?raw";
import snesSerial from "../fixtures/libretro/metadat/serial/Nintendo - Super Nintendo Entertainment System.dat?raw";
import mdSerial from "../fixtures/libretro/metadat/serial/Sega - Mega Drive - Genesis.dat?raw";
import { WITHOUT_IDENTIFIERS } from "../support/gameRows";

const SNES = "Nintendo - Super Nintendo Entertainment System.dat";
const MD = "Sega - Mega Drive - Genesis.dat";

/** The fixture, with the Mega Drive listed first so that file order cannot decide ids. */
const input: LibretroInput = {
  dats: { [MD]: mdDat, [SNES]: snesDat },
  metadat: {
    publisher: { [MD]: mdPublisher, [SNES]: snesPublisher },
    releaseyear: { [MD]: mdReleaseYear, [SNES]: snesReleaseYear },
    releasemonth: { [MD]: mdReleaseMonth, [SNES]: snesReleaseMonth },
    serial: { [MD]: mdSerial, [SNES]: snesSerial },
  },
};

function gameTitled<T extends GameRow>(games: T[], title: string): T {
  const game = games.find((candidate) => candidate.title === title);
  if (!game) throw new Error(`no game titled ${title}`);
  return game;
}

describe("master rows from libretro-database", () => {
  const master = convertLibretro(input);

  it("makes one platform per dat file, named after the file, in file-name order", () => {
    expect(master.platforms).toEqual([
      {
        platformId: 1,
        name: "Super Nintendo Entertainment System",
        nameEn: "Super Nintendo Entertainment System",
        shortName: null,
        maker: "Nintendo",
        releaseDate: null,
        custom: false,
      },
      {
        platformId: 2,
        name: "Mega Drive - Genesis",
        nameEn: "Mega Drive - Genesis",
        shortName: null,
        maker: "Sega",
        releaseDate: null,
        custom: false,
      },
    ]);
  });

  it("merges the regional dumps of a title into one game with the tags removed, sorted by platform then title", () => {
    expect(master.games.map((game) => [game.gameId, game.platformId, game.title])).toEqual([
      [1, 1, "Axelay"],
      [2, 1, "F-Zero"],
      [3, 1, "Super Mario World"],
      [4, 1, "Yoshi's Cookie"],
      [5, 2, "Gunstar Heroes"],
      [6, 2, "Rocket Knight Adventures"],
      [7, 2, "Sonic The Hedgehog"],
    ]);
    const axelay = gameTitled(master.games, "Axelay");
    expect(axelay.titleEn).toEqual(["Axelay"]);
    expect(axelay.titleReading).toBeNull();
    expect(axelay.aliases).toEqual([]);
    expect(axelay.platformName).toBe("Super Nintendo Entertainment System");
  });

  it("takes the release month from the (Japan) dump when regional dumps disagree", () => {
    // Both Axelay and Sonic list a non-Japanese dump first in the fixture.
    expect(gameTitled(master.games, "Axelay").releaseYearMonth).toBe("1992-09");
    expect(gameTitled(master.games, "Sonic The Hedgehog").releaseYearMonth).toBe("1991-07");
  });

  it("keeps the known year and month but never invents a release day", () => {
    expect(master.games.every((game) => game.releaseDate === null)).toBe(true);
    expect(gameTitled(master.games, "Super Mario World").releaseYearMonth).toBe("1991-08");
    expect(gameTitled(master.games, "F-Zero").releaseYearMonth).toBe("1990");
    // This metadat entry has no name, only the ROM's CRC.
    expect(gameTitled(master.games, "Rocket Knight Adventures").releaseYearMonth).toBe("1993-08");
  });

  it("dedupes publishers by exact name across platforms, in order of first use", () => {
    expect(master.companies).toEqual([
      { companyId: 1, name: "Konami", nameKana: null, nameEn: "Konami", custom: false },
      { companyId: 2, name: "Nintendo", nameKana: null, nameEn: "Nintendo", custom: false },
      { companyId: 3, name: "Sega", nameKana: null, nameEn: "Sega", custom: false },
    ]);
    const publishers = master.games.map((game) => [game.title, game.publisherId, game.publisherName]);
    expect(publishers).toContainEqual(["Axelay", 1, "Konami"]);
    expect(publishers).toContainEqual(["Rocket Knight Adventures", 1, "Konami"]);
    expect(publishers).toContainEqual(["F-Zero", 2, "Nintendo"]);
    expect(publishers).toContainEqual(["Super Mario World", 2, "Nintendo"]);
    expect(publishers).toContainEqual(["Sonic The Hedgehog", 3, "Sega"]);
  });

  it("turns serials into model numbers, splitting lists and putting the Japanese dump's first", () => {
    expect(gameTitled(master.games, "Axelay").modelNumber).toEqual(["TEST-0011", "TEST-0012"]);
    expect(gameTitled(master.games, "F-Zero").modelNumber).toEqual(["TEST-0002", "TEST-0003"]);
    expect(gameTitled(master.games, "Sonic The Hedgehog").modelNumber).toEqual(["TEST-0102", "TEST-0112", "TEST-0101"]);
    // A serial given in the dat's own rom block.
    expect(gameTitled(master.games, "Rocket Knight Adventures").modelNumber).toEqual(["TEST-0103"]);
  });

  it("leaves everything null or empty for a game without metadata and skips BIOS images", () => {
    expect(gameTitled(master.games, "Yoshi's Cookie")).toEqual({
      gameId: 4,
      title: "Yoshi's Cookie",
      titleReading: null,
      titleEn: ["Yoshi's Cookie"],
      aliases: [],
      platformId: 1,
      platformName: "Super Nintendo Entertainment System",
      publisherId: null,
      publisherName: null,
      genreId: null,
      genreName: null,
      genreSubId: null,
      genreKey: null,
      releaseDate: null,
      releaseYearMonth: null,
      ...WITHOUT_IDENTIFIERS,
    });
    expect(master.games.some((game) => game.title.includes("BIOS"))).toBe(false);
  });

  it("assigns the same ids on every run, counting from the first ids given", () => {
    const reordered: LibretroInput = { ...input, dats: { [SNES]: snesDat, [MD]: mdDat } };
    expect(convertLibretro(reordered)).toEqual(master);

    const offset = convertLibretro(input, { firstGameId: 1001, firstPlatformId: 11, firstCompanyId: 101 });
    expect(offset.platforms.map((platform) => platform.platformId)).toEqual([11, 12]);
    expect(offset.companies.map((company) => company.companyId)).toEqual([101, 102, 103]);
    expect(offset.games.map((game) => game.gameId)).toEqual([1001, 1002, 1003, 1004, 1005, 1006, 1007]);
    const sonic = gameTitled(offset.games, "Sonic The Hedgehog");
    expect([sonic.platformId, sonic.publisherId]).toEqual([12, 103]);
  });

  it("writes NDJSON that reads back row for row", () => {
    const text = toNdjson(master.games);
    expect(text.endsWith("}\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual(master.games);
  });
});

/** Checks the whole code, check digit included: weights 1,3,1,3... sum to a multiple of 10. */
function hasValidEan13CheckDigit(code: string): boolean {
  if (!/^\d{13}$/.test(code)) return false;
  const sum = [...code].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0;
}

function isCalendarDate(date: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
}

describe("synthetic master data", () => {
  const synthetic = generateSyntheticMaster({ games: 500, seed: 7 });
  const games = [...synthetic.games];
  const editions = games.flatMap((game) => game.editions);

  it("has 12 platforms, 300 companies and 10 root genres with 20 children, all obviously synthetic", () => {
    expect(synthetic.platforms.map((platform) => platform.platformId)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(synthetic.platforms.every((platform) => platform.name.startsWith("合成機 "))).toBe(true);
    expect(synthetic.companies).toHaveLength(300);
    expect(synthetic.companies[0]?.name).toBe("合成ソフト 001");
    const roots = synthetic.genres.filter((genre) => genre.parentId === null);
    const children = synthetic.genres.filter((genre) => genre.parentId !== null);
    expect(roots.map((genre) => genre.taxonomyKey)).toEqual(Array.from({ length: 10 }, (_, i) => `g${String(i + 1).padStart(2, "0")}`));
    expect(children).toHaveLength(20);
    for (const child of children) {
      const parent = roots.find((root) => root.genreId === child.parentId);
      expect(child.taxonomyKey).toMatch(new RegExp(`^${parent?.taxonomyKey}\\.c\\d{2}$`));
    }
  });

  it("numbers games 1..N with unique ids", () => {
    expect(games.map((game) => game.gameId)).toEqual(Array.from({ length: 500 }, (_, index) => index + 1));
    const editionIds = editions.map((edition) => edition.gameEditionId);
    expect(new Set(editionIds).size).toBe(editionIds.length);
  });

  it("gives JAN codes the in-store prefix 2 and a correct EAN-13 check digit", () => {
    const janCodes = [...games.map((game) => game.janCode), ...editions.map((edition) => edition.janCode)].filter((code) => code !== null);
    expect(janCodes.length).toBeGreaterThan(100);
    for (const code of janCodes) {
      expect(code.startsWith("2")).toBe(true);
      expect(hasValidEan13CheckDigit(code), code).toBe(true);
    }
    expect(new Set(janCodes).size).toBe(janCodes.length);
  });

  it("gives every title a hiragana reading and an English title", () => {
    for (const game of games) {
      expect(game.titleReading, game.title).toMatch(/^[\u3041-\u309f\u30fc0-9]+$/);
      expect(game.titleEn).toHaveLength(1);
    }
    const withAliases = games.filter((game) => game.aliases.length > 0).length;
    expect(withAliases).toBeGreaterThan(50);
    expect(withAliases).toBeLessThan(150);
  });

  it("keeps model numbers, prices, dates and references plausible and clearly synthetic", () => {
    const modelNumbers = [...games, ...editions].flatMap((row) => row.modelNumber);
    expect(modelNumbers.every((modelNumber) => /^SYN-[A-Z]\d{4,}$/.test(modelNumber))).toBe(true);
    expect(new Set(modelNumbers).size).toBe(modelNumbers.length);
    for (const { price, releaseDate } of [...games, ...editions]) {
      expect(price !== null && price >= 2800 && price <= 11800 && price % 100 === 0, String(price)).toBe(true);
      expect(releaseDate !== null && isCalendarDate(releaseDate), String(releaseDate)).toBe(true);
      expect(String(releaseDate) >= "1983-01-01" && String(releaseDate) <= "2005-12-31").toBe(true);
    }
    for (const game of games) {
      const platform = synthetic.platforms.find((candidate) => candidate.platformId === game.platformId);
      expect(game.platformName).toBe(platform?.name);
      expect(String(game.releaseDate) >= String(platform?.releaseDate)).toBe(true);
      const sub = synthetic.genres.find((genre) => genre.genreId === game.genreSubId);
      if (sub) expect(sub.parentId).toBe(game.genreId);
      expect([game.mediaId, game.gpsId, game.dbId, game.dbSlug, game.dbCoverId]).toEqual([null, null, null, null, null]);
    }
  });

  it("is deterministic for a seed", () => {
    const again = [...generateSyntheticMaster({ games: 500, seed: 7 }).games];
    expect(again).toEqual(games);
    expect([...synthetic.games]).toEqual(games);
    const otherSeed = [...generateSyntheticMaster({ games: 500, seed: 8 }).games];
    expect(otherSeed).not.toEqual(games);
  });
});
