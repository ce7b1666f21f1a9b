// What two-step removals of play records, logs, consoles, attributes and custom games tell in their
// preview, when they ask again, and how they change the records they touch indirectly (issue 21,
// items 10 and 11), over a tiny fictional master (ids 642000-642099, marker word ルピナス).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type Player, player } from "../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../support/master";
import { expectError, ok, okDone, okPreview } from "../support/replies";

const PLATFORM = 642001;
const GAME = 642101; // ルピナスの森
const OTHER = 642102; // ルピナスの海

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "ルピナス機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson([
      fictionalGame({
        gameId: GAME,
        title: "ルピナスの森",
        titleReading: "るぴなすのもり",
        platformId: PLATFORM,
        releaseDate: "1995-05-05",
      }),
      fictionalGame({
        gameId: OTHER,
        title: "ルピナスの海",
        titleReading: "るぴなすのうみ",
        platformId: PLATFORM,
        releaseDate: "1995-06-06",
      }),
    ]),
  });
});

type Args = Record<string, unknown>;

const premium = () => player({ plan: "PREMIUM" }, 2);
/** Timestamps have millisecond resolution: a pause makes "later" visible in updatedAt. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The preview of a two-step call (checked to be one). */
async function preview(p: Player, tool: string, args: Args) {
  return okPreview(await p.call(tool, args), `${tool} preview`);
}

/** The confirmation of a preview taken earlier. */
const confirm = (p: Player, tool: string, args: Args, confirmToken: string) => p.call(tool, { ...args, confirmToken });

async function entryOf(p: Player, gameId: number) {
  const items = ok(await p.call("getLibrary", { fields: ["attributes", "timestamps"] })).items;
  return items.find((item: { gameId: number }) => item.gameId === gameId)!;
}

async function recordOf(p: Player, playId: string) {
  return ok(await p.call("getPlayRecords", { fields: ["attributes", "timestamps", "console"] })).items.find(
    (item: { playId: string }) => item.playId === playId,
  )!;
}

const copyRevision = async (p: Player, gameId: number) => ok(await p.call("getPhysicalCopies", { gameId })).revision;

describe("removeAttribute (issue 21, items 10 and 11)", () => {
  it("names the play records too, takes the attribute off them, and moves every carrier's revision and updatedAt", async () => {
    const p = await premium();
    const { id } = ok(await p.call("addAttribute", { label: "ルピナス印" })).item;
    ok(await p.call("addToLibrary", { gameId: GAME, attributes: [id] }));
    // The materialized copy inherits the entry's attributes.
    ok(await p.call("addPhysicalCopy", { gameId: GAME, mode: "materialize", revision: await copyRevision(p, GAME) }));
    const { playId } = okDone(await p.call("addPlayRecord", { gameId: GAME }));
    ok(await p.call("updatePlayRecord", { playId, attributes: [id] }));
    const before = {
      entry: await entryOf(p, GAME),
      copies: ok(await p.call("getPhysicalCopies", { gameId: GAME })),
      record: await recordOf(p, playId),
    };
    await tick();

    const shown = await preview(p, "removeAttribute", { attribute: id });
    expect(shown.summary).toContain("1 library entry, 1 physical copy and 1 play record");
    okDone(await confirm(p, "removeAttribute", { attribute: id }, shown.confirmToken));

    const stored = await env.DB.prepare("SELECT attribute_ids FROM play_records WHERE id = ?").bind(playId).first<string>("attribute_ids");
    expect(JSON.parse(stored!)).toEqual([]);
    const entry = await entryOf(p, GAME);
    expect(entry.attributes).toEqual([]);
    expect(entry.revision).not.toBe(before.entry.revision);
    expect(entry.updatedAt! > before.entry.updatedAt!).toBe(true);
    const copies = ok(await p.call("getPhysicalCopies", { gameId: GAME }));
    expect(copies.items[0]!.attributes).toEqual([]);
    expect(copies.items[0]!.updatedAt > before.copies.items[0]!.updatedAt).toBe(true);
    expect(copies.revision).not.toBe(before.copies.revision);
    const record = await recordOf(p, playId);
    expect(record.revision).not.toBe(before.record.revision);
    expect(record.updatedAt! > before.record.updatedAt!).toBe(true);
  });

  it("turns a write with the revision read before the removal into 409, instead of writing over the change", async () => {
    const p = await premium();
    const { id } = ok(await p.call("addAttribute", { label: "ルピナス帯" })).item;
    const { revision } = ok(await p.call("addToLibrary", { gameId: GAME, attributes: [id, "box"] }));
    const { playId, item } = okDone(await p.call("addPlayRecord", { gameId: GAME }));
    const played = ok(await p.call("updatePlayRecord", { playId, revision: item.revision, attributes: [id] })).item.revision;
    const shown = await preview(p, "removeAttribute", { attribute: id });
    okDone(await confirm(p, "removeAttribute", { attribute: id }, shown.confirmToken));

    expectError(await p.call("updateLibraryEntry", { gameId: GAME, revision, memo: "古い版" }), 409, "revision_conflict");
    expectError(await p.call("updatePlayRecord", { playId, revision: played, memo: "古い版" }), 409, "revision_conflict");
    expect((await entryOf(p, GAME)).attributes!.map((a: { id: string }) => a.id)).toEqual(["box"]);
  });

  it("asks again when the records carrying it changed, even if their number did not", async () => {
    const p = await premium();
    const { id } = ok(await p.call("addAttribute", { label: "ルピナス箱" })).item;
    ok(await p.call("addToLibrary", { gameId: GAME, attributes: [id] }));
    ok(await p.call("addToLibrary", { gameId: OTHER }));
    const shown = await preview(p, "removeAttribute", { attribute: id });
    ok(await p.call("updateLibraryEntry", { gameId: GAME, attributes: [] }));
    ok(await p.call("updateLibraryEntry", { gameId: OTHER, attributes: [id] }));
    const again = okPreview(await confirm(p, "removeAttribute", { attribute: id }, shown.confirmToken));
    expect(again.targetChanged).toBe(true);
    expect(ok(await p.call("listAttributes", {})).items.map((a: { id: string }) => a.id)).toContain(id);
  });
});

