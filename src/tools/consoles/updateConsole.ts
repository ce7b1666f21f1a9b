import { z } from "zod";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { UPDATE_NOTE } from "../../platform/schemas";
import { givenFields } from "../../platform/updates";
import { defineTool } from "../../registry/defineTool";
import { CONSOLE_FIELD_GROUPS, consoleFieldArgs, consoleSchema } from "./items";
import { checkPlatformPriorities, findConsole, patchConsole, renderConsole } from "./queries";

export const updateConsole = defineTool({
  name: "updateConsole",
  family: "consoles",
  title: "所有ハード更新",
  description: "Changes one of your consoles; platformPriorities replaces the whole set.",
  restNote: "In REST, POST /rest/v1/updateConsole with consoleId and the fields to change.",
  scopes: ["play:write"],
  plans: LIGHT_AND_ABOVE,
  kind: "write",
  // Not idempotent: every update moves updatedAt, even when the values are the ones stored.
  input: z
    .strictObject({ consoleId: z.string().min(1).max(40), ...consoleFieldArgs })
    .partial()
    .required({ consoleId: true }),
  output: z.object({ item: consoleSchema }),
  notes: [UPDATE_NOTE],
  async handler({ db, auth, now }, { consoleId, ...changes }) {
    const current = await findConsole(db, auth.userId, consoleId);
    if (!current) throw notFound(`Your console ${consoleId}`);
    if (changes.platformPriorities !== undefined) await checkPlatformPriorities(db, auth.userId, changes.platformPriorities);
    await patchConsole(db, auth.userId, consoleId, givenFields(changes), now.toISOString());
    return { item: await renderConsole(db, auth.userId, consoleId, CONSOLE_FIELD_GROUPS) };
  },
});
