import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryBatch } from "../../platform/db";
import { normalizeSearchText } from "../../platform/normalize";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageOffset } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { searchText } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { publisherObjectShape } from "./shared";

const PAGING: Paging = { cap: 100, defaultLimit: 50 };

export const listPublishers = defineTool({
  name: "listPublishers",
  family: "games",
  title: "メーカー一覧",
  description:
    "Lists publishers (official ones and your custom ones), optionally those whose name, kana reading or English name contains the query, for use as publisherId.",
  restNote: "In REST, call GET /rest/v1/listPublishers?query=...",
  scopes: ["games:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({
    query: searchText(50).optional().describe("Part of the name, kana reading or English name; width, kana and case are ignored."),
    ...pageArgs(PAGING),
  }),
  output: pagedEnvelope(z.object({ ...publisherObjectShape, custom: z.boolean() })),
  async handler({ db, auth, pageLimit }, args) {
    const limit = pageLimit(args.limit);
    const term = args.query === undefined ? "" : normalizeSearchText(args.query);
    const where = sql`(owner_user_id IS NULL OR owner_user_id = ${auth.userId}) AND instr(search_text, ${term}) > 0`;
    const [rows, total] = await queryBatch<
      [{ companyId: number; name: string; nameKana: string | null; nameEn: string | null; custom: number }[], { n: number }[]]
    >(db, [
      sql`
        SELECT id AS companyId, name, name_kana AS nameKana, name_en AS nameEn, owner_user_id IS NOT NULL AS custom
        FROM companies WHERE ${where} ORDER BY owner_user_id IS NOT NULL, id
        LIMIT ${limit.effectiveLimit} OFFSET ${pageOffset(args.page, limit)}`,
      sql`SELECT COUNT(*) AS n FROM companies WHERE ${where}`,
    ]);
    return pageOf(
      rows.map((row) => ({ ...row, custom: row.custom === 1 })),
      args.page,
      total[0]?.n ?? 0,
      limit,
    );
  },
});
