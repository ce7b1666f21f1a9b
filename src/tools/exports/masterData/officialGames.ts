import { inArray } from "drizzle-orm";
import { masterMeta } from "../../../db/schema";
import type { Db } from "../../../platform/db";
import { ApiError } from "../../../platform/errors";
import { formatWriter } from "../../../platform/exportFormats";
import type { ExportRow } from "../../../platform/exportSource";
import { listObjects, PARTS_PREFIX, StreamedObjectWriter } from "../../../platform/exportStorage";
import { EMPTY_GENERATION, generationKey } from "../../games/generation";
import type { MasterDataset } from "../../games/masterRows";
import { MASTER_COLUMNS, platformGamePages } from "./rows";

/**
 * The official games of a platform, as NDJSON in file order, are the same for every user until
 * the master data changes. They are built once per master state and kept in R2 under
 * `exports/parts/games/platform-<id>/<state>.ndjson`, so a thousand users downloading a platform
 * cost one build; each download merges the user's own custom games into it.
 *
 * The state names the generations of all four datasets: a game row carries platform, publisher and
 * genre names, so a renamed publisher needs a new part even when no game changed.
 */
const STATE_DATASETS: readonly MasterDataset[] = ["games", "platforms", "companies", "genres"];
const GAMES_PARTS_PREFIX = `${PARTS_PREFIX}games/`;

export interface MasterState {
  /** The games dataset's generation, which exportMasterData reports. */
  gamesGeneration: string;
  /** All four generations together: what a part was built from. */
  tag: string;
}

export async function readMasterState(db: Db): Promise<MasterState> {
  const rows = await db
    .select({ key: masterMeta.key, value: masterMeta.value })
    .from(masterMeta)
    .where(inArray(masterMeta.key, STATE_DATASETS.map(generationKey)));
  const generationOf = (dataset: MasterDataset) => rows.find((row) => row.key === generationKey(dataset))?.value ?? EMPTY_GENERATION;
  return { gamesGeneration: generationOf("games"), tag: STATE_DATASETS.map(generationOf).join(".") };
}

export const officialPartKey = (platformId: number, state: MasterState) =>
  `${GAMES_PARTS_PREFIX}platform-${platformId}/${state.tag}.ndjson`;

/**
 * Builds the part from D1. Should the master data change while it is built, the part may mix two
 * states: it is dropped and the download fails as retryable (the next try builds the new state).
 */
async function buildOfficialPart(db: Db, bucket: R2Bucket, platformId: number, state: MasterState, key: string): Promise<void> {
  const writer = formatWriter("ndjson", { dataset: "games", columns: MASTER_COLUMNS.games, exportedAt: "" });
  const out = new StreamedObjectWriter(bucket, key, {
    httpMetadata: { contentType: writer.contentType },
    customMetadata: { tag: state.tag, platformId: String(platformId) },
  });
  try {
    for await (const rows of platformGamePages(db, platformId, { official: true })) await out.write(writer.page(rows));
    await out.close();
  } catch (error) {
    await out.abort();
    throw error;
  }
  if ((await readMasterState(db)).tag !== state.tag) {
    await bucket.delete(key);
    throw new ApiError("unavailable", "The game master data changed while the file was being built; retry to get the new data.", {
      retryable: true,
      retryAfterSec: 5,
    });
  }
}

/** The official part for this state, built first if no download built it yet. */
export async function officialPart(db: Db, bucket: R2Bucket, platformId: number, state: MasterState): Promise<R2ObjectBody> {
  const key = officialPartKey(platformId, state);
  const stored = await bucket.get(key);
  if (stored) return stored;
  await buildOfficialPart(db, bucket, platformId, state, key);
  const built = await bucket.get(key);
  if (!built) throw new Error(`the official part ${key} vanished right after it was built`);
  return built;
}

/** The rows of an NDJSON object, parsed line by line as its bytes arrive. */
export async function* ndjsonRows(body: ReadableStream<Uint8Array>): AsyncIterable<ExportRow> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (rest + value).split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line !== "") yield JSON.parse(line) as ExportRow;
  }
  if (rest.trim() !== "") yield JSON.parse(rest) as ExportRow;
}

/** Deletes the parts of master states that are no longer current (run by the scheduled handler). */
export async function removeStaleOfficialParts(db: Db, bucket: R2Bucket): Promise<number> {
  const { tag } = await readMasterState(db);
  let removed = 0;
  for await (const objects of listObjects(bucket, GAMES_PARTS_PREFIX)) {
    const stale = objects.filter((object) => object.customMetadata?.tag !== tag).map((object) => object.key);
    if (stale.length > 0) await bucket.delete(stale);
    removed += stale.length;
  }
  return removed;
}
