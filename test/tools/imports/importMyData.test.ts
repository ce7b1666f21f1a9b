// importMyData (restore of exportMyData JSON files): upload links, staged processing through
// getImportStatus, merge and replace, plan limits, malformed files and isolation. Files are made by
// the real export tool and download face; games are a fictional master (ids 870000+, ミネルバ).
import { env, exports } from "cloudflare:workers";
import { parse as parseCsv } from "csv-parse/browser/esm/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanUpExports } from "../../../src/tools/bucketCleanup";
import { MAX_IMPORT_BYTES, STAGED_PREFIX } from "../../../src/tools/imports/jobs";
import { fetchLink, recordedUploads, uploadStillOpen } from "../../support/downloads";
import { type Account, newAccount, ORIGIN, send, textOf } from "../../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../../support/master";

const P1 = 870001;
const FIRST = 870001;
const COUNT = 130;
const gameIds = Array.from({ length: COUNT }, (_, i) => FIRST + i);

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: P1, name: "ミネルバ機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson(
      gameIds.map((id, i) => fictionalGame({ gameId: id, title: `ミネルバ物語${String(i).padStart(3, "0")}`, platformId: P1 })),
    ),
  });
}, 120_000);

type Dataset = "customGames" | "consoles" | "library" | "wishlist" | "playRecords" | "playLogs" | "tags" | "collections";
/** The documented restore order of a whole account (docs/exports-and-imports.md, Imports). */
const RESTORE_ORDER = ["customGames", "consoles", "library", "wishlist", "playRecords", "playLogs", "tags", "collections"] as const;

/** The JSON file of one dataset, through exportMyData and the download face. */
async function exportFile(account: Account, dataset: Dataset, args: Record<string, unknown> = {}): Promise<string> {
  const reply = await account.call("exportMyData", { dataset, format: "json", ...args });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const response = await fetchLink(reply.body.url);
  expect(response.status).toBe(200);
  return textOf(response);
}

const rowsOf = (file: string) => JSON.parse(file).rows as Record<string, any>[];

/** PUT to an upload link (the path of its URL, against the test Worker). */
const put = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  send(new URL(url).pathname, { method: "PUT", body, headers });

/** Starts a job, uploads the file, then calls getImportStatus until finished; answers the final status and every status seen. */
async function importFile(account: Account, file: string, args: Record<string, unknown> = {}) {
  const started = await account.call("importMyData", args);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const uploaded = await put(started.body.uploadUrl, file);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const seen = [uploaded.body];
  let status = uploaded.body;
  for (let i = 0; i < 100 && status.state === "processing"; i++) {
    const reply = await account.call("getImportStatus", { jobId: started.body.jobId });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    status = reply.body;
    seen.push(status);
  }
  return { jobId: started.body.jobId as string, status, seen };
}

