import { z } from "zod";
import { queryBatch } from "../../platform/db";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { type CoverageRows, coverageFrom, coverageQueries, type PlatformPageRow, platformPageQueries } from "./queries";
import { platformObjectShape } from "./shared";

const PAGING: Paging = { cap: 100, defaultLimit: 100 };

export const listPlatforms = defineTool({
  name: "listPlatforms",
  family: "games",
  title: "機種一覧",
  description: "Lists the platforms (official, then your custom ones) with their game counts, for platformIds.",
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
    const page = pageWindow(args.page, limit);
    const [rows, total, ...coverageRows] = await queryBatch<[PlatformPageRow[], { n: number }[], ...CoverageRows]>(db, [
      ...platformPageQueries(auth.userId, page),
      ...coverageQueries(auth.userId),
    ]);
    const { gamesPerPlatform } = await coverageFrom(db, coverageRows);
    const items = rows.map((row) => ({
      platformId: row.id,
      name: row.name,
      nameEn: row.name_en,
      shortName: row.short_name,
      maker: row.maker,
      releaseDate: row.release_date,
      custom: row.custom === 1,
      gameCount: gamesPerPlatform.get(row.id) ?? 0,
    }));
    return pageOf(items, args.page, total[0]?.n ?? 0, limit);
  },
});