describe("removeConsole (issue 21, items 10 and 11)", () => {
  it("moves the revision and updatedAt of the play records that lose the console", async () => {
    const p = await premium();
    const consoleId = ok(await p.call("addConsole", { name: "ルピナス本体" })).item.consoleId;
    ok(await p.call("addToLibrary", { gameId: GAME }));
    const { playId } = okDone(await p.call("addPlayRecord", { gameId: GAME, consoleId }));
    const before = await recordOf(p, playId);
    await tick();
    const shown = await preview(p, "removeConsole", { consoleId });
    expect(shown.summary).toContain("'ルピナスの森'");
    okDone(await confirm(p, "removeConsole", { consoleId }, shown.confirmToken));
    const after = await recordOf(p, playId);
    expect(after.consoleId).toBeNull();
    expect(after!.revision).not.toBe(before.revision);
    expect(after.updatedAt! > before.updatedAt!).toBe(true);
  });

  it("asks again when its maintenance logs changed, even if their number did not", async () => {
    const p = await premium();
    const consoleId = ok(await p.call("addConsole", { name: "ルピナス携帯" })).item.consoleId;
    const first = ok(await p.call("addConsoleMaintenanceLog", { consoleId, title: "清掃" })).item.maintenanceLogId;
    const shown = await preview(p, "removeConsole", { consoleId });
    expect(shown.summary).toContain("1 maintenance log");
    const gone = await preview(p, "removeConsoleMaintenanceLog", { consoleId, maintenanceLogId: first });
    okDone(await confirm(p, "removeConsoleMaintenanceLog", { consoleId, maintenanceLogId: first }, gone.confirmToken));
    ok(await p.call("addConsoleMaintenanceLog", { consoleId, title: "電池交換" }));
    const again = okPreview(await confirm(p, "removeConsole", { consoleId }, shown.confirmToken));
    expect(again.targetChanged).toBe(true);
    expect(ok(await p.call("getConsoleMaintenanceLogs", { consoleId })).totalCount).toBe(1);
  });
});

