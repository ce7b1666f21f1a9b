import { and, count, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { gameEditions, games, identifierSuggestions as s } from "../../db/schema";
import type { Db } from "../../platform/db";
import { notFound } from "../../platform/errors";
import type { PageWindow } from "../../platform/paging";
import { holdsForm } from "../games/searchColumns";
import type { SuggestionRow } from "./items";
import type { IdentifierKind } from "./ownSuggestions";

/** What a suggestion names: the official game and, when given, one of its editions. */
export interface SuggestionTarget {
  gameId: number;
  gameEditionId: number | null;
}

/** The official game (and edition of it) a suggestion names; 404 for anything else, custom games included. */
export async function requireTarget(db: Db, target: SuggestionTarget): Promise<void> {
  const [game] = await db
    .select({ id: games.id })
    .from(games)
    .where(and(eq(games.id, target.gameId), isNull(games.ownerUserId)));
  if (!game) throw notFound(`The catalog game ${target.gameId}`);
  if (target.gameEditionId === null) return;
  const [edition] = await db
    .select({ id: gameEditions.id })
    .from(gameEditions)
    .where(and(eq(gameEditions.id, target.gameEditionId), eq(gameEditions.gameId, target.gameId)));
  if (!edition) throw notFound(`Edition ${target.gameEditionId} of game ${target.gameId}`);
}

/**
 * The official games whose master data holds the value (the game's own or an edition's), as a
 * statement selecting their ids: JANs through their indexes, model numbers by their stored forms.
 */
export function gamesHolding(kind: IdentifierKind, searchValue: string): SQL {
  if (kind === "janCode") {
    return sql`SELECT ${games.id} AS id FROM ${games} WHERE ${games.janCode} = ${searchValue} AND ${games.ownerUserId} IS NULL
      UNION SELECT ${gameEditions.gameId} FROM ${gameEditions} JOIN ${games} ON ${games.id} = ${gameEditions.gameId}
        WHERE ${gameEditions.janCode} = ${searchValue} AND ${games.ownerUserId} IS NULL`;
  }
  return sql`SELECT ${games.id} AS id FROM ${games} WHERE ${games.ownerUserId} IS NULL
    AND (${holdsForm(games.searchModel, searchValue)} OR ${holdsForm(games.searchEditionModel, searchValue)})`;
}

/** The official games holding the value, the suggested game first when it does. */
export async function holdersOf(db: Db, kind: IdentifierKind, searchValue: string): Promise<number[]> {
  const rows = await db.all<{ id: number }>(sql`SELECT id FROM (${gamesHolding(kind, searchValue)}) ORDER BY id LIMIT 10`);
  return rows.map((row) => row.id);
}

/** The start of the UTC day `now` falls in, as stored timestamps are written. */
const dayStart = (now: Date) => `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;

/** How many suggestions the user made today (UTC), whatever became of them. */
export const suggestionsToday = (userId: string, now: Date): SQL =>
  sql`SELECT count(*) FROM ${s} WHERE ${s.userId} = ${userId} AND ${s.createdAt} >= ${dayStart(now)}`;

/** The user already has an open suggestion of this kind for the game. */
export const openSuggestionOf = (userId: string, gameId: number, kind: IdentifierKind): SQL =>
  sql`EXISTS (SELECT 1 FROM ${s} WHERE ${s.userId} = ${userId} AND ${s.gameId} = ${gameId} AND ${s.kind} = ${kind} AND ${s.status} = 'open')`;

export const findSuggestion = async (db: Db, suggestionId: string): Promise<SuggestionRow | undefined> =>
  (await db.select().from(s).where(eq(s.id, suggestionId)))[0];

/** A user's suggestions, newest first. */
export async function ownSuggestionPage(db: Db, userId: string, window: PageWindow) {
  const [rows, [total]] = await Promise.all([
    db.select().from(s).where(eq(s.userId, userId)).orderBy(desc(s.createdAt), desc(s.id)).limit(window.limit).offset(window.offset),
    db.select({ n: count() }).from(s).where(eq(s.userId, userId)),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}

/** Every suggestion of a status for the operator, oldest first (the queue order). */
export async function suggestionQueue(db: Db, status: SuggestionRow["status"], offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(s).where(eq(s.status, status)).orderBy(s.createdAt, s.id).limit(limit).offset(offset),
    db.select({ n: count() }).from(s).where(eq(s.status, status)),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}
