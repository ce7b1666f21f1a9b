import { type SQL, sql } from "drizzle-orm";
import { games } from "../../db/schema";
import { insertWithCustomId } from "../../platform/customIds";
import { type Db, queryBatch } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { sha256Hex } from "../../platform/hashing";
import { addWithinLimit, type LimitContext, planCounter, runConditional, type WriteCondition } from "../../platform/registeredLimits";
import { gameWriteStatements, type StoredGameRow } from "../games/gameWrites";
import type { GameRow } from "../games/masterRows";
import { usableIds } from "../games/queries";
import { deleteEntrySql } from "../library/queries";
import { deleteCopiesSql } from "../physicalCopies/queries";
import { deleteGamePlaysSql } from "../play/queries";
import { untagGameSql } from "../tags/queries";
import { deleteWishSql } from "../wishlist/queries";

/** The plan limit on customGames: counted here, where its rows are written. */
export const CUSTOM_GAMES_COUNTER = planCounter("customGames", games, games.ownerUserId);

/** The stored fields of a custom game; its revision is their hash. */
export type CustomGameFields = Omit<GameRow, "gameId" | "editions" | "mediaId" | "gpsId" | "dbId" | "dbSlug" | "dbCoverId">;

/** Key order does not matter: the same fields always give the same revision. */
export const customGameRevision = (fields: CustomGameFields) =>
  sha256Hex(JSON.stringify(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)))).then((hash) => hash.slice(0, 16));

/** The caller's custom game as stored fields; another user's is simply not found. */
export async function findCustomGame(db: Db, userId: string, gameId: number): Promise<CustomGameFields | undefined> {
  const [row] = await db.all<Record<string, string | number | null>>(sql`
    SELECT title, title_reading, title_en, aliases, platform_id, publisher_id, genre_id, genre_sub_id, release_date,
      jan_code, model_number, price
    FROM games WHERE id = ${gameId} AND owner_user_id = ${userId}`);
  if (!row) return undefined;
  return {
    title: row.title as string,
    titleReading: row.title_reading as string | null,
    titleEn: JSON.parse(row.title_en as string),
    aliases: JSON.parse(row.aliases as string),
    platformId: row.platform_id as number,
    publisherId: row.publisher_id as number | null,
    genreId: row.genre_id as number | null,
    genreSubId: row.genre_sub_id as number | null,
    releaseDate: row.release_date as string | null,
    janCode: row.jan_code as string | null,
    modelNumber: JSON.parse(row.model_number as string),
    price: row.price as number | null,
  };
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
    const [genre] = await db.all<{ parent_id: number | null }>(sql`SELECT parent_id FROM genres WHERE id = ${id}`);
    if (!genre) throw notFoundField(field, id);
    if (rootOnly && genre.parent_id !== null) {
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
  const usable = (table: string, id: number) =>
    sql`EXISTS (SELECT 1 FROM ${sql.raw(table)} WHERE id = ${id} AND ifnull(owner_user_id, ${userId}) = ${userId})`;
  const conditions: WriteCondition[] = [];
  if (fields.platformId !== undefined) {
    const id = fields.platformId;
    conditions.push({ holds: usable("platforms", id), error: () => notFoundField("platformId", id) });
  }
  if (fields.publisherId != null) {
    const id = fields.publisherId;
    conditions.push({ holds: usable("companies", id), error: () => notFoundField("publisherId", id) });
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
  return gameWriteStatements(db.$client, [storedRow(gameId, userId, fields, await customGameRevision(fields))], "insert");
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

/** Stores the game's new fields; `changes` are the references to re-check inside the batch. */
export async function updateCustomGame(
  db: Db,
  userId: string,
  gameId: number,
  fields: CustomGameFields,
  changes: Partial<CustomGameFields> = fields,
): Promise<string> {
  const revision = await customGameRevision(fields);
  // The upsert must not bring back a game removed since it was read.
  const stillThere = {
    holds: sql`EXISTS (SELECT 1 FROM games WHERE id = ${gameId} AND owner_user_id = ${userId})`,
    error: () => notFound(`Your custom game ${gameId}`),
  };
  await runConditional(
    db,
    [stillThere, ...referencesStillUsable(userId, changes)],
    gameWriteStatements(db.$client, [storedRow(gameId, userId, fields, revision)]),
  );
  return revision;
}

/** Deletes the game and the owner's copies, play records, library and wishlist entries of it, in one batch. */
export async function deleteCustomGame(db: Db, userId: string, gameId: number, marker: SQL) {
  await queryBatch(db, [
    marker,
    deleteCopiesSql(userId, gameId),
    ...deleteGamePlaysSql(userId, gameId),
    untagGameSql(userId, gameId),
    deleteEntrySql(userId, gameId),
    deleteWishSql(userId, gameId),
    sql`DELETE FROM games WHERE id = ${gameId} AND owner_user_id = ${userId}`,
  ]);
}
