import { z } from "zod";
import { queryBatch } from "../../platform/db";
import { normalizeSearchText } from "../../platform/normalize";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { searchText } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { type PublisherPageRow, publisherPageQueries } from "./queries";
import { publisherObjectShape } from "./shared";

const PAGING: Paging = { cap: 100, defaultLimit: 50 };

export const listPublishers = defineTool({
  name: "listPublishers",
  family: "games",
  title: "メーカー一覧",
  description: "Lists publishers (official, then your custom ones) for publisherId, optionally those matching the query.",
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
    const page = pageWindow(args.page, limit);
    const [rows, total] = await queryBatch<[PublisherPageRow[], { n: number }[]]>(db, publisherPageQueries(auth.userId, term, page));
    return pageOf(
      rows.map((row) => ({ companyId: row.id, name: row.name, nameKana: row.name_kana, nameEn: row.name_en, custom: row.custom === 1 })),
      args.page,
      total[0]?.n ?? 0,
      limit,
    );
  },
});
