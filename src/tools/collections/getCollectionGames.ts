import { sql } from "drizzle-orm";
import { z } from "zod";
import { orderNullsLast, queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { sharedFilterArgs } from "../../platform/filters";
import { limitArg, pageArg, pageEnvelopeFields, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { PREMIUM_ONLY } from "../../platform/plans";
import { orderedRanges } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { type GameRecord, gameSchema, toGame } from "../games/gameObject";
import { allOf, GAME_CORE_SELECT, GAME_LEFT_JOINS, gameFilterConditions, titleFilterCondition } from "../games/queries";
import { findCollection, memberSql } from "./queries";

const CAP = 100;
const SORTS = { title: "g.sort_key", releaseDate: "g.release_date", achievedAt: "h.achieved_at" } as const;
const { platformIds, genreId, title, releaseDateFrom, releaseDateTo } = sharedFilterArgs;

type Row = Partial<GameRecord> & { game_id: number; achieved: number; achieved_at: string | null };

export const getCollectionGames = defineTool({
  name: "getCollectionGames",
  family: "collections",
  title: "コレクション達成状況",
  description:
    "Lists the games of one collection with whether each is achieved (LIBRARY: in your library; PLAY: its latest play record is COMPLETED) and when, plus a summary of the whole collection. Achievement is computed on each call.",
  restNote: "In REST, GET /rest/v1/getCollectionGames?collectionId=...",
  scopes: ["library:read"],
  plans: PREMIUM_ONLY,
  kind: "read",
  input: z
    .strictObject({
      collectionId: z.string().min(1).max(40),
      achieved: z.boolean().optional().describe("true: achieved only; false: not yet achieved."),
      platformIds,
      genreId,
      title,
      releaseDateFrom,
      releaseDateTo,
      sortBy: z.enum(Object.keys(SORTS) as [keyof typeof SORTS]).default("releaseDate"),
      sortOrder: z.enum(["asc", "desc"]).default("asc"),
      page: pageArg,
      limit: limitArg(CAP, 50),
    })
    .superRefine(orderedRanges([["releaseDateFrom", "releaseDateTo"]])),
  output: z.object({
    items: z.array(
      z.object({
        gameId: z.number().int(),
        isAchieved: z.boolean(),
        achievedAt: z.string().nullable().describe("The play end date, or the library registration / play update time."),
        game: gameSchema.or(z.object({ gameId: z.number().int() })).describe("{gameId} only when the game can no longer be resolved."),
      }),
    ),
    ...pageEnvelopeFields,
    summary: z.object({
      totalGames: z.number().int(),
      achievedGames: z.number().int(),
      achievementRate: z.number().describe("achievedGames / totalGames, 0 for an empty collection."),
      isCompleted: z.boolean().describe("Every game achieved (false for an empty collection)."),
    }),
  }),
  notes: [
    "summary covers the whole collection, whatever the filters.",
    "game is always included; the page is capped at 100. One query per call, however large the collection.",
  ],
  async handler({ db, auth }, args) {
    const collection = await findCollection(db, auth.userId, args.collectionId);
    if (!collection) throw notFound(`Your collection ${args.collectionId}`);
    const library = collection.purpose === "LIBRARY";
    const achievements = library
      ? sql`LEFT JOIN library_entries a ON a.user_id = ${auth.userId} AND a.game_id = m.game_id`
      : sql`LEFT JOIN play_records a ON a.user_id = ${auth.userId} AND a.game_id = m.game_id AND a.is_latest = 1 AND a.status = 'COMPLETED'`;
    const achievedAt = library ? sql`a.created_at` : sql`COALESCE(a.play_end_date, a.updated_at)`;
    const hits = sql`WITH m AS (${await memberSql(db, auth.userId, collection)}),
      h AS MATERIALIZED (SELECT DISTINCT m.game_id, a.game_id IS NOT NULL AS achieved,
        CASE WHEN a.game_id IS NOT NULL THEN ${achievedAt} END AS achieved_at FROM m ${achievements})`;
    const conditions = await gameFilterConditions(db, args);
    if (args.title !== undefined) conditions.push(titleFilterCondition(args.title));
    // Only game filters read the games; counting without them reads the collection's rows alone.
    const countGames = conditions.length > 0 ? sql`LEFT JOIN games g ON g.id = h.game_id` : sql``;
    if (args.achieved !== undefined) conditions.push(sql`h.achieved = ${args.achieved ? 1 : 0}`);
    const where = allOf(conditions);
    const limit = resolveLimit(args.limit, 50, [{ cap: CAP, reason: "game is always included, which caps the page at 100" }]);
    const order = orderNullsLast(SORTS[args.sortBy], args.sortOrder, "h.game_id");
    // The page is chosen from the narrow rows (game id, achievement, sort key), then only its games
    // are read whole; the filtered count and the summary come from one pass over the collection.
    const [rows, [counts]] = await queryBatch<[Row[], { n: number; total: number; achieved: number }[]]>(db, [
      sql`${hits}, page AS (SELECT h.game_id, h.achieved, h.achieved_at FROM h LEFT JOIN games g ON g.id = h.game_id WHERE ${where}
          ORDER BY ${order} LIMIT ${limit.effectiveLimit} OFFSET ${pageOffset(args.page, limit)})
        SELECT h.game_id, h.achieved, h.achieved_at, ${GAME_CORE_SELECT} FROM page h LEFT JOIN games g ON g.id = h.game_id ${GAME_LEFT_JOINS}
        ORDER BY ${order}`,
      sql`${hits} SELECT SUM(CASE WHEN ${where} THEN 1 ELSE 0 END) AS n, COUNT(*) AS total, COALESCE(SUM(achieved), 0) AS achieved
        FROM h ${countGames}`,
    ]);
    const items = rows.map((row) => ({
      gameId: row.game_id,
      isAchieved: row.achieved === 1,
      achievedAt: row.achieved_at,
      game: row.id == null ? { gameId: row.game_id } : toGame(row as GameRecord, new Set()),
    }));
    const total = counts?.total ?? 0;
    const achieved = counts?.achieved ?? 0;
    return {
      ...pageOf(items, args.page, counts?.n ?? 0, limit),
      summary: {
        totalGames: total,
        achievedGames: achieved,
        achievementRate: total === 0 ? 0 : Math.round((achieved / total) * 10_000) / 10_000,
        isCompleted: total > 0 && achieved === total,
      },
    };
  },
});
