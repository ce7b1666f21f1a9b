import { describe, expect, it } from "vitest";
import {
  changedGameRows,
  countByPlatform,
  joinSerials,
  mergeSerials,
  parseNdjsonRows,
  romHashRow,
  type SerialDats,
  type SerialRow,
  serialRow,
  serialsByHash,
} from "../../scripts/lib/gamedatabase/serials";
import { type GameRow, toNdjson } from "../../scripts/lib/masterRows";
import { gameRow } from "../../src/tools/games/masterRows";
import gbDat from "../fixtures/gamedatabase/serials/dat/Nintendo - Game Boy.dat?raw";
import gamesText from "../fixtures/gamedatabase/serials/games.ndjson?raw";
import nesNoIntro from "../fixtures/gamedatabase/serials/metadat/no-intro/Nintendo - Nintendo Entertainment System.dat?raw";
import sfcNoIntro from "../fixtures/gamedatabase/serials/metadat/no-intro/Nintendo - Super Nintendo Entertainment System.dat?raw";
import mdNoIntro from "../fixtures/gamedatabase/serials/metadat/no-intro/Sega - Mega Drive - Genesis.dat?raw";
import saturnRedump from "../fixtures/gamedatabase/serials/metadat/redump/Sega - Saturn.dat?raw";
import gbSerial from "../fixtures/gamedatabase/serials/metadat/serial/Nintendo - Game Boy.dat?raw";
import nesSerial from "../fixtures/gamedatabase/serials/metadat/serial/Nintendo - Nintendo Entertainment System.dat?raw";
import sfcSerial from "../fixtures/gamedatabase/serials/metadat/serial/Nintendo - Super Nintendo Entertainment System.dat?raw";
import mdSerial from "../fixtures/gamedatabase/serials/metadat/serial/Sega - Mega Drive - Genesis.dat?raw";
import romHashesText from "../fixtures/gamedatabase/serials/rom-hashes.ndjson?raw";

const SFC = "Nintendo - Super Nintendo Entertainment System.dat";
const NES = "Nintendo - Nintendo Entertainment System.dat";
const GB = "Nintendo - Game Boy.dat";
const MD = "Sega - Mega Drive - Genesis.dat";

/** Listed out of file-name order, so that input order cannot decide the result. */
const dats: SerialDats = {
  serial: { [MD]: mdSerial, [SFC]: sfcSerial, [GB]: gbSerial, [NES]: nesSerial },
  noIntro: { [MD]: mdNoIntro, [SFC]: sfcNoIntro, [NES]: nesNoIntro },
  dat: { [GB]: gbDat },
  redump: { "Sega - Saturn.dat": saturnRedump },
};

const romHashes = parseNdjsonRows(romHashesText, romHashRow, "rom-hashes.ndjson");
const games = parseNdjsonRows(gamesText, gameRow, "games.ndjson") as GameRow[];
const index = serialsByHash(dats);
const serials = joinSerials(romHashes, index);

function gameWithId(rows: GameRow[], gameId: number): GameRow {
  const game = rows.find((row) => row.gameId === gameId);
  if (!game) throw new Error(`no game ${gameId}`);
  return game;
}

describe("model numbers by ROM hash", () => {
  it("turns a serial's CRC into the SHA-1 and MD5 of the same ROM in the no-intro dat", () => {
    expect(index.get("005ccd8362dc41491f89f31fc9326a6688300e0c")).toEqual(["SHVC-AY2J-JPN"]);
    expect(index.get("3369347f7663b133ce445c15200a5afa")).toEqual(["SHVC-AY2J-JPN"]);
  });

  it("gives the headered NES file the serial that libretro names by the headerless file's CRC", () => {
    expect(index.get("56fe858d1035dce4b68520f457a0858bae7bb16d")).toEqual(["IPC-J1-01"]); // .unh, the CRC's own file
    expect(index.get("b4cbebec2a49f8bf5454a39424dff567c50d901c")).toEqual(["IPC-J1-01"]); // .nes, what PigSaint hashes
  });

  it("keeps every serial listed for one CRC, once each, in libretro's order, through a dat/ file's lower-case hashes", () => {
    expect(index.get("a3a5755020c9cbe13fc1a815288830d2e143367f")).toEqual(["DMG-AC4E", "DMG-CZ"]);
  });

  it("takes a disc's serial from the redump dat, inline with its track's hashes", () => {
    expect(index.get("e8dbaa30e847b15123a1f11e7db245af15fd7d0b")).toEqual(["T-4305G"]);
  });

  it("uses the box's serial, not the ROM header code a no-intro dat carries inline", () => {
    expect(index.get("7e0de7011a60a1462dc48594f3caa956ff942281")).toEqual(["T-48073"]);
  });

  it("drops what is a date, not a model number (libretro's '9/28/90' for Hellfire)", () => {
    expect(index.has("17bbf3da65757cad3c7ff82c094e54cc68fd2f73")).toBe(false);
  });
});

