import type { SQL } from "drizzle-orm";
import { roomLeft } from "../../platform/registeredLimits";
import { insertEntrySql, LIBRARY_COUNTER } from "../library/queries";
import type { PlayStatus } from "../play/items";
import { insertPlaySql, newPlayId } from "../play/queries";
import { Decisions, type RestoreContext, type StagedRow } from "../shared/decisions";
import { decidedWithin, limitMessage, Room } from "../shared/restore";
import { allOwnedGuard, inLibrary, onWishlist, withLatestPlay } from "../shared/restoreReads";
import { deleteWishSql, insertWishSql, WISHLIST_COUNTER } from "../wishlist/queries";
import { matchGames } from "./matching";
import type { TrackerRow } from "./rows";

/**
 * Tracker rows (an import source beside the exportMyData datasets: another service's CSV, mapped by
 * trackers.ts): each row is matched through searchGames' own search, then lands in the library (or
 * the wishlist) with a play record. They write the library, wishlist and play families' own rows.
 */

/** What the batch's matched games already are here, and the plan's room for new entries. */
async function trackerBatch(ctx: RestoreContext, d: Decisions, targets: number[]) {
  const { db, userId } = ctx;
  const [owned, wished, latest, libraryRoom, wishRoom] = await Promise.all([
    inLibrary(db, userId, targets),
    onWishlist(db, userId, targets),
    withLatestPlay(db, userId, targets),
    roomLeft(db, ctx, LIBRARY_COUNTER),
    roomLeft(db, ctx, WISHLIST_COUNTER),
  ]);
  const pastLimit = (resource: "library" | "wishlist") => (r: number) => d.fail(r, "title", "plan_limit", limitMessage(ctx.plan, resource));
  return {
    d,
    userId,
    now: ctx.now.toISOString(),
    owned,
    wished,
    latest,
    libraryRoom: new Room(libraryRoom, pastLimit("library")),
    wishRoom: new Room(wishRoom, pastLimit("wishlist")),
    /** The games of the play records the batch adds, which must be in the library when it runs. */
    played: new Set<number>(),
  };
}
type TrackerBatch = Awaited<ReturnType<typeof trackerBatch>>;

/** The row's values of these columns. */
const valuesOf = <K extends keyof TrackerRow>(row: TrackerRow, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<TrackerRow, K>;

/** A WISHLIST row: the game goes on the wishlist, unless it is in the library or already wished for. */
function wish(batch: TrackerBatch, r: number, row: TrackerRow, gameId: number) {
  const { d, userId, now, owned, wished } = batch;
  if (owned.has(gameId)) return d.exists(r, "status", `Game ${gameId} is in your library, so it cannot be wished for.`);
  if (wished.has(gameId)) return d.exists(r, "title", `Game ${gameId} is already on your wishlist; kept as it is.`);
  if (!batch.wishRoom.take(r)) return;
  wished.add(gameId);
  d.add(insertWishSql(userId, gameId, { priority: null, wishDate: null, wishPrice: null, wishPlace: row.buyPlace, memo: row.memo }, now));
}

/** Any other row: the game joins the library (leaving the wishlist) if it is not there, and gets a play record (status) if it has none. */
function ownAndPlay(batch: TrackerBatch, r: number, row: TrackerRow, gameId: number, status: PlayStatus | null) {
  const { d, userId, now, owned, latest } = batch;
  const statements: SQL[] = [];
  if (!owned.has(gameId)) {
    if (!batch.libraryRoom.take(r)) return;
    owned.add(gameId);
    const values = { ...valuesOf(row, ["rating", "buyDate", "buyPrice", "buyPlace", "memo"]), userLinks: [], attributeIds: [] };
    statements.push(insertEntrySql(userId, gameId, values, now), deleteWishSql(userId, gameId));
  }
  if (status !== null && !latest.has(gameId)) {
    latest.add(gameId);
    batch.played.add(gameId);
    // The file tells the past: a date it does not give stays unknown, never today (withStatusDates is for play happening now).
    const values = {
      ...valuesOf(row, ["playStartDate", "playEndDate", "rating"]),
      status,
      clearTargetDate: null,
      memo: null,
      userLinks: [],
      attributeIds: [],
      consoleId: null,
      untrackedPlayTime: 0,
    };
    statements.push(insertPlaySql(userId, gameId, newPlayId(), values, now));
  }
  if (statements.length === 0)
    return d.exists(r, "title", `Game ${gameId} is already in your library${status ? " with a play record" : ""}; kept as it is.`);
  d.add(...statements);
}

export async function restoreTrackerRows(ctx: RestoreContext, rows: StagedRow<TrackerRow>[]) {
  const matches = await matchGames(
    ctx.db,
    ctx.userId,
    rows.map((r) => r.d),
  );
  const d = new Decisions();
  const batch = await trackerBatch(ctx, d, [...new Set(matches.flatMap((m) => (m.kind === "matched" ? [m.gameId] : [])))]);
  for (const [i, { r, d: row }] of rows.entries()) {
    const match = matches[i]!;
    if (match.kind === "unmatched") d.fail(r, match.column, "unmatched", match.message);
    else if (match.kind === "ambiguous") d.fail(r, match.column, "ambiguous", match.message, match.candidates);
    else if (row.status === "WISHLIST") wish(batch, r, row, match.gameId);
    else ownAndPlay(batch, r, row, match.gameId, row.status);
  }
  // After the library entries the batch adds: the games of its play records must be in the library then.
  if (batch.played.size > 0) d.statements.push(allOwnedGuard(ctx.userId, [...batch.played]));
  return decidedWithin(ctx, d, LIBRARY_COUNTER, WISHLIST_COUNTER);
}
