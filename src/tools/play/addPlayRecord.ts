import { notExists } from "drizzle-orm";
import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, twoStepResult } from "../../platform/confirm";
import { ApiError, invalidInput, notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { positiveId, text } from "../../platform/schemas";
import { lazyToday } from "../../platform/timeZones";
import { defineTool } from "../../registry/defineTool";
import { findEntry, notInLibrary, ownedSql } from "../library/queries";
import { PLAY_STATUSES, playFieldArgs, playRecordSchema } from "./items";
import { latestPlay, renderPlay } from "./listQueries";
import {
  checkedReferences,
  endLatestSql,
  forgetRemovedConsoleSql,
  insertPlaySql,
  latestCycle,
  logsOf,
  newPlayId,
  withStatusDates,
} from "./queries";
import { playRecordRemovalSql } from "./removal";

/** FREE and LIGHT take every replay value, but a replay there replaces the record: the catalog says so. */
const replayOn = (plan: "FREE" | "LIGHT") =>
  z
    .boolean()
    .describe(
      `${plan}: true replaces the current record and deletes its play logs (no history is kept); it needs the play:delete scope and a two-step confirmation: the first call answers a preview with confirmToken, send the same arguments plus confirmToken to replay.`,
    );

const hasRecord = (gameId: number) =>
  new ApiError("already_exists", `Game ${gameId} has a play record; change it with updatePlayRecord or replay.`, { field: "gameId" });

/** What a new record may be given at once (a finished playthrough in one call), by updatePlayRecord's rules. */
const { playStartDate, playEndDate, clearTargetDate, rating, attributes, untrackedPlayTime } = playFieldArgs;

const added = z.object({
  item: playRecordSchema.extend({
    playLogId: z.null().describe("Always null: a new record has no play log yet (addPlayLog records a session)."),
  }),
  replayed: z.boolean(),
  playId: z.string(),
});

export const addPlayRecord = defineTool({
  name: "addPlayRecord",
  family: "play",
  title: "プレイ記録追加",
  description:
    "Starts the play record of a game you own (PLANNED by default); a finished playthrough is one call (COMPLETED with playEndDate, rating and untrackedPlayTime for a total told without sessions). replay: true starts a new PLAYING cycle: PREMIUM keeps the earlier ones (not idempotent: check getGamePlayHistory before retrying), FREE and LIGHT replace the record and its logs (play:delete, two-step).",
  restNote: "In REST, POST /rest/v1/addPlayRecord; a FREE/LIGHT replay answers a preview with confirmToken first.",
  scopes: ["play:write"],
  plans: ALL_PLANS,
  kind: "write",
  nullIsOmission: true,
  input: z.strictObject({
    gameId: positiveId,
    status: z.enum(PLAY_STATUSES).optional().describe("Default PLANNED; with replay omit it or send PLAYING."),
    consoleId: z.string().min(1).max(40).optional().describe("One of your consoles (LIGHT and above)."),
    memo: text(2000).optional(),
    playStartDate: playStartDate.optional(),
    playEndDate: playEndDate.optional(),
    clearTargetDate: clearTargetDate.optional(),
    rating: rating.optional(),
    attributes: attributes.optional(),
    untrackedPlayTime: untrackedPlayTime.optional(),
    replay: z.boolean().optional().describe("true starts a new PLAYING cycle."),
    confirmToken: confirmTokenArg,
  }),
  output: twoStepResult(added),
  planDifferences: {
    FREE: { removedProperties: ["consoleId"], changedProperties: { replay: replayOn("FREE") } },
    LIGHT: { changedProperties: { replay: replayOn("LIGHT") } },
  },
  conflicts: ["already_exists"],
  notes: ["Without dates, PLAYING starts and COMPLETED or DROPPED ends today; null is the same as leaving a field out."],
  async handler(ctx, args) {
    const { db, auth, now } = ctx;
    const notOwned = () => notInLibrary(args.gameId);
    if (!(await findEntry(db, auth.userId, args.gameId))) throw notOwned();
    // Checked again in the batch that writes, so a record never outlives its library entry.
    const owned: WriteCondition = { holds: ownedSql(auth.userId, args.gameId), error: notOwned };
    const sentConsole = args.consoleId;
    // So are the console and attributes sent: one removed meanwhile is never written on the record.
    const references = await checkedReferences(db, auth.userId, { consoleId: sentConsole, attributes: args.attributes });
    const conditions = [owned, ...references.conditions];
    const latest = await latestPlay(db, auth.userId, args.gameId);
    const nowIso = now.toISOString();
    const today = lazyToday(db, auth.userId, now);
    const create = (status: NonNullable<typeof args.status>, consoleId: string | null) =>
      withStatusDates(
        {
          status,
          playStartDate: args.playStartDate ?? null,
          playEndDate: args.playEndDate ?? null,
          clearTargetDate: args.clearTargetDate ?? null,
          rating: args.rating ?? null,
          memo: args.memo ?? null,
          userLinks: [],
          attributeIds: references.attributeIds ?? [],
          consoleId,
          untrackedPlayTime: args.untrackedPlayTime ?? 0,
        },
        null,
        today,
      );
    const result = async (playId: string, replayed: boolean) => ({
      item: { ...(await renderPlay(db, auth.userId, playId, notOwned)), playLogId: null },
      replayed,
      playId,
    });

    if (!args.replay) {
      if (latest) throw hasRecord(args.gameId);
      const playId = newPlayId();
      const stillNone: WriteCondition = {
        holds: notExists(latestCycle(auth.userId, args.gameId)),
        error: () => hasRecord(args.gameId),
      };
      await runConditional(
        db,
        [...conditions, stillNone],
        [insertPlaySql(auth.userId, args.gameId, playId, await create(args.status ?? "PLANNED", sentConsole ?? null), nowIso)],
      );
      return result(playId, false);
    }
    if (args.status !== undefined && args.status !== "PLAYING") throw invalidInput("status", "status: a replay always starts as PLAYING.");
    if (!latest) throw notFound(`A play record of game ${args.gameId} to replay`);
    const playId = newPlayId();
    const fresh = [
      insertPlaySql(auth.userId, args.gameId, playId, await create("PLAYING", sentConsole ?? latest.console_id), nowIso),
      ...(sentConsole === undefined && latest.console_id !== null ? [forgetRemovedConsoleSql(auth.userId, playId)] : []),
    ];
    if (auth.plan === "PREMIUM") {
      await runConditional(db, conditions, [endLatestSql(auth.userId, args.gameId), ...fresh]);
      return result(playId, true);
    }
    if (!auth.scopes.has("play:delete")) {
      throw new ApiError("insufficient_scope", "On this plan a replay replaces the current record: it needs play:delete.", {
        scopes: ["play:write", "play:delete"],
      });
    }
    const logs = await logsOf(db, latest.play_id);
    return confirmTwoStep(ctx, args, {
      targetRevision: `${latest.revision}:${logs.fingerprint}`,
      summary:
        `Replaces the play record of '${latest.title}' (${latest.status}, ${latest.total_play_time} minutes) with a new PLAYING one; ` +
        `the old record (its dates, rating, memo, links and attributes) and its ${counted(logs.count, "play log")} are deleted.`,
      async execute(marker) {
        await runConditional(db, conditions, [
          marker,
          ...playRecordRemovalSql(auth.userId, args.gameId, latest.play_id),
          endLatestSql(auth.userId, args.gameId),
          ...fresh,
        ]);
        return result(playId, true);
      },
    });
  },
});
