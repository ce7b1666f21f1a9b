import { describe, expect, it } from "vitest";
import { companyKey, publisherOf } from "../../scripts/lib/gamedatabase/companies";
import {
  type ConvertOptions,
  convertGameDatabase,
  type GameDatabaseInput,
  type GameDatabaseMaster,
  masterRowProblems,
} from "../../scripts/lib/gamedatabase/convert";
import { parseCorrections } from "../../scripts/lib/gamedatabase/corrections";
import { commonTitle } from "../../scripts/lib/gamedatabase/editions";
import { parseIdLedger } from "../../scripts/lib/gamedatabase/idLedger";
import { marketsOf } from "../../scripts/lib/gamedatabase/platforms";
import type { Reading, TitleForReading } from "../../scripts/lib/gamedatabase/readings";
import { romHashRow } from "../../scripts/lib/gamedatabase/serials";
import { parseTags } from "../../scripts/lib/gamedatabase/tags";
import { type GameRow, toNdjson } from "../../scripts/lib/masterRows";
import arcadeCapcom from "../fixtures/gamedatabase/arcade_capcom.csv?raw";
import famicom from "../fixtures/gamedatabase/console_nintendo_famicom_nes.csv?raw";
import superFamicom from "../fixtures/gamedatabase/console_nintendo_superfamicom_snes.csv?raw";
import saturn from "../fixtures/gamedatabase/console_sega_saturn.csv?raw";
import tagsYml from "../fixtures/gamedatabase/tags.yml?raw";

/** Real rows of PigSaint's CSVs (see the fixture's README), listed out of the platform table's order. */
const csvFiles: Record<string, string> = {
  "console_sega_saturn.csv": saturn,
  "arcade_capcom.csv": arcadeCapcom,
  "console_nintendo_superfamicom_snes.csv": superFamicom,
  "console_nintendo_famicom_nes.csv": famicom,
};
const input: GameDatabaseInput = { csvFiles, tagsYml, idLedger: "" };

/** Readings as readings.ts would give them, for three games; no reading for the others. */
const READINGS: Record<string, Pick<Reading, "reading" | "source">> = {
  duckhunt: { reading: "だっくはんと", source: "kana" },
  tsuritarou: { reading: "つりたろう", source: "romanisation" },
  supersoukoban: { reading: "Super そうこばん", source: "analyser" },
};
const readingOf = ({ sourceId, exact }: TitleForReading): Reading => ({
  ...(READINGS[sourceId] ?? { reading: null, source: null }),
  boxTitle: exact,
});

function convert(options: Partial<ConvertOptions> = {}, from: GameDatabaseInput = input): GameDatabaseMaster {
  return convertGameDatabase(from, { regions: "japan", readingOf, ...options });
}

function gameWith(master: GameDatabaseMaster, platformName: string, title: string): GameRow {
  const game = master.games.find((candidate) => candidate.platformName === platformName && candidate.title === title);
  if (!game) throw new Error(`no game ${title} on ${platformName}`);
  return game;
}

const editionTitles = (game: GameRow) => game.editions.map((edition) => [edition.title, edition.releaseDate]);

