// searchGames as collectors type: platform words, spelling variants (folding), the fallback
// within one edit, hints, and model-number ranking. Fixture games are real catalog rows (the
// default catalog's platforms and ids; titles as the box prints them, readings, English titles
// and romanisations), publishers and genres left out.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import games from "../../fixtures/master/catalogLike.games.ndjson?raw";
import platforms from "../../fixtures/master/catalogLike.platforms.ndjson?raw";
import { type Account, newAccount } from "../../support/harness";
import { gameIdsOf, importFixture, insertCustomGame, insertCustomPlatform } from "../../support/master";

const FC = 1;
const MD = 17;
const GG = 21;

const DRACULA_FC = 1102; // 1993-02-05
const DRACULA_FDS = 2169; // 1986-09-26
const DRACULA_SFC = 5666; // 1991-10-31
const PUYO2_MD = 4364; // 1994-12-02
const PUYO2_GG = 3854; // 1994-12-16
const PUYO2_SS = 7830; // 1995-10-27
const SONIC_GG = 3880;
const SONIC_MD = 4425;
const KIRBY_GB = 2693;
const FIRE_EMBLEM_FC = 1383;
const ZIRIA_CD = 5533; // PC Engine CD-ROM²
const MARIO_FC = 1980; // HVC-SM
const MAHJONG_SFC = 6794; // SHVC-SM
const GB_WARS = 2599;
const FC_WARS = 1350; // HVC-FW
const VF_32X = 17; // 1995-10-20
const VF_SS = 8163; // 1994-11-22

beforeAll(async () => {
  await importFixture({ platforms, games });
});

// A key of its own per test: the burst limit (20 calls per 10 s a key) is not what is tested here.
let account: Account;
beforeEach(async () => {
  account = await newAccount({ plan: "FREE" });
});

const search = (args: Record<string, unknown>) => account.call("searchGames", { fields: [], ...args });

async function idsFor(args: Record<string, unknown>): Promise<number[]> {
  const reply = await search(args);
  expect(reply.status, JSON.stringify(args)).toBe(200);
  return gameIdsOf(reply);
}

describe("searchGames: platform words", () => {
  it.each([
    ["悪魔城ドラキュラ SFC", [DRACULA_SFC]],
    ["悪魔城ドラキュラ スーファミ", [DRACULA_SFC]],
    ["ぷよぷよ通 MD", [PUYO2_MD]],
    ["ぷよぷよ通 メガドラ", [PUYO2_MD]],
    ["ソニック ゲームギア", [SONIC_GG]],
    ["ソニック GG", [SONIC_GG]],
    ["バーチャファイター サターン", [VF_SS]],
    ["バーチャファイター 32X", [VF_32X]],
    ["SS バーチャファイター", [VF_SS]],
  ])("%s narrows to the platform it names", async (query, expected) => {
    expect(await idsFor({ query })).toEqual(expected);
  });

  it("narrows to a family: ファミコン covers the Disk System, PCエンジン the CD-ROM²; the narrow words one platform", async () => {
    expect(await idsFor({ query: "悪魔城ドラキュラ ファミコン" })).toEqual([DRACULA_FDS, DRACULA_FC]);
    expect(await idsFor({ query: "悪魔城ドラキュラ FC" })).toEqual([DRACULA_FDS, DRACULA_FC]);
    expect(await idsFor({ query: "悪魔城ドラキュラ ディスクシステム" })).toEqual([DRACULA_FDS]);
    expect(await idsFor({ query: "天外魔境 PCエンジン" })).toEqual([ZIRIA_CD]);
    expect(await idsFor({ query: "天外魔境 PCE" })).toEqual([ZIRIA_CD]);
    expect(await idsFor({ query: "ぷよぷよ通 MD SS" })).toEqual([PUYO2_MD, PUYO2_SS]); // several words: any of their platforms
  });

  it("reports the title's exactness without the platform word", async () => {
    const reply = await search({ query: "悪魔城ドラキュラ SFC" });
    expect(reply.body.items[0]).toMatchObject({ gameId: DRACULA_SFC, matchedBy: "title", exact: true });
  });

  it("keeps a title that holds a platform word: one term is never split, and a lone platform word is a title search", async () => {
    expect(await idsFor({ query: "ゲームボーイウォーズ" })).toEqual([GB_WARS]);
    expect(await idsFor({ query: "ファミコン" })).toEqual([FC_WARS]);
    expect(await idsFor({ query: "ゲームボーイ" })).toEqual([GB_WARS]);
    const spaced = await search({ query: "ファミコン ウォーズ" });
    expect(spaced.body.items[0]).toMatchObject({ gameId: FC_WARS, matchedBy: "title", exact: true });
    expect(await idsFor({ query: "ゲームボーイ ウォーズ" })).toEqual([GB_WARS]);
  });

  it("intersects with platformIds; an empty intersection answers nothing, with a hint naming the word", async () => {
    expect(await idsFor({ query: "ぷよぷよ通 MD", platformIds: [MD, GG] })).toEqual([PUYO2_MD]);
    const none = await search({ query: "ぷよぷよ通 MD", platformIds: [GG] });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ items: [], totalCount: 0, hasMore: false });
    expect(none.body.hint).toContain("'MD'");
    expect(none.body.hint).toContain("platformIds");
    expect(none.body).not.toHaveProperty("platformCounts");
  });

  it("narrows a model number search too, and leaves identifiers ranked first", async () => {
    const reply = await search({ modelNumber: "HVC", query: "FC" });
    expect(gameIdsOf(reply)).toEqual([MARIO_FC, FC_WARS, FIRE_EMBLEM_FC]);
    expect(reply.body.items.every((item: { matchedBy: string }) => item.matchedBy === "modelNumber")).toBe(true);
  });

  it("never reads a user's custom platform as a platform word, for its owner or anyone", async () => {
    const owner = await newAccount();
    const own = await insertCustomPlatform(owner.userId, "メガドラ");
    const custom = await insertCustomGame(owner.userId, { title: "ぷよぷよ通", platformId: own });
    const reply = await owner.call("searchGames", { query: "ぷよぷよ通 メガドラ", fields: [] });
    expect(gameIdsOf(reply)).toEqual([PUYO2_MD]);
    expect(gameIdsOf(await owner.call("searchGames", { query: "ぷよぷよ通", fields: [] }))).toContain(custom);
    expect(await idsFor({ query: "ぷよぷよ通" })).not.toContain(custom);
  });
});

