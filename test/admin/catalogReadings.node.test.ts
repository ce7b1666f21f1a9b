// The shipped catalog's titles and readings: how many games a collector can find by reading, and
// how many readings of a hand-checked random sample are right.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

interface CatalogGame {
  gameId: number;
  title: string;
  titleReading: string | null;
  aliases: string[];
}

const games: CatalogGame[] = readFileSync(join(import.meta.dirname, "../../seed/master/games.ndjson"), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line));
const byId = new Map(games.map((game) => [game.gameId, game]));

const SAMPLE = readFileSync(join(import.meta.dirname, "../fixtures/gamedatabase/catalog-readings-sample.tsv"), "utf8")
  .trim()
  .split("\n")
  .filter((line) => !line.startsWith("#"))
  .slice(1)
  .map((line) => {
    const [gameId = "", , title = "", reading = ""] = line.split("\t");
    return { gameId: Number(gameId), title, reading };
  });

/** A reading a collector can type: hiragana, ー and digits, no Latin letters left over. */
const HIRAGANA_READING = /^[\u3041-\u309f\u30fc0-9]+$/;

// Just under what the catalog reaches (printed by the tests), so that a change that makes readings worse fails here.
const MIN_COVERAGE = 0.98;
const MIN_SAMPLE_ACCURACY = 0.88;

describe("the catalog's readings", () => {
  it("give at least 98% of games a reading in hiragana", () => {
    const read = games.filter((game) => game.titleReading !== null && HIRAGANA_READING.test(game.titleReading));
    console.info(`readings in hiragana: ${read.length}/${games.length} (${((read.length / games.length) * 100).toFixed(1)}%)`);
    expect(read.length / games.length).toBeGreaterThanOrEqual(MIN_COVERAGE);
  });

  it("are right for the hand-checked random sample of 220 games", () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(200);
    const wrong = SAMPLE.filter(({ gameId, reading }) => byId.get(gameId)?.titleReading !== reading);
    const accuracy = (SAMPLE.length - wrong.length) / SAMPLE.length;
    console.info(
      `catalog readings sample: ${SAMPLE.length - wrong.length}/${SAMPLE.length} right (${(accuracy * 100).toFixed(1)}%)\n` +
        wrong.map(({ gameId, title, reading }) => `  ${title} | expected ${reading} | got ${byId.get(gameId)?.titleReading}`).join("\n"),
    );
    expect(accuracy).toBeGreaterThanOrEqual(MIN_SAMPLE_ACCURACY);
  });

  it("title the games as a Japanese box prints them", () => {
    expect(byId.get(1859)?.title).toBe("ロックマン2 Dr.ワイリーの謎");
    expect(byId.get(1859)?.titleReading).toBe("ろっくまん2どくたーわいりーのなぞ");
    expect(games.find((game) => game.title.startsWith("ドラゴンクエストIII そして伝説へ"))).toBeDefined();
    expect(games.some((game) => game.title.startsWith("Dragon Quest III "))).toBe(false);
  });

  it("carry the nicknames collectors use as aliases", () => {
    const nicknamed = games.filter((game) => game.aliases.length > 0);
    console.info(`games with a nickname: ${nicknamed.length}`);
    expect(games.filter((game) => game.aliases.includes("ドラクエ3")).map((game) => game.title)).toContain(
      "ドラゴンクエストIII そして伝説へ…",
    );
  });
});
