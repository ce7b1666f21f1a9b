// A finished playthrough in one addPlayRecord call (dates, rating, attributes, a total told
// without sessions), over REST and over MCP, with updatePlayRecord's rules; untrackedPlayTime in
// totalPlayTime, updates and the playRecords export.
import { beforeAll, describe, expect, it } from "vitest";
import { callWith, newAccount } from "../../support/harness";
import { mcpCall, mcpClient } from "../../support/mcp";
import { expectError, okAny as ok } from "../../support/replies";
import { A, addLog, B, C, importPlayMaster, own, player } from "./playRecordsSupport";

const FINISHED = {
  status: "COMPLETED",
  playStartDate: "2023-05-03",
  playEndDate: "2023-06-20",
  rating: 5,
  clearTargetDate: "2023-06-30",
  attributes: ["box"],
  untrackedPlayTime: 2520,
};

beforeAll(importPlayMaster);

describe("addPlayRecord with the record's fields", () => {
  it("records a finished game with its dates, rating, attributes and 42 hours in one REST call", async () => {
    const p = await player({}, 0);
    await own(p, A);
    const body = ok(await p.call("addPlayRecord", { gameId: A, ...FINISHED, memo: "合計42時間くらい" }));
    expect(body.item).toMatchObject({
      gameId: A,
      status: "COMPLETED",
      playStartDate: "2023-05-03",
      playEndDate: "2023-06-20",
      clearTargetDate: "2023-06-30",
      rating: 5,
      untrackedPlayTime: 2520,
      totalPlayTime: 2520,
      memo: "合計42時間くらい",
    });
    expect(body.item.attributes.map((a: { id: string }) => a.id)).toEqual(["box"]);
    // Sessions logged later add to the total; the untracked part changes through updatePlayRecord.
    await addLog(p, body.playId, 90);
    const listed = ok(await p.call("getPlayRecords", { fields: [] }));
    expect(listed.items[0]).toMatchObject({ totalPlayTime: 2610, untrackedPlayTime: 2520 });
    const lowered = ok(await p.call("updatePlayRecord", { playId: body.playId, untrackedPlayTime: 600 }));
    expect(lowered.item).toMatchObject({ totalPlayTime: 690, untrackedPlayTime: 600 });
    const cleared = ok(await p.call("updatePlayRecord", { playId: body.playId, untrackedPlayTime: 0 }));
    expect(cleared.item).toMatchObject({ totalPlayTime: 90, untrackedPlayTime: 0 });
  });

  it("records the same over MCP (SDK client), its structured result checked against the listed output schema", async () => {
    const account = await newAccount();
    const client = await mcpClient(account.apiKey);
    try {
      expect((await mcpCall(client, "addToLibrary", { gameId: B })).isError).toBe(false);
      const reply = await mcpCall(client, "addPlayRecord", { gameId: B, ...FINISHED });
      expect(reply.isError, reply.text).toBe(false);
      expect(reply.body.item).toMatchObject({ status: "COMPLETED", playEndDate: "2023-06-20", rating: 5, totalPlayTime: 2520 });
    } finally {
      await client.close();
    }
  });

  it("applies updatePlayRecord's rules: bad values are 400 naming the field, and nothing is created", async () => {
    const p = await player({}, 0);
    await own(p, A);
    expectError(await p.call("addPlayRecord", { gameId: A, rating: 6 }), 400, "invalid_input", "rating");
    expectError(await p.call("addPlayRecord", { gameId: A, playEndDate: "2023-02-30" }), 400, "invalid_input", "playEndDate");
    expectError(await p.call("addPlayRecord", { gameId: A, untrackedPlayTime: -1 }), 400, "invalid_input", "untrackedPlayTime");
    expectError(await p.call("addPlayRecord", { gameId: A, untrackedPlayTime: 1.5 }), 400, "invalid_input", "untrackedPlayTime");
    expectError(
      await p.call("addPlayRecord", { gameId: A, attributes: ["box", "そんな属性はない"] }),
      400,
      "invalid_input",
      "attributes[1]",
    );
    expect(ok(await p.call("getPlayRecords", {})).totalCount).toBe(0);
    // null is the same as leaving the field out.
    const plain = ok(await p.call("addPlayRecord", { gameId: A, rating: null, playStartDate: null }));
    expect(plain.item).toMatchObject({ status: "PLANNED", rating: null, playStartDate: null, totalPlayTime: 0, untrackedPlayTime: 0 });
  });

  it("keeps another user's games, consoles and attributes out of reach", async () => {
    const owner = await player({}, 0);
    const stranger = await player({}, 0);
    await own(owner, A);
    const consoleId = ok(await owner.call("addConsole", { name: "他人の本体" })).item.consoleId;
    const label = ok(await owner.call("addAttribute", { label: "他人のラベル" })).item.id;
    expectError(await stranger.call("addPlayRecord", { gameId: A, ...FINISHED }), 404, "not_found");
    await own(stranger, A);
    expectError(await stranger.call("addPlayRecord", { gameId: A, consoleId }), 404, "not_found", "consoleId");
    expectError(await stranger.call("addPlayRecord", { gameId: A, attributes: [label] }), 400, "invalid_input", "attributes[0]");
    expect(ok(await stranger.call("getPlayRecords", {})).totalCount).toBe(0);
  });

  it("a key without play:write is 403; FREE cannot name a console", async () => {
    const reader = await newAccount({ scopes: ["library:read", "library:write", "play:read"] });
    ok(await reader.call("addToLibrary", { gameId: C }));
    expectError(await reader.call("addPlayRecord", { gameId: C, ...FINISHED }), 403, "insufficient_scope");
    const free = await newAccount({ plan: "FREE" });
    ok(await free.call("addToLibrary", { gameId: C }));
    expectError(await free.call("addPlayRecord", { gameId: C, consoleId: "con_x" }), 403, "plan_required", "consoleId");
    expect(ok(await free.call("addPlayRecord", { gameId: C, ...FINISHED })).item.totalPlayTime).toBe(2520);
  });

  it("two calls at once for the same game: one record, the other 409", async () => {
    const account = await newAccount();
    ok(await account.call("addToLibrary", { gameId: A }));
    const second = await account.newKey(["play:write", "play:read"]);
    const replies = await Promise.all([
      account.call("addPlayRecord", { gameId: A, ...FINISHED }),
      callWith(second.apiKey, "addPlayRecord", { gameId: A, ...FINISHED, untrackedPlayTime: 60 }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const listed = ok(await account.call("getPlayRecords", { fields: [] }));
    expect(listed.totalCount).toBe(1);
    expect([2520, 60]).toContain(listed.items[0].totalPlayTime);
  });
});
