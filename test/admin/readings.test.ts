// The reading rules of scripts/lib/gamedatabase/readings.ts, pure: the analyser, where one is
// needed, is a stand-in that knows a few words. test/admin/readings.node.test.ts runs the real
// one over a hand-checked sample.
import { describe, expect, it } from "vitest";
import { type Analyser, readingFor } from "../../scripts/lib/gamedatabase/readings";
import { romanisedWords, sameKana, soundKey, spellOutLongVowels } from "../../scripts/lib/gamedatabase/romanisation";
import { gameRow } from "../../src/tools/games/masterRows";

const read = (exact: string, romanised: string, sourceId: string, analyser?: Analyser) =>
  readingFor({ exact, romanised, sourceId }, analyser);

/** An analyser that knows the given words (katakana readings) and nothing else. */
const knowing = (words: Record<string, string>): Analyser => ({ readingOf: (text) => words[text] ?? null });

describe("long vowels in the romanisation", () => {
  it("spells ō, ū, ā, ī as the ID does, else ō as おう and ē as えい", () => {
    expect(spellOutLongVowels("ōkami", "ookami")).toBe("ookami");
    expect(spellOutLongVowels("jirō", "akagawajirou")).toBe("jirou");
    expect(spellOutLongVowels("tōkyō", "")).toBe("toukyou");
    expect(spellOutLongVowels("kyūkyoku", "")).toBe("kyuukyoku");
    expect(spellOutLongVowels("onēsan", "oneesan")).toBe("oneesan");
    expect(spellOutLongVowels("ēyū", "")).toBe("eiyuu");
  });

  it("turns Hepburn words into hiragana, numerals into digits, and leaves English words in letters", () => {
    expect(romanisedWords("Akumajō Densetsu II: Mahjong", "akumajoudensetsu")).toEqual(["あくまじょう", "でんせつ", "2", "mahjong"]);
  });

  it("reads a kanji title from its romanisation", () => {
    expect(read("悪魔城伝説", "Akumajō Densetsu", "akumajoudensetsu")).toEqual({
      reading: "あくまじょうでんせつ",
      source: "romanisation",
      boxTitle: "悪魔城伝説",
    });
    expect(read("大江戸", "Ōedo", "ooedo").reading).toBe("おおえど");
    expect(read("東方見文録", "Tōhō Kenbun Roku", "touhoukenbunroku").reading).toBe("とうほうけんぶんろく");
  });

  it("compares kana as the romanisation writes it: おう = おお, ー = a vowel, particles alike", () => {
    expect(sameKana("おおかみ", "おうかみ")).toBe(true);
    expect(sameKana("すーぱー", "すうぱあ")).toBe(true);
    expect(sameKana("へ", "え")).toBe(true);
    expect(sameKana("へ", "い")).toBe(false);
  });
});

describe("particles and kana between kanji", () => {
  it("copies は, へ and を as they are spelt, though the romanisation writes wa, e, o", () => {
    expect(read("虎への道", "Tora e no Michi", "toraenomichi").reading).toBe("とらへのみち");
    expect(read("天地を喰らう", "Tenchi wo Kurau", "tenchiwokurau").reading).toBe("てんちをくらう");
    expect(read("栄冠は君に 高校野球全国大会", "Eikan wa Kimi ni: Kōkō Yakyū Zenkoku Taikai", "eikanwakiminikyzt").reading).toBe(
      "えいかんはきみにこうこうやきゅうぜんこくたいかい",
    );
  });

  it("reads consecutive kanji runs as one block held by the kana around it", () => {
    expect(read("信長の野望 全・国・版", "Nobunaga no Yabō: Zenkokuban", "nobunaganoyabouzenkokuban").reading).toBe(
      "のぶながのやぼうぜんこくばん",
    );
  });
});

describe("kana titles", () => {
  it("reads kana as it is spelt, katakana in hiragana, ー kept, numerals as digits", () => {
    expect(read("スーパーマリオブラザーズ3", "Super Mario Bros. 3", "supermariobros3")).toEqual({
      reading: "すーぱーまりおぶらざーず3",
      source: "kana",
      boxTitle: "スーパーマリオブラザーズ3",
    });
    expect(read("ドラゴンクエストIII そして伝説へ…", "Dragon Quest III: Soshite Densetsu e...", "dragonquest3").reading).toBe(
      "どらごんくえすと3そしてでんせつへ",
    );
  });

  it("reads a wave dash between kana as a long vowel", () => {
    expect(read("す〜ぱ〜ぷよぷよ", "Super Puyo Puyo", "superpuyopuyo").reading).toBe("すーぱーぷよぷよ");
  });
});

