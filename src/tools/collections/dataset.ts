import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { collections } from "../../db/schema";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { PREMIUM_ONLY } from "../../platform/plans";
import { isoDate, positiveId } from "../../platform/schemas";
import { usableIds } from "../games/queries";
import { defineDataset, orEmpty, recordsRemoval, restoredTimes } from "../shared/datasets";
import type { RestoreContext, StagedRow } from "../shared/decisions";
import { rowOf } from "../shared/exportDataset";
import { orNull, type RestoredKind, restoringDecisions, timesOf } from "../shared/restore";
import { forgetIdsSql, mappedGameIds, REISSUED, referencedIds, visibleGames } from "../shared/restoreReads";
import {
  COLLECTION_FIELDS,
  COLLECTION_TYPES,
  type CollectionRow,
  collectionFieldArgs,
  type NewCollection,
  PURPOSES,
  toCollection,
} from "./items";
import {
  COLLECTION_ORDER,
  COLLECTION_SELECT,
  COLLECTIONS_COUNTER,
  type CollectionFilters,
  checkCollectionFields,
  collectionConditions,
  insertCollectionSql,
} from "./queries";
import { collectionsRemovalSql } from "./removal";

/** Collections as getCollections' conditions and columns name them. */
const listed = alias(collections, "c");

const columns = ["collectionId", ...COLLECTION_FIELDS, "gameIds", "excludeGameIds", "createdAt", "updatedAt"] as const;

const rowSchema = z.object({
  collectionId: z.string().min(1).max(60),
  name: collectionFieldArgs.name,
  description: collectionFieldArgs.description.nullish(),
  type: z.enum(COLLECTION_TYPES),
  purpose: z
    .enum(PURPOSES)
    .nullish()
    .transform((value) => value ?? "LIBRARY"),
  tagId: positiveId.nullish(),
  platformId: positiveId.nullish(),
  genreId: positiveId.nullish(),
  releaseDateFrom: isoDate.nullish(),
  releaseDateTo: isoDate.nullish(),
  gameIds: orEmpty(collectionFieldArgs.gameIds),
  excludeGameIds: orEmpty(collectionFieldArgs.excludeGameIds),
  ...restoredTimes,
});
type CollectionFileRow = z.output<typeof rowSchema>;

/** The first game of the row's lists this account cannot see, as the column that names it. */
function unseenListed(row: CollectionFileRow, gameIds: ReadonlyMap<number, number>, visible: ReadonlySet<number>) {
  return (["gameIds", "excludeGameIds"] as const).flatMap((field) => {
    const index = row[field].findIndex((id) => !visible.has(gameIds.get(id)!));
    return index >= 0 ? [{ column: `${field}[${index}]`, id: row[field][index]! }] : [];
  })[0];
}

const RESTORED: RestoredKind<string> = {
  field: "collectionId",
  label: "Collection",
  record: REISSUED.collection,
  counter: COLLECTIONS_COUNTER,
};

/** Collections: new ids (kind collection); their tag, platform and games are checked as addCollection checks them. */
async function restoreCollections(ctx: RestoreContext, rows: StagedRow<CollectionFileRow>[]) {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const gameIds = await mappedGameIds(
    ctx,
    rows.flatMap((r) => [...r.d.gameIds, ...r.d.excludeGameIds]),
  );
  const platformIds = rows.flatMap((r) => (r.d.platformId != null ? [r.d.platformId] : []));
  const [restoring, tags, visible, platforms] = await Promise.all([
    restoringDecisions(
      ctx,
      RESTORED,
      rows.map((r) => r.d.collectionId),
    ),
    referencedIds(ctx, REISSUED.tag, [...new Set(rows.flatMap((r) => (r.d.tagId != null ? [r.d.tagId] : [])))]),
    visibleGames(db, userId, [...new Set(gameIds.values())]),
    usableIds(db, "platforms", userId, platformIds),
  ]);
  const { d } = restoring;
  for (const { r, d: row } of rows) {
    if (restoring.alreadyHere(r, row.collectionId)) continue;
    const tagId = row.tagId != null ? tags.idOf(row.tagId) : null;
    const collection: NewCollection = {
      name: row.name,
      type: row.type,
      purpose: row.purpose,
      tagId,
      ...orNull(row, ["description", "platformId", "genreId", "releaseDateFrom", "releaseDateTo"]),
      gameIds: [...new Set(row.gameIds.map((id) => gameIds.get(id)!))],
      excludeGameIds: [...new Set(row.excludeGameIds.map((id) => gameIds.get(id)!))],
    };
    try {
      checkCollectionFields(collection);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      d.fail(r, String(error.details.field ?? "type"), "invalid_input", error.message);
      continue;
    }
    if (tagId !== null && !tags.here.has(tagId)) {
      d.fail(r, "tagId", "not_found", `Tag ${row.tagId} is not one of your tags: import the tags file first.`);
      continue;
    }
    if (collection.platformId !== null && !platforms.has(collection.platformId)) {
      d.fail(r, "platformId", "not_found", `Platform ${collection.platformId} is not one you can use.`);
      continue;
    }
    const unseen = unseenListed(row, gameIds, visible);
    if (unseen) {
      d.fail(
        r,
        unseen.column,
        "not_found",
        `Game ${unseen.id} does not exist here (or is another user's custom game): import the customGames file first.`,
      );
      continue;
    }
    if (!restoring.roomFor(r)) continue;
    const id = newId("col");
    restoring.add(row.collectionId, id, insertCollectionSql(id, userId, collection, now, timesOf(row, now)));
  }
  return restoring.decided();
}

/** The arguments exportMyData takes for collections only (its own names for getCollections' filters). */
interface CollectionExportArgs {
  name?: string;
  collectionTypes?: CollectionFilters["types"];
  purposeTypes?: CollectionFilters["purposeTypes"];
}

/**
 * One row per collection (its definition, as getCollections shows it), oldest first; name,
 * purposeTypes and collectionTypes go through getCollections' own condition builder.
 */
export const collectionsDataset = defineDataset({
  export: {
    name: "collections",
    plans: PREMIUM_ONLY,
    accepts: ["name", "purposeTypes", "collectionTypes"],
    columns,
    async query({ userId }, args: CollectionExportArgs) {
      return {
        // raw SQL: read through the keyset machinery (platform/keyset.ts), with getCollections' own conditions and columns.
        from: sql`${collections} ${listed}`,
        where: collectionConditions(userId, { name: args.name, types: args.collectionTypes, purposeTypes: args.purposeTypes }),
        select: COLLECTION_SELECT,
        keys: COLLECTION_ORDER,
        render: (rows: CollectionRow[]) => rows.map((row) => rowOf(columns, toCollection(row))),
      };
    },
  },
  rowSchema,
  restore: restoreCollections,
  removal: (userId) =>
    recordsRemoval(collections, userId, [...collectionsRemovalSql(userId, undefined), forgetIdsSql(userId, ["collection"])], "collection"),
});
