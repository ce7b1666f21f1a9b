import { z } from "zod";

/** Optional parts of a Game object, asked for with `fields`. */
export const GAME_FIELD_GROUPS = ["externalLinks", "editions", "supportGenre", "specs"] as const;
export type GameFieldGroup = (typeof GAME_FIELD_GROUPS)[number];

export const gameFieldsArg = z
  .array(z.enum(GAME_FIELD_GROUPS))
  .max(GAME_FIELD_GROUPS.length)
  .optional()
  .describe("Groups added to the core fields (default editions, specs, supportGenre); [] adds none.");

const named = <K extends string>(idKey: K) =>
  z.object({ [idKey]: z.number().int(), name: z.string().nullable() } as Record<K, z.ZodNumber> & { name: z.ZodNullable<z.ZodString> });

export const editionSchema = z
  .object({
    gameEditionId: z.number().int(),
    title: z.string().nullable(),
    modelNumber: z.array(z.string()),
    releaseDate: z.string().nullable(),
    price: z.number().nullable(),
    janCode: z.string().nullable(),
  })
  .meta({ id: "GameEdition" });

export const gameSchema = z
  .object({
    gameId: z.number().int(),
    title: z.string(),
    titleEn: z.array(z.string()),
    platform: named("platformId"),
    publisher: named("companyId").nullable(),
    genre: named("genreId").nullable().describe("Main genre."),
    genreSub: named("genreId").nullable().optional().describe("Support genre; with fields supportGenre."),
    releaseDate: z.string().nullable(),
    custom: z.boolean(),
    dbId: z.number().int().nullable(),
    dbSlug: z.string().nullable().describe("Always present; null for custom games. Page: {db_page_base}/{dbSlug}."),
    dbCoverId: z.string().nullable().describe("Always present. Image: {db_image_base}/t_cover_big/{dbCoverId}.jpg."),
    editions: z.array(editionSchema).optional().describe("With fields editions."),
    specs: z
      .object({ modelNumber: z.array(z.string()), price: z.number().nullable(), janCode: z.string().nullable() })
      .optional()
      .describe("With fields specs."),
    externalLinks: z
      .array(z.object({ source: z.enum(["db", "media", "gps"]), id: z.string() }))
      .optional()
      .describe("With fields externalLinks: external service ids, never URLs."),
  })
  .meta({ id: "Game" });
export type Game = z.infer<typeof gameSchema>;

/** One game row as GAME_SELECT (queries.ts) reads it. */
export interface GameRecord {
  id: number;
  title: string;
  title_en: string;
  platform_id: number;
  platform_name: string | null;
  publisher_id: number | null;
  publisher_name: string | null;
  genre_id: number | null;
  genre_name: string | null;
  genre_sub_id: number | null;
  genre_sub_name: string | null;
  release_date: string | null;
  jan_code: string | null;
  model_number: string;
  price: number | null;
  media_id: string | null;
  gps_id: string | null;
  db_id: number | null;
  db_slug: string | null;
  db_cover_id: string | null;
  owner_user_id: string | null;
  editions: string;
}

function externalLinksOf(record: GameRecord): NonNullable<Game["externalLinks"]> {
  const links: NonNullable<Game["externalLinks"]> = [];
  if (record.db_id !== null) links.push({ source: "db", id: String(record.db_id) });
  if (record.media_id !== null) links.push({ source: "media", id: record.media_id });
  if (record.gps_id !== null) links.push({ source: "gps", id: record.gps_id });
  return links;
}

/** Renders a Game object: empty values are null, never omitted; asked-for groups are added. */
export function toGame(record: GameRecord, groups: ReadonlySet<GameFieldGroup>): Game {
  const custom = record.owner_user_id !== null;
  return {
    gameId: record.id,
    title: record.title,
    titleEn: JSON.parse(record.title_en) as string[],
    platform: { platformId: record.platform_id, name: record.platform_name },
    publisher: record.publisher_id === null ? null : { companyId: record.publisher_id, name: record.publisher_name },
    genre: record.genre_id === null ? null : { genreId: record.genre_id, name: record.genre_name },
    ...(groups.has("supportGenre")
      ? { genreSub: record.genre_sub_id === null ? null : { genreId: record.genre_sub_id, name: record.genre_sub_name } }
      : {}),
    releaseDate: record.release_date,
    custom,
    dbId: record.db_id,
    dbSlug: custom ? null : record.db_slug,
    dbCoverId: record.db_cover_id,
    ...(groups.has("editions") ? { editions: JSON.parse(record.editions) as Game["editions"] } : {}),
    ...(groups.has("specs")
      ? { specs: { modelNumber: JSON.parse(record.model_number) as string[], price: record.price, janCode: record.jan_code } }
      : {}),
    ...(groups.has("externalLinks") ? { externalLinks: externalLinksOf(record) } : {}),
  };
}
