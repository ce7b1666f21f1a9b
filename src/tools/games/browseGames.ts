import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryBatch } from "../../platform/db";
import { type PageCap, type Paging, pageArgs, pageEnvelopeFields, pageOf, pageOffset } from "../../platform/paging";
import { PREMIUM_ONLY } from "../../platform/plans";
import { isoDate, orderedRanges, positiveId, searchText } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { type GameFieldGroup, type GameRecord, gameFieldsArg, gameSchema, toGame } from "./gameObject";
import {
  allOf,
  type CoverageRows,
  coverageFrom,
  coverageQueries,
  GAME_JOINS,
  GAME_RANK_G,
  GAME_SELECT,
  GAME_VIEW,
  GAMES_G,
  groupsOf,
  joinGame,
  readGameConditions,
  visibleTo,
} from "./queries";
import { queryTermsCondition } from "./searchQuery";
import { coverageSchema, DEFAULT_GAME_FIELDS } from "./shared";

const PAGING: Paging = { cap: 100, defaultLimit: 20 };
const { game: g } = GAME_VIEW;

/** Detailed field groups make rows heavy, so they shrink the page. */
function fieldCaps(groups: ReadonlySet<GameFieldGroup>): PageCap[] {
  const caps: PageCap[] = [];
  if (groups.has("editions") || groups.has("specs") || groups.has("supportGenre")) {
    caps.push({ cap: 50, reason: "editions, specs and supportGenre cap the page at 50" });
  }
  if (groups.has("externalLinks")) caps.push({ cap: 25, reason: "externalLinks caps the page at 25" });
  return caps;
}

/**
 * Each order is one an index serves, so a page is read in order and stops at its limit. Undated
 * games come last both ways: SQLite sorts NULL first ascending, so ascending says so explicitly
 * (games_release_nulls_last_idx), and descending gets it by itself.
 */
const ORDER = {
  releaseDate: {
    asc: sql`${g.releaseDate} IS NULL, ${g.releaseDate}, ${g.id}`,
    desc: sql`${g.releaseDate} DESC, ${g.id} DESC`,
  },
  title: { asc: sql`${g.sortKey}, ${g.id}`, desc: sql`${g.sortKey} DESC, ${g.id} DESC` },
};

/** With no condition beyond platforms, the total comes from per-platform counts instead of a count. */
const countsByPlatform = (args: {
  query?: string;
  publisherId?: number;
  genreId?: number;
  releaseDateFrom?: string;
  releaseDateTo?: string;
}) => [args.query, args.publisherId, args.genreId, args.releaseDateFrom, args.releaseDateTo].every((value) => value === undefined);

function totalOnPlatforms(counts: ReadonlyMap<number, number>, platformIds: readonly number[] | undefined): number {
  const platforms = platformIds?.length ? new Set(platformIds) : new Set(counts.keys());
  return [...platforms].reduce((sum, id) => sum + (counts.get(id) ?? 0), 0);
}

export const browseGames = defineTool({
  name: "browseGames",
  family: "games",
  title: "ゲーム一覧",
  description:
    "Lists official and your custom games by platform, publisher, genre and release dates, sorted and paged; to find a title, use searchGames.",
  restNote: "In REST, arrays in GET are comma-separated (platformIds=1,2).",
  scopes: ["games:read"],
  plans: PREMIUM_ONLY,
  kind: "read",
  paging: PAGING,
  input: z
    .strictObject({
      query: searchText(100).optional().describe("Narrows to games whose title, reading, English title or alias contains every term."),
      platformIds: z.array(positiveId).max(10).optional(),
      publisherId: positiveId.optional(),
      genreId: positiveId.optional().describe("Works for main and support genres."),
      releaseDateFrom: isoDate.optional(),
      releaseDateTo: isoDate.optional(),
      sortBy: z.enum(["releaseDate", "title"]).default("releaseDate").describe("title sorts by reading."),
      sortOrder: z.enum(["asc", "desc"]).default("asc"),
      ...pageArgs(PAGING),
      fields: gameFieldsArg,
    })
    .superRefine(orderedRanges([["releaseDateFrom", "releaseDateTo"]])),
  output: z.object({ items: z.array(gameSchema), ...pageEnvelopeFields, generation: z.string(), coverage: coverageSchema }),
  notes: ["The default fields cap the page at 50, externalLinks at 25."],
  async handler({ db, auth, pageLimit, env }, args) {
    const groups = groupsOf(args.fields, DEFAULT_GAME_FIELDS);
    const limit = pageLimit(args.limit, fieldCaps(groups));
    const conditions = [visibleTo(auth.userId), ...(await readGameConditions(db, args))];
    if (args.query) conditions.push(queryTermsCondition(args.query));
    const where = allOf(conditions);
    const order = ORDER[args.sortBy][args.sortOrder];
    const byPlatform = countsByPlatform(args);
    const [rows, ...rest] = await queryBatch<[GameRecord[], ...CoverageRows, { n: number }[]]>(db, [
      // Ids first, game columns for the page only. CROSS JOIN keeps the page as the outer loop:
      // otherwise SQLite may walk every game in the order's index to find the page's few rows.
      // raw SQL: a CTE page with CROSS JOIN and GAME_SELECT's aliased joins.
      sql`WITH page AS (SELECT ${g.id} FROM ${GAMES_G} WHERE ${where}
          ORDER BY ${order} LIMIT ${limit.effectiveLimit} OFFSET ${pageOffset(args.page, limit)})
        SELECT ${GAME_SELECT} FROM page ${joinGame("CROSS JOIN", "page.id")} ${GAME_JOINS} ORDER BY ${order}`,
      ...coverageQueries(auth.userId),
      // game_rank has the filter columns under the same names, in rows a fraction of the width.
      // raw SQL: the shared game filters are written over the alias g (queries.ts).
      ...(byPlatform ? [] : [sql`SELECT COUNT(*) AS n FROM ${GAME_RANK_G} WHERE ${where}`]),
    ]);
    const [generations, customGames, counted] = rest;
    const { generation, coverage, gamesPerPlatform } = await coverageFrom(db, [generations, customGames], env.MASTER_DATA_CREDIT);
    const totalCount = byPlatform ? totalOnPlatforms(gamesPerPlatform, args.platformIds) : (counted[0]?.n ?? 0);
    return {
      ...pageOf(
        rows.map((row) => toGame(row, groups)),
        args.page,
        totalCount,
        limit,
      ),
      generation,
      coverage,
    };
  },
});
