// From the outside, as a person running `npm run dev` would check it: read calls leave the local D1
// database as it was, while getAccount counts every one of them (the counts live in each user's
// accounting object). Runs in Node: it starts the real dev server on its own state folder and reads
// the D1 database file. What is compared is the database's content: every table but
// `_cf_METADATA`, where the local runtime's storage advances its own commit counter (the bookmark
// of D1 sessions) on every query, a read included, even for a bare `SELECT 1`.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface DemoServer {
  url: string;
  keys: { standard: string };
  stateDir: string;
  stop: () => Promise<void>;
}
// @ts-expect-error: a plain ES module without type declarations
const { startDemoServer } = (await import("../../scripts/lib/demoServer.mjs")) as { startDemoServer: () => Promise<DemoServer> };
// @ts-expect-error: likewise
const { d1File } = (await import("../../scripts/lib/localState.mjs")) as { d1File: (stateDir: string) => string };

const READ_CALLS = ["getLibrary", `searchGames?query=${encodeURIComponent("ゼルダ")}`, "listGenres", "getWishlist"];

let server: DemoServer;

/** Every table of the D1 database but the runtime's commit counter, as one digest (read from a copy of its files). */
function d1Content(): string {
  const file = d1File(server.stateDir);
  const copy = join(mkdtempSync(join(tmpdir(), "rgc-d1-copy-")), basename(file));
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  }
  const db = new DatabaseSync(copy, { readOnly: true });
  const digest = createHash("sha256");
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name <> '_cf_METADATA' ORDER BY name").all();
  for (const table of tables) {
    digest.update(String(table.sql));
    for (const row of db.prepare(`SELECT * FROM "${table.name}"`).all()) digest.update(JSON.stringify(row));
  }
  db.close();
  rmSync(dirname(copy), { recursive: true, force: true });
  return digest.digest("hex");
}

/** What this test reads of getAccount's answer. */
interface Account {
  usage: { used: number };
}

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/rest/v1/${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${server.keys.standard}`, "Content-Type": "application/json" },
  });

// npm run dev on its own state folder and secrets (check:docs's demo server), so nothing lands in the checkout.
beforeAll(async () => {
  server = await startDemoServer();
}, 200_000);

afterAll(() => server?.stop());

describe("40 read calls against npm run dev", () => {
  it("leave the D1 database as it was, and getAccount counts every one of them", async () => {
    const before = d1Content();
    const usedBefore = ((await (await call("getAccount")).json()) as Account).usage.used;
    for (let round = 0; round < 10; round++) {
      for (const path of READ_CALLS) expect((await call(path)).status, path).toBe(200);
    }
    const account = (await (await call("getAccount")).json()) as Account;
    expect(account.usage.used, "the 40 reads and this getAccount").toBe(usedBefore + 41);
    expect(d1Content()).toBe(before);
  });

  it("while a write changes it (the comparison sees a change)", async () => {
    const before = d1Content();
    const wish = await call("addToWishlist", { method: "POST", body: JSON.stringify({ gameId: 1 }) });
    expect(wish.status, await wish.clone().text()).toBeLessThan(300);
    expect(d1Content()).not.toBe(before);
  });
});