describe("searchGames: spelling variants", () => {
  it.each(["Akumajou Dracula", "Akumajō Dracula", "Akumajo Dracula", "AKUMAJOO DRACULA"])(
    "%s finds every 悪魔城ドラキュラ by its romanisation, same-name ports by release date",
    async (query) => {
      const reply = await search({ query });
      expect(gameIdsOf(reply)).toEqual([DRACULA_FDS, DRACULA_SFC, DRACULA_FC]);
      for (const item of reply.body.items) expect(item).toMatchObject({ matchedBy: "titleEn", exact: true });
    },
  );

  it("finds Tengai Makyou (stored Tengai Makyō)", async () => {
    expect(await idsFor({ query: "Tengai Makyou" })).toEqual([ZIRIA_CD]);
    expect(await idsFor({ query: "tengai makyo ziria" })).toEqual([ZIRIA_CD]);
  });

  it("folds kana long vowels: ぷよぷよつー = ぷよぷよつう, ほしのかあびい = ほしのかーびぃ", async () => {
    const puyo = await search({ query: "ぷよぷよつー" });
    expect(gameIdsOf(puyo)).toEqual([PUYO2_MD, PUYO2_GG, PUYO2_SS]);
    expect(puyo.body.items[0]).toMatchObject({ matchedBy: "alias", exact: true });
    const kirby = await search({ query: "ほしのかあびい" });
    expect(kirby.body.items[0]).toMatchObject({ gameId: KIRBY_GB, matchedBy: "alias", exact: true });
    expect(await idsFor({ query: "星のカービー" })).toEqual([KIRBY_GB]);
  });

  it("folds ファイヤー = ファイアー, ヴ = ブ and small vowels", async () => {
    const reply = await search({ query: "ファイヤーエムブレム" });
    expect(reply.body.items[0]).toMatchObject({ gameId: FIRE_EMBLEM_FC, matchedBy: "title", exact: false });
    expect(await idsFor({ query: "ヴァーチャファイター サターン" })).toEqual([VF_SS]);
    expect(await idsFor({ query: "バーチャフアイター" })).toEqual([VF_SS, VF_32X]);
  });

  it("orders same-name ports by release date whether the title or the English title is exact", async () => {
    expect(await idsFor({ query: "バーチャファイター" })).toEqual([VF_SS, VF_32X]);
    expect(await idsFor({ query: "Virtua Fighter" })).toEqual([VF_SS, VF_32X]);
    const sonic = await search({ query: "ソニック・ザ・ヘッジホッグ" });
    expect(gameIdsOf(sonic)).toEqual([SONIC_MD, SONIC_GG]);
    for (const item of sonic.body.items) expect(item).toMatchObject({ matchedBy: "title", exact: true });
  });
});