/** A PREMIUM account with some of everything: entries, wishes, play records (with history) and logs. */
async function seeded(): Promise<Account> {
  const a = await newAccount({ plan: "PREMIUM" });
  expect((await a.call("addAttribute", { label: "マイラベル" })).status).toBe(200);
  for (const [i, gameId] of gameIds.slice(0, 6).entries()) {
    const added = await a.call("addToLibrary", {
      gameId,
      rating: (i % 5) + 1,
      buyDate: `2020-01-0${i + 1}`,
      buyPrice: 1000 + i,
      buyPlace: i % 2 ? "駿河屋" : null,
      memo: i === 0 ? "メモ\n二行目" : null,
      userLinks: i === 1 ? [{ name: "wiki", url: "https://example.com/w" }] : [],
      attributes: i === 2 ? ["box", "マイラベル"] : [],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }
  for (const gameId of gameIds.slice(6, 9))
    expect((await a.call("addToWishlist", { gameId, priority: 3, wishPrice: 500, memo: "ほしい" })).status).toBe(200);
  const play = await a.call("addPlayRecord", { gameId: gameIds[0], status: "PLAYING", memo: "一周目" });
  expect(play.status).toBe(200);
  expect((await a.call("addPlayLog", { playId: play.body.playId, playTime: 90, playDate: "2024-01-02", memo: "序盤" })).status).toBe(200);
  expect((await a.call("updatePlayRecord", { playId: play.body.playId, status: "COMPLETED", rating: 4 })).status).toBe(200);
  const replay = await a.call("addPlayRecord", { gameId: gameIds[0], replay: true });
  expect(replay.status).toBe(200);
  expect((await a.call("addPlayLog", { playId: replay.body.playId, playTime: 30, playDate: "2024-02-03" })).status).toBe(200);
  // Time told as a total (no sessions): exported and restored with the record.
  const other = await a.call("addPlayRecord", { gameId: gameIds[1], status: "PAUSED", untrackedPlayTime: 300 });
  expect(other.status).toBe(200);
  return a;
}

/** Rows without the ids a restore re-issues (playId, playLogId, latestPlayId), keyed for comparison. */
const comparable = (rows: Record<string, any>[], drop: string[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !drop.includes(key))));

describe("importMyData: restore of exportMyData files", () => {
  it("round trip: every dataset exported, imported into an empty account and exported again gives the same rows", async () => {
    const a = await seeded();
    const files = {
      library: await exportFile(a, "library"),
      wishlist: await exportFile(a, "wishlist"),
      playRecords: await exportFile(a, "playRecords", { includeHistory: true }),
      playLogs: await exportFile(a, "playLogs"),
    };
    const b = await newAccount({ plan: "PREMIUM" });
    for (const dataset of ["library", "wishlist", "playRecords", "playLogs"] as const) {
      const { status } = await importFile(b, files[dataset]);
      expect(status, dataset).toMatchObject({ state: "finished", finished: true, dataset, rowsFailed: 0, rowsExisting: 0 });
      expect(status.rowsAdded, dataset).toBe(rowsOf(files[dataset]).length);
    }
    const again = {
      library: await exportFile(b, "library"),
      wishlist: await exportFile(b, "wishlist"),
      playRecords: await exportFile(b, "playRecords", { includeHistory: true }),
      playLogs: await exportFile(b, "playLogs"),
    };
    expect(comparable(rowsOf(again.library), ["latestPlayId"])).toEqual(comparable(rowsOf(files.library), ["latestPlayId"]));
    expect(rowsOf(again.wishlist)).toEqual(rowsOf(files.wishlist));
    expect(comparable(rowsOf(again.playRecords), ["playId"])).toEqual(comparable(rowsOf(files.playRecords), ["playId"]));
    expect(rowsOf(again.playRecords).find((row) => row.gameId === gameIds[1])).toMatchObject({
      untrackedPlayTime: 300,
      totalPlayTime: 300,
    });
    expect(comparable(rowsOf(again.playLogs), ["playId", "playLogId"])).toEqual(
      comparable(rowsOf(files.playLogs), ["playId", "playLogId"]),
    );
    // References follow the re-issued ids: each log hangs off the record that replaced its own.
    const playIdOf = new Map(rowsOf(files.playRecords).map((row, i) => [row.playId, rowsOf(again.playRecords)[i]!.playId]));
    for (const [i, row] of rowsOf(again.playLogs).entries()) expect(row.playId).toBe(playIdOf.get(rowsOf(files.playLogs)[i]!.playId));
    const latestOf = new Map(rowsOf(again.library).map((row) => [row.gameId, row.latestPlayId]));
    for (const row of rowsOf(files.library)) expect(latestOf.get(row.gameId) === null).toBe(row.latestPlayId === null);
  });

  it("merge: the same file twice adds nothing the second time, and every existing row is reported", async () => {
    const a = await seeded();
    const file = await exportFile(a, "library");
    const b = await newAccount({ plan: "PREMIUM" });
    expect((await b.call("addToLibrary", { gameId: gameIds[3], rating: 1 })).status).toBe(200);
    const first = await importFile(b, file);
    expect(first.status).toMatchObject({ finished: true, rowsAdded: rowsOf(file).length - 1, rowsExisting: 1, rowsFailed: 0 });
    const conflict = first.status.reported.find((r: any) => r.code === "already_exists");
    const fileRow = rowsOf(file).findIndex((row) => row.gameId === gameIds[3]) + 1;
    expect(conflict).toMatchObject({ row: fileRow, column: "gameId" });
    // merge keeps what exists
    const kept = await b.call("getLibrary", { fields: "purchase" }, "GET");
    expect(kept.body.items.find((item: any) => item.gameId === gameIds[3]).rating).toBe(1);
    const second = await importFile(b, file);
    expect(second.status).toMatchObject({ finished: true, rowsAdded: 0, rowsExisting: rowsOf(file).length, rowsFailed: 0 });
    // play records and logs are idempotent through the ids they were re-issued
    const plays = await exportFile(a, "playRecords", { includeHistory: true });
    await importFile(b, plays);
    const replayed = await importFile(b, plays);
    expect(replayed.status).toMatchObject({ rowsAdded: 0, rowsExisting: rowsOf(plays).length });
  });

  it("replace is two-step: the preview says what is removed and added; confirming restores the file exactly", async () => {
    const a = await seeded();
    const file = await exportFile(a, "wishlist");
    const b = await newAccount({ plan: "PREMIUM" });
    expect((await b.call("addToWishlist", { gameId: gameIds[100], priority: 1 })).status).toBe(200);
    const started = await b.call("importMyData", { mode: "replace" });
    const uploaded = await put(started.body.uploadUrl, file);
    expect(uploaded.body).toMatchObject({ state: "awaiting_confirmation", totalRows: 3, rowsDone: 0 });
    const preview = await b.call("importMyData", { jobId: started.body.jobId });
    expect(preview.status).toBe(200);
    expect(preview.body.confirmRequired).toBe(true);
    expect(preview.body.summary).toContain("1 wishlist entry");
    expect(preview.body.summary).toContain("3 wishlist rows");
    expect((await b.call("getWishlist", {}, "GET")).body.items.map((i: any) => i.gameId)).toEqual([gameIds[100]]);
    const done = await b.call("importMyData", { jobId: started.body.jobId, confirmToken: preview.body.confirmToken });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ finished: true, rowsAdded: 3 });
    expect(rowsOf(await exportFile(b, "wishlist"))).toEqual(rowsOf(file));
    const reused = await b.call("importMyData", { jobId: started.body.jobId, confirmToken: preview.body.confirmToken });
    expect(reused.status).toBe(400);
    // tracker imports cannot replace
    expect((await b.call("importMyData", { mode: "replace", source: "grouvee" })).body.field).toBe("mode");
  });

  it("plan limits: rows past the limit are reported, not dropped silently", async () => {
    // A wishlist file of 105 rows, in the export's format (only the columns the import reads).
    const file = JSON.stringify({
      dataset: "wishlist",
      format: "json",
      columns: ["gameId", "priority"],
      rows: gameIds.slice(0, 105).map((gameId) => ({ gameId, priority: 2 })),
    });
    const free = await newAccount({ plan: "FREE" });
    const { status } = await importFile(free, file);
    expect(status).toMatchObject({ finished: true, rowsAdded: 100, rowsFailed: 5, totalRows: 105 });
    const limited = status.reported.filter((r: any) => r.code === "plan_limit");
    expect(limited.map((r: any) => r.row)).toEqual([101, 102, 103, 104, 105]);
    expect(limited[0].column).toBe("gameId");
    // a dataset above the plan is refused at upload
    const started = await free.call("importMyData", {});
    const tags = JSON.stringify({ dataset: "tags", format: "json", exportedAt: "x", columns: [], rows: [] });
    const refused = await put(started.body.uploadUrl, tags);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "plan_required", field: "dataset" });
  });

  it("malformed files are a 400 naming the row and column, and the link takes a corrected file", async () => {
    const a = await newAccount({ plan: "LIGHT" });
    const started = await a.call("importMyData", {});
    const bad = JSON.stringify({
      dataset: "library",
      format: "json",
      columns: ["gameId", "rating"],
      rows: [
        { gameId: gameIds[0], rating: 3 },
        { gameId: gameIds[1], rating: 7 },
      ],
    });
    const refused = await put(started.body.uploadUrl, bad);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "invalid_input", field: "rows[2].rating" });
    expect(refused.body.message).toContain("row 2, column rating");
    const broken = await put(started.body.uploadUrl, '{"dataset":"library","rows":[{"gameId":1},{"gameId":');
    expect(broken.status).toBe(400);
    expect(broken.body.field).toBe("rows[2]");
    const notJson = await put(started.body.uploadUrl, "gameId,rating\n1,2\n");
    expect(notJson.status).toBe(400);
    const fixed = JSON.stringify({
      dataset: "library",
      format: "json",
      columns: ["gameId", "rating"],
      rows: [
        { gameId: gameIds[0], rating: 3 },
        { gameId: 999_999, rating: 2 },
      ],
    });
    const ok = await put(started.body.uploadUrl, fixed);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ finished: true, rowsAdded: 1, rowsFailed: 1 });
    expect(ok.body.reported[0]).toMatchObject({ row: 2, column: "gameId", code: "not_found" });
    // one file per job
    expect((await put(started.body.uploadUrl, fixed)).status).toBe(409);
  });

  it("refuses a file over the documented size with 413", async () => {
    const a = await newAccount({ plan: "FREE" });
    const started = await a.call("importMyData", {});
    const declared = await put(started.body.uploadUrl, "{}", { "Content-Length": String(MAX_IMPORT_BYTES + 1) });
    expect([413, 400]).toContain(declared.status);
    const padding = " ".repeat(MAX_IMPORT_BYTES + 10);
    const streamed = await put(started.body.uploadUrl, `{"dataset":"library","rows":[]${padding}}`);
    expect(streamed.status).toBe(413);
    expect(streamed.body.code).toBe("payload_too_large");
  });

  it("isolation: another user cannot read or steer a job, and an altered link is not valid", async () => {
    const a = await newAccount({ plan: "FREE" });
    const b = await newAccount({ plan: "FREE" });
    const started = await a.call("importMyData", {});
    expect((await b.call("getImportStatus", { jobId: started.body.jobId })).status).toBe(404);
    expect((await b.call("importMyData", { jobId: started.body.jobId })).status).toBe(404);
    const url = new URL(started.body.uploadUrl);
    const [body, signature] = url.pathname.slice("/uploads/v1/".length).split(".");
    const payload = JSON.parse(atob(body!.replace(/-/g, "+").replace(/_/g, "/")));
    const swapped = btoa(JSON.stringify({ ...payload, uid: b.userId }))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    const forged = await send(`/uploads/v1/${swapped}.${signature}`, { method: "PUT", body: "{}" });
    expect(forged.status).toBe(404);
    // A download link is no upload link, and the other way round.
    const exported = await a.call("exportMyData", { dataset: "library" });
    expect(
      (await send(new URL(exported.body.url).pathname.replace("/downloads/v1/", "/uploads/v1/"), { method: "PUT", body: "{}" })).status,
    ).toBe(404);
    expect((await fetchLink(started.body.uploadUrl.replace("/uploads/v1/", "/downloads/v1/"))).status).toBe(404);
    expect((await send(url.pathname, { method: "GET" })).status).toBe(405);
    // the file lands in the link's job, never in the uploader's account
    const file = JSON.stringify({ dataset: "library", rows: [{ gameId: gameIds[5] }] });
    expect((await put(started.body.uploadUrl, file)).body).toMatchObject({ finished: true, rowsAdded: 1 });
    expect((await b.call("getLibrary", {}, "GET")).body.items).toEqual([]);
    expect((await a.call("getLibrary", {}, "GET")).body.items.map((i: any) => i.gameId)).toEqual([gameIds[5]]);
    void env;
    void ORIGIN;
  });
});

