// The users and records `npm run bench:api` reads, made once per state folder and kept in
// <state>/bench-api-fixtures.json (user ids and API keys) so later runs reuse them:
//   lib5k   5,000 library entries, a play record on each, a 1,000-game PLATFORM collection
//   lib500  500 library entries
//   lib50k  50,000 library entries (written by SQL, see below)
//   wish    5,000 wishlist entries and 500 consoles (the PREMIUM limit)
// Everything but lib50k goes through the tools' own write path over HTTP. 50,000 adds cannot: a
// PREMIUM user's daily quota is 20,000 calls, so lib50k's rows are inserted into the local D1 file
// (node:sqlite, with the server stopped) in the shape addToLibrary writes, from the same generator.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "./load.mjs";
import { adminFetch } from "./local.mjs";
import { accountingObjectsDir, d1File } from "./localState.mjs";

const FIXTURE_VERSION = 1;
/** PREMIUM's active-key limit: 25 keys x 80 calls / 10 s = 200 calls/s per user before the burst limit. */
export const KEYS_PER_USER = 25;
const SCOPES = ["library:read", "library:write", "play:read", "play:write", "games:read"];
export const USERS = ["lib5k", "lib500", "lib50k", "wish"];

const fixturesPath = (stateDir) => join(stateDir, "bench-api-fixtures.json");

/** Deterministic picks: every k-th item. */
export const pick = (list, count) => Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);

const pad = (n, width = 2) => String(n).padStart(width, "0");
const dateOf = (i) => `${1990 + (i % 30)}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`;

/** The i-th library entry's fields, as addToLibrary takes them. */
export const entryArgs = (i, gameId) => ({
  gameId,
  rating: i % 6 === 5 ? null : 1 + (i % 5),
  buyDate: i % 4 === 3 ? null : dateOf(i * 7),
  buyPrice: i % 5 === 4 ? null : 500 + ((i * 137) % 9500),
  buyPlace: i % 3 === 2 ? null : `合成ショップ ${1 + (i % 20)}`,
  attributes: [[], ["box"], ["box", "manual"], ["used"]][i % 4],
});

const wishArgs = (i, gameId) => ({
  gameId,
  priority: i % 6 === 5 ? null : 1 + (i % 5),
  wishDate: i % 3 === 2 ? null : dateOf(i * 11),
  wishPrice: i % 4 === 3 ? null : 1000 + ((i * 211) % 9000),
  wishPlace: i % 2 ? `合成ショップ ${1 + (i % 20)}` : null,
});

const consoleArgs = (i) => ({
  name: `合成機 本体 ${pad(i + 1, 3)}`,
  rating: i % 6 === 5 ? null : 1 + (i % 5),
  buyDate: i % 4 === 3 ? null : dateOf(i * 13),
  buyPrice: 5000 + ((i * 331) % 30000),
  publisherName: ["合成電機", "合成玩具", "合成工業"][i % 3],
  platformPriorities: [{ platformId: 1 + (i % 12), priority: 1 + (i % 5) }],
});

const PLAY_STATUSES = ["PLANNED", "PLAYING", "PAUSED", "COMPLETED", "DROPPED"];

/**
 * A platform's games between two release dates, exactly `size` of them: the range ends at the
 * size-th game's date, and games of that last date beyond the size are excluded.
 */
export function platformCollection(games, size) {
  const byPlatform = new Map();
  for (const g of games) if (g.releaseDate) (byPlatform.get(g.platformId) ?? byPlatform.set(g.platformId, []).get(g.platformId)).push(g);
  const [platformId, list] = [...byPlatform].sort((a, b) => a[0] - b[0])[0];
  list.sort((a, b) => (a.releaseDate < b.releaseDate ? -1 : a.releaseDate > b.releaseDate ? 1 : a.gameId - b.gameId));
  const from = list[0].releaseDate;
  const to = list[size - 1].releaseDate;
  const excludeGameIds = list
    .slice(size)
    .filter((g) => g.releaseDate === to)
    .map((g) => g.gameId);
  return { platformId, releaseDateFrom: from, releaseDateTo: to, excludeGameIds, memberIds: list.slice(0, size).map((g) => g.gameId) };
}

