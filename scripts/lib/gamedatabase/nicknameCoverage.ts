// How much of the catalog the nickname table reaches, and which rows match nothing:
//   npx tsx scripts/lib/gamedatabase/nicknameCoverage.ts [seed/master]
// Reads nicknames.tsv, games.ndjson and gamedatabase-ids.tsv from the folder (seed/master by
// default) and prints the games with a nickname and the rows matching games, per platform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { nicknameCoverage, parseNicknameTable, seedGameTitles } from "./nicknames";

const folder = process.argv[2] ?? "seed/master";
const rows = parseNicknameTable(readFileSync(join(folder, "nicknames.tsv"), "utf8"));
const games = seedGameTitles(
  readFileSync(join(folder, "games.ndjson"), "utf8"),
  readFileSync(join(folder, "gamedatabase-ids.tsv"), "utf8"),
);
const coverage = nicknameCoverage(rows, games);

const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
console.log(
  `nickname table: ${rows.length} rows (${rows.filter((row) => row.kind === "series").length} series, ${rows.filter((row) => row.kind === "game").length} games)`,
);
console.log(
  `games with a nickname: ${coverage.gamesWithNickname} of ${coverage.games} (${percent(coverage.gamesWithNickname, coverage.games)})`,
);
console.log("platform\tgames\twith a nickname\trows matching");
for (const [key, platform] of Object.entries(coverage.platforms)) {
  console.log(`${key}\t${platform.games}\t${platform.gamesWithNickname}\t${platform.rows}`);
}
for (const row of coverage.deadRows) console.log(`matches no game: line ${row.line} (${row.note})`);
process.exitCode = coverage.deadRows.length > 0 ? 1 : 0;
