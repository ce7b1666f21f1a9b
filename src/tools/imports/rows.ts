import { z } from "zod";
import { isoDate, janCode, positiveId, text } from "../../platform/schemas";
import { COLLECTION_TYPES, collectionFieldArgs, PURPOSES } from "../collections/items";
import { consoleFieldArgs } from "../consoles/items";
import { customGameFields } from "../customGames/items";
import { entryFieldArgs, userLink } from "../library/items";
import { PLAY_STATUSES, playFieldArgs } from "../play/items";
import { tagFieldArgs } from "../tags/items";
import { wishFieldArgs } from "../wishlist/items";
import { malformed } from "./readers";

/**
 * What one staged row holds. An uploaded file is validated row by row while it is received and
 * staged in R2 as NDJSON lines `{"r": <row number in the file>, "d": <validated row>}`; the steps
 * that write it read those lines back from a byte offset. The columns are exportMyData's (one
 * schema per dataset, built from the write tools' own argument schemas), or, for tracker CSVs,
 * the generic row below.
 */

const times = {
  createdAt: z.iso.datetime().nullish(),
  updatedAt: z.iso.datetime().nullish(),
};
const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .nullish()
    .transform((value) => value ?? []);

/** A list column: absent or null is empty. */
const orEmpty = <T extends z.ZodType<unknown[]>>(schema: T) => schema.nullish().transform((value) => (value ?? []) as z.output<T>);

/**
 * Every dataset of exportMyData, in the order a whole account is restored: custom games first (the
 * other files refer to them), consoles (play records refer to them), then the library and what
 * hangs off it, tags (their games must be in the library) and collections (they refer to tags).
 */
export const IMPORTABLE_DATASETS = [
  "customGames",
  "consoles",
  "library",
  "wishlist",
  "playRecords",
  "playLogs",
  "tags",
  "collections",
] as const;
export type ImportableDataset = (typeof IMPORTABLE_DATASETS)[number];

export const EXPORT_ROW_SCHEMAS = {
  customGames: z.object({
    gameId: positiveId,
    title: customGameFields.title,
    titleReading: customGameFields.titleReading.nullish(),
    titleEn: orEmpty(customGameFields.titleEn),
    aliases: orEmpty(customGameFields.aliases),
    platformId: customGameFields.platformId,
    publisherId: customGameFields.publisherId.nullish(),
    genreId: customGameFields.genreId.nullish(),
    genreSubId: customGameFields.genreSubId.nullish(),
    releaseDate: customGameFields.releaseDate.nullish(),
    janCode: customGameFields.janCode.nullish(),
    modelNumber: orEmpty(customGameFields.modelNumber),
    price: customGameFields.price.nullish(),
  }),
  consoles: z.object({
    consoleId: z.string().min(1).max(60),
    name: consoleFieldArgs.name,
    nameKana: consoleFieldArgs.nameKana.nullish(),
    publisherName: consoleFieldArgs.publisherName.nullish(),
    rating: consoleFieldArgs.rating.nullish(),
    buyDate: consoleFieldArgs.buyDate.nullish(),
    buyPrice: consoleFieldArgs.buyPrice.nullish(),
    buyPlace: consoleFieldArgs.buyPlace.nullish(),
    memo: consoleFieldArgs.memo.nullish(),
    /** As exported: {platformId, name, priority}, highest priority first (name is ignored). */
    platforms: orEmpty(z.array(z.object({ platformId: positiveId, priority: z.number().int().min(1).max(5) })).max(20)),
    ...times,
  }),
  tags: z.object({
    tagId: positiveId,
    name: tagFieldArgs.name,
    nameKana: tagFieldArgs.nameKana.nullish(),
    color: tagFieldArgs.color.nullish(),
    description: tagFieldArgs.description.nullish(),
    gameIds: orEmpty(z.array(positiveId).max(1000)),
    ...times,
  }),
  collections: z.object({
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
    ...times,
  }),
  library: z.object({
    gameId: positiveId,
    rating: entryFieldArgs.rating.nullish(),
    buyDate: entryFieldArgs.buyDate.nullish(),
    buyPrice: entryFieldArgs.buyPrice.nullish(),
    buyPlace: entryFieldArgs.buyPlace.nullish(),
    memo: entryFieldArgs.memo.nullish(),
    userLinks: list(userLink, 20),
    attributes: list(text(40), 20),
    ...times,
  }),
  wishlist: z.object({
    gameId: positiveId,
    priority: wishFieldArgs.priority.nullish(),
    wishDate: wishFieldArgs.wishDate.nullish(),
    wishPrice: wishFieldArgs.wishPrice.nullish(),
    wishPlace: wishFieldArgs.wishPlace.nullish(),
    memo: wishFieldArgs.memo.nullish(),
    ...times,
  }),
  playRecords: z.object({
    playId: z.string().min(1).max(60),
    gameId: positiveId,
    status: playFieldArgs.status,
    playStartDate: playFieldArgs.playStartDate.nullish(),
    playEndDate: playFieldArgs.playEndDate.nullish(),
    clearTargetDate: playFieldArgs.clearTargetDate.nullish(),
    rating: playFieldArgs.rating.nullish(),
    memo: playFieldArgs.memo.nullish(),
    userLinks: list(userLink, 20),
    attributes: list(text(40), 20),
    consoleId: playFieldArgs.consoleId.nullish(),
    isLatest: z
      .boolean()
      .nullish()
      .transform((value) => value ?? true),
    ...times,
  }),
  playLogs: z.object({
    playLogId: z.string().min(1).max(60),
    playId: z.string().min(1).max(60),
    playDate: isoDate.nullish(),
    playTime: z.number().int().min(1).max(1440),
    memo: text(2000).nullish(),
    ...times,
  }),
} as const satisfies Record<ImportableDataset, z.ZodType>;

export type ExportRowOf<D extends ImportableDataset> = z.output<(typeof EXPORT_ROW_SCHEMAS)[D]>;

/** The first problem of a row as a 400 naming the row and the column. */
export function validRow<T extends z.ZodType>(schema: T, value: unknown, row: number): z.output<T> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw malformed(row, null, "each row must be a JSON object of the export's columns.");
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const column = issue.path.length > 0 ? String(issue.path[0]) : null;
  const path = issue.path
    .slice(1)
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("");
  throw malformed(row, column === null ? null : `${column}${path}`, issue.message);
}

/** A row of a tracker CSV, after its columns were mapped (see trackers.ts). */
export const trackerRowSchema = z.object({
  title: z.string().min(1).max(200).nullable(),
  platform: z.string().max(100).nullable(),
  janCode: janCode.nullable(),
  modelNumber: z.string().min(1).max(60).nullable(),
  buyDate: isoDate.nullable(),
  buyPrice: z.number().min(0).nullable(),
  buyPlace: text(100).nullable(),
  /** A play status, or WISHLIST: the game goes to the wishlist instead of the library. */
  status: z.enum([...PLAY_STATUSES, "WISHLIST"]).nullable(),
  playStartDate: isoDate.nullable(),
  playEndDate: isoDate.nullable(),
  rating: z.number().int().min(1).max(5).nullable(),
  memo: text(2000).nullable(),
});
export type TrackerRow = z.output<typeof trackerRowSchema>;

export interface StagedRow<T = unknown> {
  r: number;
  d: T;
}
