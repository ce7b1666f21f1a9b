import { z } from "zod";
import { notFound } from "../../platform/errors";
import { limitArg, pageArg, pagedEnvelope, pageOf, pageOffset, resolveLimit } from "../../platform/paging";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { logPage, maintenanceLogSchema, toMaintenanceLog } from "./maintenance";
import { findConsole } from "./queries";

const CAP = 200;
const DEFAULT_LIMIT = 50;

export const getConsoleMaintenanceLogs = defineTool({
  name: "getConsoleMaintenanceLogs",
  family: "consoles",
  title: "メンテナンス履歴",
  description: "Lists the maintenance logs of one of your consoles (cleaning, repairs, battery swaps), newest first.",
  restNote: "In REST, GET /rest/v1/getConsoleMaintenanceLogs?consoleId=...",
  scopes: ["play:read"],
  plans: LIGHT_AND_ABOVE,
  kind: "read",
  input: z.strictObject({ consoleId: z.string().min(1).max(40), page: pageArg, limit: limitArg(CAP, DEFAULT_LIMIT) }),
  output: pagedEnvelope(maintenanceLogSchema),
  notes: ["Order: the completed (else scheduled, else logged) date, newest first."],
  async handler({ db, auth }, args) {
    if (!(await findConsole(db, auth.userId, args.consoleId))) throw notFound(`Your console ${args.consoleId}`);
    const limit = resolveLimit(args.limit, DEFAULT_LIMIT, [
      { cap: CAP, reason: `getConsoleMaintenanceLogs returns at most ${CAP} per page` },
    ]);
    const { rows, totalCount } = await logPage(db, args.consoleId, { limit: limit.effectiveLimit, offset: pageOffset(args.page, limit) });
    return pageOf(rows.map(toMaintenanceLog), args.page, totalCount, limit);
  },
});