describe("searchGames: the fallback within one edit", () => {
  it("finds a title one character off, ranked as not exact, with a hint saying so", async () => {
    const reply = await search({ query: "あくまじょうどらきゅり" });
    expect(gameIdsOf(reply)).toEqual([DRACULA_FDS, DRACULA_SFC, DRACULA_FC]);
    for (const item of reply.body.items) expect(item).toMatchObject({ matchedBy: "alias", exact: false });
    expect(reply.body.hint).toContain("as typed");
    // Super Castlevania IV holds Castlevania too: both, by release date.
    expect(await idsFor({ query: "Castlevana" })).toEqual([DRACULA_SFC, DRACULA_FC]); // a letter left out
    expect(await idsFor({ query: "Castlevaniaa" })).toEqual([DRACULA_SFC, DRACULA_FC]); // a letter too many
    expect(await idsFor({ query: "ぷよぷよ通 メガドライヴュ" })).toEqual([]); // a platform word is never fuzzy
  });

  it("is not used when something matches as typed, nor for terms under five characters", async () => {
    const reply = await search({ query: "ドラキュラ" });
    expect(gameIdsOf(reply)).toEqual([DRACULA_FDS, DRACULA_SFC, DRACULA_FC]);
    expect(reply.body).not.toHaveProperty("hint");
    const short = await search({ query: "ソニッコ" });
    expect(short.body).toMatchObject({ items: [], totalCount: 0 });
    expect(short.body.hint).toContain("No game matches 'ソニッコ'");
  });

  it("requires every term: one term within one edit, the others as typed", async () => {
    expect(await idsFor({ query: "Castlevana IV" })).toEqual([DRACULA_SFC]);
    expect(await idsFor({ query: "Castlevana XYZ" })).toEqual([]);
  });

  it("treats wildcard and full-text characters as text", async () => {
    for (const query of ["ドラキュ[ラ]*?", '"Castlevana" OR *', "[^|]ドラキュラ", "ド?ラ*キュラ"]) {
      const reply = await search({ query });
      expect(reply.status, query).toBe(200);
    }
  });
});

describe("searchGames: hints for an empty answer", () => {
  it("suggests the platform word one edit away", async () => {
    const reply = await search({ query: "悪魔城ドラキュラ SFCC" });
    expect(reply.body).toMatchObject({ items: [], totalCount: 0 });
    expect(reply.body.hint).toBe("No game matches '悪魔城ドラキュラ SFCC'; did you mean the platform word 'SFC'?");
  });

  it("says when the platform word found nothing on its platforms", async () => {
    const reply = await search({ query: "ソニック サターン" });
    expect(reply.body.items).toEqual([]);
    expect(reply.body.hint).toContain("'サターン'");
  });

  it("says when an identifier found nothing", async () => {
    const reply = await search({ modelNumber: "ZZZ-999" });
    expect(reply.body.items).toEqual([]);
    expect(reply.body.hint).toContain("No game has that identifier");
  });
});

describe("searchGames: model numbers", () => {
  it("ranks a whole code, then a code's prefix, above one found inside another: HVC-SM is the Famicom's", async () => {
    const reply = await search({ modelNumber: "HVC-SM" });
    expect(gameIdsOf(reply)).toEqual([MARIO_FC, MAHJONG_SFC]);
    expect(reply.body.items.map((item: { exact: boolean }) => item.exact)).toEqual([true, false]);
    expect(await idsFor({ modelNumber: "hvc" })).toEqual([MARIO_FC, FC_WARS, FIRE_EMBLEM_FC, DRACULA_SFC, MAHJONG_SFC]);
  });

  it("keeps identifiers above text matches", async () => {
    const reply = await search({ modelNumber: "SHVC", query: "悪魔城" });
    expect(reply.body.items).toEqual([expect.objectContaining({ gameId: DRACULA_SFC, matchedBy: "modelNumber" })]);
  });
});

describe("searchGames: access to the new paths", () => {
  it("requires games:read for platform words and the fallback alike", async () => {
    const noScope = await newAccount({ scopes: ["library:read"] });
    for (const query of ["ぷよぷよ通 MD", "あくまじょうどらきゅり"]) {
      const reply = await noScope.call("searchGames", { query });
      expect(reply.status).toBe(403);
    }
  });

  it("never shows another user's custom game through the fallback", async () => {
    const owner = await newAccount();
    const custom = await insertCustomGame(owner.userId, { title: "ゾルバキャッスルヴァニア", platformId: FC });
    expect(gameIdsOf(await owner.call("searchGames", { query: "ぞるばきゃっするばにや", fields: [] }))).toEqual([custom]);
    expect(await idsFor({ query: "ぞるばきゃっするばにや" })).toEqual([]);
  });
});
