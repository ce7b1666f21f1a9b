import { eq } from "drizzle-orm";
import { masterMeta } from "../../db/schema";
import { createDb, prepare, statements } from "../../platform/db";
import { newId } from "../../platform/ids";
import type { MasterDataset } from "./masterRows";

/**
 * A generation names one state of a master dataset: equal generations mean nothing needs to be
 * fetched again. It changes only when an import changed content (custom games never change it).
 */
export const generationKey = (dataset: MasterDataset) => `generation:${dataset}`;
export const EMPTY_GENERATION = "empty";

export async function readGeneration(d1: D1Database, dataset: MasterDataset): Promise<string> {
  const row = await createDb(d1)
    .select({ value: masterMeta.value })
    .from(masterMeta)
    .where(eq(masterMeta.key, generationKey(dataset)))
    .get();
  return row?.value ?? EMPTY_GENERATION;
}

export function bumpGeneration(d1: D1Database, dataset: MasterDataset) {
  const generation = newId("gen");
  const upsert = statements
    .insert(masterMeta)
    .values({ key: generationKey(dataset), value: generation })
    .onConflictDoUpdate({ target: masterMeta.key, set: { value: generation } });
  return { generation, statement: prepare(createDb(d1), upsert.getSQL()) };
}
