// Referential integrity under concurrency (issue 21): random waves of writes and removals across
// the families, each wave fired in parallel, then every parent/child pair of the schema and every
// kept count is checked against the rows themselves. Fictional master: ids 870000+, marker word
// インテグ in every title.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { recountCollections } from "../support/collectionRecount";
import { type Player, player } from "../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../support/master";
import { pick, removeConfirmed, removeSomeCollection, some, updateSomeCollection } from "../support/propertyOps";

const PLATFORM = 870001;
const GAMES = [870101, 870102, 870103, 870104];

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "インテグ機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson(GAMES.map((gameId, i) => fictionalGame({ gameId, title: `インテグ${i + 1}`, platformId: PLATFORM }))),
  });
});

const rows = async <T>(query: string, ...values: unknown[]) =>
  (
    await env.DB.prepare(query)
      .bind(...values)
      .all<T>()
  ).results;
const ids = async (query: string, userId: string) => (await rows<{ id: string | number }>(query, userId)).map((row) => row.id);

/** The user's records a random operation picks its target among. */
async function targets(userId: string) {
  const [custom, tags, collections, consoles, plays, platforms, attributes] = await Promise.all([
    ids("SELECT id FROM games WHERE owner_user_id = ? ORDER BY id", userId),
    ids("SELECT id FROM tags WHERE user_id = ? ORDER BY id", userId),
    rows<{ id: string; revision: string; type: string }>(
      "SELECT id, revision, type FROM collections WHERE user_id = ? ORDER BY id",
      userId,
    ),
    ids("SELECT id FROM consoles WHERE user_id = ? ORDER BY id", userId),
    ids("SELECT id FROM play_records WHERE user_id = ? ORDER BY id", userId),
    ids("SELECT id FROM platforms WHERE owner_user_id = ? ORDER BY id", userId),
    ids("SELECT id FROM attributes WHERE user_id = ? ORDER BY id", userId),
  ]);
  return { games: [...GAMES, ...(custom as number[])], tags, collections, consoles, plays, platforms, attributes };
}

interface Op {
  kind: keyof typeof OPS;
  a: number;
  b: number;
}

type Targets = Awaited<ReturnType<typeof targets>>;

/** Each operation: a call (or a preview and its confirmation) on targets chosen by `a` and `b`. */
const OPS = {
  addToLibrary: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("addToLibrary", { gameId: pick(t.games, a), attributes: some(t.attributes, b).slice(0, 2) }),
  updateLibraryEntry: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("updateLibraryEntry", { gameId: pick(t.games, a), attributes: some(t.attributes, b).slice(0, 2) }),
  addAttribute: (p: Player, _t: Targets, { a }: Op) => p.call("addAttribute", { label: `印${a}` }),
  removeAttribute: (p: Player, t: Targets, { a }: Op) =>
    removeConfirmed(p, "removeAttribute", { attribute: pick(t.attributes, a) ?? "none" }),
  removeFromLibrary: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removeFromLibrary", { gameId: pick(t.games, a) }),
  addToWishlist: (p: Player, t: Targets, { a }: Op) => p.call("addToWishlist", { gameId: pick(t.games, a) }),
  removeFromWishlist: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removeFromWishlist", { gameId: pick(t.games, a) }),
  addPlayRecord: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("addPlayRecord", {
      gameId: pick(t.games, a),
      status: pick(["PLAYING", "COMPLETED"], b),
      ...(b % 3 === 0 && t.consoles.length ? { consoleId: pick(t.consoles, b) } : {}),
    }),
  addPlayLog: (p: Player, t: Targets, { a, b }: Op) => p.call("addPlayLog", { playId: pick(t.plays, a) ?? "none", playTime: 1 + (b % 60) }),
  removePlayRecord: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removePlayRecord", { playId: pick(t.plays, a) ?? "none" }),
  addPhysicalCopy: async (p: Player, t: Targets, { a }: Op) => {
    const gameId = pick(t.games, a);
    const copies = await p.call("getPhysicalCopies", { gameId });
    if (copies.status !== 200) return copies;
    return p.call("addPhysicalCopy", { gameId, mode: "additional", revision: copies.body.revision });
  },
  addTag: (p: Player, _t: Targets, { a }: Op) => p.call("addTag", { name: `タグ${a}` }),
  updateTagGames: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("updateTagGames", { tagId: pick(t.tags, a) ?? 1, mode: "add", gameIds: some(t.games, b).slice(0, 3) }),
  removeTag: (p: Player, t: Targets, { a }: Op) => removeConfirmed(p, "removeTag", { tagId: pick(t.tags, a) ?? 1 }),
  addCollection: (p: Player, t: Targets, { a, b }: Op) => {
    const shapes = [
      { type: "INDIVIDUAL", gameIds: some(t.games, b).slice(0, 3) },
      { type: "TAG", tagId: pick(t.tags, b) ?? 1, excludeGameIds: some(t.games, a).slice(0, 1) },
      { type: "PLATFORM", platformId: pick([PLATFORM, ...t.platforms], b), excludeGameIds: some(t.games, a).slice(0, 1) },
    ];
    return p.call("addCollection", { name: `集め${a}`, purpose: pick(["LIBRARY", "PLAY"], a >> 2), ...pick(shapes, a) });
  },
  updateCollection: (p: Player, t: Targets, { a, b }: Op) => updateSomeCollection(p, t, a, b, 3),
  removeCollection: (p: Player, t: Targets, { a }: Op) => removeSomeCollection(p, t, a),
  addCustomGame: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("addCustomGame", { title: `インテグ自作${a}`, platformId: pick([PLATFORM, ...t.platforms], b) }),
  removeCustomGame: (p: Player, t: Targets, { a }: Op) =>
    removeConfirmed(p, "removeCustomGame", { gameId: pick(t.games.slice(GAMES.length), a) ?? 1 }),
  addCustomPlatform: (p: Player, _t: Targets, { a }: Op) => p.call("addCustomPlatform", { name: `インテグ自作機${a}` }),
  removeCustomPlatform: (p: Player, t: Targets, { a }: Op) =>
    removeConfirmed(p, "removeCustomPlatform", { platformId: pick(t.platforms, a) ?? 1 }),
  addConsole: (p: Player, t: Targets, { a, b }: Op) =>
    p.call("addConsole", { name: `本体${a}`, platformPriorities: [{ platformId: pick([PLATFORM, ...t.platforms], b), priority: 3 }] }),
  removeConsole: (p: Player, t: Targets, { a }: Op) =>
    removeConfirmed(p, "removeConsole", { consoleId: pick(t.consoles, a) ?? "con_none" }),
};

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom(...(Object.keys(OPS) as (keyof typeof OPS)[])),
  a: fc.nat(63),
  b: fc.nat(63),
});

