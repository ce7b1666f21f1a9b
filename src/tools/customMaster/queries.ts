import { type SQL, sql } from "drizzle-orm";
import { companies, platforms } from "../../db/schema";
import { insertWithCustomId } from "../../platform/customIds";
import { type Db, isUniqueViolation, queryBatch } from "../../platform/db";
import { ApiError, notFound } from "../../platform/errors";
import { sha256Hex } from "../../platform/hashing";
import {
  addWithinLimit,
  type LimitContext,
  type PlanCounter,
  planCounter,
  runConditional,
  type WriteCondition,
} from "../../platform/registeredLimits";
import { companySearchText } from "../games/masterRows";

/**
 * Custom platforms and publishers: rows of the master tables `platforms` and `companies` with
 * owner_user_id set. One description per kind drives every query, so both behave alike.
 */

export interface PlatformFields {
  name: string;
  nameEn: string | null;
  shortName: string | null;
  maker: string | null;
  releaseDate: string | null;
}

export interface PublisherFields {
  name: string;
  nameKana: string | null;
  nameEn: string | null;
}

export type Named = { name: string };

export interface Kind<F extends Named> {
  table: "platforms" | "companies";
  /** The plan limit the kind counts against. */
  counter: PlanCounter;
  /** The id argument's name, for errors. */
  idField: "platformId" | "companyId";
  /** How messages name the record. */
  noun: "platform" | "publisher";
  /** Field -> column; every field of F. */
  columns: Record<keyof F & string, string>;
  /** Columns derived from the fields (the publisher's search text). */
  derived(fields: F): Record<string, string>;
}

export const PLATFORM: Kind<PlatformFields> = {
  table: "platforms",
  counter: planCounter("customPlatforms", platforms, platforms.ownerUserId),
  idField: "platformId",
  noun: "platform",
  columns: { name: "name", nameEn: "name_en", shortName: "short_name", maker: "maker", releaseDate: "release_date" },
  derived: () => ({}),
};

export const PUBLISHER: Kind<PublisherFields> = {
  table: "companies",
  counter: planCounter("customPublishers", companies, companies.ownerUserId),
  idField: "companyId",
  noun: "publisher",
  columns: { name: "name", nameKana: "name_kana", nameEn: "name_en" },
  derived: (fields) => ({ search_text: companySearchText(fields) }),
};

/** A custom record's revision: the hash of its fields (key order does not matter). Stored as content_hash. */
const revisionOf = (fields: object) =>
  sha256Hex(JSON.stringify(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)))).then((hash) => hash.slice(0, 16));

export interface Stored<F> {
  fields: F;
  revision: string;
}

/** The caller's custom record; official ones and other users' are simply not found. */
export async function findCustom<F extends Named>(db: Db, kind: Kind<F>, userId: string, id: number): Promise<Stored<F> | undefined> {
  const select = Object.entries<string>(kind.columns).map(([key, column]) => sql`${sql.raw(column)} AS ${sql.raw(`"${key}"`)}`);
  const [row] = await db.all<F & { revision: string }>(sql`
    SELECT ${sql.join(select, sql`, `)}, content_hash AS revision
    FROM ${sql.raw(kind.table)} WHERE id = ${id} AND owner_user_id = ${userId}`);
  if (!row) return undefined;
  const { revision, ...fields } = row;
  return { fields: fields as unknown as F, revision };
}

export const notYours = <F extends Named>(kind: Kind<F>, id: number) => notFound(`Your custom ${kind.noun} ${id}`);

const nameTaken = <F extends Named>(kind: Kind<F>, name: string) =>
  new ApiError("already_exists", `You already have a custom ${kind.noun} named '${name}'.`, { field: "name" });

/** Name and owner form a unique index (migration 0026): a second record of that name breaks it. */
const isNameTaken = (kind: Kind<Named>, error: unknown) =>
  isUniqueViolation(error) && (error as Error).message.concat(String((error as Error).cause ?? "")).includes(`${kind.table}.owner_user_id`);

