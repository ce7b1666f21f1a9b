import { z } from "zod";
import type { Db } from "../../../platform/db";
import { ApiError } from "../../../platform/errors";
import type { ExportReader, ExportRow, ExportSource } from "../../../platform/exportSource";
import { positiveId } from "../../../platform/schemas";
import { readGeneration } from "../../games/generation";
import { ndjsonRows, officialPart, readMasterState } from "./officialGames";
import { companyPages, compareGameRows, GAME_PAGE_ROWS, MASTER_COLUMNS, mainGenrePages, platformGamePages, platformPages } from "./rows";

export const MASTER_EXPORT_DATASETS = ["games", "platforms", "companies", "genres"] as const;
export type MasterExportDataset = (typeof MASTER_EXPORT_DATASETS)[number];

/** What a masterData link carries in `args`: the platform for games, nothing otherwise. */
const argsOf = {
  games: z.object({ platformId: positiveId }),
  platforms: z.object({}),
  companies: z.object({}),
  genres: z.object({}),
};

/** The pages of each dataset read straight from its table. */
const TABLE_PAGES: Record<Exclude<MasterExportDataset, "games">, (db: Db, userId: string) => AsyncIterable<ExportRow[]>> = {
  platforms: platformPages,
  companies: companyPages,
  genres: mainGenrePages,
};

const isMasterDataset = (dataset: string): dataset is MasterExportDataset =>
  (MASTER_EXPORT_DATASETS as readonly string[]).includes(dataset);

/** Yields `a` and `b` (each already in order) as one ordered sequence. */
async function* mergeOrdered(a: AsyncIterable<ExportRow>, b: AsyncIterable<ExportRow>, compare: (x: ExportRow, y: ExportRow) => number) {
  const left = a[Symbol.asyncIterator]();
  const right = b[Symbol.asyncIterator]();
  let x = await left.next();
  let y = await right.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && compare(x.value, y.value) <= 0)) {
      yield x.value as ExportRow;
      x = await left.next();
    } else {
      yield y.value;
      y = await right.next();
    }
  }
}

async function* inPages(rows: AsyncIterable<ExportRow>, size: number): AsyncIterable<ExportRow[]> {
  let page: ExportRow[] = [];
  for await (const row of rows) {
    page.push(row);
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** The user's custom games on the platform, flagged `custom: true` (official rows stay in the import format). */
async function* customGameRows(reader: ExportReader, platformId: number): AsyncIterable<ExportRow> {
  for await (const page of platformGamePages(reader.db, platformId, { userId: reader.userId })) {
    for (const row of page) yield { ...row, custom: true };
  }
}

/**
 * Opens a masterData export for the link's user. PREMIUM only, checked again at download: a user
 * who left PREMIUM since the link was issued is refused.
 */
export async function openMasterDataSource(
  reader: ExportReader,
  dataset: string,
  args: Record<string, unknown>,
  bucket: R2Bucket,
  upgradeUrl: string,
): Promise<ExportSource> {
  if (reader.plan !== "PREMIUM") {
    throw new ApiError("plan_required", `Master data exports are available on PREMIUM; this account is now ${reader.plan}.`, {
      upgradeUrl,
    });
  }
  const parsed = isMasterDataset(dataset) ? argsOf[dataset].safeParse(args) : null;
  if (!isMasterDataset(dataset) || !parsed?.success)
    throw new ApiError("not_found", "This download link names no master dataset this service exports.");
  const { db, userId } = reader;

  if (dataset === "games") {
    const { platformId } = parsed.data as { platformId: number };
    const state = await readMasterState(db);
    return {
      columns: MASTER_COLUMNS.games,
      fileName: `games-platform-${platformId}-${state.gamesGeneration}`,
      async *pages() {
        const part = await officialPart(db, bucket, platformId, state);
        yield* inPages(mergeOrdered(ndjsonRows(part.body), customGameRows(reader, platformId), compareGameRows), GAME_PAGE_ROWS);
      },
    };
  }
  return {
    columns: MASTER_COLUMNS[dataset],
    fileName: `${dataset}-${await readGeneration(db.$client, dataset)}`,
    pages: () => TABLE_PAGES[dataset](db, userId),
  };
}
