import { z } from "zod";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { UPDATE_NOTE } from "../../platform/schemas";
import { lazyToday } from "../../platform/timeZones";
import { givenFields } from "../../platform/updates";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { maintenanceFieldArgs, maintenanceLogSchema, toMaintenanceLog } from "./items";
import { findLog, patchLog } from "./queries";

export const updateConsoleMaintenanceLog = defineTool({
  name: "updateConsoleMaintenanceLog",
  family: "consoles",
  title: "メンテナンス記録更新",
  description: "Changes one maintenance log; moving it to DONE without completedDate records today.",
  restNote: "In REST, POST /rest/v1/updateConsoleMaintenanceLog with maintenanceLogId and the fields to change.",
  scopes: ["play:write"],
  plans: LIGHT_AND_ABOVE,
  kind: "write",
  // Not idempotent: every update moves updatedAt, even when the values are the ones stored.
  input: z
    .strictObject({ maintenanceLogId: z.string().min(1).max(40), ...maintenanceFieldArgs })
    .partial()
    .required({ maintenanceLogId: true }),
  output: z.object({ item: maintenanceLogSchema }),
  notes: [UPDATE_NOTE],
  async handler({ db, auth, now }, { maintenanceLogId, ...changes }) {
    const current = await findLog(db, auth.userId, maintenanceLogId);
    if (!current) throw notFound(`Your maintenance log ${maintenanceLogId}`);
    await patchLog(db, auth.userId, maintenanceLogId, givenFields(changes), now, lazyToday(db, auth.userId, now));
    return {
      item: toMaintenanceLog(
        readBack(await findLog(db, auth.userId, maintenanceLogId), () => notFound(`Your maintenance log ${maintenanceLogId}`)),
      ),
    };
  },
});