/** A few records of every kind to start from, so that the random removals find something. */
async function seed(p: Player) {
  const platformId = (await p.call("addCustomPlatform", { name: "インテグ元機" })).body.item.platformId;
  await p.call("addAttribute", { label: "元印" });
  const custom = (await p.call("addCustomGame", { title: "インテグ元作", platformId })).body.item.gameId;
  for (const gameId of [GAMES[0], GAMES[1], custom]) await p.call("addToLibrary", { gameId, attributes: ["元印"] });
  await p.call("addToWishlist", { gameId: GAMES[2] });
  const { tagId } = (await p.call("addTag", { name: "元タグ" })).body.item;
  await p.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0], custom] });
  const consoleId = (await p.call("addConsole", { name: "元本体", platformPriorities: [{ platformId, priority: 5 }] })).body.item.consoleId;
  await p.call("addPlayRecord", { gameId: custom, status: "PLAYING", consoleId });
  await p.call("addCollection", { name: "元個別", type: "INDIVIDUAL", gameIds: [GAMES[3], custom] });
  await p.call("addCollection", { name: "元タグ集", type: "TAG", tagId });
  await p.call("addCollection", { name: "元機種集", type: "PLATFORM", platformId, purpose: "PLAY" });
}

/** Rows that name a parent that is not there (each query counts one parent/child pair's orphans). */
const ORPHANS: Record<string, string> = {
  "library entry -> visible game":
    "SELECT COUNT(*) AS n FROM library_entries l WHERE l.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = l.game_id AND ifnull(g.owner_user_id, ?1) = ?1)",
  "wishlist entry -> visible game":
    "SELECT COUNT(*) AS n FROM wishlist_entries w WHERE w.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = w.game_id AND ifnull(g.owner_user_id, ?1) = ?1)",
  "physical copy -> library entry":
    "SELECT COUNT(*) AS n FROM physical_copies c WHERE c.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM library_entries l WHERE l.user_id = c.user_id AND l.game_id = c.game_id)",
  "play record -> library entry":
    "SELECT COUNT(*) AS n FROM play_records r WHERE r.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM library_entries l WHERE l.user_id = r.user_id AND l.game_id = r.game_id)",
  "play record -> console":
    "SELECT COUNT(*) AS n FROM play_records r WHERE r.user_id = ?1 AND r.console_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM consoles c WHERE c.id = r.console_id)",
  "play log -> play record":
    "SELECT COUNT(*) AS n FROM play_logs pl WHERE pl.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM play_records r WHERE r.id = pl.play_id)",
  "console platform -> platform":
    "SELECT COUNT(*) AS n FROM console_platforms cp JOIN consoles c ON c.id = cp.console_id WHERE c.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM platforms p WHERE p.id = cp.platform_id)",
  "maintenance log -> console":
    "SELECT COUNT(*) AS n FROM maintenance_logs m WHERE m.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM consoles c WHERE c.id = m.console_id)",
  "tag membership -> library entry":
    "SELECT COUNT(*) AS n FROM tag_games tg JOIN tags t ON t.id = tg.tag_id WHERE t.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM library_entries l WHERE l.user_id = t.user_id AND l.game_id = tg.game_id)",
  "TAG collection -> tag":
    "SELECT COUNT(*) AS n FROM collections c WHERE c.user_id = ?1 AND c.type = 'TAG' AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id AND t.user_id = c.user_id)",
  "PLATFORM collection -> platform":
    "SELECT COUNT(*) AS n FROM collections c WHERE c.user_id = ?1 AND c.type = 'PLATFORM' AND NOT EXISTS (SELECT 1 FROM platforms p WHERE p.id = c.platform_id)",
  "collection game -> game":
    "SELECT COUNT(*) AS n FROM collection_games cg JOIN collections c ON c.id = cg.collection_id WHERE c.user_id = ?1 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = cg.game_id)",
  "library entry -> own attribute":
    "SELECT COUNT(*) AS n FROM library_entries l, json_each(l.attribute_ids) a WHERE l.user_id = ?1 AND a.value LIKE 'attr_%' AND NOT EXISTS (SELECT 1 FROM attributes t WHERE t.id = a.value)",
  "physical copy -> own attribute":
    "SELECT COUNT(*) AS n FROM physical_copies c, json_each(c.attribute_ids) a WHERE c.user_id = ?1 AND a.value LIKE 'attr_%' AND NOT EXISTS (SELECT 1 FROM attributes t WHERE t.id = a.value)",
  "play record -> own attribute":
    "SELECT COUNT(*) AS n FROM play_records r, json_each(r.attribute_ids) a WHERE r.user_id = ?1 AND a.value LIKE 'attr_%' AND NOT EXISTS (SELECT 1 FROM attributes t WHERE t.id = a.value)",
  "custom game -> platform":
    "SELECT COUNT(*) AS n FROM games g WHERE g.owner_user_id = ?1 AND NOT EXISTS (SELECT 1 FROM platforms p WHERE p.id = g.platform_id)",
};

