// exportMyData's answer (the link, its columns and counts), the arguments that do not apply, and
// the file a download link gives. Master rows, the seeded main account and readers: ./myDataSupport.ts.
import { beforeAll, describe, expect, it } from "vitest";
import type { ExportRow } from "../../../src/platform/exportSource";
import { exportMyData } from "../../../src/tools/exports/exportMyData";
import { fetchLink } from "../../support/downloads";
import { admin, newAccount, ORIGIN } from "../../support/harness";
import { expectError, ok } from "../../support/replies";
import { A, type Args, column, exportOf, linkPayload, main, OWN, P1, seedMyData } from "./myDataSupport";

beforeAll(seedMyData, 120_000);

describe("exportMyData: the answer", () => {
  it("is a link and a description of the file, never the rows", async () => {
    const before = Date.now();
    const { body, rows } = await exportOf(main, { dataset: "library" });
    expect(Object.keys(body).sort()).toEqual(["columns", "dataset", "expiresAt", "expiresInSec", "format", "note", "rowCount", "url"]);
    expect(exportMyData.output.safeParse(body).success, "the published output schema fits the answer").toBe(true);
    expect(body.url.startsWith(`${ORIGIN}/downloads/v1/`)).toBe(true);
    expect(body.expiresInSec).toBe(900);
    const expiresAt = Date.parse(body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 899_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 901_000);
    expect(body).toMatchObject({ dataset: "library", format: "json", rowCount: 6 });
    expect(typeof body.note).toBe("string");
    expect(rows).toHaveLength(6);
  });

  it("stores the validated filters in the link (not dataset or format), to be reapplied at download", async () => {
    const { body } = await exportOf(main, {
      dataset: "library",
      format: "csv",
      platformIds: [P1],
      title: "ヘリオス",
      sortBy: "buyPrice",
      ratingFrom: 1,
    });
    expect(body.format).toBe("csv");
    expect(linkPayload(body.url).args).toEqual({ platformIds: [P1], title: "ヘリオス", sortBy: "buyPrice", ratingFrom: 1 });
  });

  it("is POST only: GET is 405", async () => {
    expectError(await main.call("exportMyData", { dataset: "library" }, "GET"), 405, "method_not_allowed");
  });

  it("has fixed columns per dataset", async () => {
    // A game's platform, publisher and genre, then the game's columns every game-keyed dataset has.
    const placing = ["platformId", "platformName", "publisherId", "publisherName", "genreId", "genreName"];
    const game = ["gameId", "gameTitle", ...placing, "releaseDate", "custom"];
    const expected: Record<string, string[]> = {
      library: [
        ...game,
        "rating",
        "buyDate",
        "buyPrice",
        "buyPlace",
        "attributes",
        "userLinks",
        "memo",
        "latestPlayId",
        "latestPlayStatus",
        "createdAt",
        "updatedAt",
      ],
      wishlist: [...game, "priority", "wishDate", "wishPrice", "wishPlace", "memo", "createdAt", "updatedAt"],
      playRecords: [
        "playId",
        ...game,
        "status",
        "playStartDate",
        "playEndDate",
        "clearTargetDate",
        "totalPlayTime",
        "untrackedPlayTime",
        "rating",
        "consoleId",
        "consoleName",
        "attributes",
        "userLinks",
        "memo",
        "isLatest",
        "hasHistory",
        "createdAt",
        "updatedAt",
      ],
      playLogs: ["playLogId", "playId", ...game, "playDate", "playTime", "memo", "createdAt", "updatedAt"],
      tags: ["tagId", "name", "nameKana", "color", "description", "gameCount", "gameIds", "createdAt", "updatedAt"],
      collections: [
        "collectionId",
        "name",
        "description",
        "type",
        "purpose",
        "tagId",
        "platformId",
        "genreId",
        "releaseDateFrom",
        "releaseDateTo",
        "gameIds",
        "excludeGameIds",
        "createdAt",
        "updatedAt",
      ],
      consoles: [
        "consoleId",
        "name",
        "nameKana",
        "publisherName",
        "rating",
        "buyDate",
        "buyPrice",
        "buyPlace",
        "memo",
        "platforms",
        "maintenanceLogs",
        "createdAt",
        "updatedAt",
      ],
      customGames: [
        "gameId",
        "title",
        "titleReading",
        "titleEn",
        "aliases",
        ...placing,
        "genreSubId",
        "genreSubName",
        "releaseDate",
        "janCode",
        "modelNumber",
        "price",
      ],
    };
    for (const [dataset, columns] of Object.entries(expected)) {
      const { body } = await exportOf(main, { dataset });
      expect(body.columns, dataset).toEqual(columns);
    }
  });
});

