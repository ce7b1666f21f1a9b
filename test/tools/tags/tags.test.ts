// Tags over a tiny fictional master (ids 800000+, marker word セレス in every title).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Account, callWith, newAccount, player } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";
import { headStartOf, RACE_ROUNDS, race } from "../../support/race";
import { ok, okDone, okPreview } from "../../support/replies";

const GAMES = [800101, 800102, 800103];
beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: 800001, name: "セレス機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson(
      GAMES.map((gameId, i) =>
        fictionalGame({ gameId, title: `セレス伝説${i + 1}`, titleReading: `せれすでんせつ${i + 1}`, platformId: 800001 }),
      ),
    ),
  });
});

async function collector(plan: "LIGHT" | "PREMIUM" = "LIGHT"): Promise<Account> {
  const account = await newAccount({ plan });
  for (const gameId of GAMES) await account.call("addToLibrary", { gameId });
  return account;
}
const tagOf = async (account: Account, tagId: number) => ok(await account.call("getTags", {}, "GET")).items.find((t) => t.tagId === tagId)!;

describe("addTag and getTags", () => {
  it("creates a tag with its fields, counted and listed", async () => {
    const account = await collector();
    const reply = await account.call("addTag", { name: "お気に入り", nameKana: "おきにいり", color: "#ff8800", description: "何度も遊ぶ" });
    expect(reply.status).toBe(200);
    expect(reply.body.item).toMatchObject({
      name: "お気に入り",
      nameKana: "おきにいり",
      color: "#ff8800",
      description: "何度も遊ぶ",
      gameCount: 0,
    });
    expect(typeof reply.body.item.tagId).toBe("number");
    expect((await account.call("getTags")).body).toMatchObject({ totalCount: 1, items: [{ tagId: reply.body.item.tagId }] });
    expect((await account.call("getAccount")).body.registered.tags).toEqual({ count: 1, limit: 100 });
  });

  it("refuses a duplicate name (409), a bad colour (400) and FREE accounts (403)", async () => {
    const account = await collector();
    await account.call("addTag", { name: "積みゲー" });
    expect((await account.call("addTag", { name: "積みゲー" })).body).toMatchObject({ code: "already_exists", field: "name" });
    expect((await account.call("addTag", { name: "x", color: "red" })).body.field).toBe("color");
    expect((await account.call("addTag", { name: "x".repeat(31) })).body.field).toBe("name");
    expect((await (await newAccount({ plan: "FREE" })).call("addTag", { name: "x" })).body.code).toBe("plan_required");
  });
});

describe("updateTag", () => {
  it("patches, and refuses a stale revision or a name in use", async () => {
    const account = await collector();
    const { tagId, revision } = ok(await account.call("addTag", { name: "A", description: "d" })).item;
    await account.call("addTag", { name: "B" });
    const reply = await account.call("updateTag", { tagId, color: "#123456", description: null, revision });
    expect(reply.body.item).toMatchObject({ name: "A", color: "#123456", description: null });
    expect((await account.call("updateTag", { tagId, name: "Z", revision })).body.code).toBe("revision_conflict");
    expect((await account.call("updateTag", { tagId, name: "B" })).body.code).toBe("already_exists");
  });
});

