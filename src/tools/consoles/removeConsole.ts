import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { playsOnConsole } from "../shared/dependentRecords";
import { countLogs, deleteConsole, findConsole } from "./queries";

export const removeConsole = defineTool({
  name: "removeConsole",
  family: "consoles",
  title: "所有ハード削除",
  description:
    "Removes one of your consoles with its maintenance logs, in two steps: the first call only previews what goes; call again with the same arguments plus its confirmToken.",
  restNote: 'In REST, POST /rest/v1/removeConsole with {"consoleId": ...}, then again with confirmToken.',
  scopes: ["play:delete"],
  plans: LIGHT_AND_ABOVE,
  kind: "delete",
  input: z.strictObject({ consoleId: z.string().min(1).max(40), confirmToken: confirmTokenArg }),
  output: removalResult({ consoleId: z.string() }),
  notes: [TWO_STEP_NOTE],
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const owned = await findConsole(db, auth.userId, args.consoleId);
    if (!owned) throw notFound(`Your console ${args.consoleId}`);
    const [logs, plays] = await Promise.all([countLogs(db, args.consoleId), playsOnConsole(db, auth.userId, args.consoleId)]);
    const detached = plays.length ? ` The play records of ${plays.map((p) => `'${p.title}'`).join(", ")} lose their console.` : "";
    return confirmTwoStep(ctx, args, {
      targetRevision: `${owned.updatedAt}:${logs}:${plays.length}`,
      summary: `Removes your console '${owned.name}'${logs ? ` and its ${logs} maintenance ${logs === 1 ? "log" : "logs"}` : ""}.${detached}`,
      async execute(marker) {
        await deleteConsole(db, auth.userId, args.consoleId, marker);
        return { consoleId: args.consoleId, removed: true as const };
      },
    });
  },
});
