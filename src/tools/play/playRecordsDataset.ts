import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { playLogs, playRecords } from "../../db/schema";
import type { SortKey } from "../../platform/keyset";
import { ALL_PLANS } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { positiveId, text } from "../../platform/schemas";
import { attributeLabels } from "../attributes/queries";
import { userLink } from "../library/items";
import { countOfUser, defineDataset, lastChange, listOf, restoredTimes } from "../shared/datasets";
import { Decisions, type RestoreContext, type StagedRow } from "../shared/decisions";
import { GAME_COLUMNS, listToolArgs, personalColumns, rowOf, userListQuery } from "../shared/exportDataset";
import { attributeResolver, orNull, timesOf } from "../shared/restore";
import {
  allOwnedGuard,
  forgetIdsSql,
  inLibrary,
  mapSql,
  REISSUED,
  referencedIds,
  restoredIds,
  rowsContext,
  withLatestPlay,
} from "../shared/restoreReads";
import { EVERY_PLAY_GROUP, type PlayRow, playFieldArgs, toPlayRecord } from "./items";
import { PLAY_RECORDS, PLAY_SORTS, type PlayFilters, playConditions, playFilterArgs } from "./listQueries";
import { endLatestSql, insertPlaySql, newPlayId } from "./queries";
import { playCyclesRemovalSql } from "./removal";

/** Play records as the play list names them. */
const record = alias(playRecords, "r");

const columns = [
  "playId",
  "gameId",
  ...GAME_COLUMNS,
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
] as const;

const rowSchema = z.object({
  playId: z.string().min(1).max(60),
  gameId: positiveId,
  status: playFieldArgs.status,
  playStartDate: playFieldArgs.playStartDate.nullish(),
  playEndDate: playFieldArgs.playEndDate.nullish(),
  clearTargetDate: playFieldArgs.clearTargetDate.nullish(),
  rating: playFieldArgs.rating.nullish(),
  memo: playFieldArgs.memo.nullish(),
  userLinks: listOf(userLink, 20),
  attributes: listOf(text(40), 20),
  consoleId: playFieldArgs.consoleId.nullish(),
  // A backup made before untracked time existed has none; totalPlayTime is derived, so it is not read back.
  untrackedPlayTime: playFieldArgs.untrackedPlayTime.nullish().transform((minutes) => minutes ?? 0),
  isLatest: z
    .boolean()
    .nullish()
    .transform((value) => value ?? true),
  ...restoredTimes,
});

/**
 * Play records: each gets a new id (kind play in import_id_map), through which the playLogs file
 * finds it. Its game must be in the library (restore the library first); earlier cycles (history)
 * are kept on PREMIUM only; its console must be one of the user's (restored by the consoles file).
 */
async function restorePlayRecords(ctx: RestoreContext, rows: StagedRow<z.output<typeof rowSchema>>[]) {
  const { db, userId, now, gameIds, targets } = await rowsContext(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const [owned, restored, latest, consoles, resolve] = await Promise.all([
    inLibrary(db, userId, targets),
    restoredIds(
      ctx,
      REISSUED.play,
      rows.map((r) => r.d.playId),
    ),
    withLatestPlay(db, userId, targets),
    referencedIds(ctx, REISSUED.console, [...new Set(rows.flatMap((r) => (r.d.consoleId ? [r.d.consoleId] : [])))]),
    attributeResolver(
      ctx,
      rows.flatMap((r) => r.d.attributes),
    ),
  ]);
  const d = new Decisions();
  const touched: number[] = [];
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    if (restored.has(row.playId)) {
      d.exists(r, "playId", `Play record ${row.playId} was already imported (or is yours); kept as it is.`);
      continue;
    }
    if (!owned.has(gameId)) {
      d.fail(r, "gameId", "not_found", `Game ${row.gameId} is not in your library: import the library file first.`);
      continue;
    }
    if (!row.isLatest && ctx.plan !== "PREMIUM") {
      d.fail(r, "isLatest", "plan_limit", "Earlier play cycles (history) are kept on PREMIUM only.");
      continue;
    }
    if (row.isLatest && latest.has(gameId)) {
      d.exists(r, "gameId", `Game ${gameId} already has a current play record; kept as it is.`);
      continue;
    }
    const consoleId = row.consoleId ? consoles.idOf(row.consoleId) : null;
    if (consoleId !== null && ctx.plan === "FREE") {
      d.fail(r, "consoleId", "plan_limit", "Consoles are recorded on LIGHT and above.");
      continue;
    }
    if (consoleId !== null && !consoles.here.has(consoleId)) {
      d.fail(r, "consoleId", "not_found", `Console ${row.consoleId} is not one of your consoles: import the consoles file first.`);
      continue;
    }
    const attributeIds = resolve(d, r, row.attributes);
    if (attributeIds === null) continue;
    const playId = newPlayId();
    const values = {
      status: row.status,
      ...orNull(row, ["playStartDate", "playEndDate", "clearTargetDate", "rating", "memo"]),
      userLinks: row.userLinks,
      attributeIds,
      consoleId,
      untrackedPlayTime: row.untrackedPlayTime,
    };
    if (row.isLatest) latest.add(gameId);
    restored.add(row.playId);
    touched.push(gameId);
    d.add(
      ...(row.isLatest ? [endLatestSql(userId, gameId)] : []),
      insertPlaySql(userId, gameId, playId, values, now, { ...timesOf(row, now), isLatest: row.isLatest }),
      mapSql(userId, "play", row.playId, playId),
    );
  }
  if (touched.length > 0) d.statements.unshift(allOwnedGuard(userId, [...new Set(touched)]));
  return d.decided;
}

/**
 * The latest play record of each game, as getPlayRecords lists them (its filters and sorts, through
 * its own builders); with includeHistory every kept cycle, one row per record, the cycles of one
 * game oldest first where the sort ties.
 */
export const playRecordsDataset = defineDataset({
  export: {
    name: "playRecords",
    plans: ALL_PLANS,
    ...listToolArgs(playFilterArgs, PLAY_SORTS, "includeHistory"),
    columns,
    async query({ db, userId, now }, args: PlayFilters & { includeHistory?: boolean }, listOrder) {
      const history = args.includeHistory === true;
      const [where, labels] = await Promise.all([
        playConditions(db, userId, args, now, history ? "all" : "latest"),
        attributeLabels(db, userId),
      ]);
      // The list's tie-break (gameId) is unique among latest records only; cycles of a game follow in creation order.
      const order: SortKey[] = history
        ? [...listOrder!, { column: record.createdAt, direction: "asc" }, { column: record.id, direction: "asc" }]
        : listOrder!;
      return userListQuery<PlayRow>(PLAY_RECORDS, where, order, (rows) =>
        rows.map((row) =>
          // getPlayRecords' record, its game flattened into columns and its attributes as labels.
          rowOf(columns, {
            ...toPlayRecord(row, EVERY_PLAY_GROUP, labels),
            ...personalColumns(row, labels),
            consoleName: row.console_name,
          }),
        ),
      );
    },
  },
  rowSchema,
  restore: restorePlayRecords,
  removal: (userId) => ({
    counts: { plays: countOfUser(playRecords, userId), logs: countOfUser(playLogs, userId) },
    revision: lastChange(playRecords, userId),
    statements: [...playCyclesRemovalSql(userId, undefined), forgetIdsSql(userId, ["play", "log"])],
    describe: (c) => `${counted(c.plays ?? 0, "play record")} (every cycle) with their ${counted(c.logs ?? 0, "play log")}`,
  }),
});