describe("removeCustomGame (issue 21, items 2, 10 and 11)", () => {
  /** A custom game in the library with a copy, a played record with a log, a tag and two collections naming it. */
  async function wellUsed(p: Player) {
    const gameId = ok(await p.call("addCustomGame", { title: "ルピナス試作", platformId: PLATFORM })).item.gameId;
    ok(await p.call("addToLibrary", { gameId }));
    ok(await p.call("addPhysicalCopy", { gameId, mode: "materialize", revision: await copyRevision(p, gameId) }));
    const { playId } = okDone(await p.call("addPlayRecord", { gameId }));
    ok(await p.call("addPlayLog", { playId, playTime: 30 }));
    const tagId = ok(await p.call("addTag", { name: "ルピナス棚" })).item.tagId;
    ok(await p.call("updateTagGames", { tagId, mode: "add", gameIds: [gameId] }));
    const member = ok(await p.call("addCollection", { name: "ルピナス全集", type: "INDIVIDUAL", gameIds: [gameId, GAME] })).item;
    const excluding = ok(
      await p.call("addCollection", { name: "ルピナス機全部", type: "PLATFORM", platformId: PLATFORM, excludeGameIds: [gameId] }),
    ).item;
    return { gameId, tagId, collections: [member, excluding] };
  }

  it("names everything that goes or changes, and leaves no tag or collection naming the game", async () => {
    const p = await premium();
    const { gameId, tagId, collections } = await wellUsed(p);
    const shown = await preview(p, "removeCustomGame", { gameId });
    for (const part of [
      "its library entry",
      "1 physical copy",
      "1 play record with their logs",
      "the tag 'ルピナス棚'",
      "'ルピナス全集'",
      "'ルピナス機全部'",
    ]) {
      expect(shown.summary).toContain(part);
    }
    okDone(await confirm(p, "removeCustomGame", { gameId }, shown.confirmToken));

    const left = await env.DB.prepare(
      "SELECT (SELECT COUNT(*) FROM collection_games WHERE game_id = ?1) + (SELECT COUNT(*) FROM tag_games WHERE game_id = ?1) AS n",
    )
      .bind(gameId)
      .first<number>("n");
    expect(left).toBe(0);
    const tag = ok(await p.call("getTags", {})).items.find((t: { tagId: number }) => t.tagId === tagId);
    expect(tag!.gameCount).toBe(0);
    const listed = ok(await p.call("getCollections", {})).items;
    for (const before of collections) {
      const after = listed.find((c: { collectionId: string }) => c.collectionId === before.collectionId);
      expect(after!.revision).not.toBe(before.revision);
    }
  });

  it("asks again when a tag took the game after the preview", async () => {
    const p = await premium();
    const { gameId } = await wellUsed(p);
    const shown = await preview(p, "removeCustomGame", { gameId });
    const tagId = ok(await p.call("addTag", { name: "ルピナス新棚" })).item.tagId;
    ok(await p.call("updateTagGames", { tagId, mode: "add", gameIds: [gameId] }));
    const again = okPreview(await confirm(p, "removeCustomGame", { gameId }, shown.confirmToken));
    expect(again.targetChanged).toBe(true);
    expect(again.summary).toContain("'ルピナス新棚'");
  });
});

describe("play record removals and replays (issue 21, item 10)", () => {
  it("removing the latest cycle names the cycle that becomes latest, and asks again when that one changes", async () => {
    const p = await premium();
    ok(await p.call("addToLibrary", { gameId: OTHER }));
    const oldest = okDone(await p.call("addPlayRecord", { gameId: OTHER })).playId;
    ok(await p.call("updatePlayRecord", { playId: oldest, playStartDate: "2001-01-01" }));
    const middle = okDone(await p.call("addPlayRecord", { gameId: OTHER, replay: true })).playId;
    ok(await p.call("updatePlayRecord", { playId: middle, playStartDate: "2002-02-02" }));
    const latest = okDone(await p.call("addPlayRecord", { gameId: OTHER, replay: true })).playId;

    const shown = await preview(p, "removePlayRecord", { playId: latest });
    expect(shown.summary).toContain("the cycle started 2002-02-02 becomes the latest");
    const middleGone = await preview(p, "removePlayRecord", { playId: middle });
    expect(middleGone.summary).not.toContain("becomes the latest");
    okDone(await confirm(p, "removePlayRecord", { playId: middle }, middleGone.confirmToken));

    const again = okPreview(await confirm(p, "removePlayRecord", { playId: latest }, shown.confirmToken));
    expect(again).toMatchObject({ targetChanged: true });
    expect(again.summary).toContain("the cycle started 2001-01-01 becomes the latest");
    okDone(await confirm(p, "removePlayRecord", { playId: latest }, again.confirmToken));
    expect(ok(await p.call("getPlayRecords", { fields: [] })).items.map((r: { playId: string }) => r.playId)).toEqual([oldest]);
  });

  it("removePlayLog says the record's totalPlayTime drops", async () => {
    const p = await premium();
    ok(await p.call("addToLibrary", { gameId: GAME }));
    const { playId } = okDone(await p.call("addPlayRecord", { gameId: GAME }));
    const { playLogId } = ok(await p.call("addPlayLog", { playId, playTime: 45 })).item;
    const shown = await preview(p, "removePlayLog", { playLogId });
    expect(shown.summary).toContain("totalPlayTime drops by 45 minutes");
  });

  it("a FREE replay's preview says what of the old record is deleted", async () => {
    const p = await player({ plan: "FREE" }, 1);
    ok(await p.call("addToLibrary", { gameId: GAME }));
    const { playId } = okDone(await p.call("addPlayRecord", { gameId: GAME, status: "PLAYING" }));
    ok(await p.call("addPlayLog", { playId, playTime: 20 }));
    const shown = await preview(p, "addPlayRecord", { gameId: GAME, replay: true });
    expect(shown.summary).toContain("dates, rating, memo, links and attributes");
    expect(shown.summary).toContain("1 play log");
  });
});
