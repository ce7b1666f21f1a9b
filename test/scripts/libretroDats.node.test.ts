// The conversion of libretro-database's DATs (scripts/lib/libretroDats): dump names, serials,
// readings and grouping on fixture text, then the shipped files (seed/master/libretro-*.ndjson).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptyIdLedger, formatIdLedger, parseIdLedger } from "../../scripts/lib/gamedatabase/idLedger";
import { loanwordsFrom, parseLoanwords } from "../../scripts/lib/gamedatabase/loanwords";
import { parseNicknameTable } from "../../scripts/lib/gamedatabase/nicknames";
import { boxSerial, type ConvertOptions, convertDats, FIRST_IDS } from "../../scripts/lib/libretroDats/convert";
import { genreIndex } from "../../scripts/lib/libretroDats/genres";
import { cleanTitle, parseDumpName } from "../../scripts/lib/libretroDats/names";
import { DAT_PLATFORMS } from "../../scripts/lib/libretroDats/platforms";
import { romajiReading } from "../../scripts/lib/libretroDats/readings";
import type { GameRow, GenreRow, PlatformRow } from "../../scripts/lib/masterRows";
import { gameRow, platformRow } from "../../src/tools/games/masterRows";

const master = join(import.meta.dirname, "../../seed/master");
const read = (file: string) => readFileSync(join(master, file), "utf8");
const rowsOf = <T>(text: string) =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
const loanwords = loanwordsFrom(parseLoanwords(read("loanwords.tsv")));
const nicknames = parseNicknameTable(read("nicknames.tsv"));

describe("parseDumpName", () => {
  it("keeps Japanese releases, drops the others and the unreleased", () => {
    expect(parseDumpName("Final Fantasy VII (Japan) (Disc 1)")).toEqual({
      datTitle: "Final Fantasy VII",
      title: "Final Fantasy VII",
      japanese: true,
      unreleased: false,
      edition: "",
    });
    expect(parseDumpName("Ridge Racer (Japan, USA) (Rev 1)")).toMatchObject({ japanese: true, edition: "" });
    expect(parseDumpName("Ridge Racer (Europe)").japanese).toBe(false);
    for (const name of ["Xenogears (Japan) (Taikenban)", "Parasite Eve (Japan) (Demo 2)", "Foo (Japan) (Beta)", "Bar (Japan) (Proto)"]) {
      expect(parseDumpName(name).unreleased, name).toBe(true);
    }
  });

  it("tells re-releases and special editions from languages, revisions and discs", () => {
    expect(parseDumpName("Arc the Lad (Japan) (PlayStation the Best)").edition).toBe("PlayStation the Best");
    expect(parseDumpName("Biohazard (Japan) (En,Ja) (v1.01) (Alt 2) (Disc 2)").edition).toBe("");
    expect(parseDumpName("Shenmue (Japan) (Disc 1) (Shokai Genteiban)").edition).toBe("Shokai Genteiban");
  });

  it("cleans the title as a box writes it", () => {
    expect(cleanTitle("Tokimeki Memorial - Forever with You")).toBe("Tokimeki Memorial: Forever with You");
    expect(cleanTitle("Legend of Zelda, The - A Link")).toBe("The Legend of Zelda: A Link");
    expect(cleanTitle("Gundam - Gihren no Yabou - Zeon no Keifu")).toBe("Gundam: Gihren no Yabou - Zeon no Keifu");
  });
});

describe("genreIndex", () => {
  const genreOf = genreIndex(rowsOf<GenreRow>(read("genres.ndjson")));

  it("maps No-Intro's genres to the main genre and the most specific key of the taxonomy", () => {
    expect(genreOf("Role-playing (RPG)")).toEqual({ genreId: 43, genreName: "ロールプレイング", genreKey: "rpg" });
    expect(genreOf("Platform")).toEqual({ genreId: 1, genreName: "アクション", genreKey: "action.platformer" });
    expect(genreOf("Strategy")).toMatchObject({ genreKey: "sim.strategy" });
  });

  it("leaves genres that say no one genre unmapped", () => {
    for (const genre of ["Shooter", "Card", "Various", "Adult", null]) expect(genreOf(genre), String(genre)).toBeUndefined();
  });
});

