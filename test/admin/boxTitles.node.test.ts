// Box titles, loanword readings and the project's corrections to GameDataBase: the pure rules of
// scripts/lib/gamedatabase/, and the shipped tables that feed them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCorrections } from "../../scripts/lib/gamedatabase/corrections";
import { loanwordsFrom, parseLoanwords } from "../../scripts/lib/gamedatabase/loanwords";
import { readingFor } from "../../scripts/lib/gamedatabase/readings";

const loanwords = loanwordsFrom(parseLoanwords("Rockman\tロックマン\nDr\tドクター\nStreet\tストリート\nFighter\tファイター\n"));
const read = (exact: string, romanised = exact, sourceId = "id") => readingFor({ exact, romanised, sourceId }, undefined, loanwords);
const boxTitleOf = (exact: string, romanised?: string) => read(exact, romanised).boxTitle;

describe("box titles", () => {
  it("leaves out the title screen's Latin logo where the title's kana renders it", () => {
    expect(boxTitleOf("Dragon Quest III ドラゴンクエストIII そして伝説へ…", "Dragon Quest III: Soshite Densetsu e...")).toBe(
      "ドラゴンクエストIII そして伝説へ…",
    );
    expect(boxTitleOf("After Burner Complete アフターバーナー コンプリート")).toBe("アフターバーナー コンプリート");
    expect(boxTitleOf("ウイナーズホース Winner's Horse")).toBe("ウイナーズホース");
  });

  it("takes the numbers a gloss carries and the punctuation written against it along", () => {
    expect(boxTitleOf("NBAオールスターチャレンジ2 All-Star Challenge 2")).toBe("NBAオールスターチャレンジ2");
    expect(boxTitleOf("Space Funky B.O.B. スペースファンキー ビー・オー・ビー")).toBe("スペースファンキー ビー・オー・ビー");
    expect(boxTitleOf("マルホン Parlor! パーラー! IV")).toBe("マルホン パーラー! IV");
  });

  it("leaves out a romanisation of the reading at the end, not English words the reading happens to contain", () => {
    expect(boxTitleOf("すごいへべれけ Hebereke")).toBe("すごいへべれけ");
  });

  it("keeps Latin words that are part of the Japanese title, or that touch another word", () => {
    expect(boxTitleOf("Rockman 2: Dr.ワイリーの謎", "Rockman 2: Dr. Wily no Nazo")).toBe("Rockman 2: Dr.ワイリーの謎");
    expect(boxTitleOf("Beat Mania 2nd Mix ビットマニア セカンド ミックス")).toBe("Beat Mania 2nd Mix ビットマニア セカンド ミックス");
    expect(boxTitleOf("芹沢信雄のBirdie Try バーディートライ", "Serizawa Nobuo no Birdie Try")).toBe(
      "芹沢信雄のBirdie Try バーディートライ",
    );
  });

  it("keeps Latin words whose kana stands behind other words (that kana reads the title, it is not the title)", () => {
    expect(boxTitleOf("Super 競艇2 スーパーきょうてい2", "Super Kyōtei 2")).toBe("Super 競艇2 スーパーきょうてい2");
  });

  it("keeps a title in Latin letters alone as it is", () => {
    expect(boxTitleOf("Street Fighter II")).toBe("Street Fighter II");
  });
});

describe("loanword readings", () => {
  it("reads Latin words nothing in the title renders by the table", () => {
    expect(read("Rockman 2: Dr.ワイリーの謎", "Rockman 2: Dr. Wily no Nazo", "rockman2drwilynonazo").reading).toBe(
      "ろっくまん2どくたーわいりーのなぞ",
    );
  });

  it("reads once the last words of a Latin run that the rest of the title says too", () => {
    const table = loanwordsFrom(
      parseLoanwords("Psycho\tサイコ\nDream\tドリーム\nSEGA\tセガ\nAges\tエイジス\nSpace\tスペース\nHarrier\tハリアー\n"),
    );
    const readWith = (exact: string) => readingFor({ exact, romanised: exact, sourceId: "id" }, undefined, table).reading;
    expect(readWith("Psycho Dream サイコ ドリーム")).toBe("さいこどりーむ");
    expect(readWith("SEGA Ages: Space Harrier スペースハリアー")).toBe("せがえいじすすぺーすはりあー");
    expect(readWith("Psycho Dream Dream")).toBe("さいこどりーむどりーむ");
  });

  it("reads a title of Latin words alone only when the table reads every word", () => {
    expect(read("Street Fighter II")).toMatchObject({ reading: "すとりーとふぁいたー2", source: "loanwords" });
    expect(read("Street Fighter Zero").reading).toBeNull();
  });

  it("reads short upper-case words letter by letter unless the table says otherwise", () => {
    const withGo = loanwordsFrom(parseLoanwords("GO\tゴー\n"));
    expect(withGo.wordReadings(["NBA", "GO"])).toEqual(["えぬびーえー", "ごー"]);
    expect(withGo.wordReadings(["ZERO"])).toBeNull();
  });

  it("refuses a malformed or repeated table line, naming it", () => {
    expect(() => parseLoanwords("Rockman\trockman\n")).toThrow(/line 1/);
    expect(() => parseLoanwords("# note\nThe\tザ\nthe\tザ\n")).toThrow(/line 3.*twice/);
  });
});

describe("corrections", () => {
  it("reads a key, a field, a value and a reason per line", () => {
    const corrections = parseCorrections("# comment\nfc/rockman\texact\tロックマン\tthe box\nfc/rockman\treading\tろっくまん\tthe box\n");
    expect(corrections.get("fc/rockman")).toEqual({ exact: "ロックマン", reading: "ろっくまん" });
  });

  it("refuses a line without a reason, with an unknown field or a reading not in hiragana, naming it", () => {
    expect(() => parseCorrections("fc/rockman\texact\tロックマン\n")).toThrow(/line 1: expected a reason/);
    expect(() => parseCorrections("fc/rockman\ttitle\tロックマン\tx\n")).toThrow(/expected a field/);
    expect(() => parseCorrections("fc/rockman\treading\tロックマン\tx\n")).toThrow(/hiragana/);
    expect(() => parseCorrections("fc/rockman\texact\tA\tx\nfc/rockman\texact\tB\tx\n")).toThrow(/corrected twice/);
  });
});

describe("the shipped tables", () => {
  const master = join(import.meta.dirname, "../../seed/master");
  it("parse", () => {
    expect(parseLoanwords(readFileSync(join(master, "loanwords.tsv"), "utf8")).size).toBeGreaterThan(0);
    expect(parseCorrections(readFileSync(join(master, "corrections.tsv"), "utf8")).size).toBeGreaterThan(0);
  });
});