/** The ids restores re-issued for the account (import_id_map): kind -> old id -> new id. */
async function idMapsOf(account: Account): Promise<Map<string, Map<string, string>>> {
  const { results } = await env.DB.prepare("SELECT kind, old_id, new_id FROM import_id_map WHERE user_id = ?")
    .bind(account.userId)
    .all<{ kind: string; old_id: string; new_id: string }>();
  const maps = new Map<string, Map<string, string>>();
  for (const row of results) {
    if (!maps.has(row.kind)) maps.set(row.kind, new Map());
    maps.get(row.kind)!.set(row.old_id, row.new_id);
  }
  return maps;
}

/** Which kind of re-issued id each id column holds. */
const ID_COLUMNS: Record<string, string> = {
  gameId: "game",
  gameIds: "game",
  excludeGameIds: "game",
  consoleId: "console",
  tagId: "tag",
  collectionId: "collection",
  playId: "play",
  latestPlayId: "play",
  playLogId: "log",
};

/**
 * The file's rows with every re-issued id replaced by the id the restore gave it (lists of game ids
 * sorted again, as exports sort them), in a stable order: what the account must export again.
 */
function mapped(rows: Record<string, any>[], maps: Map<string, Map<string, string>>) {
  const out = rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([column, value]) => {
        const map = maps.get(ID_COLUMNS[column] ?? "");
        if (!map || value === null) return [column, value];
        const one = (id: string | number) => {
          const to = map.get(String(id));
          return to === undefined ? id : typeof id === "number" ? Number(to) : to;
        };
        return [column, Array.isArray(value) ? value.map(one).sort((x, y) => Number(x) - Number(y)) : one(value)];
      }),
    ),
  );
  return sortedRows(out);
}
const sortedRows = (rows: Record<string, any>[]) => [...rows].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));

