// The nickname table (seed/master/nicknames.tsv) and its matcher (scripts/lib/gamedatabase/nicknames.ts):
// the parser, the series numbers, the guards against false positives, and the real table over the
// real seed catalog: no dead rows, and the nicknames collectors type land on the right games.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type GameTitles,
  MAX_ALIASES,
  type NicknameRow,
  nicknameCoverage,
  nicknamesOf,
  parseNicknameTable,
  seedGameTitles,
} from "../../scripts/lib/gamedatabase/nicknames";
import { gameRow } from "../../src/tools/games/masterRows";

const row = (...cells: string[]) => cells.join("\t");
const table = (...rows: string[]) => parseNicknameTable(rows.join("\n"));
const game = (title: string, titleEn: string[] = [], titleReading: string | null = null, platformKey = "sfc"): GameTitles => ({
  title,
  titleEn,
  titleReading,
  platformKey,
});

describe("parseNicknameTable", () => {
  it("reads series and game rows, skipping comments and blank lines", () => {
    const rows = table(
      "# kind\tmatch\tnicknames\tplatforms\texclude\tnote",
      "",
      row("series", "ドラゴンクエスト", "ドラクエ, DQ", "", "", "Dragon Quest"),
      row("series", "Street Fighter", "スト", "arcade-capcom,sfc", "vs, 2010", "Street Fighter"),
      row("game", "ゼルダの伝説 時のオカリナ|The Legend of Zelda: Ocarina of Time", "時オカ", "n64", "", "Ocarina of Time"),
    );
    expect(rows).toEqual<NicknameRow[]>([
      {
        line: 3,
        kind: "series",
        match: ["どらごんくえすと"],
        nicknames: ["ドラクエ", "DQ"],
        platforms: [],
        exclude: [],
        note: "Dragon Quest",
      },
      {
        line: 4,
        kind: "series",
        match: ["streetfighter"],
        nicknames: ["スト"],
        platforms: ["arcade-capcom", "sfc"],
        exclude: ["vs", "2010"],
        note: "Street Fighter",
      },
      {
        line: 5,
        kind: "game",
        match: ["ぜるだの伝説時のおかりな", "thelegendofzeldaocarinaoftime"],
        nicknames: ["時オカ"],
        platforms: ["n64"],
        exclude: [],
        note: "Ocarina of Time",
      },
    ]);
  });

  it.each([
    ["a missing column", row("series", "ドラゴンクエスト", "ドラクエ", "", "Dragon Quest"), /line 2: expected 6 tab-separated columns/],
    ["an unknown kind", row("serie", "ドラゴンクエスト", "ドラクエ", "", "", "x"), /line 2: unknown kind "serie"/],
    ["an empty match", row("series", " ・ ", "ドラクエ", "", "", "x"), /line 2: the match column needs/],
    [
      "two names in a series row",
      row("series", "ドラゴンクエスト|Dragon Quest", "ドラクエ", "", "", "x"),
      /line 2: a series row matches one series name/,
    ],
    ["a series name too short to be safe", row("series", "FF", "エフエフ", "", "", "x"), /line 2: a series name needs at least 3 letters/],
    [
      "an exclusion in a game row",
      row("game", "ドラゴンクエスト", "ドラクエ1", "fc", "II", "x"),
      /line 2: only series rows take exclusions/,
    ],
    ["no nickname", row("series", "ドラゴンクエスト", " , ", "", "", "x"), /line 2: no nickname given/],
    [
      "a nickname without letters",
      row("series", "ドラゴンクエスト", "ドラクエ,・・", "", "", "x"),
      /line 2: the nickname "・・" has no letters or digits/,
    ],
    [
      "a nickname too long for an alias",
      row("series", "ドラゴンクエスト", "ド".repeat(95), "", "", "x"),
      /line 2: the nickname .* is too long/,
    ],
    ["an unknown platform", row("series", "ドラゴンクエスト", "ドラクエ", "famicom", "", "x"), /line 2: unknown platform key "famicom"/],
    ["no note", row("series", "ドラゴンクエスト", "ドラクエ", "", "", " "), /line 2: the note column says what the row is/],
  ])("names the line of %s", (_, bad, message) => {
    expect(() => table(row("series", "ファイナルファンタジー", "FF", "", "", "Final Fantasy"), bad)).toThrow(message);
  });

  it("refuses a row that repeats another (same kind, match in search form and platforms)", () => {
    expect(() =>
      table(row("series", "ストリートファイター", "スト", "", "", "a"), row("series", "ストリート・ファイター", "SF", "", "", "b")),
    ).toThrow(/line 2: the same series and platforms as line 1/);
  });
});