describe("master rows from PigSaint's GameDataBase", () => {
  const master = convert();
  const SFC = "スーパーファミコン";
  const FC = "ファミリーコンピュータ";
  const SS = "セガサターン";

  it("writes rows that the master import accepts, with or without the overseas releases", () => {
    expect(masterRowProblems(master)).toEqual([]);
    expect(masterRowProblems(convert({ regions: "all" }))).toEqual([]);
    for (const row of [...master.romHashes, ...convert({ regions: "all" }).romHashes]) expect(romHashRow.parse(row)).toEqual(row);
  });

  it("makes the Japanese platform of each file, in the table's order, named as a Japanese collector names it", () => {
    expect(master.platforms.map((platform) => [platform.platformId, platform.name, platform.shortName])).toEqual([
      [1, "ファミリーコンピュータ", "FC"],
      [2, "スーパーファミコン", "SFC"],
      [3, "セガサターン", "SS"],
      [4, "アーケード (カプコン)", "AC カプコン"],
    ]);
    expect(master.platforms[0]).toEqual({
      platformId: 1,
      name: "ファミリーコンピュータ",
      nameEn: "Family Computer",
      shortName: "FC",
      maker: "任天堂",
      releaseDate: "1983-07-15",
      custom: false,
    });
    expect(master.platforms[3]?.releaseDate).toBeNull();
  });

  it("makes one game per platform and ID: the box title, its romanisation and the titles it was sold under abroad", () => {
    const dracula = gameWith(master, SFC, "悪魔城ドラキュラ");
    expect(dracula.titleEn).toEqual(["Akumajō Dracula", "Super Castlevania IV"]);
    expect(dracula.releaseDate).toBe("1991-10-31");
    expect(dracula.aliases).toEqual([]);
    expect([dracula.janCode, dracula.price, dracula.mediaId, dracula.gpsId, dracula.dbId, dracula.dbSlug, dracula.dbCoverId]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(dracula.modelNumber).toEqual([]);
    // The beta, the Virtual Console and the Anniversary Collection dumps are no product of their own.
    expect(dracula.editions).toEqual([]);
    // "=" in `Title (exact)` means the same as `Title`.
    expect(gameWith(master, FC, "1943: The Battle of Valhalla").titleEn).toEqual([
      "1943: The Battle of Valhalla",
      "1943",
      "1943: The Battle of Midway",
    ]);
    expect(master.games.map((game) => game.gameId)).toEqual(master.games.map((_, index) => index + 1));
  });

  it("makes revisions and reboxed releases editions of their game, titled after their box or series", () => {
    expect(editionTitles(gameWith(master, FC, "4人打ち麻雀"))).toEqual([["4人打ち麻雀 (Rev 1)", null]]);
    expect(editionTitles(gameWith(master, FC, "ダックハント"))).toEqual([["ダックハント (光線銃シリーズ)", null]]);
    expect(editionTitles(gameWith(master, SS, "Dの食卓"))).toEqual([["Dの食卓 (サタコレ)", "1997-06-20"]]);
    expect(editionTitles(gameWith(master, SS, "アンジェリーク Special"))).toEqual([
      ["アンジェリーク Special (プレミアム Box)", "1996-10-04"],
      ["アンジェリーク Special (プレミアムパック)", "1997-11-20"],
    ]);
    expect(editionTitles(gameWith(master, SS, "Black/Matrix ブラック マトリクス"))).toEqual([
      ["Black/Matrix ブラック マトリクス (Rev A)", "1998-11-06"],
      ["Black/Matrix ブラック マトリクス (Rev A)", "1999-09-02"],
    ]);
    // Another box with the same ID and no tag is an edition too (the Voicer-kun bundle).
    expect(editionTitles(gameWith(master, SFC, "アンジェリーク"))).toEqual([
      ["アンジェリーク アンジェリーク ヴォイス・ファンタジー with ボイサーくん", "1994-09-23"],
      ["アンジェリーク プレミアム Box", "1994-09-23"],
    ]);
  });

  it("takes the earliest release as the game when an ID lists several, whatever their order in the file", () => {
    // The CSV lists Expert (1996) before The Planet Buster (1995).
    const brandish = gameWith(master, SFC, "Brandish 2 ブランディッシュ The Planet Buster");
    expect(brandish.releaseDate).toBe("1995-08-11");
    expect(editionTitles(brandish)).toEqual([["Brandish 2 ブランディッシュ2 Expert エキスパート", "1996-03-15"]]);
  });

  it("folds the discs of one box and an alternative dump into one product, titled without the disc's name", () => {
    const enemyZero = gameWith(master, SS, "E0: Enemy Zero エネミー・ゼロ");
    expect(enemyZero.titleEn).toEqual(["Enemy Zero"]);
    // Its first disc is an opening movie (#genre:notagame>media): the box is still an adventure.
    expect(enemyZero.genreKey).toBe("adventure.survivalhorror");
    expect(editionTitles(enemyZero)).toEqual([
      ["E0: Enemy Zero エネミー・ゼロ", "1996-12-13"],
      ["E0: Enemy Zero エネミー・ゼロ (サタコレ)", "1997-12-11"],
    ]);
    // PigSaint lists no hashes for disc images: a disc game has no rom-hashes line.
    expect(master.romHashes.filter((row) => row.gameId === enemyZero.gameId)).toEqual([]);
    const juveiQuest = gameWith(master, FC, "JuveiQuest じゅうべえくえすと");
    expect(juveiQuest.editions).toEqual([]);
    expect(master.romHashes.filter((row) => row.gameId === juveiQuest.gameId)).toEqual([
      {
        gameId: juveiQuest.gameId,
        gameEditionId: null,
        sha1: ["30479a40a44792bc1790fa8cfe2b8303549b7c95", "7d41d4c8be37939443d094b1d9f0d2220c3be8f4"],
        md5: ["44e0427cd15d6bd27af0d7e76effda42", "849b424069979461839bf55ffb609f22"],
      },
    ]);
    const eve = gameWith(master, SS, "EVE: Burst Error");
    expect(editionTitles(eve)).toEqual([
      ["EVE: Burst Error", "1997-08-29"],
      ["EVE: Burst Error (限定版)", "1997-03-07"],
    ]);
  });

  it("writes a rom-hashes line for each game and edition with a dump, in lower-case hex", () => {
    const mahjong = gameWith(master, FC, "4人打ち麻雀");
    expect(master.romHashes.filter((row) => row.gameId === mahjong.gameId)).toEqual([
      {
        gameId: mahjong.gameId,
        gameEditionId: null,
        sha1: ["ea172299af323a27177c897cf340e3544ef3d089"],
        md5: ["44f219c48d7b62798d814efacf164865"],
      },
      {
        gameId: mahjong.gameId,
        gameEditionId: mahjong.editions[0]?.gameEditionId,
        sha1: ["15efa139e1ffdb8c35c400dcbb775b86bff80103"],
        md5: ["6d106b111eb177010329f7778468f79d"],
      },
    ]);
  });

  it("leaves out prototypes, betas, demos, re-releases on other systems and bootlegs, and counts why", () => {
    expect(master.summary.skippedRows).toEqual({
      unfinished: 6,
      rerelease: 7,
      unlicensedCopy: 2,
      noId: 0,
      noRegion: 0,
      overseas: 26,
      noOverseasPlatform: 0,
    });
    // An unlicensed original (no bootleg, no hack) is a real product and stays.
    expect(gameWith(master, FC, "風間ジュンと浅間夕子のAV Dragon ドラゴン 麻雀").publisherName).toBe("Hacker International");
  });

  it("keeps a release date only when the source gives the full day", () => {
    const arcade1943 = gameWith(master, "アーケード (カプコン)", "1943 ミッドウェイ海戦");
    expect(arcade1943.releaseDate).toBeNull(); // "1987"
    expect(editionTitles(arcade1943)).toEqual([["1943 ミッドウェイ海戦 (Rev B)", null]]);
    expect(editionTitles(gameWith(master, "アーケード (カプコン)", "19XX: The War Against Destiny"))).toEqual([
      ["19XX: The War Against Destiny", "1995-12-25"],
      ["19XX: The War Against Destiny", "1996-01-04"],
    ]);
  });

  it("makes the genre taxonomy of tags.yml with Japanese names, and each game's main and support genre", () => {
    const byKey = new Map(master.genres.map((genre) => [genre.taxonomyKey, genre]));
    expect(byKey.get("action")).toEqual({ genreId: 1, name: "アクション", parentId: null, taxonomyKey: "action" });
    expect(byKey.get("action.platformer")).toEqual({ genreId: 2, name: "プラットフォーム", parentId: 1, taxonomyKey: "action.platformer" });
    expect(byKey.get("board.shougi")?.name).toBe("将棋");
    expect(master.summary.untranslatedGenres).toEqual([]);
    // #genre:adventure:sim>date: main adventure, support simulation, key of the first.
    const angelique = gameWith(master, SFC, "アンジェリーク");
    expect([angelique.genreName, angelique.genreKey, angelique.genreSubId]).toEqual([
      "アドベンチャー",
      "adventure",
      byKey.get("sim")?.genreId,
    ]);
    const brandish = gameWith(master, SFC, "Brandish 2 ブランディッシュ The Planet Buster");
    expect([brandish.genreId, brandish.genreName, brandish.genreKey, brandish.genreSubId]).toEqual([
      byKey.get("rpg")?.genreId,
      "ロールプレイング",
      "rpg.a",
      null,
    ]);
  });

  it("makes one company per publisher however it is spelt, with its Japanese name where it is certain", () => {
    const packIn = master.companies.filter((company) => company.nameEn?.toLowerCase() === "pack-in-video");
    expect(packIn).toEqual([
      {
        companyId: packIn[0]?.companyId,
        name: "パック・イン・ビデオ",
        nameKana: "パックインビデオ",
        nameEn: "Pack-in-Video",
        custom: false,
      },
    ]);
    const packInGames = master.games.filter((game) => game.publisherId === packIn[0]?.companyId).map((game) => game.title);
    expect(packInGames).toEqual(["牧場物語", "Super 倉庫番", "つり太郎"]); // Pack-In-Video once, Pack-in-Video twice
    // "Invictus/Toshiba EMI": the first of two companies.
    expect(gameWith(master, SFC, "Battle Master バトル・マスター 究極の戦士たち").publisherName).toBe("Invictus");
    expect(master.companies.find((company) => company.nameEn === "Invictus")).toMatchObject({ name: "Invictus", nameKana: null });
    // Only publishers: the developers (Ruby Party, Thinking Rabbit, ...) are not companies of the catalog.
    expect(master.companies.map((company) => company.nameEn)).not.toContain("Thinking Rabbit");
  });

  it("asks for a reading of each Japanese game only, counts them by source and leaves out one that is not hiragana", () => {
    const asked: TitleForReading[] = [];
    const result = convert({
      regions: "all",
      readingOf: (title) => {
        asked.push(title);
        return readingOf(title);
      },
    });
    expect(asked).toContainEqual({ exact: "Super 倉庫番", romanised: "Super Sōkoban", sourceId: "supersoukoban" });
    expect(asked).toHaveLength(master.games.length);
    expect(result.summary.readings).toEqual({
      kana: 1,
      romanisation: 1,
      analyser: 0,
      loanwords: 0,
      corrected: 0,
      none: master.games.length - 3,
      refused: 1,
    });
    expect(gameWith(result, FC, "ダックハント").titleReading).toBe("だっくはんと");
    expect(gameWith(result, SFC, "Super 倉庫番").titleReading).toBeNull();
    expect(result.games.filter((game) => game.platformName?.endsWith("(海外版)")).every((game) => game.titleReading === null)).toBe(true);
  });

  it("makes the overseas releases platforms and games of their own with --regions all", () => {
    const all = convert({ regions: "all" });
    expect(all.platforms.map((platform) => platform.name)).toEqual([
      "ファミリーコンピュータ",
      "ファミリーコンピュータ (海外版)",
      "スーパーファミコン",
      "スーパーファミコン (海外版)",
      "セガサターン",
      "セガサターン (海外版)",
      "アーケード (カプコン)",
      "アーケード (カプコン・海外版)",
    ]);
    const harvestMoon = gameWith(all, "スーパーファミコン (海外版)", "Harvest Moon");
    // The USA box first (1997-06-17), then the European and the German ones.
    expect(harvestMoon.releaseDate).toBe("1997-06-17");
    expect(harvestMoon.publisherName).toBe("ナツメ");
    expect(editionTitles(harvestMoon)).toEqual([
      ["Harvest Moon", "1998-01-29"],
      ["Harvest Moon", "1998-01-29"],
    ]);
    // The Japanese games keep what they had.
    expect(gameWith(all, SFC, "牧場物語").titleEn).toEqual(gameWith(master, SFC, "牧場物語").titleEn);
  });

  it("writes the same bytes for the same input and ledger, whatever the order of the files", () => {
    const again = convert({}, { ...input, csvFiles: Object.fromEntries(Object.entries(csvFiles).reverse()) });
    for (const dataset of ["platforms", "companies", "genres", "games", "romHashes"] as const) {
      expect(toNdjson(again[dataset])).toBe(toNdjson(master[dataset]));
    }
    expect(again.idLedger).toBe(master.idLedger);
  });

  it("keeps every id of the ledger, numbers new keys after the highest id ever given, and never renumbers", () => {
    expect(master.idLedger.split("\n").slice(0, 2)).toEqual(["kind\tkey\tid", "platform\tfc\t1"]);
    expect(master.idLedger).toContain("game\tsfc/akumajoudraculasuper\t");
    expect(master.idLedger).toContain("edition\tfc/4ninuchimahjong#rev:1\t");
    expect(master.idLedger).toContain("company\tpackinvideo\t");
    expect(master.idLedger).toContain("genre\taction.platformer\t2\n");
    // A ledger from an older checkout: Dracula has an id, and a game that has since left the source had 500.
    const ledger = "kind\tkey\tid\ngame\tsfc/akumajoudraculasuper\t42\ngame\tsfc/nolongerlisted\t500\n";
    const next = convert({}, { ...input, idLedger: ledger });
    expect(gameWith(next, SFC, "悪魔城ドラキュラ").gameId).toBe(42);
    const others = next.games.filter((game) => game.gameId !== 42).map((game) => game.gameId);
    expect(others).toEqual(others.map((_, index) => 501 + index));
    expect(next.idLedger).toContain("game\tsfc/nolongerlisted\t500\n");
    expect(next.summary.newIds.game).toBe(master.games.length - 1);
    // Converting again with the ledger it wrote adds nothing and changes nothing.
    const stable = convert({}, { ...input, idLedger: next.idLedger });
    expect(stable.idLedger).toBe(next.idLedger);
    expect(toNdjson(stable.games)).toBe(toNdjson(next.games));
  });

  it("refuses a ledger line it cannot trust, naming it", () => {
    expect(() => parseIdLedger("game\tfc/a\t1\ngame\tfc/a\t2\n")).toThrow("line 2: the key is listed twice");
    expect(() => parseIdLedger("game\tfc/a\t1\ngame\tfc/b\t1\n")).toThrow("line 2: the id is already given to another game");
    expect(() => parseIdLedger("game\tfc/a\t1000000000\n")).toThrow("line 1: the id must be a whole number");
    expect(() => parseIdLedger("title\tfc/a\t1\n")).toThrow("line 1: unknown kind");
    expect(() => parseIdLedger("game\tfc/a\n")).toThrow("line 1: expected kind<TAB>key<TAB>id");
  });
});

describe("the converter's parts", () => {
  it("reads tags: `:` separates values, `>` lists a value's children", () => {
    expect(parseTags("#genre:adventure>visualnovel:sim>date #disc:4>1 #reboxed")).toEqual([
      {
        name: "genre",
        values: [
          { value: "adventure", children: ["visualnovel"] },
          { value: "sim", children: ["date"] },
        ],
      },
      { name: "disc", values: [{ value: "4", children: ["1"] }] },
      { name: "reboxed", values: [] },
    ]);
  });

  it("places a row by its Region: Japanese, overseas, both, or nowhere when unknown", () => {
    expect(marketsOf(["Japan"])).toEqual(["japan"]);
    expect(marketsOf(["USA", "Europe"])).toEqual(["overseas"]);
    expect(marketsOf(["Japan", "USA"])).toEqual(["japan", "overseas"]);
    expect(marketsOf([""])).toEqual([]);
    expect(marketsOf(["Unknown"])).toEqual([]);
  });

  it("keys a company by its name without case, punctuation or corporate suffix", () => {
    expect(new Set(["CAPCOM", "Capcom", "Capcom Co., Ltd.", "CAPCOM Inc."].map(companyKey))).toEqual(new Set(["capcom"]));
    expect(companyKey("Technōs")).toBe("technos");
    expect(companyKey("NAMCOT")).toBe("namco");
    expect(publisherOf("Invictus/Toshiba EMI")).toBe("Invictus");
    expect(publisherOf("Epic/Sony")).toBe("Epic/Sony");
    expect(publisherOf("")).toBeNull();
  });

  it("titles a game and the editions named after it by the box title readings.ts derives", () => {
    const boxed = convert({ readingOf: (title) => ({ ...readingOf(title), boxTitle: `${title.exact} (箱)` }) });
    const duckHunt = gameWith(boxed, "ファミリーコンピュータ", "ダックハント (箱)");
    expect(editionTitles(duckHunt)).toEqual([["ダックハント (箱) (光線銃シリーズ)", null]]);
  });

  it("applies the project's corrections: an exact title before the reading is derived, a reading by hand", () => {
    const asked: TitleForReading[] = [];
    const corrected = convert({
      corrections: parseCorrections("fc/duckhunt\texact\tダックハント!\ta test\nfc/duckhunt\treading\tだっくはんとびー\ta test\n"),
      readingOf: (title) => {
        asked.push(title);
        return readingOf(title);
      },
    });
    expect(asked.find((title) => title.sourceId === "duckhunt")?.exact).toBe("ダックハント!");
    expect(gameWith(corrected, "ファミリーコンピュータ", "ダックハント!").titleReading).toBe("だっくはんとびー");
    expect(corrected.summary.readings.corrected).toBe(1);
  });

  it("refuses corrections of games the source does not have, naming them", () => {
    expect(() => convert({ corrections: parseCorrections("fc/nosuchgame\texact\tX\ta typo here\n") })).toThrow(/fc\/nosuchgame/);
  });

  it("gives each game the nicknames found for it as its aliases", () => {
    const nicknamed = convert({ nicknamesOf: (game, platformKey) => (game.title === "ダックハント" ? [`${platformKey}ダック`] : []) });
    expect(gameWith(nicknamed, "ファミリーコンピュータ", "ダックハント").aliases).toEqual(["fcダック"]);
    expect(gameWith(nicknamed, "スーパーファミコン", "悪魔城ドラキュラ").aliases).toEqual([]);
  });

  it("titles a box of discs by what its discs' titles share", () => {
    expect(commonTitle(["E0: Enemy Zero エネミー・ゼロ (Opening Disk)", "E0: Enemy Zero エネミー・ゼロ"])).toBe(
      "E0: Enemy Zero エネミー・ゼロ",
    );
    expect(commonTitle(["EVE: Burst Error (Kojiroh Disc / 小次郎編Disc)", "EVE: Burst Error (Marina Disc / まりな編Disc)"])).toBe(
      "EVE: Burst Error",
    );
    expect(commonTitle(["Fire Alpha", "Fire Alps"])).toBe("Fire");
    expect(commonTitle(["Same", "Same"])).toBe("Same");
  });
});
