import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { fingerprintsOf } from "../../platform/fingerprints";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { counted, quotedNames } from "../../platform/previewText";
import { defineTool } from "../../registry/defineTool";
import { pick } from "../shared/cascade";
import { findConsole } from "./queries";
import { consolesRemovalSql, maintenanceLogKeys, playsOnConsole, playsOnConsoleKeys } from "./removal";

export const removeConsole = defineTool({
  name: "removeConsole",
  family: "consoles",
  title: "所有ハード削除",
  description: "Removes one of your consoles with its maintenance logs (two-step); play records that name it lose the console.",
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
    const [[logs, detached], plays] = await Promise.all([
      fingerprintsOf(db, [maintenanceLogKeys(args.consoleId), playsOnConsoleKeys(auth.userId, args.consoleId)]),
      playsOnConsole(db, auth.userId, args.consoleId),
    ]);
    const withLogs = logs!.count ? ` and its ${counted(logs!.count, "maintenance log")}` : "";
    const losing = plays.length ? ` The play records of ${quotedNames(plays.map((p) => p.title))} lose their console.` : "";
    return confirmTwoStep(ctx, args, {
      targetRevision: [owned.updatedAt, logs!.fingerprint, detached!.fingerprint].join(":"),
      summary: `Removes your console '${owned.name}' with its platform list${withLogs}.${losing}`,
      async execute(marker) {
        await queryBatch(db, [marker, ...consolesRemovalSql(auth.userId, pick.one(args.consoleId), ctx.now.toISOString())]);
        return { consoleId: args.consoleId, removed: true as const };
      },
    });
  },
});
