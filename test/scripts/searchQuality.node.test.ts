// The search-quality query set (bench/search-quality/queries.tsv) behind `npm run bench:search-quality`:
// every row parses, every kind is known and well covered, and every expected game is in the
// embedded default catalog, so a miss in the benchmark is the search's, never the file's.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

type Row = { line: number; kind: string; query: string; args: Record<string, unknown>; gameId: number; note: string };
// @ts-expect-error: a plain ES module without type declarations
const quality = (await import("../../scripts/lib/searchQuality.mjs")) as {
  QUERY_FILE: string;
  KINDS: string[];
  parseQueries: (text: string) => Row[];
  loadQueries: () => Row[];
  summarise: (results: { kind: string; rank: number | null }[]) => {
    kinds: Record<string, { count: number; recallAt1: number; recallAt5: number; mrr: number }>;
    overall: { count: number; recallAt1: number; recallAt5: number; mrr: number };
  };
};

const MIN_PER_KIND = 30;
const MIN_TOTAL = 320;
const rows = quality.loadQueries();
const catalogIds = new Set(
  readFileSync(join(import.meta.dirname, "..", "..", "seed", "master", "games.ndjson"), "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { gameId: number }).gameId),
);

describe("the search-quality query set", () => {
  it(`holds at least ${MIN_TOTAL} rows, at least ${MIN_PER_KIND} of every kind`, () => {
    expect(rows.length).toBeGreaterThanOrEqual(MIN_TOTAL);
    for (const kind of quality.KINDS) expect(rows.filter((row) => row.kind === kind).length, kind).toBeGreaterThanOrEqual(MIN_PER_KIND);
  });

  it("expects only games of the embedded catalog", () => {
    const unknown = rows.filter((row) => !catalogIds.has(row.gameId)).map((row) => `line ${row.line}: ${row.gameId}`);
    expect(unknown).toEqual([]);
  });

  it("asks each query with the same arguments once", () => {
    const keys = rows.map((row) => `${row.kind === "model_number" ? "modelNumber" : "query"}\t${row.query}\t${JSON.stringify(row.args)}`);
    const duplicates = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(duplicates).toEqual([]);
  });

  it("names the game of every row in its note", () => {
    expect(rows.filter((row) => !row.note.trim()).map((row) => row.line)).toEqual([]);
  });
});

describe("parseQueries", () => {
  const header = "kind\tquery\targs\tgameId\tnote";
  const parse = (...lines: string[]) => quality.parseQueries([header, ...lines].join("\n"));

  it("reads a row with and without arguments", () => {
    expect(parse("title\tぷよぷよ通\t\t4364\tMD ぷよぷよ通", 'title\tぷよぷよ通\t{"platformIds":[20]}\t7830\tSS')).toEqual([
      { line: 2, kind: "title", query: "ぷよぷよ通", args: {}, gameId: 4364, note: "MD ぷよぷよ通" },
      { line: 3, kind: "title", query: "ぷよぷよ通", args: { platformIds: [20] }, gameId: 7830, note: "SS" },
    ]);
  });

  it.each([
    ["an unknown kind", "typo\tぷよ\t\t1\tx", /line 2: unknown kind "typo"/],
    ["a missing column", "title\tぷよ\t1\tx", /line 2: 4 columns, expected 5/],
    ["an empty query", "title\t \t\t1\tx", /line 2: empty query/],
    ["a gameId that is not a positive integer", "title\tぷよ\t\t0\tx", /line 2: gameId "0"/],
    ["args that are not JSON", "title\tぷよ\t{platformIds:[1]}\t1\tx", /line 2: args is not JSON/],
    ["args that are not an object", "title\tぷよ\t[1]\t1\tx", /line 2: args is not a JSON object/],
  ])("refuses %s, naming the line", (_, line, message) => {
    expect(() => parse(line)).toThrow(message);
  });

  it("refuses a file without the header", () => {
    expect(() => quality.parseQueries("title\tぷよ\t\t1\tx\n")).toThrow(/line 1: the header/);
  });
});

describe("summarise", () => {
  it("gives recall@1, recall@5 and MRR per kind and overall", () => {
    const summary = quality.summarise([
      { kind: "title", rank: 1 },
      { kind: "title", rank: 2 },
      { kind: "nickname", rank: null },
      { kind: "nickname", rank: 4 },
    ]);
    expect(summary.kinds.title).toEqual({ count: 2, recallAt1: 0.5, recallAt5: 1, mrr: 0.75 });
    expect(summary.kinds.nickname).toEqual({ count: 2, recallAt1: 0, recallAt5: 0.5, mrr: 0.125 });
    expect(summary.overall).toEqual({ count: 4, recallAt1: 0.25, recallAt5: 0.75, mrr: (1 + 0.5 + 0.25) / 4 });
  });
});
