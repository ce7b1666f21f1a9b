// The download face (/downloads/v1/<token>): signed links, quota, production into R2, serving
// with Range, refunds, cleanup; and the file format writers. Links come from exportMasterData or
// straight from issueExportLink; export sources that fail or carry awkward values are given to an
// app built for the test (the real face, mounted under a test prefix).
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/app";
import { mountDownloadRoutes } from "../../../src/faces/downloads";
import { ApiError } from "../../../src/platform/errors";
import { csvCell, csvListItems, csvText, formatWriter } from "../../../src/platform/exportFormats";
import type { ExportRequest, ExportRow } from "../../../src/platform/exportSource";
import {
  ABANDONED_UPLOAD_MS,
  linkClaimKey,
  linkFileKey,
  PART_BYTES,
  removeExpiredLinkFiles,
  StreamedObjectWriter,
} from "../../../src/platform/exportStorage";
import { PLAN_LIMITS } from "../../../src/platform/plans";
import {
  EXPORT_LINK_TTL_SEC,
  type ExportLinkPayload,
  issueExportLink,
  signExportToken,
  verifyExportToken,
} from "../../../src/platform/signedLinks";
import { cleanUpExports } from "../../../src/tools/bucketCleanup";
import { DOWNLOAD_COSTS } from "../../../src/tools/exports/downloadCosts";
import { EXPORT_OPENERS, type ExportOpener } from "../../../src/tools/exports/downloads";
import { setUsedOn, usedToday } from "../../support/accounting";
import { fetchLink, fetchLinkFrom, ndjsonOf, recordedUploads, tokenOf, uploadStillOpen } from "../../support/downloads";
import { admin, newAccount, ORIGIN, textOf } from "../../support/harness";
import { insertCustomPlatform } from "../../support/master";
import { importExportsMaster } from "../../support/masterSets";

beforeAll(importExportsMaster);

const PLATFORMS_REQUEST: ExportRequest = { kind: "masterData", dataset: "platforms", format: "ndjson", args: {} };
const issueFor = (userId: string, request: ExportRequest = PLATFORMS_REQUEST, now = new Date()) =>
  issueExportLink({ env, now, origin: ORIGIN, userId }, request);

/** A PREMIUM user and a fresh link to the platforms file. */
async function platformsLink() {
  const account = await newAccount();
  const reply = await account.call("exportMasterData", { dataset: "platforms" });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return { account, url: reply.body.url as string };
}

const b64url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const payloadOf = (url: string) => {
  const body = tokenOf(url).split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0)))) as ExportLinkPayload;
};

// ---- test export sources, served by the real face under a test prefix ----

const TEST_PREFIX = "/test-downloads/v1/";
const EDGE_COLUMNS = ["id", "title", "memo", "tags", "price", "owned", "extra"];
const EDGE_ROWS: ExportRow[] = [
  { id: 1, title: "カンマ, を含む", memo: 'He said "hi"', tags: ["箱あり", "説明書あり"], price: 1980, owned: true, extra: { a: 1 } },
  { id: 2, title: "改行\nあり", memo: "CR\r\nLF", tags: [], price: null, owned: false, extra: null },
  { id: 3, title: "ドラゴンクエストIII そして伝説へ…", memo: null, tags: [{ id: "box", label: "箱" }], price: 0.5 },
];
const edgeOpener: ExportOpener = async () => ({
  columns: EDGE_COLUMNS,
  async *pages() {
    yield EDGE_ROWS.slice(0, 2);
    yield EDGE_ROWS.slice(2);
  },
});

/** A source that fails after a first page large enough to start a multipart upload. */
const failingOpener: ExportOpener = async () => ({
  columns: ["id", "memo"],
  async *pages() {
    const memo = "x".repeat(100_000);
    yield Array.from({ length: Math.ceil((PART_BYTES * 1.2) / memo.length) }, (_, id) => ({ id, memo }));
    throw new Error("D1 went away in the middle of the export");
  },
});

