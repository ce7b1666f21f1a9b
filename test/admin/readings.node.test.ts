// Title readings with the real morphological analyser (Lindera, IPADIC, in WebAssembly), which
// only Node loads: the hand-checked sample's accuracy, and what the analyser adds to the rules
// that test/admin/readings.test.ts checks without it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadAnalyser } from "../../scripts/lib/gamedatabase/analyser";
import { type Analyser, readingFor } from "../../scripts/lib/gamedatabase/readings";
import { gameRow } from "../../src/tools/games/masterRows";

/**
 * Rows taken verbatim from GameDataBase's CSVs (exact title, romanised title, ID) with the reading
 * a Japanese reader types, checked by hand; an empty reading is one that cannot be derived.
 */
const SAMPLE = readFileSync(join(import.meta.dirname, "../fixtures/gamedatabase/readings-sample.tsv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [exact = "", romanised = "", sourceId = "", reading = ""] = line.split("\t");
    return { title: { exact, romanised, sourceId }, expected: reading === "" ? null : reading };
  });

// Just under what the rules reach on the sample (printed by the test), so that a change that
// makes readings worse fails here.
const MIN_ACCURACY = 0.92;
const MIN_COVERAGE = 0.9;

let analyser: Analyser;
beforeAll(async () => {
  analyser = await loadAnalyser();
});

describe("readings of the hand-checked sample", () => {
  it("has at least 60 rows", () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(60);
  });

  it("gets the readings right (exact match, null where none can be derived)", () => {
    const results = SAMPLE.map(({ title, expected }) => ({ title, expected, got: readingFor(title, analyser) }));
    const right = results.filter(({ expected, got }) => got.reading === expected);
    const withReading = results.filter(({ got }) => got.reading !== null);
    const wrong = results.filter(({ expected, got }) => got.reading !== expected);
    const accuracy = right.length / results.length;
    const coverage = withReading.length / results.length;
    console.info(
      `readings sample: ${right.length}/${results.length} right (accuracy ${(accuracy * 100).toFixed(1)}%), ` +
        `${withReading.length}/${results.length} with a reading (coverage ${(coverage * 100).toFixed(1)}%); ` +
        `${withReading.filter(({ expected, got }) => got.reading === expected).length}/${withReading.length} of the readings given are right\n` +
        wrong
          .map(({ title, expected, got }) => `  ${title.exact} | expected ${expected ?? "null"} | got ${got.reading ?? "null"}`)
          .join("\n"),
    );
    expect(accuracy).toBeGreaterThanOrEqual(MIN_ACCURACY);
    expect(coverage).toBeGreaterThanOrEqual(MIN_COVERAGE);
  });

  it("gives only readings that the master row format accepts", () => {
    for (const { title } of SAMPLE) {
      const { reading } = readingFor(title, analyser);
      expect(gameRow.shape.titleReading.safeParse(reading).success, title.exact).toBe(true);
    }
  });
});

describe("readings with the analyser", () => {
  const read = (exact: string, romanised: string, sourceId: string) => readingFor({ exact, romanised, sourceId }, analyser);

  it("takes the analyser's spelling of a long vowel the romanisation leaves unmarked", () => {
    expect(read("仙窟活龍大戦カオスシード Chaos Seed", "Senkutsu Katsuryu Taisen: Chaos Seed", "chaosseed")).toEqual({
      reading: "せんくつかつりゅうたいせんかおすしーど",
      source: "romanisation",
      boxTitle: "仙窟活龍大戦カオスシード",
    });
  });

  it("lets the romanisation decide where the analyser reads a name wrongly (聖剣 is not きよしけん)", () => {
    expect(read("聖剣伝説2", "Seiken Densetsu 2", "seikendensetsu2")).toEqual({
      reading: "せいけんでんせつ2",
      source: "romanisation",
      boxTitle: "聖剣伝説2",
    });
  });

  it("lets the ID decide where a romanisation without apostrophes reads ambiguously (Zenin: ぜにん or ぜんいん)", () => {
    expect(
      read("くにおくんのドッジボールだよ 全員集合!", "Kunio-kun no Dodge Ball dayo Zenin Shūgō!", "kuniokunnododgeballdayozeninshuugou")
        .reading,
    ).toBe("くにおくんのどっじぼーるだよぜんいんしゅうごう");
  });

  it("reads a kanji run that a romanised English word stands for (麻雀 `Mahjong`)", () => {
    expect(read("井出洋介の麻雀塾", "Ide Yōsuke no Mahjong Juku", "ideyosukenomahjongjuku").reading).toBe("いでようすけのまーじゃんじゅく");
  });

  it("leaves out a kanji run whose reading the title spells out in kana", () => {
    expect(read("Super 競艇2 スーパーきょうてい2", "Super Kyōtei 2", "superkyoutei2")).toEqual({
      reading: "すーぱーきょうてい2",
      source: "kana",
      boxTitle: "Super 競艇2 スーパーきょうてい2",
    });
  });

  it("falls back to the analyser where the romanisation is an English title", () => {
    expect(
      read("Chrono Trigger クロノトリガー キャラクター図鑑", "Chrono Trigger: Character Library", "chronotriggercharecterlibrary"),
    ).toEqual({
      reading: "くろのとりがーきゃらくたーずかん",
      source: "analyser",
      boxTitle: "クロノトリガー キャラクター図鑑",
    });
  });

  it("gives no reading where the analyser contradicts a Japanese romanisation it cannot be aligned with", () => {
    expect(read("エグザイル 時の狭間に", "Exile: Toki no Hazama e", "exiletokinohazamae").reading).toBeNull();
  });
});