describe("English beside its kana rendering", () => {
  it("takes the kana", () => {
    expect(read("Bomber King ボンバーキング", "Bomber King", "bomberking").reading).toBe("ぼんばーきんぐ");
    expect(read("クォース Quarth", "Quarth", "quarth").reading).toBe("くぉーす");
    expect(read("Adventures of Lolo アドベンチャーズ オブ ロロ", "Adventures of Lolo", "adventuresoflolo").reading).toBe(
      "あどべんちゃーずおぶろろ",
    );
  });

  it("keeps a number once, however the rendering says it", () => {
    expect(read("Bass Angler 2 バスアングラー2", "Bass Angler 2", "bassangler2").reading).toBe("ばすあんぐらー2");
    expect(read("8 Eyes エイト・アイズ", "8 Eyes", "8eyes").reading).toBe("えいとあいず");
    expect(read("Super Mario 64 スーパーマリオ", "Super Mario 64", "supermario64").reading).toBe("すーぱーまりお64");
  });

  it("takes letters the kana spells out by name", () => {
    expect(read("SDガンダム エスディー", "SD Gundam", "sdgundam").reading).toBe("がんだむえすでぃー");
  });

  it("drops a romanisation written beside the kanji it reads", () => {
    expect(read("怒 Ikari", "Ikari", "ikari").reading).toBe("いかり");
  });
});

describe("Latin words nothing renders", () => {
  it("are kept as written, in lower-case letters, so the kana around them still read", () => {
    expect(read("電車でGo!64", "Densha de Go! 64", "denshadego64").reading).toBe("でんしゃでgo64");
    expect(read("牧場物語GB", "Bokujō Monogatari GB", "bokujoumonogatarigb").reading).toBe("ぼくじょうものがたりgb");
    expect(read("Cadillacs 恐竜新世紀", "Cadillacs Kyōryū Shinseiki", "cadillacsanddinosaurs").reading).toBe(
      "cadillacsきょうりゅうしんせいき",
    );
  });
});

describe("no reading", () => {
  it("for a title in Latin letters only", () => {
    expect(read("=", "Final Fight", "finalfight")).toEqual({ reading: null, source: null, boxTitle: "Final Fight" });
    expect(read("=", "1942", "1942").reading).toBeNull();
  });

  it("for kanji that the romanisation cannot place beside a Latin word it lacks", () => {
    expect(
      read("Dragon Ball Z ドラゴンボール 強襲!サイヤ人", "Dragon Ball Z: Kyōshū! Saiyajin", "dragonballzkyoushuusaiyajin").reading,
    ).toBeNull();
  });

  it("for kanji that neither the romanisation nor an analyser reads", () => {
    expect(read("魔界村", "Ghosts'n Goblins", "makaimura").reading).toBeNull();
  });
});

describe("with an analyser", () => {
  it("takes the analyser's spelling where it agrees with the romanisation", () => {
    const analyser = knowing({ 戦場の: "センジョウノ", 戦場: "センジョウ", 狼: "オオカミ" });
    expect(read("戦場の狼", "Senjō no Ōkami", "senjounookami", analyser)).toEqual({
      reading: "せんじょうのおおかみ",
      source: "romanisation",
      boxTitle: "戦場の狼",
    });
  });

  it("lets the romanisation decide where the analyser reads a name wrongly", () => {
    const analyser = knowing({ 聖剣伝説: "キヨシケンデンセツ" });
    expect(read("聖剣伝説2", "Seiken Densetsu 2", "seikendensetsu2", analyser).reading).toBe("せいけんでんせつ2");
  });

  it("leaves out kanji that the title's kana spells out", () => {
    const analyser = knowing({ 競艇: "キョウテイ" });
    expect(read("Super 競艇2 スーパーきょうてい2", "Super Kyōtei 2", "superkyoutei2", analyser)).toEqual({
      reading: "すーぱーきょうてい2",
      source: "kana",
      boxTitle: "Super 競艇2 スーパーきょうてい2",
    });
  });

  it("reads kanji from the analyser alone where the romanisation is English", () => {
    const analyser = knowing({ 図鑑: "ズカン" });
    expect(read("Chrono Trigger クロノトリガー キャラクター図鑑", "Chrono Trigger: Character Library", "chronotrigger", analyser)).toEqual({
      reading: "くろのとりがーきゃらくたーずかん",
      source: "analyser",
      boxTitle: "クロノトリガー キャラクター図鑑",
    });
  });

  it("refuses a kanji run that took a romanised word beyond the analyser's reading", () => {
    // The romanisation has 超 (Chō) in front; the title does not.
    const analyser = knowing({ 魔界大戦: "マカイタイセン" });
    expect(read("魔界大戦! どらぼっちゃん", "Chō Makai Taisen! Dorabocchan", "choumakaitaisendorabocchan", analyser).reading).toBeNull();
  });

  it("refuses the analyser's reading where a Japanese romanisation says otherwise", () => {
    const analyser = knowing({ 時: "トキ", 狭間: "ハザマ" });
    expect(read("エグザイル 時の狭間に", "Exile: Toki no Hazama e", "exiletokinohazamae", analyser).reading).toBeNull();
  });
});

describe("the master row format", () => {
  it("accepts every reading given", () => {
    const readings = [
      read("悪魔城伝説", "Akumajō Densetsu", "akumajoudensetsu"),
      read("スーパーマリオブラザーズ3", "Super Mario Bros. 3", "supermariobros3"),
      read("Vay ヴァイ", "Vay", "vay"),
      read("=", "Final Fight", "finalfight"),
    ];
    for (const { reading } of readings) expect(gameRow.shape.titleReading.safeParse(reading).success).toBe(true);
  });
});

describe("sound keys", () => {
  it("match English words with their katakana rendering", () => {
    expect(soundKey("Black Dragon")).toBe(soundKey("ブラックドラゴン"));
    expect(soundKey("Quarth")).toBe(soundKey("クォース"));
  });
});