describe("nicknamesOf: series numbers", () => {
  const rows = table(
    row("series", "ドラゴンクエスト", "ドラクエ,DQ", "", "", "Dragon Quest"),
    row("series", "Dragon Quest", "ドラクエ,DQ", "", "", "Dragon Quest, romanised"),
    row("series", "ファイナルファンタジー", "FF", "", "", "Final Fantasy"),
    row("series", "Final Fantasy", "FF", "", "", "Final Fantasy, romanised"),
    row("series", "ストリートファイター", "スト", "", "", "Street Fighter"),
    row("series", "Street Fighter", "スト", "", "", "Street Fighter, romanised"),
    row("series", "実況パワフルプロ野球", "パワプロ", "", "", "Power Pro"),
    row("series", "ドクターマリオ", "ドクマリ", "", "", "Dr. Mario"),
  );

  it("gives each nickname with the number after the series name, and alone", () => {
    expect(
      nicknamesOf(
        rows,
        game("ドラゴンクエストIII そして伝説へ…", ["Dragon Quest III: Soshite Densetsu e..."], "どらごんくえすと3そしてでんせつへ", "fc"),
      ),
    ).toEqual(["ドラクエ3", "ドラクエ", "DQ3", "DQ"]);
    expect(nicknamesOf(rows, game("Super Street Fighter II X"))).toEqual(["スト2", "スト"]);
    // Bare スト is in ストリートファイター itself, so a search for it finds the title anyway.
    expect(nicknamesOf(rows, game("ストリートファイターII"))).toEqual(["スト2"]);
  });

  it("works on a title that starts with the title screen's Latin logo, and on the Japanese title alone", () => {
    const logo = nicknamesOf(rows, game("Dragon Quest III ドラゴンクエストIII そして伝説へ…", ["Dragon Quest III: Soshite Densetsu e..."]));
    const box = nicknamesOf(
      rows,
      game("ドラゴンクエストIII そして伝説へ…", ["Dragon Quest III: Soshite Densetsu e...", "Dragon Quest III"]),
    );
    expect(logo).toEqual(["ドラクエ3", "ドラクエ", "DQ3", "DQ"]);
    expect(box).toEqual(logo);
  });

  it("takes the number from the Japanese title before an overseas title that numbers the game differently", () => {
    const ff6 = game("ファイナルファンタジーVI", ["Final Fantasy VI", "Final Fantasy III"]);
    expect(nicknamesOf(rows, ff6)).toEqual(["FF6", "FF"]);
    expect(nicknamesOf(rows, game("Final Fantasy VI ファイナルファンタジーVI", ["Final Fantasy VI", "Final Fantasy III"]))).toEqual([
      "FF6",
      "FF",
    ]);
  });

  it("reads a number written apart from the name (Final Fantasy VI) and a year edition", () => {
    expect(nicknamesOf(rows, game("Final Fantasy VI"))).toEqual(["FF6", "FF"]);
    expect(nicknamesOf(rows, game("実況パワフルプロ野球'96"))).toEqual(["パワプロ96", "パワプロ"]);
  });

  it("gives only the bare nickname to a title without a number", () => {
    expect(nicknamesOf(rows, game("ドラゴンクエスト", ["Dragon Quest"], "どらごんくえすと", "fc"))).toEqual(["ドラクエ", "DQ"]);
  });

  it("reads a collection's numbers as a list (I・II), not as twelve, and a year after a number as no part of it", () => {
    expect(nicknamesOf(rows, game("ドラゴンクエストI・II", ["Dragon Quest I・II"]))).toEqual(["ドラクエ1・2", "ドラクエ", "DQ1・2", "DQ"]);
    expect(nicknamesOf(rows, game("実況パワフルプロ野球3 '97春"))).toEqual(["パワプロ3", "パワプロ"]);
  });

  it("reads no series number that is not one: a code (2010), a bracket's contents, an ordinal's next word", () => {
    expect(nicknamesOf(rows, game("Street Fighter 2010"))).toEqual(["スト"]);
    expect(nicknamesOf(rows, game("ファイナルファンタジー 2025"))).toEqual(["FF"]);
    expect(nicknamesOf(rows, game("BS Dr. Mario ドクターマリオ(3-3)"))).toEqual(["ドクマリ"]);
    expect(nicknamesOf(rows, game("Street Fighter III 2nd Impact: Giant Attack"))).toEqual(["スト3", "スト"]);
  });

  it("takes no number from a reading when a title names the series without one", () => {
    // The reading puts a 2 after the series name where the title has "Monsters 2".
    const monsters2 = game("ドラゴンクエストモンスターズ2", [], "どらごんくえすと2もんすたーず");
    expect(nicknamesOf(rows, monsters2)).toEqual(["ドラクエ", "DQ"]);
    expect(nicknamesOf(rows, game("Mario", [], "どらごんくえすと3"))).toEqual(["ドラクエ3", "ドラクエ", "DQ3", "DQ"]);
  });
});