/** Parallel downloads of one fresh link in the concurrency tests. */
const PARALLEL = 16;

/**
 * The edge rows, each page a few D1 round trips apart (so concurrent downloads overlap their
 * productions), counting how often it is opened: how many times a file was produced.
 */
const slowOpener = Object.assign(
  async (...args: Parameters<ExportOpener>) => {
    slowOpener.opened++;
    const source = await edgeOpener(...args);
    return {
      ...source,
      async *pages() {
        for await (const page of source.pages()) {
          for (let i = 0; i < 3; i++) await env.DB.prepare("SELECT 1").first();
          yield page;
        }
      },
    };
  },
  { opened: 0 },
);

const refusingOpener: ExportOpener = async () => {
  throw new ApiError("plan_required", "This dataset needs LIGHT or above.", { upgradeUrl: "https://example.test/plan" });
};

function appWith(opener: ExportOpener) {
  const app = createApp();
  mountDownloadRoutes(app, { prefix: TEST_PREFIX, openers: { ...EXPORT_OPENERS, myData: opener } });
  return app;
}

const MY_LIBRARY: ExportRequest = { kind: "myData", dataset: "library", format: "csv", args: {} };

/** Text made of the pieces CSV cells, list separators and formulas are made of. */
const awkwardText = fc
  .array(fc.constantFrom(" | ", " ", "|", "\\", "'", "=", "+", "-", "@", "\t", "\r", "\n", ",", '"', "a", "箱"), { maxLength: 8 })
  .map((pieces) => pieces.join(""));

