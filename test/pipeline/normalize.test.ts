import { describe, expect, it } from "vitest";
import { normalizeCode, normalizeSearchText, searchForm, searchTerms } from "../../src/platform/normalize";

const same = (a: string, b: string) => expect(normalizeSearchText(a), `${a} vs ${b}`).toBe(normalizeSearchText(b));

describe("normalizeSearchText: kana and width", () => {
  it("reads katakana as hiragana", () => {
    expect(normalizeSearchText("ドラゴンクエスト")).toBe("どらごんくえすと");
    same("ドラゴンクエスト", "どらごんくえすと");
    same("ヴァルキリー", "ゔぁるきりー");
  });

  it("reads half-width katakana (with separate voicing marks) as full-width", () => {
    expect(normalizeSearchText("ﾄﾞﾗｺﾞﾝ")).toBe("どらごん");
    same("ﾄﾞﾗｺﾞﾝｸｴｽﾄ", "ドラゴンクエスト");
    same("ﾊﾟｯｸﾏﾝ", "パックマン");
  });

  it("reads full-width latin letters and digits as half-width, lower case", () => {
    expect(normalizeSearchText("３")).toBe("3");
    expect(normalizeSearchText("ＭＡＲＩＯ")).toBe("mario");
    same("ストリートファイター２", "ストリートファイター2");
    same("Mega Man", "MEGA MAN");
  });

  it("reads latin letters without their diacritics: a romanisation typed without macrons matches", () => {
    expect(normalizeSearchText("Akumajō Densetsu")).toBe("akumajodensetsu");
    same("Tōkyō Pachi-Slot", "tokyo pachislot");
    same("Pokémon", "POKEMON");
    // Kana keep their sound marks: decomposing them would read が as か.
    expect(normalizeSearchText("ガ")).toBe("が");
    expect(normalizeSearchText("ﾊﾟ")).toBe("ぱ");
  });

  it("keeps a long-vowel mark after kana in any form, and drops wave dashes of any width", () => {
    expect(normalizeSearchText("スーパー")).toBe("すーぱー");
    same("ｽｰﾊﾟｰ", "スーパー");
    same("ス-パ-", "スーパー");
    same("ス－パ－", "スーパー");
    expect(normalizeSearchText("ーｰ")).toBe("");
    same("ゼルダ～神々～", "ぜるだ神々");
    same("ゼルダ〜神々〜", "ぜるだ神々");
  });
});

describe("normalizeSearchText: roman numerals", () => {
  it.each([
    ["ドラゴンクエストIII", "ドラゴンクエスト3"],
    ["ドラゴンクエストⅢ", "ドラゴンクエスト3"],
    ["ドラゴンクエストiii", "ドラゴンクエスト3"],
    ["ドラゴンクエスト III", "ドラゴンクエスト3"],
    ["ファイナルファンタジーIV", "ファイナルファンタジー4"],
    ["ファイナルファンタジーIX", "ファイナルファンタジー9"],
    ["ファイナルファンタジーⅦ", "ファイナルファンタジー7"],
    ["Final Fantasy VI", "final fantasy 6"],
    ["FINAL FANTASY Ⅵ", "final fantasy 6"],
    ["ときめきXIII", "ときめき13"],
  ])("%s equals %s", (a, b) => same(a, b));

  it("turns a numeral into its digits in the normalised form", () => {
    expect(normalizeSearchText("ドラゴンクエストIII")).toBe("どらごんくえすと3");
    expect(normalizeSearchText("Final Fantasy VI")).toBe("finalfantasy6");
  });

  it("keeps a lone X a letter (ロックマンX is not ロックマン10)", () => {
    expect(normalizeSearchText("ロックマンX")).toBe("ろっくまんx");
    expect(normalizeSearchText("X")).toBe("x");
    expect(normalizeSearchText("Mega Man X")).toBe("megamanx");
    expect(normalizeSearchText("ロックマンX")).not.toBe(normalizeSearchText("ロックマン10"));
  });

  it("leaves numeral letters that touch other latin letters or digits alone", () => {
    expect(normalizeSearchText("X2")).toBe("x2");
    expect(normalizeSearchText("ロックマンX2")).toBe("ろっくまんx2");
    expect(normalizeSearchText("MIX")).toBe("mix");
    expect(normalizeSearchText("DIVE")).toBe("dive");
    expect(normalizeSearchText("Civilization")).toBe("civilization");
    expect(normalizeSearchText("VIP")).toBe("vip");
  });

  it("leaves a run that is not a canonical numeral as letters", () => {
    expect(normalizeSearchText("IIII")).toBe("iiii");
    expect(normalizeSearchText("VV")).toBe("vv");
  });

  it("does not merge numerals separated by punctuation into a different number (I・II is not III)", () => {
    // "イースI・II" is a compilation of Ys I and II; it must not read as "イースIII" (Ys III).
    expect(normalizeSearchText("イースI・II")).not.toBe(normalizeSearchText("イースIII"));
    expect(normalizeSearchText("Final Fantasy I+II")).not.toBe(normalizeSearchText("Final Fantasy III"));
  });
});