describe("nicknamesOf: guards", () => {
  it("matches a Latin series name only as whole words", () => {
    const rows = table(row("series", "Mother", "マザー", "", "", "MOTHER"));
    expect(nicknamesOf(rows, game("Mothership Zeta"))).toEqual([]);
    expect(nicknamesOf(rows, game("Mother 2 ギーグの逆襲"))).toEqual(["マザー2", "マザー"]);
    expect(nicknamesOf(rows, game("MOTHER2 ギーグの逆襲"))).toEqual(["マザー2", "マザー"]);
  });

  it("leaves out a game whose title forms contain an excluded word", () => {
    const rows = table(
      row("series", "マリオブラザーズ", "マリブラ", "", "スーパーマリオ", "Mario Bros."),
      row("series", "Street Fighter", "スト", "", "vs,2010,mogura", "Street Fighter"),
    );
    expect(nicknamesOf(rows, game("スーパーマリオブラザーズ3"))).toEqual([]);
    expect(nicknamesOf(rows, game("帰ってきたマリオブラザーズ"))).toEqual(["マリブラ"]);
    expect(nicknamesOf(rows, game("X-Men vs. Street Fighter"))).toEqual([]);
    expect(nicknamesOf(rows, game("2010 Street Fighter", ["Street Fighter 2010: The Final Fight"]))).toEqual([]);
    expect(nicknamesOf(rows, game("拳聖土竜 Street Fighter II", ["Ken Sei Mogura: Street Fighter II"]))).toEqual([]);
  });

  it("applies a row only on its platforms", () => {
    const rows = table(row("game", "ゼルダの伝説 時のオカリナ", "時オカ", "n64", "", "Ocarina of Time"));
    expect(nicknamesOf(rows, game("ゼルダの伝説 時のオカリナ", [], null, "n64"))).toEqual(["時オカ"]);
    expect(nicknamesOf(rows, game("ゼルダの伝説 時のオカリナ", [], null, "64dd"))).toEqual([]);
  });

  it("matches a game row on the whole title or an English title, never on part of one or on the reading", () => {
    const rows = table(row("game", "ゼルダの伝説 時のオカリナ|The Legend of Zelda: Ocarina of Time", "時オカ", "", "", "Ocarina of Time"));
    expect(nicknamesOf(rows, game("The Legend of Zelda ゼルダの伝説 時のオカリナ", ["The Legend of Zelda: Ocarina of Time"]))).toEqual([
      "時オカ",
    ]);
    expect(nicknamesOf(rows, game("ゼルダの伝説 時のオカリナ GC"))).toEqual([]);
    expect(nicknamesOf(rows, game("Zelda", [], "ぜるだのでんせつときのおかりな"))).toEqual([]);
  });

  it("puts game rows first, drops nicknames the titles already contain and repeats in another width or case", () => {
    const rows = table(
      row("series", "ゼルダの伝説", "ゼルダ", "", "", "Zelda"),
      row("series", "The Legend of Zelda", "ゼルダ", "", "", "Zelda, romanised"),
      row("game", "Zelda no Densetsu: Kamigami no Triforce", "神トラ,ｾﾞﾙﾀﾞ3,ゼルダ3", "", "", "A Link to the Past"),
    );
    expect(nicknamesOf(rows, game("ゼルダの伝説 神々のトライフォース", ["Zelda no Densetsu: Kamigami no Triforce"]))).toEqual([
      "神トラ",
      "ｾﾞﾙﾀﾞ3",
    ]);
    expect(nicknamesOf(rows, game("リンクの冒険", ["The Legend of Zelda 2"]))).toEqual(["ゼルダ2", "ゼルダ"]);
  });

  it("gives at most the row format's number of aliases", () => {
    const many = Array.from({ length: MAX_ALIASES + 5 }, (_, i) => `ドラクエ${"ー".repeat(i + 1)}`).join(",");
    const rows = table(row("game", "ドラゴンクエストIII", many, "", "", "more nicknames than a row may hold"));
    const aliases = nicknamesOf(rows, game("ドラゴンクエストIII"));
    expect(aliases).toHaveLength(MAX_ALIASES);
    expect(gameRow.shape.aliases.safeParse(aliases).success).toBe(true);
  });
});

