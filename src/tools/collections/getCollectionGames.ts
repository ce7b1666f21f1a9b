import { sql } from "drizzle-orm";
import { z } from "zod";
import { orderNullsLast } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { sharedFilterArgs } from "../../platform/filters";
import { type Paging, pageArgs, pageEnvelopeFields, pageOf, pageOffset } from "../../platform/paging";
import { PREMIUM_ONLY } from "../../platform/plans";
import { orderedRanges } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { type GameRecord, gameSchema, toGame } from "../games/gameObject";
import { allOf, GAME_CORE_SELECT, GAME_LEFT_JOINS, gameFilterConditions, titleFilterCondition } from "../games/queries";
import { type CollectionRow, collectionQuery, memberSql } from "./queries";

const PAGING: Paging = { cap: 100, defaultLimit: 50, capReason: "game is always included, which caps the page at 100" };
const SORTS = { title: "g.sort_key", releaseDate: "g.release_date", achievedAt: "h.achieved_at" } as const;
const { platformIds, genreId, title, releaseDateFrom, releaseDateTo } = sharedFilterArgs;

type Row = Partial<GameRecord> & { game_id: number | null; achieved: number; achieved_at: string | null };
type PageCounts = { matched_count: number | null; total_games: number; achieved_games: number };

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
  paging: PAGING,
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
      ...pageArgs(PAGING),
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
  firstReads: (args, { userId }) => (userId === undefined ? undefined : [collectionQuery(userId, args.collectionId)]),
  async handler({ db, read, auth, pageLimit }, args) {
    const [[collection]] = await read<[CollectionRow[]]>([collectionQuery(auth.userId, args.collectionId)]);
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
    const limit = pageLimit(args.limit);
    const order = orderNullsLast(SORTS[args.sortBy], args.sortOrder, "h.game_id");
    // One statement, so the collection's rows are worked out once: the page is chosen from the narrow
    // rows (game id, achievement, sort key), then only its games are read whole; the filtered count
    // and the summary come from one pass over the collection, on every row (the page may be empty).
    const [rows] = await read<[(Row & PageCounts)[]]>([
      sql`${hits},
        counts AS (SELECT SUM(CASE WHEN ${where} THEN 1 ELSE 0 END) AS matched_count, COUNT(*) AS total_games,
          COALESCE(SUM(h.achieved), 0) AS achieved_games FROM h ${countGames}),
        page AS (SELECT h.game_id, h.achieved, h.achieved_at, ROW_NUMBER() OVER (ORDER BY ${order}) AS position
          FROM h LEFT JOIN games g ON g.id = h.game_id WHERE ${where} ORDER BY ${order} LIMIT ${limit.effectiveLimit} OFFSET ${pageOffset(args.page, limit)})
        SELECT c.matched_count, c.total_games, c.achieved_games, p.* FROM counts c LEFT JOIN (
          SELECT h.game_id, h.achieved, h.achieved_at, h.position, ${GAME_CORE_SELECT} FROM page h LEFT JOIN games g ON g.id = h.game_id ${GAME_LEFT_JOINS}
        ) p ON 1
        ORDER BY p.position`,
    ]);
    const counts = rows[0];
    // An empty page still brings its counts: one row without a game.
    const items = rows.flatMap(({ game_id: gameId, ...row }) =>
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
    const total = counts?.total_games ?? 0;
    const achieved = counts?.achieved_games ?? 0;
    return {
      ...pageOf(items, args.page, counts?.matched_count ?? 0, limit),
      summary: {
        totalGames: total,
        achievedGames: achieved,
        achievementRate: total === 0 ? 0 : Math.round((achieved / total) * 10_000) / 10_000,
        isCompleted: total > 0 && achieved === total,
      },
    };
  },
});