async function finish(account: Account, status: any) {
  for (let i = 0; i < 100 && status.state === "processing"; i++) {
    const reply = await account.call("getImportStatus", { jobId: status.jobId });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    status = reply.body;
  }
  return status;
}

/** A replace job: upload, preview, confirm, then getImportStatus until finished. */
async function replaceWith(account: Account, file: string) {
  const started = await account.call("importMyData", { mode: "replace" });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const uploaded = await put(started.body.uploadUrl, file);
  expect(uploaded.body.state, JSON.stringify(uploaded.body)).toBe("awaiting_confirmation");
  const preview = await account.call("importMyData", { jobId: started.body.jobId });
  expect(preview.body.confirmRequired, JSON.stringify(preview.body)).toBe(true);
  const done = await account.call("importMyData", { jobId: started.body.jobId, confirmToken: preview.body.confirmToken });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { summary: preview.body.summary as string, status: await finish(account, done.body) };
}

async function ok(reply: Promise<{ status: number; body: any }>) {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/**
 * A PREMIUM account like the demo one: seeded()'s entries, wishes, play records with history and
 * logs, plus a custom game in the library, two consoles (one used by the custom game's play
 * records, with history and logs), a tag holding the custom game, and INDIVIDUAL, TAG and PLATFORM
 * collections.
 */
async function demoAccount() {
  const a = await seeded();
  const customId = (
    await ok(
      a.call("addCustomGame", {
        title: "ミネルバ自作ソフト",
        platformId: P1,
        titleEn: ["Minerva Homebrew"],
        aliases: ["自作"],
        releaseDate: "2024-05-01",
        price: 1200,
      }),
    )
  ).item.gameId as number;
  await ok(a.call("addToLibrary", { gameId: customId, rating: 5, memo: "自作", attributes: ["マイラベル"] }));
  const consoleId = (
    await ok(
      a.call("addConsole", {
        name: "ミネルバ本体",
        nameKana: "みねるばほんたい",
        publisherName: "ミネルバ社",
        rating: 4,
        buyDate: "2019-03-01",
        buyPrice: 20000,
        buyPlace: "秋葉原",
        memo: "初期型",
        platformPriorities: [{ platformId: P1, priority: 5 }],
      }),
    )
  ).item.consoleId as string;
  await ok(a.call("addConsole", { name: "予備機" }));
  // Maintenance logs travel inside their console's row (a done one with a memo, a planned one).
  await ok(
    a.call("addConsoleMaintenanceLog", { consoleId, title: "電池交換", status: "DONE", completedDate: "2024-03-01", memo: "CR2032" }),
  );
  await ok(a.call("addConsoleMaintenanceLog", { consoleId, title: "端子清掃", scheduledDate: "2025-01-10" }));
  const first = await ok(a.call("addPlayRecord", { gameId: customId, status: "PLAYING", consoleId }));
  await ok(a.call("addPlayLog", { playId: first.playId, playTime: 45, playDate: "2024-06-01", memo: "自作を遊ぶ" }));
  await ok(a.call("updatePlayRecord", { playId: first.playId, status: "COMPLETED" }));
  const second = await ok(a.call("addPlayRecord", { gameId: customId, replay: true }));
  await ok(a.call("updatePlayRecord", { playId: second.playId, consoleId }));
  await ok(a.call("addPlayLog", { playId: second.playId, playTime: 15, playDate: "2024-07-01" }));
  const tagId = (await ok(a.call("addTag", { name: "お気に入り", color: "#ff8800", description: "好きなもの" }))).item.tagId as number;
  await ok(a.call("addTag", { name: "空のタグ" }));
  await ok(a.call("updateTagGames", { tagId, mode: "add", gameIds: [customId, gameIds[0], gameIds[2]] }));
  await ok(a.call("addCollection", { name: "自作コンプ", type: "INDIVIDUAL", description: "自作と一本", gameIds: [customId, gameIds[1]] }));
  await ok(a.call("addCollection", { name: "タグ目標", type: "TAG", purpose: "PLAY", tagId, excludeGameIds: [gameIds[2]] }));
  await ok(
    a.call("addCollection", {
      name: "ミネルバ全部",
      type: "PLATFORM",
      platformId: P1,
      releaseDateFrom: "1990-01-01",
      excludeGameIds: [customId],
    }),
  );
  return { a, customId, consoleId, tagId };
}

/** Every dataset's file, JSON unless told (play records with history), in the restore order. */
async function exportAll(account: Account, format: "json" | "csv" = "json"): Promise<Record<Dataset, string>> {
  const files = {} as Record<Dataset, string>;
  for (const dataset of RESTORE_ORDER)
    files[dataset] = await exportFile(account, dataset, { format, ...(dataset === "playRecords" ? { includeHistory: true } : {}) });
  return files;
}

/**
 * Text a spreadsheet would run (a leading =, +, -, @, tab or CR, or a quote before one) and list
 * labels holding the list separator or a backslash, in every dataset of a demo account.
 */
async function addAwkwardText(a: Account) {
  for (const label of ["箱 | 説明書", "C:\\セーブ", "=ラベル"]) await ok(a.call("addAttribute", { label }));
  await ok(
    a.call("addToLibrary", {
      gameId: gameIds[10],
      memo: '=HYPERLINK("https://evil.example","x")',
      buyPlace: "-ショップ",
      userLinks: [{ name: "=リンク", url: "https://example.com/a|b" }],
      attributes: ["箱 | 説明書", "C:\\セーブ", "=ラベル"],
    }),
  );
  await ok(a.call("addToWishlist", { gameId: gameIds[11], memo: "@メモ", wishPlace: "+店" }));
  const play = await ok(a.call("addPlayRecord", { gameId: gameIds[10], status: "PLAYING", memo: "\t字下げ" }));
  await ok(a.call("addPlayLog", { playId: play.playId, playTime: 10, memo: "\r行頭のCR" }));
  await ok(a.call("addTag", { name: "'=引用タグ", description: "-説明" }));
  await ok(a.call("addCollection", { name: "=目標", type: "INDIVIDUAL", description: "+1", gameIds: [gameIds[10]] }));
  const awkward = (await ok(a.call("addConsole", { name: "@本体", memo: "'ただの引用" }))).item.consoleId as string;
  await ok(a.call("addConsoleMaintenanceLog", { consoleId: awkward, title: "=点検 | 分解", memo: "-メモ" }));
  await ok(a.call("addCustomGame", { title: "=自作", platformId: P1, titleEn: ["A | B", "=C"], aliases: ["\\バックスラッシュ\\"] }));
}

describe("importMyData: custom games, consoles, tags and collections", () => {
  it("merge: each restores into an empty account with new ids that later files follow; exporting again gives the same rows", async () => {
    const { a, customId } = await demoAccount();
    const files = await exportAll(a);
    const b = await newAccount({ plan: "PREMIUM" });
    for (const dataset of ["customGames", "consoles", "library", "tags", "collections"] as const) {
      const { status } = await importFile(b, files[dataset]);
      expect(status, dataset).toMatchObject({
        state: "finished",
        dataset,
        rowsFailed: 0,
        rowsExisting: 0,
        rowsAdded: rowsOf(files[dataset]).length,
      });
    }
    const maps = await idMapsOf(b);
    // One file per job: the customGames job recorded the custom game's new id, and the library, tag and collection files found it.
    const newCustom = Number(maps.get("game")!.get(String(customId)));
    expect(newCustom).toBeGreaterThanOrEqual(1_000_000_000);
    expect(newCustom).not.toBe(customId);
    expect(maps.get("console")!.size).toBe(2);
    expect(maps.get("tag")!.size).toBe(2);
    expect(maps.get("collection")!.size).toBe(3);
    for (const dataset of ["customGames", "consoles", "library", "tags", "collections"] as const) {
      const again = await exportFile(b, dataset);
      const drop = dataset === "library" ? ["latestPlayId", "latestPlayStatus"] : [];
      expect(comparable(sortedRows(rowsOf(again)), drop), dataset).toEqual(comparable(mapped(rowsOf(files[dataset]), maps), drop));
    }
    const tag = rowsOf(await exportFile(b, "tags")).find((row) => row.name === "お気に入り")!;
    expect(tag.gameIds).toContain(newCustom);
    // The same files again add nothing: every row is reported already_exists.
    for (const dataset of ["customGames", "consoles", "tags", "collections"] as const) {
      const { status } = await importFile(b, files[dataset]);
      expect(status, dataset).toMatchObject({ rowsAdded: 0, rowsExisting: rowsOf(files[dataset]).length, rowsFailed: 0 });
      expect(
        status.reported.every((r: any) => r.code === "already_exists"),
        dataset,
      ).toBe(true);
    }
  });

  it("replace: the preview names what goes; confirming leaves exactly the file's records", async () => {
    const { a } = await demoAccount();
    const files = await exportAll(a);
    const c = await newAccount({ plan: "PREMIUM" });
    const oldCustom = (await ok(c.call("addCustomGame", { title: "消える自作", platformId: P1 }))).item.gameId as number;
    await ok(c.call("addToLibrary", { gameId: oldCustom }));
    await ok(c.call("addToLibrary", { gameId: gameIds[120] }));
    const oldConsole = (await ok(c.call("addConsole", { name: "古い本体" }))).item.consoleId as string;
    await ok(c.call("addConsoleMaintenanceLog", { consoleId: oldConsole, title: "清掃", scheduledDate: "2024-01-01" }));
    const oldTag = (await ok(c.call("addTag", { name: "古いタグ" }))).item.tagId as number;
    await ok(c.call("updateTagGames", { tagId: oldTag, mode: "add", gameIds: [gameIds[120]] }));
    await ok(c.call("addCollection", { name: "古い目標", type: "INDIVIDUAL", gameIds: [gameIds[120]] }));

    const games = await replaceWith(c, files.customGames);
    expect(games.summary).toContain("1 custom game with their 1 library entry");
    expect(games.status).toMatchObject({ finished: true, rowsAdded: 1, rowsFailed: 0 });
    const consoles = await replaceWith(c, files.consoles);
    expect(consoles.summary).toContain("Removes your 1 console with their 1 maintenance log; ");
    expect(consoles.status).toMatchObject({ finished: true, rowsAdded: 2 });
    await importFile(c, files.library);
    const tags = await replaceWith(c, files.tags);
    expect(tags.summary).toContain("1 tag with their 1 game membership");
    expect(tags.status).toMatchObject({ finished: true, rowsAdded: 2 });
    const collections = await replaceWith(c, files.collections);
    expect(collections.summary).toContain("Removes your 1 collection, then adds the 3 collections rows");
    expect(collections.status).toMatchObject({ finished: true, rowsAdded: 3 });

    const maps = await idMapsOf(c);
    for (const dataset of ["customGames", "consoles", "tags", "collections"] as const) {
      expect(sortedRows(rowsOf(await exportFile(c, dataset))), dataset).toEqual(mapped(rowsOf(files[dataset]), maps));
    }
    // The old custom game went with its library entry; the official game entry stays (library was merged).
    const library = rowsOf(await exportFile(c, "library")).map((row) => row.gameId);
    expect(library).not.toContain(oldCustom);
    expect(library).toContain(gameIds[120]);
  });
});

describe("importMyData: a whole PREMIUM account", () => {
  it("every dataset exported, restored in the documented order into a fresh PREMIUM account, exports again the same (ids re-issued)", async () => {
    const { a } = await demoAccount();
    const files = await exportAll(a);
    for (const dataset of RESTORE_ORDER) expect(rowsOf(files[dataset]).length, dataset).toBeGreaterThan(0);
    const logs = rowsOf(files.consoles).flatMap((row) => row.maintenanceLogs);
    expect(logs.map((log) => [log.title, log.status, log.completedDate, log.scheduledDate, log.memo])).toEqual([
      ["電池交換", "DONE", "2024-03-01", null, "CR2032"],
      ["端子清掃", "SCHEDULED", null, "2025-01-10", null],
    ]);
    // a console used by a play record with history, and logs of both cycles
    expect(rowsOf(files.playRecords).filter((row) => row.consoleId !== null && row.custom).length).toBe(2);
    expect(rowsOf(files.playRecords).some((row) => row.isLatest === false && row.consoleId !== null)).toBe(true);
    const b = await newAccount({ plan: "PREMIUM" });
    for (const dataset of RESTORE_ORDER) {
      const { status } = await importFile(b, files[dataset]);
      expect(status, dataset).toMatchObject({
        finished: true,
        dataset,
        rowsFailed: 0,
        rowsExisting: 0,
        rowsAdded: rowsOf(files[dataset]).length,
      });
    }
    const maps = await idMapsOf(b);
    const again = await exportAll(b);
    for (const dataset of RESTORE_ORDER) {
      expect(sortedRows(rowsOf(again[dataset])), dataset).toEqual(mapped(rowsOf(files[dataset]), maps));
    }
  });
});

describe("importMyData: exportMyData's CSV files", () => {
  it("a whole PREMIUM account exported as CSV restores exactly what its JSON files hold, formula-like text and ' | ' labels included", async () => {
    const { a } = await demoAccount();
    await addAwkwardText(a);
    const json = await exportAll(a);
    const csv = await exportAll(a, "csv");
    // Nothing a spreadsheet would run, and no label that passes for the separator.
    for (const dataset of RESTORE_ORDER) {
      const cells = (parseCsv(csv[dataset], { bom: true }) as string[][]).flat();
      expect(
        cells.filter((cell) => /^[=+\-@\t\r]/.test(cell)),
        dataset,
      ).toEqual([]);
    }
    expect(csv.library).toContain(`"'=HYPERLINK(""https://evil.example"",""x"")"`);
    expect(csv.library).toContain("箱 \\| 説明書 | C:\\\\セーブ | =ラベル");
    const b = await newAccount({ plan: "PREMIUM" });
    for (const dataset of RESTORE_ORDER) {
      const { status } = await importFile(b, csv[dataset]);
      expect(status, dataset).toMatchObject({
        finished: true,
        dataset,
        rowsFailed: 0,
        rowsExisting: 0,
        rowsAdded: rowsOf(json[dataset]).length,
      });
    }
    const maps = await idMapsOf(b);
    const again = await exportAll(b);
    for (const dataset of RESTORE_ORDER) {
      expect(sortedRows(rowsOf(again[dataset])), dataset).toEqual(mapped(rowsOf(json[dataset]), maps));
    }
  }, 60_000); // two whole accounts exported in both formats and one restored: a minute on a loaded machine

  it("a CSV whose header is no exportMyData header, or with a bad cell, is a 400 naming the file or the row and column", async () => {
    const a = await newAccount({ plan: "LIGHT" });
    const started = await ok(a.call("importMyData", {}));
    const header = "gameId,rating\r\n1,2\r\n";
    expect((await put(started.uploadUrl, header)).body).toMatchObject({ code: "invalid_input", field: "file" });
    const library = rowsOf(await exportFile(await seeded(), "library"));
    const columns = Object.keys(library[0]!);
    const line = (values: Record<string, unknown>) => columns.map((column) => values[column] ?? "").join(",");
    const bad = `\uFEFF${columns.join(",")}\r\n${line({ gameId: gameIds[0], rating: 3 })}\r\n${line({ gameId: gameIds[1], rating: "high" })}\r\n`;
    expect((await put(started.uploadUrl, bad)).body).toMatchObject({ code: "invalid_input", field: "rows[2].rating" });
  });
});

describe("importMyData: plans, concurrent uploads and cleanup", () => {
  it("a PREMIUM export with history restored on FREE and LIGHT reports each history row as refused (plan_limit), none dropped silently", async () => {
    const a = await seeded();
    const plays = await exportFile(a, "playRecords", { includeHistory: true });
    const history = rowsOf(plays)
      .map((row, i) => ({ row, number: i + 1 }))
      .filter(({ row }) => row.isLatest === false);
    expect(history.length).toBeGreaterThan(0);
    const library = await exportFile(a, "library");
    for (const plan of ["FREE", "LIGHT"] as const) {
      const b = await newAccount({ plan });
      await importFile(b, library);
      const { status } = await importFile(b, plays);
      expect(status, plan).toMatchObject({
        finished: true,
        totalRows: rowsOf(plays).length,
        rowsAdded: rowsOf(plays).length - history.length,
        rowsFailed: history.length,
      });
      expect(status.rowsAdded + status.rowsExisting + status.rowsFailed).toBe(status.totalRows);
      const refused = status.reported.filter((r: any) => r.code === "plan_limit");
      expect(
        refused.map((r: any) => r.row),
        plan,
      ).toEqual(history.map((h) => h.number));
      for (const r of refused) expect(r).toMatchObject({ column: "isLatest", message: expect.stringContaining("PREMIUM") });
    }
  });

  it("two uploads to one job at once: one is accepted, the other is a 409, and the rows are written once", async () => {
    const a = await newAccount({ plan: "LIGHT" });
    const started = await ok(a.call("importMyData", {}));
    const file = JSON.stringify({ dataset: "library", rows: gameIds.slice(10, 20).map((gameId) => ({ gameId })) });
    const replies = await Promise.all([put(started.uploadUrl, file), put(started.uploadUrl, file)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = replies.find((r) => r.status === 409)!;
    expect(loser.body.code).toBe("already_exists");
    expect(loser.body.message).toContain("another upload to this link was accepted first");
    const status = await finish(a, (await a.call("getImportStatus", { jobId: started.jobId })).body);
    expect(status).toMatchObject({ finished: true, totalRows: 10, rowsAdded: 10, rowsExisting: 0 });
    expect((await a.call("getLibrary", {}, "GET")).body.totalCount).toBe(10);
    // Neither upload's staged file is left: the winner's went when the job finished, the loser's at once.
    expect((await env.EXPORTS.list({ prefix: `${STAGED_PREFIX}${started.jobId}/` })).objects).toEqual([]);
  });

  it("an upload the client breaks off mid-stream aborts its multipart upload at once, and the link takes the file again", async () => {
    const a = await newAccount({ plan: "PREMIUM" });
    const started = await ok(a.call("importMyData", { source: "generic" }));
    const stagedPrefix = `${STAGED_PREFIX}${started.jobId}/`;
    const encoder = new TextEncoder();
    const rows = encoder.encode("ミネルバ物語000,,,,,,,,,,,メモ\n".repeat(4000));
    const client = new AbortController();
    let sent = 0;
    let running: { key: string; uploadId: string } | undefined;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0)
          controller.enqueue(
            encoder.encode(
              `${["title", "platform", "janCode", "modelNumber", "buyDate", "buyPrice", "buyPlace", "status", "playStartDate", "playEndDate", "rating", "memo"].join(",")}\n`,
            ),
          );
        // Once the staged file has a 5 MiB part stored (or the file is nearly all sent), the client goes away.
        running ??= sent > 0 ? (await recordedUploads(stagedPrefix))[0] : undefined;
        if (running || sent > MAX_IMPORT_BYTES - 2 * rows.length) {
          client.abort();
          return;
        }
        controller.enqueue(rows);
        sent += rows.length;
      },
    });
    const upload = new Request(`${ORIGIN}${new URL(started.uploadUrl).pathname}`, {
      method: "PUT",
      body,
      signal: client.signal,
      duplex: "half",
    } as RequestInit);
    await expect(exports.default.fetch(upload)).rejects.toThrow();
    expect(running, "the staged file's multipart upload was running when the client went away").toBeDefined();
    // The request's staging notices the broken body and aborts; look again until it has (bounded).
    for (let i = 0; i < 200 && (await recordedUploads(stagedPrefix)).length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await recordedUploads(stagedPrefix)).toEqual([]);
    expect(await uploadStillOpen(running!)).toBe(false);
    expect((await env.EXPORTS.list({ prefix: stagedPrefix })).objects).toEqual([]);
    // Nothing was accepted: the same link takes the whole file.
    expect((await a.call("getImportStatus", { jobId: started.jobId })).body.state).toBe("awaiting_upload");
    const retried = await put(started.uploadUrl, "title\nミネルバ物語000\n");
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
  });

  it("the scheduled cleanup removes staged files of expired or abandoned jobs and keeps those a job still needs", async () => {
    const a = await newAccount({ plan: "PREMIUM" });
    const file = JSON.stringify({ dataset: "wishlist", rows: [{ gameId: gameIds[50] }] });
    // A replace job left waiting for its confirmation: its file is kept until the job expires.
    const waiting = await ok(a.call("importMyData", { mode: "replace" }));
    expect((await put(waiting.uploadUrl, file)).body.state).toBe("awaiting_confirmation");
    const waitingFiles = (await env.EXPORTS.list({ prefix: `${STAGED_PREFIX}${waiting.jobId}/` })).objects.map((o) => o.key);
    expect(waitingFiles).toHaveLength(1);
    // A finished job with a stray file (an upload that lost the race and could not delete its own).
    const done = await ok(a.call("importMyData", {}));
    expect((await put(done.uploadUrl, file)).body.finished).toBe(true);
    const stray = `${STAGED_PREFIX}${done.jobId}/stray.ndjson`;
    await env.EXPORTS.put(stray, "{}\n", { customMetadata: { expiresAt: new Date(Date.now() + 3_600_000).toISOString() } });

    const now = await cleanUpExports(env, new Date());
    expect(now.importFiles).toBeGreaterThanOrEqual(1);
    expect(await env.EXPORTS.head(stray)).toBeNull();
    expect(await env.EXPORTS.head(waitingFiles[0]!)).not.toBeNull();
    // Past the job's expiry (a day), the abandoned job's file goes too, and its job is gone for the user.
    const later = await cleanUpExports(env, new Date(Date.now() + 86_400_000 + 60_000));
    expect(later.importFiles).toBeGreaterThanOrEqual(1);
    expect(await env.EXPORTS.head(waitingFiles[0]!)).toBeNull();
  });
});