describe("updateTagGames", () => {
  it("adds, removes and replaces owned games; the revision moves", async () => {
    const account = await collector();
    const { tagId, revision } = ok(await account.call("addTag", { name: "RPG" })).item;
    const added = await account.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0], GAMES[1], GAMES[1]] });
    expect(added.body).toMatchObject({ tagId, gameCount: 2, mode: "add" });
    expect(added.body.revision).not.toBe(revision);
    expect((await account.call("updateTagGames", { tagId, mode: "remove", gameIds: [GAMES[0]] })).body.gameCount).toBe(1);
    const current = (await tagOf(account, tagId)).revision;
    const replaced = await account.call("updateTagGames", { tagId, mode: "replace", gameIds: [GAMES[2]], revision: current });
    expect(replaced.body.gameCount).toBe(1);
  });

  it("needs the revision for replace, refuses a stale one and games not owned", async () => {
    const account = await collector();
    const { tagId, revision } = ok(await account.call("addTag", { name: "RPG" })).item;
    expect((await account.call("updateTagGames", { tagId, mode: "replace", gameIds: [GAMES[0]] })).body.field).toBe("revision");
    await account.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0]] });
    expect((await account.call("updateTagGames", { tagId, mode: "replace", gameIds: [], revision })).body.code).toBe("revision_conflict");
    const notOwned = await account.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0], 1] });
    expect(notOwned.status).toBe(404);
    expect((await tagOf(account, tagId)).gameCount).toBe(1);
  });

  it("holds at most 1,000 games per tag (400 past that)", async () => {
    const account = await collector();
    const { tagId } = ok(await account.call("addTag", { name: "many" })).item;
    const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1);
    expect((await account.call("updateTagGames", { tagId, mode: "add", gameIds: tooMany })).body.field).toBe("gameIds");
  });

  it("keeps tags per user: another user's tag is not found", async () => {
    const [a, b] = await Promise.all([collector(), collector()]);
    const { tagId } = ok(await a.call("addTag", { name: "mine" })).item;
    expect((await b.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0]] })).status).toBe(404);
    expect((await b.call("updateTag", { tagId, name: "x" })).status).toBe(404);
    expect((await b.call("getTags")).body.totalCount).toBe(0);
  });
});

describe("removeTag (two-step)", () => {
  it("previews, removes with the token, and leaves the games in the library", async () => {
    const account = await collector();
    const { tagId } = ok(await account.call("addTag", { name: "捨てる" })).item;
    await account.call("updateTagGames", { tagId, mode: "add", gameIds: GAMES });
    const preview = await account.call("removeTag", { tagId });
    expect(preview.body.summary).toContain("3 games");
    expect((await account.call("getTags")).body.totalCount).toBe(1);
    const writer = await account.newKey(["library:read", "library:write"]);
    expect((await callWith(writer.apiKey, "removeTag", { tagId })).body.code).toBe("insufficient_scope");
    expect((await account.call("removeTag", { tagId, confirmToken: preview.body.confirmToken })).body).toEqual({ tagId, removed: true });
    expect((await account.call("getTags")).body.totalCount).toBe(0);
    expect((await account.call("getLibrary", { fields: [] })).body.totalCount).toBe(3);
  });

  it("a game leaving the library leaves its tags", async () => {
    const account = await collector("PREMIUM");
    const { tagId } = ok(await account.call("addTag", { name: "t" })).item;
    await account.call("updateTagGames", { tagId, mode: "add", gameIds: GAMES });
    const preview = okPreview(await account.call("removeFromLibrary", { gameId: GAMES[0] }));
    await account.call("removeFromLibrary", { gameId: GAMES[0], confirmToken: preview.confirmToken });
    expect((await tagOf(account, tagId)).gameCount).toBe(2);
  });
});

