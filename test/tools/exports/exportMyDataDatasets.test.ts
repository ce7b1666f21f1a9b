// exportMyData per dataset: its rows match what the list tool answers for the same filters.
// Master rows, the seeded main account and readers: ./myDataSupport.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, ok } from "../../support/replies";
import {
  A,
  type Args,
  B,
  C,
  column,
  D,
  daysFromToday,
  E,
  expectSameAsList,
  exportOf,
  G_DUNGEON,
  G_RPG,
  listIds,
  main,
  OWN,
  P1,
  P2,
  PUB,
  seedMyData,
  sorted,
  W1,
  W2,
  W3,
} from "./myDataSupport";

beforeAll(seedMyData, 120_000);

describe("exportMyData: library", () => {
  it("one row per owned game, the game flattened into columns, empty values null", async () => {
    const { rows } = await exportOf(main, { dataset: "library" });
    expect(column(rows, "gameId")).toEqual(await listIds("getLibrary", "gameId", { fields: [] }));
    const a = rows.find((row) => row.gameId === A)!;
    expect(a).toMatchObject({
      gameTitle: "ヘリオスの冒険",
      platformId: P1,
      platformName: "ヘリオス機",
      publisherId: PUB,
      publisherName: "ヘリオス社",
      genreId: G_RPG,
      genreName: "ヘリオスRPG",
      releaseDate: "1990-01-01",
      custom: false,
      rating: 5,
      buyDate: "2024-05-01",
      buyPrice: 3000,
      buyPlace: "ヘリオス書店",
      attributes: ["箱あり", OWN],
      userLinks: [{ name: "攻略", url: "https://example.com/a" }],
      memo: "最高",
      latestPlayId: main.play.Anew,
      latestPlayStatus: "PLAYING",
    });
    expect(typeof a.createdAt).toBe("string");
    const c = rows.find((row) => row.gameId === C)!;
    expect(c).toMatchObject({
      publisherId: null,
      publisherName: null,
      releaseDate: null,
      rating: null,
      buyDate: null,
      buyPrice: null,
      buyPlace: null,
      attributes: [],
      userLinks: [],
      memo: null,
      latestPlayStatus: "PLANNED",
    });
    const e = rows.find((row) => row.gameId === E)!;
    expect(e).toMatchObject({ latestPlayId: null, latestPlayStatus: null });
  });

  it("the attribute labels are the same as getLibrary's", async () => {
    const listed = ok(await main.call("getLibrary", { fields: ["attributes"], limit: 200 })).items as {
      gameId: number;
      attributes: { label: string }[];
    }[];
    const { rows } = await exportOf(main, { dataset: "library" });
    for (const item of listed) {
      expect(rows.find((row) => row.gameId === item.gameId)!.attributes).toEqual(item.attributes.map((a) => a.label));
    }
  });

  it("every getLibrary filter gives getLibrary's set", async () => {
    await expectSameAsList(
      "library",
      "getLibrary",
      "gameId",
      [
        {},
        { platformIds: [P1] },
        { platformIds: [P2, 839999] },
        { genreId: G_RPG },
        { genreId: G_DUNGEON },
        { title: "へりおすの" },
        { title: "迷宮" },
        { releaseDateFrom: "1990-01-02" },
        { releaseDateFrom: "1990-01-01", releaseDateTo: "1990-01-02" },
        { attributes: ["box"] },
        { attributes: ["box", "manual"] },
        { attributes: [OWN] },
        { buyPlace: "AKIHABARA" },
        { buyPlace: "書店" },
        { ratingFrom: 3 },
        { ratingFrom: 3, ratingTo: 4 },
        { buyDateFrom: "2023-01-15", buyDateTo: "2024-05-01" },
        { buyPriceFrom: 1500, buyPriceTo: 3000 },
        { buyPriceTo: 0 },
        { platformIds: [P1], ratingFrom: 4, attributes: ["box"] },
      ],
      { fields: [] },
    );
  });

  it("every getLibrary sort, both orders, gives getLibrary's order", async () => {
    for (const sortBy of ["buyDate", "buyPrice", "updatedAt", "title", "rating", "releaseDate"]) {
      for (const sortOrder of ["asc", "desc"]) {
        await expectSameAsList("library", "getLibrary", "gameId", [{ sortBy, sortOrder }], { fields: [] });
      }
      await expectSameAsList("library", "getLibrary", "gameId", [{ sortBy }], { fields: [] });
    }
    await expectSameAsList("library", "getLibrary", "gameId", [{ sortOrder: "asc" }], { fields: [] });
  });

  it("an unknown attribute is a 400 naming it, as in getLibrary", async () => {
    expectError(
      await main.call("exportMyData", { dataset: "library", attributes: ["box", "ない"] }),
      400,
      "invalid_input",
      "attributes[1]",
    );
  });
});

