import { z } from "zod";
import { notFound } from "../../platform/errors";
import { type Paging, pageArgs, pagedEnvelope, pageOf, pageWindow } from "../../platform/paging";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { maintenanceLogSchema, toMaintenanceLog } from "./items";
import { findConsole, logPage } from "./queries";

const PAGING: Paging = { cap: 200, defaultLimit: 50 };

export const getConsoleMaintenanceLogs = defineTool({
  name: "getConsoleMaintenanceLogs",
  family: "consoles",
  title: "メンテナンス履歴",
  description: "Lists the maintenance logs of one of your consoles (cleaning, repairs, battery swaps).",
  restNote: "In REST, GET /rest/v1/getConsoleMaintenanceLogs?consoleId=...",
  scopes: ["play:read"],
  plans: LIGHT_AND_ABOVE,
  kind: "read",
  paging: PAGING,
  input: z.strictObject({ consoleId: z.string().min(1).max(40), ...pageArgs(PAGING) }),
  output: pagedEnvelope(maintenanceLogSchema),
  notes: ["Newest first by the completed, else scheduled, else logged date."],
  async handler({ db, auth, pageLimit }, args) {
    if (!(await findConsole(db, auth.userId, args.consoleId))) throw notFound(`Your console ${args.consoleId}`);
    const limit = pageLimit(args.limit);
    const { rows, totalCount } = await logPage(db, args.consoleId, pageWindow(args.page, limit));
    return pageOf(rows.map(toMaintenanceLog), args.page, totalCount, limit);
  },
});
