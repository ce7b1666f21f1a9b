// Play record writes under concurrency (issue 13): a replay token runs once, and writes racing
// removeFromLibrary answer their result or 404, never 500. Master rows and helpers: ./playRecordsSupport.ts.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { headStartOf, RACE_ROUNDS, race } from "../../support/race";
import { A, addLog, B, C, D, E, importPlayMaster, own, player, playIds, preview, records, started } from "./playRecordsSupport";

beforeAll(importPlayMaster);

describe("under concurrency (issue 13)", () => {
  const count = async (sql: string, ...params: unknown[]) =>
    (await env.DB.prepare(sql)
      .bind(...params)
      .first<number>("n")) ?? 0;

  it("runs a LIGHT replay token once: 15 racing confirmations replace the record once", async () => {
    const p = await player({ plan: "LIGHT" }, 4);
    for (let round = 0; round < 3; round++) {
      const gameId = [A, B, C][round]!;
      const old = await started(p, gameId, { status: "COMPLETED" });
      await addLog(p, old.playId, 30);
      const { confirmToken } = await preview(p, "addPlayRecord", { gameId, replay: true });
      const replies = await Promise.all(Array.from({ length: 15 }, () => p.call("addPlayRecord", { gameId, replay: true, confirmToken })));
      const replayed = replies.filter((r) => r.status === 200 && r.body.replayed === true);
      expect(replayed, JSON.stringify(replies.map((r) => r.body))).toHaveLength(1);
      for (const loser of replies.filter((r) => !(r.status === 200 && r.body.replayed === true))) {
        expect(loser.body, JSON.stringify(loser.body)).toMatchObject({ code: "invalid_input", field: "confirmToken" });
      }
      expect(await count("SELECT COUNT(*) AS n FROM play_records WHERE user_id = ? AND game_id = ?", p.account.userId, gameId)).toBe(1);
      expect(playIds(await records(p, { statuses: ["PLAYING"] }))).toContain(replayed[0]!.body.playId);
      expect(await count("SELECT COUNT(*) AS n FROM play_logs WHERE play_id = ?", old.playId)).toBe(0);
    }
  }, 60_000);

  it("answers addPlayRecord racing removeFromLibrary with its result or 404, never 500, and leaves no record behind", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    const statuses: number[] = [];
    // Without the library entry re-checked in the writing batch, this failed at head starts 2 and 3.
    for (let round = 0; round < RACE_ROUNDS; round++) {
      await own(p, D);
      const { confirmToken } = await preview(p, "removeFromLibrary", { gameId: D });
      const [removed, added] = await race(
        () => p.call("removeFromLibrary", { gameId: D, confirmToken }),
        () => p.call("addPlayRecord", { gameId: D }),
        headStartOf(round),
      );
      statuses.push(added.status);
      expect([200, 404], JSON.stringify(added.body)).toContain(added.status);
      if (removed.body.removed !== true) {
        expect(removed.body).toMatchObject({ confirmRequired: true, targetChanged: true });
        expect((await p.call("removeFromLibrary", { gameId: D, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
      // The game left the library: none of its play records may stay.
      expect(await count("SELECT COUNT(*) AS n FROM play_records WHERE user_id = ? AND game_id = ?", p.account.userId, D)).toBe(0);
    }
    expect(statuses).not.toContain(500);
  }, 60_000);

  it("answers updatePlayRecord racing removeFromLibrary with its result or 404, never 500", async () => {
    const p = await player({ plan: "PREMIUM" }, 5);
    // Without the record re-checked in the writing batch, this answered 409 at head start 3.
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const { playId } = await started(p, E);
      const { confirmToken } = await preview(p, "removeFromLibrary", { gameId: E });
      const [removed, updated] = await race(
        () => p.call("removeFromLibrary", { gameId: E, confirmToken }),
        () => p.call("updatePlayRecord", { playId, memo: `round ${round}` }),
        headStartOf(round),
      );
      expect([200, 404], JSON.stringify(updated.body)).toContain(updated.status);
      if (removed.body.removed !== true) {
        expect((await p.call("removeFromLibrary", { gameId: E, confirmToken: removed.body.confirmToken })).body.removed).toBe(true);
      }
    }
  }, 60_000);
});