/** Rows whose parent is gone, which no longer tells whose they were: counted for every user. */
const ORPHANS_OF_ANYONE: Record<string, string> = {
  "console platform -> console":
    "SELECT COUNT(*) AS n FROM console_platforms cp WHERE NOT EXISTS (SELECT 1 FROM consoles c WHERE c.id = cp.console_id)",
  "tag membership -> tag": "SELECT COUNT(*) AS n FROM tag_games tg WHERE NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = tg.tag_id)",
  "collection game -> collection":
    "SELECT COUNT(*) AS n FROM collection_games cg WHERE NOT EXISTS (SELECT 1 FROM collections c WHERE c.id = cg.collection_id)",
};

/** What list_counts keeps, recounted from the lists (play: the latest cycles). */
const LIST_RECOUNTS: Record<string, string> = {
  library: "SELECT COUNT(*) AS n FROM library_entries WHERE user_id = ?1",
  wishlist: "SELECT COUNT(*) AS n FROM wishlist_entries WHERE user_id = ?1",
  play: "SELECT COUNT(*) AS n FROM play_records WHERE user_id = ?1 AND is_latest = 1",
};

const countOf = async (query: string, ...values: unknown[]) => (await rows<{ n: number }>(query, ...values))[0]!.n;

async function checkIntegrity(p: Player) {
  const { userId } = p.account;
  for (const [pair, query] of Object.entries(ORPHANS)) expect(await countOf(query, userId), `orphans: ${pair}`).toBe(0);
  for (const [pair, query] of Object.entries(ORPHANS_OF_ANYONE)) expect(await countOf(query), `orphans: ${pair}`).toBe(0);
  const kept = await rows<{ list: string; n: number }>("SELECT list, n FROM list_counts WHERE user_id = ?1", userId);
  for (const [list, query] of Object.entries(LIST_RECOUNTS)) {
    expect(kept.find((row) => row.list === list)?.n ?? 0, `list_counts ${list}`).toBe(await countOf(query, userId));
  }
  const tags = (await p.call("getTags", { limit: 200 })).body.items as { tagId: number; gameCount: number }[];
  for (const tag of tags) {
    expect(tag.gameCount, `tag ${tag.tagId}`).toBe(await countOf("SELECT COUNT(*) AS n FROM tag_games WHERE tag_id = ?", tag.tagId));
  }
  const recounted = await recountCollections(userId);
  const listed = (await p.call("getCollections", { limit: 100 })).body.items as { collectionId: string; summary: object }[];
  expect(listed).toHaveLength(recounted.size);
  for (const item of listed) expect(item.summary, `collection ${item.collectionId}`).toMatchObject(recounted.get(item.collectionId)!);
}

describe("integrity after random interleavings of writes and removals (issue 21)", () => {
  it("leaves no row without its parent, and every kept count equal to a recount", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 4 }), async (waves) => {
        const p = await player({ plan: "PREMIUM" }, 1);
        await seed(p);
        for (const wave of waves) {
          const t = await targets(p.account.userId);
          const replies = await Promise.all(wave.map((op) => OPS[op.kind](p, t, op)));
          for (const [i, reply] of replies.entries())
            expect(reply.status, `${wave[i]!.kind}: ${JSON.stringify(reply.body)}`).toBeLessThan(500);
        }
        await checkIntegrity(p);
      }),
      { numRuns: 6, endOnFailure: true },
    );
  }, 60_000);
});
