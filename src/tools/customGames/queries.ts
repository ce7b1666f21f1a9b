import { and, eq, exists, not, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { companies, games, genres, platforms } from "../../db/schema";
import { inJsonArray } from "../../platform/columns";
import { insertWithCustomId } from "../../platform/customIds";
import { type Db, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { addWithinLimit, type LimitContext, planCounter, runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { differs } from "../../platform/writes";
import { GAME_FIELD_GROUPS, toGame } from "../games/gameObject";
import { gameWriteStatements, type StoredGameRow } from "../games/gameWrites";
import { loadGameRecords, usableIds } from "../games/queries";
import { stillUsable } from "../shared/usableReferences";
import { type CustomGameFields, customRevision } from "./items";

/** The plan limit on customGames: counted here, where its rows are written. */
export const CUSTOM_GAMES_COUNTER = planCounter("customGames", games, games.ownerUserId);

const ownGame = (userId: string, gameId: number) => and(eq(games.id, gameId), eq(games.ownerUserId, userId));

/** The games columns of a custom game's fields (customGameFields). */
const FIELD_COLUMNS = {
  title: games.title,
  titleReading: games.titleReading,
  titleEn: games.titleEn,
  aliases: games.aliases,
  platformId: games.platformId,
  publisherId: games.publisherId,
  genreId: games.genreId,
  genreSubId: games.genreSubId,
  releaseDate: games.releaseDate,
  janCode: games.janCode,
  modelNumber: games.modelNumber,
  price: games.price,
} satisfies Record<keyof CustomGameFields, SQLiteColumn>;

/** The caller's custom game as stored fields; another user's is simply not found. */
export const findCustomGame = (db: Db, userId: string, gameId: number): Promise<CustomGameFields | undefined> =>
  db.select(FIELD_COLUMNS).from(games).where(ownGame(userId, gameId)).get();

export const customGameConflict = () =>
  new ApiError("revision_conflict", "The custom game changed since that revision; read it again and resend.", { field: "revision" });

/**
 * True (in SQL) while the game still holds the fields read (its revision is their hash): an
 * update writes the whole row from what it read, so it only commits while nothing changed since.
 */
const stillHolds = (userId: string, gameId: number, read: CustomGameFields) => {
  const asRead = (Object.keys(FIELD_COLUMNS) as (keyof CustomGameFields)[]).map((key) => {
    const value = read[key];
    // raw SQL: json() has no builder form. JSON columns hold the text json() makes of the array
    // (bulkWrite), so the value is put the same way.
    return [FIELD_COLUMNS[key], Array.isArray(value) ? sql`json(${JSON.stringify(value)})` : value] as const;
  });
  return exists(
    statements
      .select({ one: sql`1` })
      .from(games)
      .where(and(ownGame(userId, gameId), not(differs(asRead)))),
  );
};

/** The stored game as a Game object with every field group, for tool results. */
export async function renderCustomGame(db: Db, userId: string, gameId: number) {
  const record = (await loadGameRecords(db, userId, [gameId])).get(gameId)!;
  return toGame(record, new Set(GAME_FIELD_GROUPS));
}

const notFoundField = (field: string, id: number) =>
  new ApiError("not_found", `${field}: ${id} is not a ${field.replace(/Id$/, "")} you can use.`, { field });

/** References must exist and be official or the caller's own; a genre used as main genre must be a root. */
export async function checkCustomGameReferences(db: Db, userId: string, fields: Partial<CustomGameFields>) {
  if (fields.platformId !== undefined && !(await usableIds(db, "platforms", userId, [fields.platformId])).size) {
    throw notFoundField("platformId", fields.platformId);
  }
  if (fields.publisherId != null && !(await usableIds(db, "companies", userId, [fields.publisherId])).size) {
    throw notFoundField("publisherId", fields.publisherId);
  }
  for (const [field, rootOnly] of [
    ["genreId", true],
    ["genreSubId", false],
  ] as const) {
    const id = fields[field];
    if (id == null) continue;
    const genre = await db.select({ parentId: genres.parentId }).from(genres).where(eq(genres.id, id)).get();
    if (!genre) throw notFoundField(field, id);
    if (rootOnly && genre.parentId !== null) {
      throw new ApiError("invalid_input", `${field}: ${id} is a support genre; the main genre must be a root genre.`, { field });
    }
  }
}

const storedRow = (gameId: number, userId: string, fields: CustomGameFields, contentHash: string): StoredGameRow => ({
  ...fields,
  gameId,
  mediaId: null,
  gpsId: null,
  dbId: null,
  dbSlug: null,
  dbCoverId: null,
  editions: [],
  ownerUserId: userId,
  contentHash,
});

/**
 * The platform and publisher a write sets must still be usable when its batch runs: a custom one
 * removed since checkCustomGameReferences read it answers the same 404.
 */
export function referencesStillUsable(userId: string, fields: Partial<CustomGameFields>): WriteCondition[] {
  const conditions: WriteCondition[] = [];
  if (fields.platformId !== undefined) {
    const id = fields.platformId;
    conditions.push({ holds: stillUsable(platforms, userId, id), error: () => notFoundField("platformId", id) });
  }
  if (fields.publisherId != null) {
    const id = fields.publisherId;
    conditions.push({ holds: stillUsable(companies, userId, id), error: () => notFoundField("publisherId", id) });
  }
  return conditions;
}

/** The statements that store a new custom game under `gameId` (a plain INSERT: a taken id fails); addCustomGame and imports. */
export async function insertCustomGameStatements(
  db: Db,
  userId: string,
  gameId: number,
  fields: CustomGameFields,
): Promise<D1PreparedStatement[]> {
  return gameWriteStatements(db.$client, [storedRow(gameId, userId, fields, await customRevision(fields))], "insert");
}

/** A new custom game under a random id from the one custom-id allocator (platform/customIds.ts). */
export async function insertCustomGame(db: Db, limit: LimitContext, fields: CustomGameFields): Promise<number> {
  const { userId } = limit;
  return insertWithCustomId("games", async (gameId) =>
    addWithinLimit(
      db,
      limit,
      CUSTOM_GAMES_COUNTER,
      await insertCustomGameStatements(db, userId, gameId, fields),
      referencesStillUsable(userId, fields),
    ),
  );
}

/**
 * Stores the game's fields as read with `changes` applied, while it still holds what was read
 * (409 otherwise, 404 once removed); the references `changes` name are checked again in the batch.
 */
export async function updateCustomGame(
  db: Db,
  userId: string,
  gameId: number,
  read: CustomGameFields,
  changes: Partial<CustomGameFields>,
): Promise<string> {
  const fields = { ...read, ...changes };
  const revision = await customRevision(fields);
  // The upsert must not bring back a game removed since it was read.
  const stillThere = {
    holds: exists(statements.select({ one: sql`1` }).from(games).where(ownGame(userId, gameId))),
    error: () => notFound(`Your custom game ${gameId}`),
  };
  await runConditional(
    db,
    [stillThere, { holds: stillHolds(userId, gameId, read), error: customGameConflict }, ...referencesStillUsable(userId, changes)],
    gameWriteStatements(db.$client, [storedRow(gameId, userId, fields, revision)]),
  );
  return revision;
}

/** Each of the genres that exist, with its parent (null for a main genre). */
export async function genreParents(db: Db, genreIds: readonly number[]): Promise<Map<number, number | null>> {
  const rows = await db.select({ id: genres.id, parentId: genres.parentId }).from(genres).where(inJsonArray(genres.id, genreIds));
  return new Map(rows.map((genre) => [genre.id, genre.parentId]));
}