describe("under concurrency and no-op writes (issue 13)", () => {
  it("never keeps a game that left the library, however updateTagGames(add) and removeFromLibrary interleave", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    const account = p.account;
    for (const gameId of GAMES) await p.call("addToLibrary", { gameId });
    const { tagId } = ok(await p.call("addTag", { name: "競争" })).item;
    const [gameId] = GAMES;
    // Without ownership re-checked in the writing batch, this failed at head starts 1 and 2.
    for (let round = 0; round < RACE_ROUNDS; round++) {
      if (round > 0) expect((await p.call("addToLibrary", { gameId })).status).toBe(200);
      const { confirmToken } = okPreview(await p.call("removeFromLibrary", { gameId }));
      const [removed, tagged] = await race(
        () => p.call("removeFromLibrary", { gameId, confirmToken }),
        () => p.call("updateTagGames", { tagId, mode: "add", gameIds: [gameId] }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(tagged.body)).toContain(tagged.status);
      if (removed.body.removed !== true) {
        expect((await p.call("removeFromLibrary", { gameId, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
      const held = await env.DB.prepare("SELECT COUNT(*) AS n FROM tag_games WHERE tag_id = ? AND game_id = ?")
        .bind(tagId, gameId)
        .first<number>("n");
      expect(held, `round ${round}: ${JSON.stringify(tagged.body)}`).toBe(0);
    }
    expect((await tagOf(account, tagId)).gameCount).toBe(0);
  }, 60_000);

  it("keeps the tag's revision and updatedAt when updateTagGames changes nothing", async () => {
    const account = await collector();
    const { tagId } = ok(await account.call("addTag", { name: "同じ" })).item;
    const first = ok(await account.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0], GAMES[1]] }));
    const before = await tagOf(account, tagId);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const args of [
      { mode: "add", gameIds: [GAMES[1], GAMES[0]] },
      { mode: "remove", gameIds: [GAMES[2]] },
      { mode: "replace", gameIds: [GAMES[1], GAMES[0]], revision: first.revision },
      { mode: "add", gameIds: [] },
    ]) {
      const reply = await account.call("updateTagGames", { tagId, ...args });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.body, JSON.stringify(args)).toMatchObject({ gameCount: 2, revision: first.revision });
    }
    expect(await tagOf(account, tagId)).toEqual(before);
    // The revision the client holds still works.
    const changed = await account.call("updateTagGames", { tagId, mode: "replace", gameIds: [GAMES[2]], revision: first.revision });
    expect(changed.body.revision).not.toBe(first.revision);
  });

  it("keeps the tag's revision and updatedAt when updateTag changes nothing", async () => {
    const account = await collector();
    const { item } = ok(await account.call("addTag", { name: "色", color: "#112233", description: "説明" }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await account.call("updateTag", {
      tagId: item.tagId,
      name: "色",
      color: "#112233",
      description: "説明",
      revision: item.revision,
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.item).toEqual(item);
    expect((await account.call("updateTag", { tagId: item.tagId })).body.item).toEqual(item);
    const changed = ok(await account.call("updateTag", { tagId: item.tagId, color: "#445566", revision: item.revision })).item;
    expect(changed.revision).not.toBe(item.revision);
    expect(changed.updatedAt).not.toBe(item.updatedAt);
  });
});

describe("removals and the records they touch (issue 21)", () => {
  const countOf = (query: string, ...values: unknown[]) =>
    env.DB.prepare(query)
      .bind(...values)
      .first<number>("n");

  it("never writes a tag_games row for a tag removed while updateTagGames adds to it (404 or 200)", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    for (const gameId of GAMES) ok(await p.call("addToLibrary", { gameId }));
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const { tagId } = ok(await p.call("addTag", { name: `競争${round}` })).item;
      const { confirmToken } = okPreview(await p.call("removeTag", { tagId }));
      const [removed, tagged] = await race(
        () => p.call("removeTag", { tagId, confirmToken }),
        () => p.call("updateTagGames", { tagId, mode: "add", gameIds: GAMES }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(tagged.body)).toContain(tagged.status);
      if (removed.body.removed !== true) {
        // The add won: the removal saw the tag's new revision and previewed again.
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        okDone(await p.call("removeTag", { tagId, confirmToken: removed.body.confirmToken }));
      }
      expect(
        await countOf("SELECT COUNT(*) AS n FROM tag_games WHERE tag_id = ?", tagId),
        `round ${round}: ${JSON.stringify(tagged.body)}`,
      ).toBe(0);
    }
  }, 60_000);

  it("answers updateTag racing removeTag with its result or 404, never a 409 for a tag that is gone", async () => {
    const p = await player({ plan: "PREMIUM" }, 3);
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const { tagId } = ok(await p.call("addTag", { name: `改名${round}` })).item;
      const { confirmToken } = okPreview(await p.call("removeTag", { tagId }));
      const [removed, renamed] = await race(
        () => p.call("removeTag", { tagId, confirmToken }),
        () => p.call("updateTag", { tagId, name: `改名後${round}` }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(renamed.body)).toContain(renamed.status);
      if (removed.body.removed !== true) okDone(await p.call("removeTag", { tagId, confirmToken: removed.body.confirmToken }));
    }
  }, 60_000);

  it("removes the TAG collections built on the tag, which the preview names; a new one asks again", async () => {
    const account = await collector("PREMIUM");
    const { tagId } = ok(await account.call("addTag", { name: "目標" })).item;
    ok(await account.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0]] }));
    const first = ok(await account.call("addCollection", { name: "目標達成", type: "TAG", tagId })).item;
    const other = ok(await account.call("addCollection", { name: "別物", type: "INDIVIDUAL", gameIds: [GAMES[0]] })).item;
    const preview = okPreview(await account.call("removeTag", { tagId }));
    expect(preview.summary).toBe(
      "Removes your tag '目標' from 1 game; the games stay in your library. Also removes the TAG collection built on it: '目標達成'.",
    );
    const second = ok(await account.call("addCollection", { name: "目標その2", type: "TAG", tagId, excludeGameIds: [GAMES[1]] })).item;
    const again = okPreview(await account.call("removeTag", { tagId, confirmToken: preview.confirmToken }));
    expect(again).toMatchObject({ targetChanged: true });
    expect(again.summary).toContain("Also removes the TAG collections built on it: '目標達成' and '目標その2'.");
    expect(okDone(await account.call("removeTag", { tagId, confirmToken: again.confirmToken }))).toEqual({ tagId, removed: true });
    const left = ok(await account.call("getCollections")).items.map((c) => c.collectionId);
    expect(left).toEqual([other.collectionId]);
    for (const { collectionId } of [first, second]) {
      expect(await countOf("SELECT COUNT(*) AS n FROM collection_games WHERE collection_id = ?", collectionId)).toBe(0);
    }
  });

  it("never leaves a TAG collection on a tag removed while addCollection names it", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    // Without the tag re-checked in the writing batch, this failed at head start 3.
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const { tagId } = ok(await p.call("addTag", { name: `土台${round}` })).item;
      const { confirmToken } = okPreview(await p.call("removeTag", { tagId }));
      const [removed, added] = await race(
        () => p.call("removeTag", { tagId, confirmToken }),
        () => p.call("addCollection", { name: `土台${round}`, type: "TAG", tagId }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(added.body)).toContain(added.status);
      if (removed.body.removed !== true) okDone(await p.call("removeTag", { tagId, confirmToken: removed.body.confirmToken }));
      const orphans = await countOf(
        "SELECT COUNT(*) AS n FROM collections c WHERE c.user_id = ? AND c.type = 'TAG' AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)",
        p.account.userId,
      );
      expect(orphans, `round ${round}: ${JSON.stringify(added.body)}`).toBe(0);
    }
  }, 60_000);

  it("moves a tag's revision and updatedAt when a member leaves through removeFromLibrary", async () => {
    const account = await collector();
    const { tagId } = ok(await account.call("addTag", { name: "去る" })).item;
    ok(await account.call("updateTagGames", { tagId, mode: "add", gameIds: GAMES }));
    const before = await tagOf(account, tagId);
    const preview = okPreview(await account.call("removeFromLibrary", { gameId: GAMES[0] }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    okDone(await account.call("removeFromLibrary", { gameId: GAMES[0], confirmToken: preview.confirmToken }));
    const after = await tagOf(account, tagId);
    expect(after.gameCount).toBe(2);
    expect(after.revision).not.toBe(before.revision);
    expect(after.updatedAt > before.updatedAt).toBe(true);
    // The revision held before the member left is stale now.
    const stale = await account.call("updateTagGames", { tagId, mode: "replace", gameIds: [], revision: before.revision });
    expect(stale.body.code).toBe("revision_conflict");
  });

  it("names in removeFromLibrary's preview the tags the game leaves, and asks again when they changed since", async () => {
    const account = await collector();
    const preview = okPreview(await account.call("removeFromLibrary", { gameId: GAMES[0] }));
    expect(preview.summary).not.toContain("tag");
    const { tagId } = ok(await account.call("addTag", { name: "後から" })).item;
    ok(await account.call("updateTagGames", { tagId, mode: "add", gameIds: [GAMES[0]] }));
    const again = okPreview(await account.call("removeFromLibrary", { gameId: GAMES[0], confirmToken: preview.confirmToken }));
    expect(again).toMatchObject({ targetChanged: true });
    expect(again.summary).toContain("It leaves the tag '後から'.");
    expect((await tagOf(account, tagId)).gameCount).toBe(1);
  });
});