describe("exportMyData: wishlist", () => {
  it("one row per wished-for game, with getWishlist's filters and sorts", async () => {
    const { rows } = await exportOf(main, { dataset: "wishlist" });
    expect(column(rows, "gameId")).toEqual([W1, W2, W3]);
    expect(rows[0]).toMatchObject({
      gameTitle: "ヘリオス願望",
      platformName: "ヘリオス機",
      priority: 5,
      wishDate: "2020-01-01",
      wishPrice: 5000,
      wishPlace: "ヘリオス書店",
      memo: null,
    });
    expect(rows[2]).toMatchObject({ priority: null, memo: "誕生日に" });
    await expectSameAsList(
      "wishlist",
      "getWishlist",
      "gameId",
      [
        { platformIds: [P1] },
        { genreId: G_RPG },
        { title: "憧憬" },
        { releaseDateFrom: "1992-06-01" },
        { wishPlace: "ヘリオス" },
        { wishDateFrom: "2019-01-01", wishDateTo: "2021-01-01" },
        { wishDateOverdue: "overdue" },
        { wishDateOverdue: "not_overdue" },
        { wishPriceFrom: 800, wishPriceTo: 5000 },
        { priorityFrom: 2 },
        { priorityTo: 2 },
      ],
      { fields: [] },
    );
    for (const sortBy of ["priority", "createdAt", "wishDate", "wishPrice", "title", "releaseDate"]) {
      for (const sortOrder of ["asc", "desc"])
        await expectSameAsList("wishlist", "getWishlist", "gameId", [{ sortBy, sortOrder }], { fields: [] });
    }
  });
});

