import { z } from "zod";
import { sortArgs } from "../../platform/keyset";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { orderedRanges, SORT_NOTE } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { CONSOLE_FIELD_GROUPS, type ConsoleFieldGroup, consoleSchema, toConsoleItem } from "./items";
import { CONSOLE_RANGES, CONSOLE_SORTS, consoleConditions, consoleFilterArgs, consolePage, platformsOf } from "./queries";

const PAGING: Paging = { cap: 200, defaultLimit: 50 };

export const getConsoles = defineTool({
  name: "getConsoles",
  family: "consoles",
  title: "所有ハード一覧",
  description:
    "Lists the consoles (hardware) you own, best rated first by default, filtered by name, maker, rating, purchase date and price; maintenance logs are getConsoleMaintenanceLogs'.",
  restNote: "In REST, fields= with no value gives consoleId, name, rating and publisherName only.",
  scopes: ["play:read"],
  plans: LIGHT_AND_ABOVE,
  kind: "read",
  paging: PAGING,
  input: z
    .strictObject({
      ...consoleFilterArgs,
      ...sortArgs(CONSOLE_SORTS),
      ...pageArgs(PAGING),
      fields: z.array(z.enum(CONSOLE_FIELD_GROUPS)).optional().describe("Default: purchase. memo adds memo and nameKana."),
    })
    .superRefine(orderedRanges(CONSOLE_RANGES)),
  output: pagedEnvelope(consoleSchema),
  notes: [SORT_NOTE],
  async handler({ db, auth, pageLimit }, args) {
    const groups = new Set<ConsoleFieldGroup>(args.fields ?? ["purchase"]);
    const limit = pageLimit(args.limit);
    const sort = CONSOLE_SORTS.of(args.sortBy, args.sortOrder);
    const page = pageWindow(args.page, limit);
    const { rows, totalCount } = await consolePage(db, consoleConditions(auth.userId, args), sort, page);
    const platforms = groups.has("platforms")
      ? await platformsOf(
          db,
          rows.map((row) => row.id),
        )
      : new Map();
    return pageOf(
      rows.map((row) => toConsoleItem(row, groups, platforms.get(row.id))),
      args.page,
      totalCount,
      limit,
    );
  },
});