describe("format writers", () => {
  it("writes CSV cells: null empty, booleans as words, lists of plain values joined by ' | ', anything else as JSON", () => {
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(["箱あり", "説明書あり"])).toBe("箱あり | 説明書あり");
    expect(csvCell([1, 2])).toBe("1 | 2");
    expect(csvCell([])).toBe("");
    expect(csvCell([{ id: "box" }])).toBe('[{"id":"box"}]');
    expect(csvCell({ name: "攻略", url: "https://example.test/a,b" })).toBe('{"name":"攻略","url":"https://example.test/a,b"}');
  });

  it("neutralises text cells a spreadsheet would run (leading =, +, -, @, tab, CR) with a quote; numbers stay numbers", () => {
    expect(csvCell("=SUM(A1:A9)")).toBe("'=SUM(A1:A9)");
    expect(csvCell('=HYPERLINK("https://evil.example")')).toBe(`'=HYPERLINK("https://evil.example")`);
    expect(["+1", "-2", "@x", "\tx", "\rx"].map(csvCell)).toEqual(["'+1", "'-2", "'@x", "'\tx", "'\rx"]);
    // A quote already before such a character gets one more, so the file reads back exactly.
    expect(csvCell("'=x")).toBe("''=x");
    expect(csvCell("'quoted")).toBe("'quoted");
    expect(csvCell("2024-01-31")).toBe("2024-01-31");
    expect(csvCell(-1200)).toBe("-1200");
    expect(csvCell(["=a", "b"])).toBe("'=a | b");
    for (const text of ["=SUM(A1)", "+1", "-2", "@x", "\tx", "\rx", "'=x", "''-x", "'quoted", "plain", "2024-01-31"])
      expect(csvText(csvCell(text))).toBe(text);
    expect(csvText("")).toBeNull();
  });

  it("escapes \\ and | in list items, so a label holding ' | ' reads back as one item", () => {
    expect(csvCell(["箱 | 説明書", "C:\\saves", "a|b"])).toBe("箱 \\| 説明書 | C:\\\\saves | a\\|b");
    expect(csvListItems("箱 \\| 説明書 | C:\\\\saves | a\\|b")).toEqual(["箱 | 説明書", "C:\\saves", "a|b"]);
    expect(csvListItems("")).toEqual([]);
    fc.assert(
      fc.property(
        fc.array(awkwardText, { minLength: 1 }).filter((items) => !(items.length === 1 && items[0] === "")),
        (items) => {
          expect(csvListItems(csvCell(items))).toEqual(items);
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        awkwardText.filter((text) => text !== ""),
        (text) => {
          expect(csvText(csvCell(text))).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes RFC 4180 CSV with a BOM, CRLF, quotes doubled and awkward cells quoted", () => {
    const writer = formatWriter("csv", { dataset: "library", columns: EDGE_COLUMNS, exportedAt: "2026-11-23T00:00:00.000Z" });
    const text = writer.head() + writer.page(EDGE_ROWS.slice(0, 2)) + writer.page([]) + writer.page(EDGE_ROWS.slice(2)) + writer.tail();
    expect(text).toBe(
      "\uFEFFid,title,memo,tags,price,owned,extra\r\n" +
        '1,"カンマ, を含む","He said ""hi""",箱あり | 説明書あり,1980,true,"{""a"":1}"\r\n' +
        '2,"改行\nあり","CR\r\nLF",,,false,\r\n' +
        '3,ドラゴンクエストIII そして伝説へ…,,"[{""id"":""box"",""label"":""箱""}]",0.5,,\r\n',
    );
  });

  it("writes one JSON document with every column of every row, and NDJSON rows as given", () => {
    const meta = { dataset: "library", columns: EDGE_COLUMNS, exportedAt: "2026-11-23T00:00:00.000Z" };
    const json = formatWriter("json", meta);
    const doc = JSON.parse(json.head() + json.page(EDGE_ROWS.slice(0, 2)) + json.page(EDGE_ROWS.slice(2)) + json.tail());
    expect(doc).toMatchObject({ dataset: "library", format: "json", exportedAt: meta.exportedAt, columns: EDGE_COLUMNS });
    expect(doc.rows).toHaveLength(3);
    expect(Object.keys(doc.rows[2])).toEqual(EDGE_COLUMNS);
    expect(doc.rows[2]).toMatchObject({ owned: null, extra: null, memo: null });
    const empty = formatWriter("json", meta);
    expect(JSON.parse(empty.head() + empty.tail()).rows).toEqual([]);

    const ndjson = formatWriter("ndjson", meta);
    expect(ndjson.head() + ndjson.page([{ b: 1, a: "x" }]) + ndjson.tail()).toBe('{"b":1,"a":"x"}\n');
  });
});

describe("signed links", () => {
  it("are absolute, unguessable and verify back to their request", async () => {
    const account = await newAccount();
    const now = new Date();
    const [first, second] = [await issueFor(account.userId, MY_LIBRARY, now), await issueFor(account.userId, MY_LIBRARY, now)];
    expect(first.url.startsWith(`${ORIGIN}/downloads/v1/`)).toBe(true);
    expect(first.url).not.toBe(second.url);
    expect(first).toMatchObject({
      expiresInSec: EXPORT_LINK_TTL_SEC,
      expiresAt: new Date(Math.floor(now.getTime() / 1000) * 1000 + 900_000).toISOString(),
    });
    const verified = await verifyExportToken(env, tokenOf(first.url), now);
    expect(verified).toMatchObject({ userId: account.userId, request: MY_LIBRARY });
  });

  it.each([
    ["an altered payload", (token: string) => `${token.slice(0, 10)}${token[10] === "A" ? "B" : "A"}${token.slice(11)}`],
    ["an altered signature", (token: string) => `${token.slice(0, -2)}${token.at(-2) === "A" ? "B" : "A"}${token.at(-1)}`],
    ["no signature", (token: string) => token.split(".")[0]!],
    ["garbage", () => "not-a-token"],
    ["an extra part", (token: string) => `${token}.x`],
  ])("refuses %s with 404 not_found and charges nothing", async (_label, alter) => {
    const { account, url } = await platformsLink();
    const before = await usedToday(account.userId);
    const response = await fetchLink(`${ORIGIN}/downloads/v1/${alter(tokenOf(url))}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "not_found" });
    expect(await usedToday(account.userId)).toBe(before);
  });

  it("refuses a link moved to another user or signed with another secret (404)", async () => {
    const victim = await newAccount();
    const { url } = await platformsLink();
    const payload = payloadOf(url);
    // The same payload for another user, keeping the original signature.
    const [, signature] = tokenOf(url).split(".");
    const moved = `${b64url(JSON.stringify({ ...payload, uid: victim.userId }))}.${signature}`;
    expect((await fetchLink(`${ORIGIN}/downloads/v1/${moved}`)).status).toBe(404);
    // A well-formed link signed with a secret that is not the service's.
    const foreign = await signExportToken({ EXPORT_SIGNING_SECRET: "someone-elses-secret" }, { ...payload, uid: victim.userId });
    const response = await fetchLink(`${ORIGIN}/downloads/v1/${foreign}`);
    expect(response.status).toBe(404);
    expect(await usedToday(victim.userId)).toBe(0);
  });

  it("answers an expired link with 410 link_expired telling to request a new one, and charges nothing", async () => {
    const account = await newAccount();
    const issuedAt = new Date(Date.now() - (EXPORT_LINK_TTL_SEC + 60) * 1000);
    const link = await issueFor(account.userId, PLATFORMS_REQUEST, issuedAt);
    const response = await fetchLink(link.url);
    expect(response.status).toBe(410);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toMatchObject({ code: "link_expired", expiredAt: link.expiresAt });
    expect(body.message).toMatch(/new link/);
    expect(await usedToday(account.userId)).toBe(0);
    // Tampering is judged before expiry: an altered expired link is simply not valid.
    const altered = `${tokenOf(link.url).slice(0, -1)}${tokenOf(link.url).at(-1) === "A" ? "B" : "A"}`;
    expect((await fetchLink(`${ORIGIN}/downloads/v1/${altered}`)).status).toBe(404);
  });

  it("is a bearer link: anyone holding it downloads, and the link's user is charged", async () => {
    const { account, url } = await platformsLink();
    const before = await usedToday(account.userId);
    const response = await fetchLink(url, { headers: { Authorization: "Bearer rgc_someoneelse" } });
    expect(response.status).toBe(200);
    expect(await usedToday(account.userId)).toBe(before + DOWNLOAD_COSTS.masterData.platforms);
  });

  it("answers other methods with 405 and an unknown path with 404", async () => {
    const { url } = await platformsLink();
    const post = await fetchLink(url, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD");
    expect((await fetchLink(`${ORIGIN}/downloads/v1/`)).status).toBe(404);
  });

  it("fails as internal_error, not as a bad link, when the signing secret is not configured", async () => {
    const { url } = await platformsLink();
    const response = await fetchLinkFrom(createApp(), "/downloads/v1/", url, {}, { EXPORT_SIGNING_SECRET: undefined });
    expect(response.status).toBe(500);
  });
});

describe("downloading", () => {
  it("charges the download, serves the file with type, name, length and ETag, and serves it again from R2", async () => {
    const { account, url } = await platformsLink();
    const before = await usedToday(account.userId);
    const first = await fetchLink(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("application/x-ndjson");
    expect(first.headers.get("Content-Disposition")).toMatch(/^attachment; filename="platforms-[A-Za-z0-9_]+\.ndjson"$/);
    expect(first.headers.get("Cache-Control")).toBe("private, no-store");
    expect(first.headers.get("Accept-Ranges")).toBe("bytes");
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^".+"$/);
    const text = await textOf(first);
    expect(Number(first.headers.get("Content-Length"))).toBe(new TextEncoder().encode(text).length);
    expect(await usedToday(account.userId)).toBe(before + DOWNLOAD_COSTS.masterData.platforms);

    // The file is kept for the link: data changed since does not change a second download.
    const stored = await env.EXPORTS.head(linkFileKey(payloadOf(url).nonce));
    expect(stored?.customMetadata).toMatchObject({ expiresAt: new Date(payloadOf(url).exp * 1000).toISOString(), userId: account.userId });
    await insertCustomPlatform(account.userId, "あとから追加した機種");
    const second = await fetchLink(url);
    expect(second.status).toBe(200);
    expect(second.headers.get("ETag")).toBe(etag);
    expect(await textOf(second)).toBe(text);
    expect(await usedToday(account.userId)).toBe(before + 2 * DOWNLOAD_COSTS.masterData.platforms);
  });

  it("answers HEAD with the file's headers, free of charge", async () => {
    const { account, url } = await platformsLink();
    const before = await usedToday(account.userId);
    const head = await fetchLink(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("Content-Length"))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect(await usedToday(account.userId)).toBe(before);
    const get = await fetchLink(url);
    expect(get.headers.get("ETag")).toBe(head.headers.get("ETag"));
    expect(get.headers.get("Content-Length")).toBe(head.headers.get("Content-Length"));
  });

  it("serves byte ranges (206 with Content-Range), suffixes and open ends; 416 for none, given back", async () => {
    const { account, url } = await platformsLink();
    const whole = new Uint8Array(await (await fetchLink(url)).arrayBuffer());
    const size = whole.length;
    const etag = (await fetchLink(url, { method: "HEAD" })).headers.get("ETag")!;

    const part = await fetchLink(url, { headers: { Range: "bytes=0-9" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 0-9/${size}`);
    expect(part.headers.get("Content-Length")).toBe("10");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.slice(0, 10));

    const suffix = await fetchLink(url, { headers: { Range: "bytes=-5" } });
    expect(suffix.headers.get("Content-Range")).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(whole.slice(size - 5));

    const rest = await fetchLink(url, { headers: { Range: "bytes=10-", "If-Range": etag } });
    expect(rest.status).toBe(206);
    expect(new Uint8Array(await rest.arrayBuffer())).toEqual(whole.slice(10));

    const stale = await fetchLink(url, { headers: { Range: "bytes=10-", "If-Range": '"another-version"' } });
    expect(stale.status).toBe(200);
    expect(new Uint8Array(await stale.arrayBuffer())).toEqual(whole);

    const before = await usedToday(account.userId);
    const none = await fetchLink(url, { headers: { Range: `bytes=${size}-` } });
    expect(none.status).toBe(416);
    expect(none.headers.get("Content-Range")).toBe(`bytes */${size}`);
    expect(await usedToday(account.userId)).toBe(before);
  });

  it("serves two concurrent first downloads of one link whole and alike, each charged once", async () => {
    const { account, url } = await platformsLink();
    const before = await usedToday(account.userId);
    const [a, b] = await Promise.all([fetchLink(url), fetchLink(url)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [textA, textB] = [await textOf(a), await textOf(b)];
    expect(textA).toBe(textB);
    expect(Number(a.headers.get("Content-Length"))).toBe(new TextEncoder().encode(textA).length);
    expect(await usedToday(account.userId)).toBe(before + 2 * DOWNLOAD_COSTS.masterData.platforms);
  });

  it("produces a fresh link's file once for many parallel downloads: every one 200, byte-identical, each charged", async () => {
    for (const format of ["json", "csv"] as const) {
      const account = await newAccount();
      const link = await issueFor(account.userId, { ...MY_LIBRARY, format });
      const app = appWith(slowOpener);
      const opened = slowOpener.opened;
      const before = await usedToday(account.userId);
      const responses = await Promise.all(Array.from({ length: PARALLEL }, () => fetchLinkFrom(app, TEST_PREFIX, link.url)));
      expect(
        responses.map((response) => response.status),
        format,
      ).toEqual(responses.map(() => 200));
      const bodies = await Promise.all(responses.map(async (response) => new Uint8Array(await response.arrayBuffer())));
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      expect(new Set(responses.map((response) => response.headers.get("ETag"))).size).toBe(1);
      expect(slowOpener.opened - opened, `${format}: the file is produced once`).toBe(1);
      expect(await usedToday(account.userId)).toBe(before + PARALLEL * DOWNLOAD_COSTS.myData);
      // The claim is gone with the production; the file stays for the link.
      expect(await env.EXPORTS.head(linkClaimKey(payloadOf(link.url).nonce))).toBeNull();
      expect(await env.EXPORTS.head(linkFileKey(payloadOf(link.url).nonce))).not.toBeNull();
    }
  });

  it("serves parallel first downloads of a real export link alike, all 200, each charged", async () => {
    const account = await newAccount();
    for (const gameId of [860001, 860002, 860003]) expect((await account.call("addToLibrary", { gameId })).status).toBe(200);
    const reply = await account.call("exportMyData", { dataset: "library", format: "json" });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const before = await usedToday(account.userId);
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => fetchLink(reply.body.url)));
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    const texts = await Promise.all(responses.map((response) => response.text()));
    for (const text of texts) expect(text).toBe(texts[0]);
    expect(JSON.parse(texts[0]!).rows).toHaveLength(3);
    expect(await usedToday(account.userId)).toBe(before + PARALLEL * DOWNLOAD_COSTS.myData);
  });

  it("waits for the download that holds the claim and serves the file it stored", async () => {
    const account = await newAccount();
    const link = await issueFor(account.userId, MY_LIBRARY);
    const { nonce } = payloadOf(link.url);
    const leaseUntil = new Date(Date.now() + 60_000).toISOString();
    await env.EXPORTS.put(linkClaimKey(nonce), "", { customMetadata: { expiresAt: link.expiresAt, leaseUntil } });
    const pending = fetchLinkFrom(appWith(slowOpener), TEST_PREFIX, link.url);
    // The holder finishes a few round trips later: it stores the file, then gives its claim up.
    for (let i = 0; i < 20; i++) await env.DB.prepare("SELECT 1").first();
    await env.EXPORTS.put(linkFileKey(nonce), "made by the claim holder\r\n", { httpMetadata: { contentType: "text/csv; charset=utf-8" } });
    await env.EXPORTS.delete(linkClaimKey(nonce));
    const response = await pending;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("made by the claim holder\r\n");
  });

  it("takes over the claim of a download that died (its lease ran out) and produces the file", async () => {
    const account = await newAccount();
    const link = await issueFor(account.userId, MY_LIBRARY);
    const { nonce } = payloadOf(link.url);
    const leaseUntil = new Date(Date.now() - 1_000).toISOString();
    await env.EXPORTS.put(linkClaimKey(nonce), "", { customMetadata: { expiresAt: link.expiresAt, leaseUntil } });
    const response = await fetchLinkFrom(appWith(edgeOpener), TEST_PREFIX, link.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("カンマ, を含む");
    expect(await env.EXPORTS.head(linkClaimKey(nonce))).toBeNull();
  });

  it("answers parallel downloads whose production fails each with 503, refunded, leaving no file and no claim", async () => {
    const account = await newAccount();
    const link = await issueFor(account.userId, MY_LIBRARY);
    const before = await usedToday(account.userId);
    const app = appWith(failingOpener);
    const responses = await Promise.all(Array.from({ length: 4 }, () => fetchLinkFrom(app, TEST_PREFIX, link.url)));
    expect(responses.map((response) => response.status)).toEqual([503, 503, 503, 503]);
    expect(await usedToday(account.userId)).toBe(before);
    expect(await env.EXPORTS.head(linkFileKey(payloadOf(link.url).nonce))).toBeNull();
    expect(await env.EXPORTS.head(linkClaimKey(payloadOf(link.url).nonce))).toBeNull();
  });

  it("refuses a suspended user (403) and one over the daily quota (429), charging nothing", async () => {
    const { account, url } = await platformsLink();
    await admin("PATCH", `/users/${account.userId}`, { suspended: true });
    const before = await usedToday(account.userId);
    const suspended = await fetchLink(url);
    expect(suspended.status).toBe(403);
    expect(await suspended.json()).toMatchObject({ code: "access_suspended" });
    expect(await usedToday(account.userId)).toBe(before);
    await admin("PATCH", `/users/${account.userId}`, { suspended: false });

    await setUsedOn(account.userId, PLAN_LIMITS.PREMIUM.dailyQuota - 1);
    const over = await fetchLink(url);
    expect(over.status).toBe(429);
    expect(over.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await over.json()).toMatchObject({ code: "quota_exceeded" });
    expect(await usedToday(account.userId)).toBe(PLAN_LIMITS.PREMIUM.dailyQuota - 1);
  });

  it("writes CSV with a BOM, CRLF and quoted awkward cells, named after the dataset and the day", async () => {
    const account = await newAccount();
    const link = await issueFor(account.userId, MY_LIBRARY);
    const response = await fetchLinkFrom(appWith(edgeOpener), TEST_PREFIX, link.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="library-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    expect(text).toBe(
      "\uFEFFid,title,memo,tags,price,owned,extra\r\n" +
        '1,"カンマ, を含む","He said ""hi""",箱あり | 説明書あり,1980,true,"{""a"":1}"\r\n' +
        '2,"改行\nあり","CR\r\nLF",,,false,\r\n' +
        '3,ドラゴンクエストIII そして伝説へ…,,"[{""id"":""box"",""label"":""箱""}]",0.5,,\r\n',
    );
  });

  it("writes JSON as one document with the columns and every row", async () => {
    const account = await newAccount();
    const link = await issueFor(account.userId, { ...MY_LIBRARY, format: "json" });
    const response = await fetchLinkFrom(appWith(edgeOpener), TEST_PREFIX, link.url);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/filename="library-\d{4}-\d{2}-\d{2}\.json"/);
    const doc = (await response.json()) as Record<string, any>;
    expect(doc).toMatchObject({ dataset: "library", format: "json", columns: EDGE_COLUMNS });
    expect(doc.rows.map((row: ExportRow) => row.title)).toEqual(EDGE_ROWS.map((row) => row.title));
  });

  it("gives the charge back and answers 503 with Retry-After when the file cannot be produced, leaving no file", async () => {
    const account = await newAccount();
    const link = await issueFor(account.userId, MY_LIBRARY);
    const before = await usedToday(account.userId);
    const response = await fetchLinkFrom(appWith(failingOpener), TEST_PREFIX, link.url);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("30");
    expect(await response.json()).toMatchObject({ code: "unavailable", retryable: true });
    expect(await usedToday(account.userId)).toBe(before);
    expect(await env.EXPORTS.head(linkFileKey(payloadOf(link.url).nonce))).toBeNull();
  });

  it("passes a refusal from the source through (403 plan_required) and gives the charge back", async () => {
    const account = await newAccount({ plan: "FREE" });
    const link = await issueFor(account.userId, MY_LIBRARY);
    const response = await fetchLinkFrom(appWith(refusingOpener), TEST_PREFIX, link.url);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "plan_required" });
    expect(await usedToday(account.userId)).toBe(0);
  });
});

