#!/usr/bin/env node
// `npm run bench:search`: p50/p95 of searchGames over HTTP against the local runtime (wrangler
// dev, local D1) holding the synthetic master from `npm run gen:master -- --games 100000`.
// A benchmark, not a test: numbers depend on the machine; docs/scaling.md shows one run.
import { loadGames, pick, runBenchmark, samples } from "./lib/bench.mjs";

const games = loadGames();
/**
 * `length` letters or digits from the middle of a title, as someone would type part of it:
 * punctuation and spaces are skipped (they are not searched), and the fragment does not start with
 * a long-vowel mark, which only lengthens the kana before it and is dropped on its own.
 */
const middle = (text, length) => {
  const chars = [...text].filter((ch) => /[\p{L}\p{N}]/u.test(ch));
  let start = Math.max(0, Math.floor(chars.length / 2) - Math.floor(length / 2));
  while (start > 0 && chars[start] === "ー") start--;
  return chars.slice(start, start + length).join("");
};
const search = (args) => ["searchGames", { ...args, fields: [] }];
/** The reading with its middle character replaced by one no reading holds. */
const typo = (reading) => {
  const chars = [...reading];
  chars[Math.floor(chars.length / 2)] = "ゐ";
  return chars.join("");
};
const withReading = games.filter((g) => g.titleReading);
const workloads = {
  "getAccount (auth + quota baseline)": Array.from({ length: samples }, () => ["getAccount", {}]),
  "reading (full hiragana)": pick(withReading, samples).map((g) => search({ query: g.titleReading })),
  "reading prefix (4 chars)": pick(withReading, samples).map((g) => search({ query: [...g.titleReading].slice(0, 4).join("") })),
  "reading + platform word": pick(withReading, samples).map((g) => search({ query: `${g.titleReading} SFC` })),
  // One character of the reading replaced: nothing matches as typed, so the fallback within one edit runs.
  "reading, one typo (fallback)": pick(
    withReading.filter((g) => [...g.titleReading].length >= 6),
    samples,
  ).map((g) => search({ query: typo(g.titleReading) })),
  "title fragment (3 chars)": pick(games, samples).map((g) => search({ query: middle(g.title, 3) })),
  "title fragment (2 chars)": pick(games, samples).map((g) => search({ query: middle(g.title, 2) })),
  "JAN (exact)": pick(
    games.filter((g) => g.janCode),
    samples,
  ).map((g) => search({ janCode: g.janCode })),
  "model number (partial)": pick(
    games.filter((g) => g.modelNumber.length),
    samples,
  ).map((g) => search({ modelNumber: g.modelNumber[0].slice(-5) })),
};

await runBenchmark(games.length, workloads, workloads["reading (full hiragana)"].slice(0, 20));