describe("normalizeSearchText: punctuation and empties", () => {
  it("drops spaces, punctuation and symbols", () => {
    expect(normalizeSearchText("ロックマン2 Dr.ワイリーの謎")).toBe("ろっくまん2drわいりーの謎");
    expect(normalizeSearchText("ドラゴンクエストIII そして伝説へ…")).toBe("どらごんくえすと3そして伝説へ");
    expect(normalizeSearchText("ゾルバ・サーガ!?")).toBe("ぞるばさーが");
    expect(normalizeSearchText("Ys Book I & II")).toBe("ysbook12");
    same("R-TYPE", "rtype");
  });

  it("neutralises quote and operator characters that a full-text query could misread", () => {
    expect(normalizeSearchText('"ゾルバ" OR *')).toBe("ぞるばor");
    expect(normalizeSearchText("' OR 1=1 --")).toBe("or11");
    expect(normalizeSearchText("NEAR(a b)")).toBe("nearab");
  });

  it.each(["", "   ", "!!!", "ー", "・・・", "ｰｰ", "〜", "'\"%_"])("normalises %j to the empty string", (text) => {
    expect(normalizeSearchText(text)).toBe("");
  });

  it("keeps kanji and characters outside the BMP", () => {
    expect(normalizeSearchText("𠮷野家")).toBe("𠮷野家");
    expect(normalizeSearchText("天外魔境 ZIRIA")).toBe("天外魔境ziria");
  });
});

describe("searchTerms", () => {
  it("splits on half- and full-width spaces and normalises each term", () => {
    expect(searchTerms("ドラゴン クエスト")).toEqual(["どらごん", "くえすと"]);
    expect(searchTerms("ドラゴン　クエスト")).toEqual(["どらごん", "くえすと"]);
    expect(searchTerms("  ゾルバ \t 伝説  ")).toEqual(["ぞるば", "伝説"]);
  });

  it("reads numerals per term", () => {
    expect(searchTerms("Final Fantasy VI")).toEqual(["final", "fantasy", "6"]);
    expect(searchTerms("ドラゴンクエスト Ⅲ")).toEqual(["どらごんくえすと", "3"]);
    expect(searchTerms("ロックマン X")).toEqual(["ろっくまん", "x"]);
  });

  it("drops terms that are empty after normalising", () => {
    expect(searchTerms("ゾルバ ー !!")).toEqual(["ぞるば"]);
    expect(searchTerms("!!! ?? ・")).toEqual([]);
    expect(searchTerms("　")).toEqual([]);
    expect(searchTerms("")).toEqual([]);
  });
});

describe("normalizeCode", () => {
  it("ignores hyphens, spaces and case", () => {
    expect(normalizeCode("SHVC-MW")).toBe("shvcmw");
    expect(normalizeCode("shvc mw")).toBe("shvcmw");
    expect(normalizeCode("TST-A001")).toBe(normalizeCode("tst a001"));
  });

  it("reads full-width codes as half-width", () => {
    expect(normalizeCode("ＴＳＴ－Ａ００１")).toBe("tsta001");
    expect(normalizeCode("２７００３０１０００００６")).toBe("2700301000006");
  });

  it("does not read roman numerals inside codes", () => {
    expect(normalizeCode("TST-III")).toBe("tstiii");
    expect(normalizeCode("HVC-X")).toBe("hvcx");
  });

  it("normalises a code of only punctuation to the empty string", () => {
    expect(normalizeCode("--- ")).toBe("");
  });
});

describe("searchForm: spelling variants folded word by word", () => {
  const folds = (a: string, b: string) => expect(searchForm(a), `${a} vs ${b}`).toBe(searchForm(b));

  it.each([
    ["Akumajou Dracula", "Akumajō Dracula"],
    ["Akumajoo Dracula", "akumajo dracula"],
    ["Tengai Makyou", "Tengai Makyō"],
    ["Doukyuusei", "Dōkyūsei"],
    ["ぷよぷよつー", "ぷよぷよつう"],
    ["ほしのかあびい", "ほしのかーびぃ"],
    ["星のカービィ", "星のカービー"],
    ["ファイヤーエムブレム", "ファイアーエムブレム"],
    ["ヴァンパイア", "バンパイア"],
    ["ヴィーナス", "ビーナス"],
    ["ヴ", "ブ"],
    ["ウォーズ", "ウオーズ"],
    ["ﾌｧｲﾔｰ", "ファイアー"],
  ])("%s folds with %s", (a, b) => folds(a, b));

  it("keeps what changes a word apart: っ ゃ ゅ ょ, おう and えい", () => {
    expect(searchForm("ロックマン")).toBe("ろっくまん");
    expect(searchForm("キャッスル")).not.toBe(searchForm("キヤツスル"));
    expect(searchForm("とうきょう")).toBe("とうきょう");
    expect(searchForm("せんせい")).toBe("せんせい");
  });

  it("never folds across words: a word of a title stays findable on its own", () => {
    // "Super Mario USA": o then u across the space; "星の海": の then う would be のー.
    expect(searchForm("Super Mario USA")).toContain(searchForm("USA"));
    expect(searchForm("なぞの うみ")).toContain(searchForm("うみ"));
    expect(searchForm("Ys Book I & II")).toContain(searchForm("Book"));
  });

  it("is normalizeSearchText where nothing folds, and keeps it as the sort key", () => {
    for (const text of ["ドラゴンクエストIII", "Final Fantasy VI", "ロックマンX", "ゾルバ・サーガ!?", "𠮷野家"]) {
      expect(searchForm(text)).toBe(normalizeSearchText(text));
    }
    expect(normalizeSearchText("Ys Book I & II")).toBe("ysbook12");
  });

  it("folds every query term alike (searchTerms)", () => {
    expect(searchTerms("Akumajou Dracula")).toEqual(["akumajo", "dracula"]);
    expect(searchTerms("ファイヤー　エムブレム")).toEqual(["ふあいあー", "えむぶれむ"]);
  });
});
