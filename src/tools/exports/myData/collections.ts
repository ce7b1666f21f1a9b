import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { collections } from "../../../db/schema";
import { COLLECTION_FIELDS, type CollectionRow, toCollection } from "../../collections/items";
import { COLLECTION_ORDER, COLLECTION_SELECT, collectionConditions } from "../../collections/queries";
import { MY_DATASET_PLANS } from "./args";
import { type MyDataset, rowOf } from "./dataset";

/** Collections as getCollections' conditions and columns name them. */
const listed = alias(collections, "c");

const columns = ["collectionId", ...COLLECTION_FIELDS, "gameIds", "excludeGameIds", "createdAt", "updatedAt"] as const;

/**
 * One row per collection (its definition, as getCollections shows it), oldest first; name,
 * purposeTypes and collectionTypes go through getCollections' own condition builder.
 */
export const collectionsDataset: MyDataset = {
  name: "collections",
  plans: MY_DATASET_PLANS.collections,
  accepts: ["name", "purposeTypes", "collectionTypes"],
  columns,
  async query({ userId }, args) {
    return {
      // raw SQL: read through the keyset machinery (platform/keyset.ts), with getCollections' own conditions and columns.
      from: sql`${collections} ${listed}`,
      where: collectionConditions(userId, { name: args.name, types: args.collectionTypes, purposeTypes: args.purposeTypes }),
      select: COLLECTION_SELECT,
      keys: COLLECTION_ORDER,
      render: (rows: CollectionRow[]) => rows.map((row) => rowOf(columns, toCollection(row))),
    };
  },
};
