import { z } from "zod";
import { normalizeSearchText } from "../../platform/normalize";
import { isoDate, janCode, masterId, nameText, text } from "../../platform/schemas";

/**
 * The master row format of DESIGN.md: what the operator import reads and exportMasterData
 * writes. Name columns of game rows (platformName, ...) are accepted on import but derived from
 * the ids, so a file can never contradict the tables it joins with; genreKey is a fact of its own
 * (the game's most specific classification), kept by the import and written back by the export.
 */

const nullableText = (max: number) => text(max).nullable();
const codes = z.array(text(40)).max(10);

export const platformRow = z.strictObject({
  platformId: masterId,
  name: nameText(100),
  nameEn: nullableText(100),
  shortName: nullableText(20),
  maker: nullableText(100),
  releaseDate: isoDate.nullable(),
  custom: z.literal(false, { error: "custom records are user data; import official rows only" }).optional(),
});

export const companyRow = z.strictObject({
  companyId: masterId,
  name: nameText(100),
  nameKana: nullableText(200),
  nameEn: nullableText(100),
  custom: z.literal(false, { error: "custom records are user data; import official rows only" }).optional(),
});

/** What listPublishers' query searches: name, kana reading and English name, normalised. */
export const companySearchText = (row: { name: string; nameKana?: string | null; nameEn?: string | null }) =>
  [row.name, row.nameKana, row.nameEn]
    .filter(Boolean)
    .map((v) => normalizeSearchText(v!))
    .join("|");

const taxonomyKey = z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, "must be dot-separated lower-case keys");

export const genreRow = z.strictObject({
  genreId: masterId,
  name: nameText(100),
  parentId: masterId.nullable(),
  taxonomyKey,
});

export const editionRow = z.strictObject({
  gameEditionId: masterId,
  title: nullableText(200),
  modelNumber: codes,
  releaseDate: isoDate.nullable(),
  price: z.number().min(0).nullable(),
  janCode: janCode.nullable(),
});

export const gameRow = z.strictObject({
  gameId: masterId,
  title: nameText(200),
  titleReading: z
    .string()
    .regex(/^[\u3041-\u309f\u30fc0-9a-z]+$/, "must be hiragana (digits and ー allowed), without spaces")
    .nullable(),
  titleEn: z.array(text(200)).max(10),
  aliases: z.array(text(100)).max(20),
  platformId: masterId,
  platformName: z.string().nullable().optional(),
  publisherId: masterId.nullable(),
  publisherName: z.string().nullable().optional(),
  genreId: masterId.nullable(),
  genreName: z.string().nullable().optional(),
  genreSubId: masterId.nullable(),
  genreKey: taxonomyKey.nullable().optional(),
  releaseDate: isoDate.nullable(),
  janCode: janCode.nullable(),
  modelNumber: codes,
  price: z.number().min(0).nullable(),
  mediaId: nullableText(100),
  gpsId: nullableText(100),
  dbId: z.number().int().min(1).nullable(),
  dbSlug: nullableText(200),
  dbCoverId: nullableText(100),
  editions: z.array(editionRow).max(50),
});

export const MASTER_DATASETS = {
  platforms: platformRow,
  companies: companyRow,
  genres: genreRow,
  games: gameRow,
} as const;
export type MasterDataset = keyof typeof MASTER_DATASETS;

export type PlatformRow = z.input<typeof platformRow>;
export type CompanyRow = z.input<typeof companyRow>;
export type GenreRow = z.input<typeof genreRow>;
export type EditionRow = z.input<typeof editionRow>;
export type GameRow = z.input<typeof gameRow>;
