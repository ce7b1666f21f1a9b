// `npm run bench:api -- --explain`: where a list call's SQL time goes. Runs the tools' own
// handlers in Node against a copy of the bench's local D1 file, through
// a small D1 stand-in over node:sqlite that records every statement, times it, and prints its
// EXPLAIN QUERY PLAN. The statements are exactly the ones the Worker sends (same code, same
// drizzle dialect); only the transport differs. Started by scripts/bench-api.mjs with
// BENCH_D1_FILE and BENCH_FIXTURES set.
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { createDb } from "../src/platform/db";
import { batchReader } from "../src/platform/firstReads";
import type { Scope } from "../src/platform/plans";
import { pageLimitOfTool, type ToolDefinition } from "../src/registry/defineTool";
import { getAccount } from "../src/tools/account/getAccount";
import { getCollectionGames } from "../src/tools/collections/getCollectionGames";
import { getConsoles } from "../src/tools/consoles/getConsoles";
import { browseGames } from "../src/tools/games/browseGames";
import { listGenres } from "../src/tools/games/listGenres";
import { searchGames } from "../src/tools/games/searchGames";
import { getLibrary } from "../src/tools/library/getLibrary";
import { getPlayRecords } from "../src/tools/play/getPlayRecords";
import { getWishlist } from "../src/tools/wishlist/getWishlist";

interface Recorded {
  sql: string;
  params: SQLInputValue[];
  ms: number;
  rows: number;
}

const source = process.env.BENCH_D1_FILE!;
const fixtures = JSON.parse(process.env.BENCH_FIXTURES!) as {
  users: Record<string, { userId: string; keys: string[] }>;
  collectionId: string;
};
const copyDir = mkdtempSync(join(tmpdir(), "bench-explain-"));
const file = join(copyDir, "d1.sqlite");
copyFileSync(source, file);
for (const suffix of ["-wal", "-shm"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, file + suffix);
const sqlite = new DatabaseSync(file);

let recording: Recorded[] = [];
const bindable = (value: unknown): SQLInputValue => (typeof value === "boolean" ? Number(value) : (value as SQLInputValue));

/** Just enough of D1's API for drizzle's d1 driver and queryBatch: prepare/bind/all/raw/run/first, batch. */
class Statement {
  constructor(
    readonly text: string,
    readonly params: SQLInputValue[] = [],
  ) {}
  bind(...params: unknown[]) {
    return new Statement(this.text, params.map(bindable));
  }
  private exec(arrays: boolean) {
    const statement: StatementSync = sqlite.prepare(this.text);
    statement.setReturnArrays(arrays);
    const started = performance.now();
    const rows = statement.all(...this.params);
    const ms = performance.now() - started;
    const changes = Number((sqlite.prepare("SELECT changes() AS n").get() as { n: number }).n);
    recording.push({ sql: this.text, params: this.params, ms, rows: rows.length });
    return { rows, changes };
  }
  async all() {
    const { rows, changes } = this.exec(false);
    return { results: rows, success: true, meta: { changes } };
  }
  async raw() {
    return this.exec(true).rows;
  }
  async run() {
    const { changes } = this.exec(false);
    return { results: [], success: true, meta: { changes } };
  }
  async first() {
    return this.exec(false).rows[0] ?? null;
  }
}

const d1 = {
  prepare: (text: string) => new Statement(text),
  batch: async (statements: Statement[]) => Promise.all(statements.map((s) => s.all())),
} as unknown as D1Database;
const db = createDb(d1);

const plan = (text: string, params: SQLInputValue[]) =>
  (sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((row) => row.detail);
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function print(label: string, statements: Recorded[]) {
  const total = statements.reduce((sum, s) => sum + s.ms, 0);
  console.log(`\n### ${label}: ${statements.length} statement(s), ${total.toFixed(2)} ms in SQLite\n`);
  for (const s of statements) {
    console.log(
      `- ${s.ms.toFixed(2)} ms, ${s.rows} row(s): \`${oneLine(s.sql).slice(0, 240)}${oneLine(s.sql).length > 240 ? " ..." : ""}\``,
    );
    for (const line of plan(s.sql, s.params)) console.log(`    ${line}`);
  }
}

const now = new Date();
const SCOPES: Scope[] = ["library:read", "library:write", "play:read", "play:write", "games:read"];
const authOf = (user: string) => ({
  userId: fixtures.users[user]!.userId,
  plan: "PREMIUM" as const,
  keyId: "key_explain",
  scopes: new Set(SCOPES),
});

async function call(label: string, tool: ToolDefinition, user: string, args: Record<string, unknown>) {
  const ctx = {
    tool: tool.name,
    // Admission and getAccount's count are the user's accounting object's (a Durable Object), not
    // D1: this stand-in answers "no calls yet", so only the D1 statements are measured.
    env: { ACCOUNTING: { getByName: () => ({ usage: async () => [] }) } } as never,
    face: "rest" as const,
    origin: "http://127.0.0.1",
    db,
    read: batchReader(db),
    auth: authOf(user),
    requestId: "req_explain",
    now,
    upgradeUrl: "",
    pageLimit: pageLimitOfTool(tool),
  };
  const parsed = tool.input.parse(args);
  await tool.handler(ctx, parsed); // warms SQLite's page cache, as a running database is
  recording = [];
  await tool.handler(ctx, parsed);
  print(label, recording);
}

await call("getAccount (lib5k)", getAccount, "lib5k", {});
await call("listGenres", listGenres, "lib5k", {});
await call("getLibrary 5,000, default fields, limit 100, page 1", getLibrary, "lib5k", { limit: 100 });
await call("getLibrary 5,000, page 40", getLibrary, "lib5k", { limit: 100, page: 40 });
await call("getLibrary 5,000, fields []", getLibrary, "lib5k", { limit: 100, fields: [] });
for (const sortBy of ["buyDate", "buyPrice", "title", "rating", "releaseDate"]) {
  await call(`getLibrary 5,000, sortBy ${sortBy}`, getLibrary, "lib5k", { limit: 100, sortBy });
}
await call("getLibrary 50,000, default", getLibrary, "lib50k", { limit: 100 });
await call("getWishlist 5,000", getWishlist, "wish", { limit: 100 });
await call("getPlayRecords 5,000", getPlayRecords, "lib5k", { limit: 100 });
await call("getConsoles 500", getConsoles, "wish", { limit: 100 });
await call("getCollectionGames 1,000 (PLATFORM)", getCollectionGames, "lib5k", { collectionId: fixtures.collectionId, limit: 100 });
await call("searchGames JAN", searchGames, "lib5k", { janCode: "2200000000019", fields: [] });
await call("browseGames", browseGames, "lib5k", { fields: [] });
sqlite.close();
