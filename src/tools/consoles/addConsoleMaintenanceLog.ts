import { z } from "zod";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { lazyToday } from "../../platform/timeZones";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { maintenanceFieldArgs, maintenanceLogSchema, toMaintenanceLog } from "./items";
import { findConsole, findLog, insertLog, withDoneDate } from "./queries";

export const addConsoleMaintenanceLog = defineTool({
  name: "addConsoleMaintenanceLog",
  family: "consoles",
  title: "メンテナンス記録追加",
  description: "Records maintenance of one of your consoles, planned (SCHEDULED, the default) or done (DONE).",
  restNote: 'In REST, POST /rest/v1/addConsoleMaintenanceLog with {"consoleId": ..., "title": ...}.',
  scopes: ["play:write"],
  plans: LIGHT_AND_ABOVE,
  kind: "write",
  destructive: false,
  nullIsOmission: true,
  input: z
    .strictObject({ consoleId: z.string().min(1).max(40), ...maintenanceFieldArgs })
    .partial()
    .required({ consoleId: true, title: true }),
  output: z.object({ item: maintenanceLogSchema }),
  async handler({ db, auth, now }, args) {
    if (!(await findConsole(db, auth.userId, args.consoleId))) throw notFound(`Your console ${args.consoleId}`);
    const values = await withDoneDate(
      {
        title: args.title,
        memo: args.memo ?? null,
        status: args.status ?? "SCHEDULED",
        scheduledDate: args.scheduledDate ?? null,
        completedDate: args.completedDate ?? null,
      },
      lazyToday(db, auth.userId, now),
    );
    const id = await insertLog(db, auth.userId, args.consoleId, values, now.toISOString());
    return { item: toMaintenanceLog(readBack(await findLog(db, auth.userId, id), () => notFound(`Your console ${args.consoleId}`))) };
  },
});