function columnValues<F extends Named>(kind: Kind<F>, fields: F): [string, unknown][] {
  return [
    ...Object.entries<string>(kind.columns).map(([key, column]): [string, unknown] => [column, fields[key as keyof F]]),
    ...Object.entries(kind.derived(fields)),
  ];
}

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
  const revision = await revisionOf(fields);
  const values = columnValues(kind, fields);
  try {
    const id = await insertWithCustomId(kind.table, (id) =>
      addWithinLimit(db, limit, kind.counter, [
        sql`INSERT INTO ${sql.raw(kind.table)} (id, ${sql.raw(values.map(([column]) => column).join(", "))}, owner_user_id, content_hash)
          VALUES (${id}, ${sql.join(
            values.map(([, value]) => sql`${value}`),
            sql`, `,
          )}, ${limit.userId}, ${revision})`,
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
  for (let attempt = 1; ; attempt++) {
    const current = await findCustom(db, kind, userId, id);
    if (!current) throw notYours(kind, id);
    if (expected !== undefined && expected !== current.revision) throw revisionConflict(kind);
    const fields = { ...current.fields, ...changes };
    const revision = await revisionOf(fields);
    const sets = columnValues(kind, fields).map(([column, value]) => sql`${sql.raw(column)} = ${value}`);
    let changed: number;
    try {
      const result = await db.run(sql`
        UPDATE ${sql.raw(kind.table)} SET ${sql.join([...sets, sql`content_hash = ${revision}`], sql`, `)}
        WHERE id = ${id} AND owner_user_id = ${userId} AND content_hash = ${current.revision}`);
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

/** What refers to a custom platform: the owner's custom games, PLATFORM collections and consoles. */
export interface PlatformUsage {
  games: number;
  collections: number;
  consoles: number;
}

const gamesOnPlatform = (userId: string, platformId: number) =>
  sql`SELECT COUNT(*) FROM games WHERE platform_id = ${platformId} AND owner_user_id = ${userId}`;
const collectionsOfPlatform = (userId: string, platformId: number) =>
  sql`SELECT COUNT(*) FROM collections WHERE user_id = ${userId} AND type = 'PLATFORM' AND platform_id = ${platformId}`;
const consolesOfPlatform = (userId: string, platformId: number) =>
  sql`SELECT console_id FROM console_platforms WHERE platform_id = ${platformId}
        AND console_id IN (SELECT id FROM consoles WHERE user_id = ${userId})`;

export async function platformUsage(db: Db, userId: string, platformId: number): Promise<PlatformUsage> {
  const [games, collections, consoles] = await queryBatch<{ n: number }[][]>(db, [
    sql`SELECT (${gamesOnPlatform(userId, platformId)}) AS n`,
    sql`SELECT (${collectionsOfPlatform(userId, platformId)}) AS n`,
    sql`SELECT COUNT(*) AS n FROM (${consolesOfPlatform(userId, platformId)})`,
  ]);
  return { games: games![0]!.n, collections: collections![0]!.n, consoles: consoles![0]!.n };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * A platform that custom games or PLATFORM collections still use cannot go: a game needs a
 * platform, and such a collection would be left without one. 400 naming platformId.
 */
export function platformInUse(name: string, _platformId: number, usage: Pick<PlatformUsage, "games" | "collections">) {
  const users =
    [usage.games && `${usage.games} of your custom games`, usage.collections && plural(usage.collections, "collection")]
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
    holds: sql`(${gamesOnPlatform(userId, platformId)}) = 0 AND (${collectionsOfPlatform(userId, platformId)}) = 0`,
    error: () => platformInUse(name, platformId, { games: 0, collections: 0 }),
  };
  const statements: SQL[] = [
    marker,
    sql`UPDATE consoles SET updated_at = ${now} WHERE user_id = ${userId} AND id IN (${consolesOfPlatform(userId, platformId)})`,
    sql`DELETE FROM console_platforms WHERE platform_id = ${platformId} AND console_id IN (SELECT id FROM consoles WHERE user_id = ${userId})`,
    sql`DELETE FROM platforms WHERE id = ${platformId} AND owner_user_id = ${userId}`,
  ];
  try {
    await runConditional(db, [unused], statements);
  } catch (error) {
    // The batch broke because something started to use the platform: name what, as the preview would.
    if (!(error instanceof ApiError) || error.details.field !== "platformId") throw error;
    const usage = await platformUsage(db, userId, platformId);
    throw usage.games || usage.collections ? platformInUse(name, platformId, usage) : error;
  }
}

const gamesOfPublisher = (userId: string, companyId: number) =>
  sql`SELECT COUNT(*) FROM games WHERE publisher_id = ${companyId} AND owner_user_id = ${userId}`;

export async function publisherGameCount(db: Db, userId: string, companyId: number): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT (${gamesOfPublisher(userId, companyId)}) AS n`);
  return row?.n ?? 0;
}

/** Removes a custom publisher and, in the same batch, clears it from the owner's custom games. */
export async function deleteCustomPublisher(db: Db, userId: string, companyId: number, marker: SQL) {
  await queryBatch(db, [
    marker,
    sql`UPDATE games SET publisher_id = NULL WHERE publisher_id = ${companyId} AND owner_user_id = ${userId}`,
    sql`DELETE FROM companies WHERE id = ${companyId} AND owner_user_id = ${userId}`,
  ]);
}