describe("exportMyData: playRecords and playLogs", () => {
  it("the latest record per game, with getPlayRecords' values", async () => {
    const { rows } = await exportOf(main, { dataset: "playRecords" });
    expect(column(rows, "playId")).toEqual(await listIds("getPlayRecords", "playId", { fields: [] }));
    expect(sorted(column(rows, "gameId"))).toEqual(sorted([A, B, C, D]));
    const b = rows.find((row) => row.gameId === B)!;
    expect(b).toMatchObject({
      playId: main.play.B,
      gameTitle: "ヘリオス大作戦",
      status: "PLAYING",
      playStartDate: "2024-01-11",
      playEndDate: null,
      clearTargetDate: daysFromToday(-1),
      totalPlayTime: 30,
      rating: 3,
      consoleId: main.consoles.C2,
      consoleName: "ヘリオスミニ",
      attributes: ["説明書あり"],
      userLinks: [],
      isLatest: true,
      hasHistory: false,
    });
    expect(rows.find((row) => row.gameId === A)).toMatchObject({
      playId: main.play.Anew,
      hasHistory: true,
      isLatest: true,
      totalPlayTime: 15,
    });
    expect(rows.find((row) => row.gameId === D)).toMatchObject({ attributes: [OWN], consoleId: null, consoleName: null });
  });

  it("every getPlayRecords filter gives getPlayRecords' set", async () => {
    await expectSameAsList(
      "playRecords",
      "getPlayRecords",
      "playId",
      [
        { statuses: ["PLAYING"] },
        { statuses: ["PLANNED", "PAUSED"] },
        { platformIds: [P2] },
        { genreId: G_RPG },
        { title: "外伝" },
        { releaseDateTo: "1990-01-01" },
        { attributes: [OWN] },
        { consoleIds: [main.consoles.C1] },
        { consoleIds: [main.consoles.C1, main.consoles.C2] },
        { playStartDateFrom: "2024-01-10" },
        { playStartDateTo: "2024-01-10" },
        { playEndDateFrom: "2024-01-01" },
        { clearTargetDateFrom: daysFromToday(0) },
        { clearTargetOverdue: "overdue" },
        { clearTargetOverdue: "not_overdue" },
        { totalPlayTimeFrom: 20, totalPlayTimeTo: 120 },
        { ratingFrom: 4 },
      ],
      { fields: [] },
    );
  });

  it("every getPlayRecords sort, both orders, gives getPlayRecords' order", async () => {
    for (const sortBy of ["playStartDate", "playEndDate", "clearTargetDate", "title", "totalPlayTime", "rating", "updatedAt"]) {
      for (const sortOrder of ["asc", "desc"])
        await expectSameAsList("playRecords", "getPlayRecords", "playId", [{ sortBy, sortOrder }], { fields: [] });
    }
  });

  it("includeHistory (PREMIUM): one row per record, every cycle, filters applied to each cycle", async () => {
    const { rows } = await exportOf(main, { dataset: "playRecords", includeHistory: true, sortBy: "title", sortOrder: "asc" });
    expect(rows).toHaveLength(5);
    const cycles = rows.filter((row) => row.gameId === A);
    expect(column(cycles, "playId")).toEqual([main.play.Aold, main.play.Anew]);
    expect(cycles[0]).toMatchObject({
      status: "COMPLETED",
      isLatest: false,
      hasHistory: true,
      totalPlayTime: 100,
      consoleName: "ヘリオス本体一号",
      attributes: ["箱あり"],
    });
    const history = ok(await main.call("getGamePlayHistory", { gameId: A })).items as { playId: string }[];
    expect(sorted(column(cycles, "playId"))).toEqual(sorted(history.map((item) => item.playId)));
    const completed = await exportOf(main, { dataset: "playRecords", includeHistory: true, statuses: ["COMPLETED"] });
    expect(column(completed.rows, "playId")).toEqual([main.play.Aold]);
    const latest = await exportOf(main, { dataset: "playRecords", includeHistory: false, statuses: ["COMPLETED"] });
    expect(latest.rows).toEqual([]);
  });

  it("playLogs: every session of every cycle, oldest first; the play record filters pick the records", async () => {
    const { rows } = await exportOf(main, { dataset: "playLogs" });
    expect(rows.map((row) => [row.gameId, row.playTime])).toEqual([
      [A, 60],
      [B, 30],
      [D, 120],
      [A, 40],
      [A, 15],
    ]);
    expect(rows[0]).toMatchObject({
      playId: main.play.Aold,
      gameTitle: "ヘリオスの冒険",
      platformName: "ヘリオス機",
      playDate: "2024-03-01",
      memo: "ログ1",
    });
    expect(rows[4]).toMatchObject({ playId: main.play.Anew, memo: null });
    const logs = ok(await main.call("getPlayLogs", { playId: main.play.Aold })).items as { playLogId: string }[];
    expect(
      sorted(
        column(
          rows.filter((row) => row.playId === main.play.Aold),
          "playLogId",
        ),
      ),
    ).toEqual(sorted(logs.map((l) => l.playLogId)));
    const playing = await exportOf(main, { dataset: "playLogs", statuses: ["PLAYING"] });
    expect(playing.rows.map((row) => [row.gameId, row.playTime])).toEqual([
      [B, 30],
      [A, 15],
    ]);
    const onP2 = await exportOf(main, { dataset: "playLogs", platformIds: [P2] });
    expect(column(onP2.rows, "gameId")).toEqual([D]);
  });
});

