import { queryBatch } from "../../platform/db";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { limitArg, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";

const CAP = 100;

export const listPlatforms = defineTool({
  name: "listPlatforms",
  family: "games",
  title: "機種一覧",
  description: "Lists the platforms (official ones, then your custom ones) with how many games each has, for use as platformIds.",
  restNote: "In REST, call GET /rest/v1/listPlatforms.",
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  input: z.strictObject({ page: pageArg, limit: limitArg(CAP, CAP) }),
  output: pagedEnvelope(
    z.object({
      platformId: z.number().int(),
      name: z.string(),
      nameEn: z.string().nullable(),
      shortName: z.string().nullable(),
      maker: z.string().nullable(),
      releaseDate: z.string().nullable(),
      custom: z.boolean(),
      gameCount: z.number().int().describe("Games you can see on this platform."),
    }),
  ),
  async handler({ db, auth }, args) {
    const limit = resolveLimit(args.limit, CAP, [{ cap: CAP, reason: `listPlatforms returns at most ${CAP} per page` }]);
    const visible = sql`(owner_user_id IS NULL OR owner_user_id = ${auth.userId})`;
    const [rows, total] = await queryBatch<[{ platformId: number; name: string; nameEn: string | null; shortName: string | null; maker: string | null; releaseDate: string | null; custom: number; gameCount: number }[], { n: number }[]]>(db, [
      sql`
        SELECT p.id AS platformId, p.name, p.name_en AS nameEn, p.short_name AS shortName, p.maker, p.release_date AS releaseDate,
          p.owner_user_id IS NOT NULL AS custom,
          (SELECT COUNT(*) FROM games g WHERE g.platform_id = p.id AND (g.owner_user_id IS NULL OR g.owner_user_id = ${auth.userId})) AS gameCount
        FROM platforms p WHERE ${visible} ORDER BY p.owner_user_id IS NOT NULL, p.id
        LIMIT ${limit.effectiveLimit} OFFSET ${pageOffset(args.page, limit)}`,
      sql`SELECT COUNT(*) AS n FROM platforms WHERE ${visible}`,
    ]);
    const items = rows.map((row) => ({ ...row, custom: row.custom === 1 }));
    return pageOf(items, args.page, total[0]?.n ?? 0, limit);
  },
});
