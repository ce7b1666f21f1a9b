import { newId } from "../../platform/ids";
import type { MasterDataset } from "./masterRows";

/**
 * A generation names one state of a master dataset: equal generations mean nothing needs to be
 * fetched again. It changes only when an import changed content (custom games never change it).
 */
export const generationKey = (dataset: MasterDataset) => `generation:${dataset}`;
export const EMPTY_GENERATION = "empty";

export async function readGeneration(d1: D1Database, dataset: MasterDataset): Promise<string> {
  const value = await d1.prepare("SELECT value FROM master_meta WHERE key = ?").bind(generationKey(dataset)).first<string>("value");
  return value ?? EMPTY_GENERATION;
}

export function bumpGeneration(d1: D1Database, dataset: MasterDataset) {
  const generation = newId("gen");
  const statement = d1
    .prepare("INSERT INTO master_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
    .bind(generationKey(dataset), generation);
  return { generation, statement };
}