describe("exportMyData: arguments that do not apply", () => {
  it("a filter, sort or option of another dataset is a 400 naming it", async () => {
    const cases: [Args, string][] = [
      [{ dataset: "library", wishPlace: "x" }, "wishPlace"],
      [{ dataset: "library", includeHistory: false }, "includeHistory"],
      [{ dataset: "library", statuses: ["PLAYING"] }, "statuses"],
      [{ dataset: "library", name: "x" }, "name"],
      [{ dataset: "wishlist", attributes: ["box"] }, "attributes"],
      [{ dataset: "wishlist", buyPlace: "x" }, "buyPlace"],
      [{ dataset: "playRecords", buyDateFrom: "2024-01-01" }, "buyDateFrom"],
      [{ dataset: "playLogs", includeHistory: true }, "includeHistory"],
      [{ dataset: "playLogs", sortBy: "title" }, "sortBy"],
      [{ dataset: "tags", title: "x" }, "title"],
      [{ dataset: "tags", sortOrder: "asc" }, "sortOrder"],
      [{ dataset: "collections", platformIds: [P1] }, "platformIds"],
      [{ dataset: "consoles", title: "x" }, "title"],
      [{ dataset: "consoles", collectionTypes: ["TAG"] }, "collectionTypes"],
      [{ dataset: "customGames", ratingFrom: 1 }, "ratingFrom"],
      [{ dataset: "library", sortBy: "wishDate" }, "sortBy"],
      [{ dataset: "wishlist", sortBy: "buyDate" }, "sortBy"],
      [{ dataset: "consoles", sortBy: "title" }, "sortBy"],
      [{ dataset: "playRecords", sortBy: "name" }, "sortBy"],
    ];
    for (const [args, field] of cases) {
      expectError(await main.call("exportMyData", args), 400, "invalid_input", field);
    }
  });

  it("unknown arguments, bad values and reversed ranges are 400 as in the list tools", async () => {
    expectError(await main.call("exportMyData", {}), 400, "invalid_input", "dataset");
    expectError(await main.call("exportMyData", { dataset: "games" }), 400, "invalid_input", "dataset");
    expectError(await main.call("exportMyData", { dataset: "library", format: "ndjson" }), 400, "invalid_input", "format");
    expectError(await main.call("exportMyData", { dataset: "library", fields: [] }), 400, "invalid_input", "fields");
    expectError(
      await main.call("exportMyData", { dataset: "library", buyDateFrom: "2024-02-01", buyDateTo: "2024-01-01" }),
      400,
      "invalid_input",
      "buyDateTo",
    );
    expectError(
      await main.call("exportMyData", { dataset: "wishlist", priorityFrom: 4, priorityTo: 2 }),
      400,
      "invalid_input",
      "priorityTo",
    );
    expectError(await main.call("exportMyData", { dataset: "library", title: "x".repeat(31) }), 400, "invalid_input", "title");
  });
});

describe("exportMyData: downloading the file (end to end)", () => {
  const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());
  const utf8 = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true, fatal: true }).decode(bytes);

  it("csv: BOM, a header row equal to columns, one line per row, Japanese text intact", async () => {
    const { body, rows } = await exportOf(main, { dataset: "library", format: "csv", sortBy: "title", sortOrder: "asc" });
    const response = await fetchLink(body.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
    const bytes = await bytesOf(response);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = utf8(bytes)
      .slice(1)
      .split("\r\n")
      .filter((line) => line !== "");
    expect(lines[0]).toBe(body.columns.join(","));
    expect(lines).toHaveLength(1 + body.rowCount);
    const titleAt = body.columns.indexOf("gameTitle");
    expect(lines.slice(1).map((line) => line.split(",")[titleAt])).toEqual(column(rows, "gameTitle"));
    const a = lines.find((line) => line.startsWith(`${A},`))!;
    expect(a).toContain("ヘリオスの冒険");
    expect(a).toContain("ヘリオス書店");
    expect(a).toContain(`箱あり | ${OWN}`);
  });

  it("json: the columns and exactly the rows openMyDataSource gives, Japanese text intact", async () => {
    const { body, rows } = await exportOf(main, { dataset: "playRecords", includeHistory: true });
    const response = await fetchLink(body.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const file = JSON.parse(utf8(await bytesOf(response)));
    expect(file).toMatchObject({ dataset: "playRecords", format: "json", columns: body.columns });
    expect(file.rows).toEqual(rows);
    expect(file.rows.find((row: ExportRow) => row.playId === main.play.Aold)).toMatchObject({
      gameTitle: "ヘリオスの冒険",
      consoleName: "ヘリオス本体一号",
    });
  });

  it("a link of a lowered plan's dataset is refused at download (403 plan_required naming dataset)", async () => {
    const light = await newAccount({ plan: "LIGHT" });
    ok(await light.call("addConsole", { name: "ヘリオス互換機" }));
    const { url } = ok(await light.call("exportMyData", { dataset: "consoles", format: "csv" }));
    ok(await admin("PATCH", `/users/${light.userId}`, { plan: "FREE" }));
    const response = await fetchLink(url);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "plan_required", field: "dataset" });
  });
});