describe("boxSerial", () => {
  it("writes serials the way the spine prints them", () => {
    expect(boxSerial("SLPS_010.57")).toBe("SLPS-01057");
    expect(boxSerial("SLPS 01057")).toBe("SLPS-01057");
    expect(boxSerial("SLPS-01057")).toBe("SLPS-01057");
    expect(boxSerial("T-1401M")).toBe("T-1401M");
  });
});

describe("romajiReading", () => {
  it("reads Hepburn romaji and the loanword table's words", () => {
    expect(romajiReading("Tokimeki Memorial", loanwords)).toBe("ときめきめもりある");
    expect(romajiReading("Final Fantasy VII", loanwords)).toBe("ふぁいなるふぁんたじー7");
    expect(romajiReading("Gekitou Pro Yakyuu", loanwords)).toBe("げきとうぷろやきゅう");
    expect(romajiReading("Boku no Natsuyasumi", loanwords)).toBe("ぼくのなつやすみ");
    expect(romajiReading("Kimi wa Tomodachi", loanwords)).toBe("きみはともだち");
  });

  it("never guesses a word it cannot read", () => {
    expect(romajiReading("Zxqv Adventure", loanwords)).toBeNull();
    expect(romajiReading("1999", loanwords)).toBeNull();
  });
});

const PS = DAT_PLATFORMS.find((platform) => platform.key === "ps")!;
const game = (name: string, serial: string) =>
  `game (\n\tname "${name}"\n\tserial "${serial}"\n\trom ( name "${name}.bin" crc 00000000 )\n)`;
const FIXTURE_DAT = [
  game("Final Fantasy VII (Japan) (Disc 1)", "SLPS-00700"),
  game("Final Fantasy VII (Japan) (Disc 1)", "SLPS-00700-0"),
  game("Final Fantasy VII (Japan) (Disc 2)", "SLPS-00701"),
  game("Final Fantasy VII (Japan) (Disc 3)", "SLPS-00702"),
  game("Final Fantasy VII (USA) (Disc 1)", "SCUS-94163"),
  game("Final Fantasy VII (Japan) (PlayStation the Best)", "SLPS-91001"),
  game("Final Fantasy VII (Japan) (Taikenban)", "SLPM-80029"),
  game("Tokimeki Memorial - Forever with You (Japan)", "SLPS-00100"),
].join("\n");
const convert = (options: Partial<ConvertOptions> = {}) =>
  convertDats([{ platform: PS, dat: FIXTURE_DAT, publisher: "", genre: "", serial: "" }], {
    ledger: emptyIdLedger(),
    companies: [],
    genres: [],
    nicknames,
    readingOf: (title) => romajiReading(title, loanwords),
    ...options,
  });

describe("convertDats", () => {
  it("makes one game of a release's discs, its re-releases editions with their own serials", () => {
    const { platforms, games } = convert();
    expect(platforms).toEqual([expect.objectContaining({ platformId: FIRST_IDS.platform, name: "プレイステーション" })]);
    expect(games.map((g) => g.title)).toEqual(["Final Fantasy VII", "Tokimeki Memorial: Forever with You"]);
    const ff7 = games[0]!;
    expect(ff7).toMatchObject({
      gameId: FIRST_IDS.game,
      modelNumber: ["SLPS-00700", "SLPS-00701", "SLPS-00702"],
      titleEn: ["Final Fantasy VII"],
    });
    expect(ff7.editions).toEqual([
      expect.objectContaining({ title: "Final Fantasy VII (PlayStation the Best)", modelNumber: ["SLPS-91001"] }),
    ]);
    expect(ff7.aliases).toEqual(expect.arrayContaining(["FF7"]));
    expect(games[1]!.aliases).toEqual(expect.arrayContaining(["ときメモ"]));
    for (const row of games) expect(gameRow.safeParse(row).success).toBe(true);
  });

  it("keeps ids through the ledger when the source changes order or grows", () => {
    const ledger = emptyIdLedger();
    const first = convert({ ledger }).games;
    const again = parseIdLedger(formatIdLedger(ledger));
    const grown = convertDats(
      [{ platform: PS, dat: `${game("Ape Escape (Japan)", "SCPS-10091")}\n${FIXTURE_DAT}`, publisher: "", genre: "", serial: "" }],
      {
        ledger: again,
        companies: [],
        genres: [],
        nicknames,
        readingOf: () => null,
      },
    ).games;
    const idOf = (rows: GameRow[], title: string) => rows.find((row) => row.title === title)?.gameId;
    expect(idOf(grown, "Final Fantasy VII")).toBe(idOf(first, "Final Fantasy VII"));
    expect(idOf(grown, "Ape Escape")).toBe(FIRST_IDS.game + 2);
  });
});