describe("exportMyData: tags, collections, consoles, customGames", () => {
  it("tags: one row per tag with its games, oldest first", async () => {
    const { rows } = await exportOf(main, { dataset: "tags" });
    expect(rows).toMatchObject([
      { tagId: main.tags.T1, name: "名作", gameCount: 2, gameIds: [A, B], nameKana: null, description: null },
      { tagId: main.tags.T2, name: "積みゲー", gameCount: 1, gameIds: [C] },
    ]);
    expect(column(rows, "tagId")).toEqual(await listIds("getTags", "tagId", {}));
  });

  it("collections: one row per collection; name, purposeTypes and collectionTypes as getCollections filters them", async () => {
    const { rows } = await exportOf(main, { dataset: "collections" });
    expect(rows).toMatchObject([
      {
        collectionId: main.collections.K1,
        name: "ヘリオス全集",
        type: "INDIVIDUAL",
        purpose: "LIBRARY",
        gameIds: [A, B, W1],
        excludeGameIds: [],
        tagId: null,
      },
      { collectionId: main.collections.K2, type: "PLATFORM", purpose: "PLAY", platformId: P2, gameIds: [] },
      { collectionId: main.collections.K3, type: "TAG", tagId: main.tags.T1 },
    ]);
    const cases: [Args, Args][] = [
      [{}, {}],
      [{ name: "ヘリオス" }, { name: "ヘリオス" }],
      [{ name: "OTHER" }, { name: "OTHER" }],
      [{ purposeTypes: ["PLAY"] }, { purposeTypes: ["PLAY"] }],
      [{ collectionTypes: ["INDIVIDUAL", "TAG"] }, { types: ["INDIVIDUAL", "TAG"] }],
      [
        { collectionTypes: ["TAG"], purposeTypes: ["LIBRARY"] },
        { types: ["TAG"], purposeTypes: ["LIBRARY"] },
      ],
    ];
    for (const [filter, listFilter] of cases) {
      const listed = await listIds("getCollections", "collectionId", listFilter, 100);
      expect(column((await exportOf(main, { dataset: "collections", ...filter })).rows, "collectionId"), JSON.stringify(filter)).toEqual(
        listed,
      );
    }
  });

  it("consoles: one row per console with its platforms; getConsoles' filters and sorts", async () => {
    const { rows } = await exportOf(main, { dataset: "consoles" });
    expect(rows[0]).toMatchObject({
      consoleId: main.consoles.C1,
      name: "ヘリオス本体一号",
      publisherName: "ヘリオス電機",
      rating: 5,
      buyDate: "2020-01-01",
      buyPrice: 20000,
      buyPlace: null,
      platforms: [
        { platformId: P1, name: "ヘリオス機", priority: 5 },
        { platformId: P2, name: "ヘリオス携帯機", priority: 3 },
      ],
    });
    expect(rows.find((row) => row.consoleId === main.consoles.C3)).toMatchObject({ memo: "予備", platforms: [] });
    await expectSameAsList(
      "consoles",
      "getConsoles",
      "consoleId",
      [
        {},
        { name: "ヘリオス" },
        { name: "電機" },
        { ratingFrom: 2 },
        { ratingTo: 2 },
        { unrated: true },
        { unrated: false },
        { buyDateFrom: "2015-01-01" },
        { buyPriceFrom: 10000 },
      ],
      { fields: [] },
    );
    for (const sortBy of ["name", "rating", "buyDate", "buyPrice", "createdAt", "updatedAt"]) {
      for (const sortOrder of ["asc", "desc"])
        await expectSameAsList("consoles", "getConsoles", "consoleId", [{ sortBy, sortOrder }], { fields: [] });
    }
  });

  it("customGames: the account's custom games in the master row format, by gameId; the game filters apply", async () => {
    const { rows } = await exportOf(main, { dataset: "customGames" });
    expect(sorted(column(rows, "gameId"))).toEqual(sorted([main.custom.X1, main.custom.X2]));
    expect(column(rows, "gameId")).toEqual([...column(rows, "gameId")].sort((a, b) => (a as number) - (b as number)));
    expect(rows.find((row) => row.gameId === main.custom.X1)).toMatchObject({
      title: "ヘリオス自作RPG",
      titleReading: "へりおすじさくあーるぴーじー",
      titleEn: [],
      aliases: [],
      platformId: P1,
      platformName: "ヘリオス機",
      publisherName: "ヘリオス社",
      genreId: G_RPG,
      genreName: "ヘリオスRPG",
      genreSubId: null,
      releaseDate: "2000-01-01",
      janCode: null,
      modelNumber: [],
      price: null,
    });
    expect(column((await exportOf(main, { dataset: "customGames", platformIds: [P2] })).rows, "gameId")).toEqual([main.custom.X2]);
    expect(column((await exportOf(main, { dataset: "customGames", title: "じさく" })).rows, "gameId")).toEqual([main.custom.X1]);
    expect(
      column((await exportOf(main, { dataset: "customGames", genreId: G_RPG, releaseDateFrom: "1999-01-01" })).rows, "gameId"),
    ).toEqual([main.custom.X1]);
  });
});
