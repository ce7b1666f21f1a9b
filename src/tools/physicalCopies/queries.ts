import { type SQL, sql } from "drizzle-orm";
import { type Db, guardStatement, runGuarded } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { newId, newRevision } from "../../platform/ids";
import { placeKey } from "../../platform/normalize";
import type { EntryValues } from "../library/queries";
import type { CopyRow } from "./copy";

/** A copy's own values: the purchase data a library entry also has, plus its quantity. */
export interface CopyValues extends Omit<EntryValues, "userLinks"> {
  quantity: number;
}

export interface NewCopy extends CopyValues {
  id: string;
  isActive: boolean;
}

export const newCopy = (values: CopyValues, isActive: boolean): NewCopy => ({ ...values, id: newId("phy"), isActive });

export const copyValuesOf = (row: CopyRow): CopyValues => ({
  quantity: row.quantity,
  rating: row.rating,
  buyDate: row.buy_date,
  buyPrice: row.buy_price,
  buyPlace: row.buy_place,
  memo: row.memo,
  attributeIds: JSON.parse(row.attribute_ids),
});

/** The copies of one game, oldest first (rowid keeps the order of copies created in one call). */
export async function listCopies(db: Db, userId: string, gameId: number): Promise<CopyRow[]> {
  return db.all<CopyRow>(sql`SELECT * FROM physical_copies WHERE user_id = ${userId} AND game_id = ${gameId} ORDER BY created_at, rowid`);
}

export async function findCopy(db: Db, userId: string, physicalId: string): Promise<CopyRow | undefined> {
  const [row] = await db.all<CopyRow>(sql`SELECT * FROM physical_copies WHERE user_id = ${userId} AND id = ${physicalId}`);
  return row;
}

export const insertCopySql = (userId: string, gameId: number, copy: NewCopy, now: string) => sql`
  INSERT INTO physical_copies (id, user_id, game_id, quantity, is_active, rating, buy_date, buy_price, buy_place, memo, attribute_ids, edition_kind, created_at, updated_at)
  VALUES (${copy.id}, ${userId}, ${gameId}, ${copy.quantity}, ${copy.isActive ? 1 : 0}, ${copy.rating}, ${copy.buyDate}, ${copy.buyPrice},
    ${copy.buyPlace}, ${copy.memo}, ${JSON.stringify(copy.attributeIds)}, 'base', ${now}, ${now})`;

export const updateCopySql = (userId: string, physicalId: string, values: CopyValues, now: string) => sql`
  UPDATE physical_copies SET quantity = ${values.quantity}, rating = ${values.rating}, buy_date = ${values.buyDate},
    buy_price = ${values.buyPrice}, buy_place = ${values.buyPlace}, memo = ${values.memo},
    attribute_ids = ${JSON.stringify(values.attributeIds)}, updated_at = ${now}
  WHERE user_id = ${userId} AND id = ${physicalId}`;

/** Makes one copy (or none, with null) the representative of its game. */
export const setActiveSql = (userId: string, gameId: number, physicalId: string | null) => sql`
  UPDATE physical_copies SET is_active = (id = ${physicalId}) WHERE user_id = ${userId} AND game_id = ${gameId}`;

export const deleteCopiesSql = (userId: string, gameId: number) =>
  sql`DELETE FROM physical_copies WHERE user_id = ${userId} AND game_id = ${gameId}`;

export const deleteCopySql = (userId: string, physicalId: string) =>
  sql`DELETE FROM physical_copies WHERE user_id = ${userId} AND id = ${physicalId}`;

/**
 * The library entry's revision is the whole game's revision: every copy write moves it. With
 * `sync`, the entry takes the representative copy's purchase data, rating, memo and attributes.
 */
export function touchLibrarySql(userId: string, gameId: number, revision: string, now: string, sync?: CopyValues): SQL {
  const synced = sync
    ? sql`rating = ${sync.rating}, buy_date = ${sync.buyDate}, buy_price = ${sync.buyPrice}, buy_place = ${sync.buyPlace},
        buy_place_key = ${placeKey(sync.buyPlace)},
        memo = ${sync.memo}, attribute_ids = ${JSON.stringify(sync.attributeIds)}, updated_at = ${now},`
    : sql``;
  return sql`UPDATE library_entries SET ${synced} revision = ${revision} WHERE user_id = ${userId} AND game_id = ${gameId}`;
}

export const notInLibrary = (gameId: number) => notFound(`Game ${gameId} in your library (add it with addToLibrary first)`);

export const revisionConflict = () =>
  new ApiError("revision_conflict", "The game's copies changed since that revision; read getPhysicalCopies again and resend.", {
    field: "revision",
  });

/**
 * Runs a copy write as one batch that only commits while the library entry still has the
 * revision the caller read; returns the entry's new revision. A broken batch is 409, or 404 when
 * the game left the library meanwhile.
 */
export async function writeCopies(
  db: Db,
  target: { userId: string; gameId: number; expectedRevision: string },
  statements: SQL[],
  touch: { now: string; sync?: CopyValues },
): Promise<string> {
  const revision = newRevision();
  const { userId, gameId, expectedRevision } = target;
  const broken = new Error("copy write guard");
  await runGuarded(
    db,
    [
      guardStatement(
        sql`EXISTS (SELECT 1 FROM library_entries WHERE user_id = ${userId} AND game_id = ${gameId} AND revision = ${expectedRevision})`,
      ),
      ...statements,
      touchLibrarySql(userId, gameId, revision, touch.now, touch.sync),
    ],
    () => broken,
  ).catch(async (error: unknown) => {
    if (error !== broken) throw error;
    const [entry] = await db.all(sql`SELECT 1 FROM library_entries WHERE user_id = ${userId} AND game_id = ${gameId}`);
    throw entry ? revisionConflict() : notInLibrary(gameId);
  });
  return revision;
}