/** Sends every call (POST tool, args) with `concurrency` in flight; a 429 waits and retries, a 409 is fine (a rerun). */
async function sendAll(baseUrl, keys, calls, concurrency, label) {
  let next = 0;
  let done = 0;
  let k = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < calls.length) {
      const [tool, args] = calls[next++];
      for (;;) {
        const answer = await request(`${baseUrl}/rest/v1/${tool}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${keys[k++ % keys.length]}` },
          body: args,
        });
        if (answer.status === 429) {
          await new Promise((resolve) => setTimeout(resolve, 1000 * Number(answer.headers["retry-after"] ?? 1)));
          continue;
        }
        if (answer.status === 409 || (answer.status >= 200 && answer.status < 300)) break;
        throw new Error(`${tool} ${JSON.stringify(args)} -> ${answer.status} ${answer.body.slice(0, 300)}`);
      }
      if (++done % 1000 === 0) console.log(`  ${label}: ${done}/${calls.length} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function tool(baseUrl, key, name, args) {
  const answer = await request(`${baseUrl}/rest/v1/${name}`, { method: "POST", headers: { Authorization: `Bearer ${key}` }, body: args });
  if (answer.status !== 200) throw new Error(`${name} -> ${answer.status} ${answer.body.slice(0, 300)}`);
  return JSON.parse(answer.body);
}

async function createUser(name, adminOptions) {
  const user = await adminFetch("/users", { method: "POST", body: { plan: "PREMIUM", name: `bench-api ${name}` }, ...adminOptions });
  const keys = [];
  for (let i = 0; i < KEYS_PER_USER; i++) {
    const key = await adminFetch(`/users/${user.userId}/keys`, {
      method: "POST",
      body: { preset: "individual", scopes: SCOPES },
      ...adminOptions,
    });
    keys.push(key.apiKey);
  }
  return { userId: user.userId, keys };
}

/** Opens the state's D1 file with node:sqlite (the server must be stopped). */
export async function openD1(stateDir) {
  const { DatabaseSync } = await import("node:sqlite");
  return new DatabaseSync(d1File(stateDir));
}

/** Library rows written straight into D1, in the shape addToLibrary stores (server stopped). */
async function insertLibraryBySql(stateDir, userId, gameIds) {
  const db = await openD1(stateDir);
  try {
    const insert =
      db.prepare(`INSERT OR IGNORE INTO library_entries (user_id, game_id, rating, buy_date, buy_price, buy_place, buy_place_key, memo,
      user_links, attribute_ids, created_at, updated_at, revision) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, '[]', ?, ?, ?, ?)`);
    const start = Date.parse("2026-01-01T00:00:00Z");
    db.exec("BEGIN");
    gameIds.forEach((gameId, i) => {
      const e = entryArgs(i, gameId);
      const at = new Date(start + i * 1000).toISOString();
      const place = e.buyPlace;
      insert.run(
        userId,
        gameId,
        e.rating,
        e.buyDate,
        e.buyPrice,
        place,
        place?.normalize("NFKC").toLowerCase() ?? null,
        JSON.stringify(e.attributes),
        at,
        at,
        randomBytes(9).toString("base64url"),
      );
    });
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/**
 * Today's quota use and burst windows of the bench users are cleared, so reruns on one day never
 * hit the daily quota: the bench state's accounting objects hold nothing else (each learns its keys
 * again from D1 on their first call). The server must be stopped.
 */
export function resetBenchUsage(stateDir) {
  rmSync(accountingObjectsDir(stateDir), { recursive: true, force: true });
}

export function loadFixtures(stateDir) {
  if (!existsSync(fixturesPath(stateDir))) return undefined;
  const fixtures = JSON.parse(readFileSync(fixturesPath(stateDir), "utf8"));
  return fixtures.version === FIXTURE_VERSION ? fixtures : undefined;
}

/**
 * Creates the fixtures over HTTP (the server at baseUrl running on stateDir); `restartServer`
 * stops the server, runs the given function (the SQL part) and starts it again.
 */
export async function createFixtures({ baseUrl, adminOptions, stateDir, games, restartServer }) {
  const started = performance.now();
  const users = {};
  for (const name of USERS) users[name] = await createUser(name, adminOptions);
  const ids = games.map((g) => g.gameId);
  const lib5k = pick(ids, 5000);
  const lib5kSet = new Set(lib5k);
  const collection = platformCollection(games, 1000);
  console.log("fixtures: 5,000 library entries + 5,000 play records (lib5k), 500 entries (lib500), 5,000 wishes + 500 consoles (wish)");
  await sendAll(
    baseUrl,
    users.lib5k.keys,
    lib5k.map((id, i) => ["addToLibrary", entryArgs(i, id)]),
    8,
    "lib5k addToLibrary",
  );
  await sendAll(
    baseUrl,
    users.lib5k.keys,
    lib5k.map((id, i) => ["addPlayRecord", { gameId: id, status: PLAY_STATUSES[i % 5] }]),
    8,
    "lib5k addPlayRecord",
  );
  await sendAll(
    baseUrl,
    users.lib500.keys,
    pick(ids, 500).map((id, i) => ["addToLibrary", entryArgs(i, id)]),
    8,
    "lib500 addToLibrary",
  );
  // Wishes on games lib5k does not own (another user, but the same kind of spread).
  const wishIds = pick(
    ids.filter((id) => !lib5kSet.has(id)),
    5000,
  );
  await sendAll(
    baseUrl,
    users.wish.keys,
    wishIds.map((id, i) => ["addToWishlist", wishArgs(i, id)]),
    8,
    "wish addToWishlist",
  );
  await sendAll(
    baseUrl,
    users.wish.keys,
    Array.from({ length: 500 }, (_, i) => ["addConsole", consoleArgs(i)]),
    8,
    "wish addConsole",
  );
  const { item } = await tool(baseUrl, users.lib5k.keys[0], "addCollection", {
    name: "合成機 01 最初の1000本",
    type: "PLATFORM",
    platformId: collection.platformId,
    releaseDateFrom: collection.releaseDateFrom,
    releaseDateTo: collection.releaseDateTo,
    excludeGameIds: collection.excludeGameIds,
  });
  await restartServer(() => insertLibraryBySql(stateDir, users.lib50k.userId, pick(ids, 50000)));
  const fixtures = { version: FIXTURE_VERSION, users, collectionId: item.collectionId, collectionSize: collection.memberIds.length };
  writeFileSync(fixturesPath(stateDir), JSON.stringify(fixtures, null, 2));
  console.log(`fixtures made in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  return fixtures;
}
