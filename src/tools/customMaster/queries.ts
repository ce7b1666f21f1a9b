import { and, count, eq, getTableName, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { collections, companies, consolePlatforms, consoles, games, platforms } from "../../db/schema";
import { insertWithCustomId } from "../../platform/customIds";
import { type Db, isUniqueViolation, queryBatch, statements } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { counted } from "../../platform/previewText";
import {
  addWithinLimit,
  type LimitContext,
  type PlanCounter,
  planCounter,
  runConditional,
  type WriteCondition,
} from "../../platform/registeredLimits";
import { customRevision } from "../customGames/items";
import { companySearchText } from "../games/masterRows";
import type { Named, PlatformFields, PublisherFields, Stored } from "./items";

/**
 * Custom platforms and publishers: rows of the master tables `platforms` and `companies` with
 * owner_user_id set. One description per kind drives every query, so both behave alike.
 */

type CustomTable = typeof platforms | typeof companies;

export interface Kind<F extends Named> {
  table: CustomTable;
  /** The plan limit the kind counts against. */
  counter: PlanCounter;
  /** The id argument's name, for errors. */
  idField: "platformId" | "companyId";
  /** How messages name the record. */
  noun: "platform" | "publisher";
  /** Field -> the table's column holding it; every field of F. */
  columns: { [K in keyof F]-?: SQLiteColumn };
  /** Columns derived from the fields (the publisher's search text). */
  derived(fields: F): Partial<CustomTable["$inferInsert"]>;
}

export const PLATFORM: Kind<PlatformFields> = {
  table: platforms,
  counter: planCounter("customPlatforms", platforms, platforms.ownerUserId),
  idField: "platformId",
  noun: "platform",
  columns: {
    name: platforms.name,
    nameEn: platforms.nameEn,
    shortName: platforms.shortName,
    maker: platforms.maker,
    releaseDate: platforms.releaseDate,
  },
  derived: () => ({}),
};

export const PUBLISHER: Kind<PublisherFields> = {
  table: companies,
  counter: planCounter("customPublishers", companies, companies.ownerUserId),
  idField: "companyId",
  noun: "publisher",
  columns: { name: companies.name, nameKana: companies.nameKana, nameEn: companies.nameEn },
  derived: (fields) => ({ searchText: companySearchText(fields) }),
};

const ownRecord = (table: CustomTable, userId: string, id: number) => and(eq(table.id, id), eq(table.ownerUserId, userId));

/** The caller's custom record; official ones and other users' are simply not found. Its revision is stored as content_hash. */
export async function findCustom<F extends Named>(db: Db, kind: Kind<F>, userId: string, id: number): Promise<Stored<F> | undefined> {
  const { table } = kind;
  const row = await db
    .select({ ...(kind.columns as Record<string, SQLiteColumn>), revision: table.contentHash })
    .from(table)
    .where(ownRecord(table, userId, id))
    .get();
  if (!row) return undefined;
  const { revision, ...fields } = row;
  return { fields: fields as unknown as F, revision };
}

export const notYours = <F extends Named>(kind: Kind<F>, id: number) => notFound(`Your custom ${kind.noun} ${id}`);

const nameTaken = <F extends Named>(kind: Kind<F>, name: string) =>
  new ApiError("already_exists", `You already have a custom ${kind.noun} named '${name}'.`, { field: "name" });

/** Name and owner form a unique index (schema.ts): a second record of that name breaks it. */
const isNameTaken = (kind: Kind<Named>, error: unknown) =>
  isUniqueViolation(error) &&
  (error as Error).message
    .concat(String((error as Error).cause ?? ""))
    .includes(`${getTableName(kind.table)}.${kind.table.ownerUserId.name}`);

/**
 * Adds a record under a random custom id (platform/customIds.ts), counting it against the plan's
 * limit in the same batch; a name the user already gave another record of the kind is a 409.
 */
export async function insertCustom<F extends Named>(
  db: Db,
  kind: Kind<F>,
  limit: LimitContext,
  fields: F,
): Promise<Stored<F> & { id: number }> {
  const { table } = kind;
  const revision = await customRevision(fields);
  try {
    const id = await insertWithCustomId(getTableName(table), (id) =>
      addWithinLimit(db, limit, kind.counter, [
        statements
          .insert(table)
          .values({ id, ...fields, ...kind.derived(fields), ownerUserId: limit.userId, contentHash: revision })
          .getSQL(),
      ]),
    );
    return { id, fields, revision };
  } catch (error) {
    if (isNameTaken(kind, error)) throw nameTaken(kind, fields.name);
    throw error;
  }
}

export const revisionConflict = <F extends Named>(kind: Kind<F>) =>
  new ApiError("revision_conflict", `The custom ${kind.noun} changed since that revision; read it again and resend.`, {
    field: "revision",
  });

/**
 * Patches a record: omitted fields are kept, null clears. The UPDATE only applies to the revision
 * it was computed from, so a concurrent writer is never overwritten with stale fields: given
 * `expected`, a changed record is a 409; without it, the patch is applied again to the new state.
 */
export async function updateCustom<F extends Named>(
  db: Db,
  kind: Kind<F>,
  userId: string,
  id: number,
  changes: Partial<F>,
  expected?: string,
): Promise<Stored<F>> {
  const { table } = kind;
  for (let attempt = 1; ; attempt++) {
    const current = await findCustom(db, kind, userId, id);
    if (!current) throw notYours(kind, id);
    if (expected !== undefined && expected !== current.revision) throw revisionConflict(kind);
    const fields = { ...current.fields, ...changes };
    const revision = await customRevision(fields);
    let changed: number;
    try {
      const result = await db
        .update(table)
        .set({ ...fields, ...kind.derived(fields), contentHash: revision })
        .where(and(ownRecord(table, userId, id), eq(table.contentHash, current.revision)));
      changed = result.meta.changes;
    } catch (error) {
      if (isNameTaken(kind, error)) throw nameTaken(kind, fields.name);
      throw error;
    }
    if (changed > 0) return { fields, revision };
    // Changed or removed between the read and the write: the next read tells which.
    if (attempt >= 3) throw revisionConflict(kind);
  }
}

/** A record a removal changes, as its preview names it. */
export interface Affected {
  id: string | number;
  name: string;
}

/** What refers to a custom platform: the owner's custom games, PLATFORM collections and consoles. */
export interface PlatformUsage {
  games: number;
  collections: number;
  /** The consoles that list it, oldest first. */
  consoles: Affected[];
}

const countOf = (db: Db, table: SQLiteTable, where: SQL | undefined) => db.select({ n: count() }).from(table).where(where);

const gamesOnPlatform = (userId: string, platformId: number) => and(eq(games.platformId, platformId), eq(games.ownerUserId, userId));
const collectionsOfPlatform = (userId: string, platformId: number) =>
  and(eq(collections.userId, userId), eq(collections.type, "PLATFORM"), eq(collections.platformId, platformId));
const consolesOfPlatform = (userId: string, platformId: number) =>
  and(
    eq(consolePlatforms.platformId, platformId),
    inArray(consolePlatforms.consoleId, statements.select({ id: consoles.id }).from(consoles).where(eq(consoles.userId, userId))),
  );

const consolesListing = (userId: string, platformId: number) =>
  and(
    eq(consoles.userId, userId),
    inArray(
      consoles.id,
      statements.select({ id: consolePlatforms.consoleId }).from(consolePlatforms).where(consolesOfPlatform(userId, platformId)),
    ),
  );

export async function platformUsage(db: Db, userId: string, platformId: number): Promise<PlatformUsage> {
  const [[gameCount], [collectionCount], consoleRows] = await db.batch([
    countOf(db, games, gamesOnPlatform(userId, platformId)),
    countOf(db, collections, collectionsOfPlatform(userId, platformId)),
    db
      .select({ id: consoles.id, name: consoles.name })
      .from(consoles)
      .where(consolesListing(userId, platformId))
      .orderBy(consoles.createdAt, consoles.id),
  ]);
  return { games: gameCount!.n, collections: collectionCount!.n, consoles: consoleRows };
}

/**
 * A platform that custom games or PLATFORM collections still use cannot go: a game needs a
 * platform, and such a collection would be left without one. 400 naming platformId.
 */
export function platformInUse(name: string, _platformId: number, usage: Pick<PlatformUsage, "games" | "collections">) {
  const users =
    [usage.games && `${usage.games} of your custom games`, usage.collections && counted(usage.collections, "collection")]
      .filter(Boolean)
      .join(" and ") || "your custom games or collections";
  return new ApiError(
    "invalid_input",
    `platformId: your custom platform '${name}' is used by ${users}; move them to another platform or remove them first.`,
    { field: "platformId", customGameCount: usage.games, collectionCount: usage.collections },
  );
}

/**
 * Removes a custom platform, dropping it from the owner's consoles (their updatedAt moves) in the
 * same batch; the batch refuses when a custom game or collection started to use it meanwhile.
 */
export async function deleteCustomPlatform(db: Db, userId: string, platformId: number, name: string, now: string, marker: SQL) {
  const unused: WriteCondition = {
    // raw SQL: a guarded batch's condition, over the builder's counts.
    holds: sql`${countOf(statements, games, gamesOnPlatform(userId, platformId))} = 0
      AND ${countOf(statements, collections, collectionsOfPlatform(userId, platformId))} = 0`,
    error: () => platformInUse(name, platformId, { games: 0, collections: 0 }),
  };
  const removal: SQL[] = [
    marker,
    statements.update(consoles).set({ updatedAt: now }).where(consolesListing(userId, platformId)).getSQL(),
    statements.delete(consolePlatforms).where(consolesOfPlatform(userId, platformId)).getSQL(),
    statements
      .delete(platforms)
      .where(ownRecord(platforms, userId, platformId))
      .getSQL(),
  ];
  try {
    await runConditional(db, [unused], removal);
  } catch (error) {
    // The batch broke because something started to use the platform: name what, as the preview would.
    if (!(error instanceof ApiError) || error.details.field !== "platformId") throw error;
    const usage = await platformUsage(db, userId, platformId);
    throw usage.games || usage.collections ? platformInUse(name, platformId, usage) : error;
  }
}

const gamesOfPublisher = (userId: string, companyId: number) => and(eq(games.publisherId, companyId), eq(games.ownerUserId, userId));

/** The owner's custom games that name the publisher, in title order. */
export const publisherGames = (db: Db, userId: string, companyId: number): Promise<Affected[]> =>
  db.select({ id: games.id, name: games.title }).from(games).where(gamesOfPublisher(userId, companyId)).orderBy(games.sortKey, games.id);

/** Removes a custom publisher and, in the same batch, clears it from the owner's custom games. */
export async function deleteCustomPublisher(db: Db, userId: string, companyId: number, marker: SQL) {
  await queryBatch(db, [
    marker,
    statements.update(games).set({ publisherId: null }).where(gamesOfPublisher(userId, companyId)).getSQL(),
    statements
      .delete(companies)
      .where(ownRecord(companies, userId, companyId))
      .getSQL(),
  ]);
}