describe("R2 storage", () => {
  it("writes a file larger than one part through a multipart upload, byte for byte", async () => {
    const key = `exports/test/multipart-${crypto.randomUUID()}`;
    const out = new StreamedObjectWriter(env.EXPORTS, key, { httpMetadata: { contentType: "application/octet-stream" } });
    const chunk = new Uint8Array(1_000_003).map((_, i) => i % 251);
    const total = Math.ceil((PART_BYTES * 2.3) / chunk.length) * chunk.length;
    for (let written = 0; written < total; written += chunk.length) await out.write(chunk);
    const object = await out.close();
    expect(object.size).toBe(total);
    expect(object.etag).toMatch(/-3$/); // three parts
    const stored = new Uint8Array(await (await env.EXPORTS.get(key))!.arrayBuffer());
    expect(stored.length).toBe(total);
    const expectedAt = (position: number) => (position % chunk.length) % 251;
    for (const position of [0, PART_BYTES - 1, PART_BYTES, 2 * PART_BYTES + 7, total - 1])
      expect(stored[position]).toBe(expectedAt(position));
    await env.EXPORTS.delete(key);
  });

  it("records a multipart upload while it runs and forgets it once completed or aborted", async () => {
    const prefix = `exports/test/records-${crypto.randomUUID()}/`;
    const completed = new StreamedObjectWriter(env.EXPORTS, `${prefix}completed`);
    await completed.write(new Uint8Array(PART_BYTES + 1));
    const [running] = await recordedUploads(`${prefix}completed`);
    expect(running).toBeDefined();
    await completed.close();
    const aborted = new StreamedObjectWriter(env.EXPORTS, `${prefix}aborted`);
    await aborted.write(new Uint8Array(PART_BYTES + 1));
    const [abandoned] = await recordedUploads(`${prefix}aborted`);
    await aborted.abort();
    expect(await uploadStillOpen(abandoned!)).toBe(false);
    expect(await recordedUploads(prefix)).toEqual([]);
    await env.EXPORTS.delete(`${prefix}completed`);
  });

  it("the scheduled cleanup aborts the multipart upload of a writer that died, once no request can still be writing it", async () => {
    const key = `imports/test-dead-${crypto.randomUUID()}/upload.ndjson`;
    const dead = new StreamedObjectWriter(env.EXPORTS, key);
    await dead.write(new Uint8Array(PART_BYTES + 1)); // a 5 MiB part is stored; then the writer dies: no close, no abort
    const [upload] = await recordedUploads(key);
    expect(upload, "the running upload is recorded").toBeDefined();

    expect((await cleanUpExports(env, new Date())).abandonedUploads).toBe(0);
    expect(await uploadStillOpen(upload!)).toBe(true);

    const later = await cleanUpExports(env, new Date(Date.now() + ABANDONED_UPLOAD_MS + 60_000));
    expect(later.abandonedUploads).toBeGreaterThanOrEqual(1);
    expect(await uploadStillOpen(upload!)).toBe(false);
    expect(await recordedUploads(key)).toEqual([]);
    expect(await env.EXPORTS.head(key)).toBeNull();
  });

  it("removes the files of expired links and keeps the others", async () => {
    const now = new Date();
    const expired = linkFileKey(`testexpired${crypto.randomUUID().replace(/-/g, "").slice(0, 11)}`);
    const valid = linkFileKey(`testvalid${crypto.randomUUID().replace(/-/g, "").slice(0, 13)}`);
    await env.EXPORTS.put(expired, "old", { customMetadata: { expiresAt: new Date(now.getTime() - 1000).toISOString() } });
    await env.EXPORTS.put(valid, "new", { customMetadata: { expiresAt: new Date(now.getTime() + 60_000).toISOString() } });
    expect(await removeExpiredLinkFiles(env.EXPORTS, now)).toBeGreaterThanOrEqual(1);
    expect(await env.EXPORTS.head(expired)).toBeNull();
    expect(await env.EXPORTS.head(valid)).not.toBeNull();
    await env.EXPORTS.delete(valid);
  });

  it("downloads a link's file once it was produced from a link served to anyone, with the R2 contents", async () => {
    const { url } = await platformsLink();
    const text = await textOf(await fetchLink(url));
    const rows = ndjsonOf(text);
    expect(rows.length).toBeGreaterThan(0);
    const stored = await env.EXPORTS.get(linkFileKey(payloadOf(url).nonce));
    expect(await stored!.text()).toBe(text);
  });
});