describe("the shipped files", () => {
  const platforms = rowsOf<PlatformRow>(read("libretro-platforms.ndjson"));
  const games = rowsOf<GameRow>(read("libretro-games.ndjson"));
  const gamesOn = (key: string) => {
    const id = platforms.find((p) => p.shortName === DAT_PLATFORMS.find((d) => d.key === key)?.shortName)?.platformId;
    return games.filter((g) => g.platformId === id);
  };
  const hasSerial = (g: GameRow) => g.modelNumber.length > 0 || g.editions.some((e) => e.modelNumber.length > 0);

  it("are valid rows whose ids meet none of GameDataBase's", () => {
    for (const row of platforms) expect(platformRow.safeParse(row).success).toBe(true);
    for (const row of games) expect(gameRow.safeParse(row).success, row.title).toBe(true);
    const gdbPlatforms = new Set(rowsOf<PlatformRow>(read("platforms.ndjson")).map((p) => p.platformId));
    const gdbGames = new Set(rowsOf<GameRow>(read("games.ndjson")).map((g) => g.gameId));
    expect(platforms.filter((p) => gdbPlatforms.has(p.platformId))).toEqual([]);
    expect(games.filter((g) => gdbGames.has(g.gameId))).toEqual([]);
    expect(new Set(games.map((g) => g.gameId)).size).toBe(games.length);
  });

  it("cover the platforms with their Japanese releases, PlayStation with its serials", () => {
    const ps = gamesOn("ps");
    expect(ps.length).toBeGreaterThanOrEqual(2500);
    expect(ps.filter(hasSerial).length / ps.length).toBeGreaterThanOrEqual(0.9);
    for (const key of ["dc", "ngcd", "ws", "wsc", "msx", "msx2", "3do", "pc98"]) expect(gamesOn(key).length, key).toBeGreaterThan(0);
    const ff7 = ps.find((g) => g.title === "Final Fantasy VII");
    expect(ff7?.modelNumber).toEqual(["SLPS-00700", "SLPS-00701", "SLPS-00702"]);
    expect(ff7?.aliases).toEqual(expect.arrayContaining(["FF7"]));
  });

  it("give a serial to one game only, except where the DAT shares it between titles", () => {
    const titlesBySerial = new Map<string, Set<number>>();
    for (const g of games) {
      for (const serial of [...g.modelNumber, ...g.editions.flatMap((e) => e.modelNumber)]) {
        titlesBySerial.set(serial, (titlesBySerial.get(serial) ?? new Set()).add(g.gameId));
      }
    }
    const shared = [...titlesBySerial].filter(([, ids]) => ids.size > 1).map(([serial]) => serial);
    // Compilations and bundles list one serial under each title they hold; they stay few.
    expect(shared.length / titlesBySerial.size).toBeLessThan(0.02);
  });
});

describe("the readings' hand-checked sample", () => {
  const sample = readFileSync(join(import.meta.dirname, "../fixtures/libretro/dat-readings-sample.tsv"), "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#") && !line.startsWith("gameId\t"))
    .map((line) => {
      const [gameId, title, reading, verdict] = line.split("\t");
      return { gameId: Number(gameId), title, reading, verdict };
    });
  const shipped = new Map(rowsOf<GameRow>(read("libretro-games.ndjson")).map((g) => [g.gameId, g]));

  it("holds at least 100 games, checked against the readings shipped now", () => {
    expect(sample.length).toBeGreaterThanOrEqual(100);
    for (const { gameId, title, reading } of sample) {
      expect(shipped.get(gameId)?.title, String(gameId)).toBe(title);
      expect(shipped.get(gameId)?.titleReading, title).toBe(reading);
    }
  });

  it("is read right at least 95% of the time", () => {
    expect(sample.every(({ verdict }) => verdict === "ok" || verdict === "wrong")).toBe(true);
    expect(sample.filter(({ verdict }) => verdict === "ok").length / sample.length).toBeGreaterThanOrEqual(0.95);
  });
});