describe("the project's table over the seed catalog", () => {
  const seed = join(import.meta.dirname, "../../seed/master");
  const rows = parseNicknameTable(readFileSync(join(seed, "nicknames.tsv"), "utf8"));
  const games = seedGameTitles(readFileSync(join(seed, "games.ndjson"), "utf8"), readFileSync(join(seed, "gamedatabase-ids.tsv"), "utf8"));
  let aliasesById: Map<number, string[]>;

  beforeAll(() => {
    aliasesById = new Map(games.map((entry) => [entry.gameId, nicknamesOf(rows, entry)]));
  });

  /** The ids of the games on the platforms whose title or an English title is exactly one of `titles`. */
  const gamesTitled = (platforms: string[], ...titles: string[]) => {
    const found = games.filter(
      (entry) => platforms.includes(entry.platformKey) && [entry.title, ...entry.titleEn].some((title) => titles.includes(title)),
    );
    expect(found.length, `${titles.join(" / ")} on ${platforms.join(", ")}`).toBeGreaterThan(0);
    return found.map((entry) => entry.gameId).sort((a, b) => a - b);
  };
  const gamesWithAlias = (alias: string) =>
    games
      .filter((entry) => aliasesById.get(entry.gameId)!.includes(alias))
      .map((entry) => entry.gameId)
      .sort((a, b) => a - b);

  it("has at least 300 rows, each matching at least one game", () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    const coverage = nicknameCoverage(rows, games);
    expect(coverage.deadRows.map((dead) => `line ${dead.line}: ${dead.note}`)).toEqual([]);
  });

  it("gives only aliases the master row format accepts", () => {
    for (const [gameId, aliases] of aliasesById) expect(gameRow.shape.aliases.safeParse(aliases).success, `game ${gameId}`).toBe(true);
  });

  it.each([
    ["ドラクエ3", () => gamesTitled(["fc", "sfc", "gbc"], "Dragon Quest III")],
    ["DQ3", () => gamesTitled(["fc", "sfc", "gbc"], "Dragon Quest III")],
    ["FF6", () => gamesTitled(["sfc"], "Final Fantasy VI")],
    ["ロマサガ3", () => gamesTitled(["sfc"], "Romancing Sa・Ga 3")],
    ["聖剣3", () => gamesTitled(["sfc"], "Seiken Densetsu 3")],
    ["バーチャ2", () => gamesTitled(["ss"], "Virtua Fighter 2")],
    ["時オカ", () => gamesTitled(["n64"], "The Legend of Zelda: Ocarina of Time")],
    ["マリカー64", () => gamesTitled(["n64"], "Mario Kart 64")],
    ["スマブラ64", () => gamesTitled(["n64"], "Super Smash Bros.")],
  ])("gives %s to exactly the right games", (alias, expected) => {
    expect(gamesWithAlias(alias)).toEqual(expected());
  });

  it.each([
    ["スト2", () => gamesTitled(["sfc", "gb"], "Street Fighter II")],
    ["マリカー", () => gamesTitled(["sfc", "n64"], "Super Mario Kart", "Mario Kart 64")],
    ["スマブラ", () => gamesTitled(["n64"], "Super Smash Bros.")],
    ["ときメモ", () => gamesTitled(["pcecd", "sfc", "ss"], "Tokimeki Memorial", "Tokimeki Memorial: Densetsu no Ki no Shita de")],
    ["桃鉄", () => gamesTitled(["fc"], "Momotarō Dentetsu")],
    ["メガテン", () => gamesTitled(["fc"], "Digital Devil Story: Megami Tensei")],
    ["スパロボ", () => gamesTitled(["sfc"], "Dai-4-ji Super Robot Taisen")],
    ["ポケモン", () => gamesTitled(["gb"], "Pocket Monsters: Aka", "Pocket Monsters: Midori", "Pocket Monsters: Ao")],
  ])("gives %s to the games it names", (alias, expected) => {
    expect(gamesWithAlias(alias)).toEqual(expect.arrayContaining(expected()));
  });

  it("does not number a game by its overseas title: FF6 and FF3 stay apart", () => {
    const ff6 = gamesTitled(["sfc"], "Final Fantasy VI");
    expect(gamesWithAlias("FF3")).not.toEqual(expect.arrayContaining(ff6));
    expect(gamesWithAlias("FF3")).toEqual(gamesTitled(["fc"], "Final Fantasy III"));
  });
});
