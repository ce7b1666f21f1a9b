import { z } from "zod";
import type { collections } from "../../db/schema";
import type { RowOf } from "../../platform/db";
import { nameText, positiveId, text } from "../../platform/schemas";
import { type GameRecord, gameSchema, toGame } from "../games/gameObject";

/** gameIds and excludeGameIds hold at most this many ids each. */
export const COLLECTION_GAME_LIMIT = 1000;
export const COLLECTION_TYPES = ["INDIVIDUAL", "TAG", "PLATFORM"] as const;
export const PURPOSES = ["LIBRARY", "PLAY"] as const;

const gameIdList = z.array(positiveId).max(COLLECTION_GAME_LIMIT);
export const collectionFieldArgs = {
  name: nameText(50),
  description: text(500).nullable(),
  gameIds: gameIdList.describe("INDIVIDUAL: the games."),
  excludeGameIds: gameIdList.describe("TAG and PLATFORM: games left out."),
};

export const collectionSummarySchema = z.object({
  totalGames: z.number().int(),
  achievedGames: z.number().int(),
  achievementRate: z.number().describe("achievedGames / totalGames, 0 for an empty collection."),
  isCompleted: z.boolean().describe("Every game achieved (false for an empty collection)."),
});

export const collectionSchema = z
  .object({
    collectionId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(COLLECTION_TYPES),
    purpose: z
      .enum(PURPOSES)
      .describe("LIBRARY: achieved when the game is in the library; PLAY: when its latest play record is COMPLETED."),
    tagId: z.number().int().nullable(),
    platformId: z.number().int().nullable(),
    genreId: z.number().int().nullable(),
    releaseDateFrom: z.string().nullable(),
    releaseDateTo: z.string().nullable(),
    gameIds: z.array(z.number().int()).describe("INDIVIDUAL members; [] for the other types."),
    excludeGameIds: z.array(z.number().int()),
    revision: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    summary: collectionSummarySchema.describe(
      "The achievement, as getCollectionGames' summary: kept up to date by every write that changes it, always equal to a count of the games.",
    ),
  })
  .meta({ id: "Collection" });

/** A collection's definition: the same names in the schema, its items and its export. */
export const COLLECTION_FIELDS = [
  "name",
  "description",
  "type",
  "purpose",
  "tagId",
  "platformId",
  "genreId",
  "releaseDateFrom",
  "releaseDateTo",
] as const;

/** The columns of a collection row that its items show. */
export const COLLECTION_KEYS = ["id", ...COLLECTION_FIELDS, "revision", "createdAt", "updatedAt"] as const;

/** One collection row as the collection queries read it, with its games and exclusions as JSON arrays. */
export type CollectionRow = RowOf<typeof collections, (typeof COLLECTION_KEYS)[number]> & { members: string; excluded: string };

/** A collection's achievement counts, as the collection queries read them. */
export interface SummaryCounts {
  total_games: number;
  achieved_games: number;
}

/** A collection row with its achievement counts (getCollections, and what add and update answer). */
export type CollectionItemRow = CollectionRow & SummaryCounts;

/** A collection's definition, without its achievement (the collections export). */
export const toCollection = (row: CollectionRow) => ({
  collectionId: row.id,
  name: row.name,
  description: row.description,
  type: row.type,
  purpose: row.purpose,
  tagId: row.tag_id,
  platformId: row.platform_id,
  genreId: row.genre_id,
  releaseDateFrom: row.release_date_from,
  releaseDateTo: row.release_date_to,
  gameIds: JSON.parse(row.members) as number[],
  excludeGameIds: JSON.parse(row.excluded) as number[],
  revision: row.revision,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** A collection as the tools answer it: its definition and its achievement. */
export const toCollectionItem = (row: CollectionItemRow) => ({ ...toCollection(row), summary: collectionSummary(row) });

/** A collection as it is written: its definition, games and exclusions (addCollection, updateCollection's checks, imports). */
export type NewCollection = Pick<
  typeof collections.$inferSelect,
  "name" | "description" | "type" | "purpose" | "tagId" | "platformId" | "genreId" | "releaseDateFrom" | "releaseDateTo"
> & { gameIds: number[]; excludeGameIds: number[] };

export const collectionGameSchema = z.object({
  gameId: z.number().int(),
  isAchieved: z.boolean(),
  achievedAt: z.string().nullable().describe("The play end date, or the library registration / play update time."),
  game: gameSchema.or(z.object({ gameId: z.number().int() })).describe("{gameId} only when the game can no longer be resolved."),
});

/**
 * One row of getCollectionGames' page statement: the counts of the whole collection, and one game of
 * the page with its achievement (no game on the one row of an empty page).
 */
export type CollectionGameRow = Partial<GameRecord> &
  SummaryCounts & {
    game_id: number | null;
    achieved: number;
    achieved_at: string | null;
    matched_count: number | null;
  };

/** The page's games; an empty page's one row brings only the counts. */
export const toCollectionGames = (rows: CollectionGameRow[]) =>
  rows.flatMap(({ game_id: gameId, ...row }) =>
    gameId === null
      ? []
      : [
          {
            gameId,
            isAchieved: row.achieved === 1,
            achievedAt: row.achieved_at,
            game: row.id == null ? { gameId } : toGame(row as GameRecord, new Set()),
          },
        ],
  );

export function collectionSummary(counts: SummaryCounts | undefined) {
  const total = counts?.total_games ?? 0;
  const achieved = counts?.achieved_games ?? 0;
  return {
    totalGames: total,
    achievedGames: achieved,
    achievementRate: total === 0 ? 0 : Math.round((achieved / total) * 10_000) / 10_000,
    isCompleted: total > 0 && achieved === total,
  };
}
