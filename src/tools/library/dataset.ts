import { sql } from "drizzle-orm";
import { z } from "zod";
import { libraryEntries, physicalCopies, playLogs, playRecords } from "../../db/schema";
import { ALL_PLANS } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { roomLeft } from "../../platform/registeredLimits";
import { positiveId, text } from "../../platform/schemas";
import { attributeLabels } from "../attributes/queries";
import { pick } from "../shared/cascade";
import { countOfUser, defineDataset, lastChange, listOf, restoredTimes } from "../shared/datasets";
import { Decisions, type RestoreContext, type StagedRow } from "../shared/decisions";
import { latestPlays } from "../shared/dependentRecords";
import { GAME_COLUMNS, listToolArgs, personalColumns, rowOf, userListQuery } from "../shared/exportDataset";
import { attributeResolver, decidedWithin, limitMessage, orNull, timesOf } from "../shared/restore";
import { forgetIdsSql, gameRowsContext, unseenGame } from "../shared/restoreReads";
import { deleteWishSql } from "../wishlist/queries";
import { type EntryRow, entryFieldArgs, userLink } from "./items";
import {
  insertEntrySql,
  LIBRARY,
  LIBRARY_COUNTER,
  LIBRARY_SORTS,
  type LibraryFilters,
  libraryConditions,
  libraryFilterArgs,
} from "./queries";
import { libraryEntriesRemovalSql } from "./removal";

const columns = [
  "gameId",
  ...GAME_COLUMNS,
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
] as const;

const rowSchema = z.object({
  gameId: positiveId,
  rating: entryFieldArgs.rating.nullish(),
  buyDate: entryFieldArgs.buyDate.nullish(),
  buyPrice: entryFieldArgs.buyPrice.nullish(),
  buyPlace: entryFieldArgs.buyPlace.nullish(),
  memo: entryFieldArgs.memo.nullish(),
  userLinks: listOf(userLink, 20),
  attributes: listOf(text(40), 20),
  ...restoredTimes,
});

/** Library entries: a game already in the library is kept as it is; a restored entry takes the game off the wishlist. */
async function restoreLibrary(ctx: RestoreContext, rows: StagedRow<z.output<typeof rowSchema>>[]) {
  const { userId, now, gameIds, visible, owned } = await gameRowsContext(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const [room, resolve] = await Promise.all([
    roomLeft(ctx.db, ctx, LIBRARY_COUNTER),
    attributeResolver(
      ctx,
      rows.flatMap((r) => r.d.attributes),
    ),
  ]);
  const d = new Decisions();
  let left = room;
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    if (unseenGame(d, r, row.gameId, visible, gameId)) continue;
    if (owned.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is already in your library; kept as it is.`);
    else if (left <= 0) d.fail(r, "gameId", "plan_limit", limitMessage(ctx.plan, "library"));
    else {
      const attributeIds = resolve(d, r, row.attributes);
      if (attributeIds === null) continue;
      owned.add(gameId);
      left--;
      const values = { ...orNull(row, ["rating", "buyDate", "buyPrice", "buyPlace", "memo"]), userLinks: row.userLinks, attributeIds };
      d.add(insertEntrySql(userId, gameId, values, now, timesOf(row, now)), deleteWishSql(userId, gameId));
    }
  }
  return decidedWithin(ctx, d, LIBRARY_COUNTER);
}

/** One row per owned game: getLibrary's filters and sorts, through getLibrary's own builders. */
export const libraryDataset = defineDataset({
  export: {
    name: "library",
    plans: ALL_PLANS,
    ...listToolArgs(libraryFilterArgs, LIBRARY_SORTS),
    columns,
    async query({ db, userId }, args: LibraryFilters, order) {
      const [where, labels] = await Promise.all([libraryConditions(db, userId, args), attributeLabels(db, userId)]);
      return userListQuery<EntryRow>(LIBRARY, where, order!, async (rows) => {
        const plays = await latestPlays(
          db,
          userId,
          rows.map((row) => row.game_id),
        );
        return rows.map((row) => {
          const play = plays.get(row.game_id);
          return rowOf(columns, {
            ...personalColumns(row, labels),
            rating: row.rating,
            buyDate: row.buy_date,
            buyPrice: row.buy_price,
            buyPlace: row.buy_place,
            latestPlayId: play?.playId,
            latestPlayStatus: play?.status,
          });
        });
      });
    },
  },
  rowSchema,
  restore: restoreLibrary,
  removal: (userId, now) => ({
    counts: {
      entries: countOfUser(libraryEntries, userId),
      plays: countOfUser(playRecords, userId),
      logs: countOfUser(playLogs, userId),
      copies: countOfUser(physicalCopies, userId),
    },
    revision: sql`${lastChange(libraryEntries, userId)} || ${lastChange(playRecords, userId)}`,
    statements: [...libraryEntriesRemovalSql(userId, pick.all, now), forgetIdsSql(userId, ["play", "log"])],
    describe: (c) =>
      `${counted(c.entries ?? 0, "library entry", "library entries")} with their ${counted(c.plays ?? 0, "play record")}, ${counted(c.logs ?? 0, "play log")}, ${counted(c.copies ?? 0, "physical copy", "physical copies")} and tag memberships`,
  }),
});
