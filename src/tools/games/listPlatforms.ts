import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryBatch } from "../../platform/db";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageOffset } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { type CoverageRows, coverageFrom, coverageQueries } from "./queries";
import { platformObjectShape } from "./shared";

const PAGING: Paging = { cap: 100, defaultLimit: 100 };

export const listPlatforms = defineTool({
  name: "listPlatforms",
  family: "games",
  title: "機種一覧",
  description: "Lists the platforms (official ones, then your custom ones) with how many games each has, for use as platformIds.",
  restNote: "In REST, call GET /rest/v1/listPlatforms.",
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ ...pageArgs(PAGING) }),
  output: pagedEnvelope(
    z.object({
      ...platformObjectShape,
      custom: z.boolean(),
      gameCount: z.number().int().describe("Games you can see on this platform."),
    }),
  ),
  async handler({ db, auth, pageLimit }, args) {
    const limit = pageLimit(args.limit);
    const visible = sql`(owner_user_id IS NULL OR owner_user_id = ${auth.userId})`;
    type PlatformRow = {
      platformId: number;
      name: string;
      nameEn: string | null;
      shortName: string | null;
      maker: string | null;
      releaseDate: string | null;
      custom: number;
    };
    const [rows, total, ...coverageRows] = await queryBatch<[PlatformRow[], { n: number }[], ...CoverageRows]>(db, [
      sql`
        SELECT id AS platformId, name, name_en AS nameEn, short_name AS shortName, maker, release_date AS releaseDate,
          owner_user_id IS NOT NULL AS custom
        FROM platforms WHERE ${visible} ORDER BY owner_user_id IS NOT NULL, id
        LIMIT ${limit.effectiveLimit} OFFSET ${pageOffset(args.page, limit)}`,
      sql`SELECT COUNT(*) AS n FROM platforms WHERE ${visible}`,
      ...coverageQueries(auth.userId),
    ]);
    const { gamesPerPlatform } = await coverageFrom(db, coverageRows);
    const items = rows.map((row) => ({ ...row, custom: row.custom === 1, gameCount: gamesPerPlatform.get(row.platformId) ?? 0 }));
    return pageOf(items, args.page, total[0]?.n ?? 0, limit);
  },
});
