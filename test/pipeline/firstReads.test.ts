// A read tool's first batch travels in the admission round trip (src/platform/firstReads.ts): the
// pipeline guesses it from the arguments and from who this isolate last saw behind the key. A guess
// never answers unless the handler asks for exactly those statements, and admission still decides.
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb, renderQuery } from "../../src/platform/db";
import { batchReader } from "../../src/platform/firstReads";
import { admin, newAccount, send } from "../support/harness";
import { fictionalGame, importFixture, toNdjson } from "../support/master";

// A tiny fictional master (ids 747000+, marker word リゲル).
const PLATFORM = 747001;
const GAME = 747101;

beforeAll(async () => {
  await importFixture({
    platforms: toNdjson([{ platformId: PLATFORM, name: "リゲル機", nameEn: null, shortName: null, maker: null, releaseDate: null }]),
    games: toNdjson([fictionalGame({ gameId: GAME, title: "リゲルの旅", platformId: PLATFORM })]),
  });
});

const numbered = (n: number) => sql`SELECT ${n} AS n`;

describe("batchReader", () => {
  it("answers the statements read ahead once, from what was read; anything else runs now", async () => {
    const db = createDb(env.DB);
    const read = batchReader(db, { queries: [renderQuery(numbered(1))], results: [[{ n: "read ahead" }]] });
    expect(await read([numbered(2)])).toEqual([[{ n: 2 }]]);
    expect(await read([numbered(1)])).toEqual([[{ n: "read ahead" }]]);
    expect(await read([numbered(1)])).toEqual([[{ n: 1 }]]);
  });

  it("runs now when only part of a batch, or the same text with other parameters, was read ahead", async () => {
    const db = createDb(env.DB);
    const ahead = { queries: [renderQuery(numbered(1))], results: [[{ n: "read ahead" }]] };
    expect(await batchReader(db, ahead)([numbered(1), numbered(3)])).toEqual([[{ n: 1 }], [{ n: 3 }]]);
    expect(await batchReader(db, ahead)([numbered(4)])).toEqual([[{ n: 4 }]]);
  });
});

describe("read tools read ahead with admission", () => {
  it("a key revoked after this isolate learned its user is refused and reads nothing back", async () => {
    const account = await newAccount();
    await account.call("addToLibrary", { gameId: GAME });
    expect((await account.call("getLibrary")).body.totalCount).toBe(1);
    expect((await admin("DELETE", `/keys/${account.keyId}`)).status).toBe(200);
    const refused = await account.call("getLibrary");
    expect(refused.status).toBe(401);
    expect(refused.body.items).toBeUndefined();
  });

  it("a plan changed since the isolate last saw the key answers by the plan it has now", async () => {
    const account = await newAccount({ plan: "PREMIUM" });
    await account.call("addToLibrary", { gameId: GAME });
    await account.call("addPlayRecord", { gameId: GAME });
    expect((await account.call("getPlayRecords")).body.items[0]).toHaveProperty("console");
    expect((await admin("PATCH", `/users/${account.userId}`, { plan: "FREE" })).status).toBe(200);
    const reply = await account.call("getPlayRecords");
    expect(reply.status).toBe(200);
    expect(reply.body.items[0]).not.toHaveProperty("console");
  });

  it("keeps the order of answers: a missing key before bad arguments, and bad arguments still name their field", async () => {
    const account = await newAccount();
    await account.call("getLibrary");
    const noKey = await send("/rest/v1/getLibrary", { method: "POST", body: JSON.stringify({ sortBy: "nonsense" }) });
    expect(noKey.status).toBe(401);
    const badArgument = await account.call("getLibrary", { sortBy: "nonsense" });
    expect(badArgument.status).toBe(400);
    expect(badArgument.body).toMatchObject({ code: "invalid_input", field: "sortBy" });
  });
});