describe("joinSerials", () => {
  it("gives each game and edition its own ROMs' model numbers, sorted by game then edition, none where nothing matched", () => {
    expect(serials).toEqual([
      { gameId: 1, gameEditionId: null, modelNumber: ["SHVC-AY2J-JPN"] },
      { gameId: 2, gameEditionId: null, modelNumber: ["SHVC-FT"] },
      { gameId: 2, gameEditionId: 1, modelNumber: ["SHVC-FY"] },
      { gameId: 4, gameEditionId: null, modelNumber: ["IPC-J1-01"] },
      { gameId: 5, gameEditionId: null, modelNumber: ["DMG-AC4E", "DMG-CZ"] },
    ]);
    for (const row of serials) expect(serialRow.safeParse(row).success).toBe(true);
  });

  it("writes the same file whatever order the dats and hash rows come in", () => {
    const reversed: SerialDats = {
      serial: Object.fromEntries(Object.entries(dats.serial).reverse()),
      noIntro: Object.fromEntries(Object.entries(dats.noIntro).reverse()),
      dat: dats.dat,
      redump: dats.redump,
    };
    expect(toNdjson(joinSerials([...romHashes].reverse(), serialsByHash(reversed)))).toBe(toNdjson(serials));
  });
});

describe("mergeSerials", () => {
  const merged = mergeSerials(games, serials);

  it("puts the base row's model numbers on the game and each edition's own on that edition", () => {
    const finalFight = gameWithId(merged, 2);
    expect(finalFight.modelNumber).toEqual(["SHVC-FT"]);
    expect(finalFight.editions.map((edition) => [edition.gameEditionId, edition.modelNumber])).toEqual([
      [1, ["SHVC-FY"]],
      [2, []],
    ]);
    expect(gameWithId(merged, 3).modelNumber).toEqual([]);
  });

  it("keeps the model numbers a game already has first and adds none twice", () => {
    const withOwn = games.map((game) => (game.gameId === 5 ? { ...game, modelNumber: ["DMG-CZ", "DMG-CZ-USA"] } : game));
    expect(gameWithId(mergeSerials(withOwn, serials), 5).modelNumber).toEqual(["DMG-CZ", "DMG-CZ-USA", "DMG-AC4E"]);
  });

  it("makes rows the master import accepts, and leaves the input rows as they were", () => {
    for (const game of merged) expect(gameRow.safeParse(game).success).toBe(true);
    expect(gameWithId(games, 2).modelNumber).toEqual([]);
  });

  it("counts per platform the games with a model number, their own or an edition's", () => {
    expect(countByPlatform(merged)).toEqual([
      { platformId: 1, platformName: "スーパーファミコン", games: 3, withModelNumber: 2 },
      { platformId: 2, platformName: "ファミリーコンピュータ", games: 1, withModelNumber: 1 },
      { platformId: 3, platformName: "ゲームボーイ", games: 1, withModelNumber: 1 },
      { platformId: 4, platformName: "メガドライブ", games: 1, withModelNumber: 0 },
    ]);
  });
});

describe("changedGameRows", () => {
  it("re-sends nothing when the serials are the same, whatever their order", () => {
    expect(changedGameRows([...serials].reverse(), serials, games)).toEqual([]);
  });

  it("re-sends every game with a model number on the first run", () => {
    expect(changedGameRows([], serials, games).map((game) => game.gameId)).toEqual([1, 2, 4, 5]);
  });

  it("re-sends, merged in full, only the games whose own or an edition's model numbers changed, appeared or went", () => {
    const previous: SerialRow[] = [
      { gameId: 1, gameEditionId: null, modelNumber: ["SHVC-AY2J-JPN"] }, // unchanged
      { gameId: 2, gameEditionId: null, modelNumber: ["SHVC-FT"] },
      { gameId: 2, gameEditionId: 1, modelNumber: ["SHVC-FT"] }, // the edition's changed
      { gameId: 3, gameEditionId: null, modelNumber: ["SHVC-GH"] }, // gone
      { gameId: 5, gameEditionId: null, modelNumber: ["DMG-AC4E", "DMG-CZ"] }, // unchanged
    ]; // game 4's appeared
    const changed = changedGameRows(previous, serials, games);
    expect(changed.map((game) => game.gameId)).toEqual([2, 3, 4]);
    expect(gameWithId(changed, 2)).toEqual(gameWithId(mergeSerials(games, serials), 2));
    expect(gameWithId(changed, 3).modelNumber).toEqual([]);
  });
});

describe("parseNdjsonRows", () => {
  it("names the line of a row that does not fit", () => {
    const text = `${JSON.stringify(romHashes[0])}\n\n{"gameId":7,"gameEditionId":null,"sha1":["005CCD83"],"md5":[]}\n`;
    expect(() => parseNdjsonRows(text, romHashRow, "rom-hashes.ndjson")).toThrow(/^rom-hashes\.ndjson line 3: /);
  });
});
