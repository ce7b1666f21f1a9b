import { z } from "zod";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { CONSOLE_FIELD_GROUPS, consoleFieldArgs, consoleSchema } from "./items";
import { checkPlatformPriorities, insertConsole, renderConsole } from "./queries";

export const addConsole = defineTool({
  name: "addConsole",
  family: "consoles",
  title: "所有ハード追加",
  description: "Adds a console (hardware) you own, with the platforms it plays and your priority for each.",
  restNote: 'In REST, POST /rest/v1/addConsole with {"name": ...}.',
  scopes: ["play:write"],
  plans: LIGHT_AND_ABOVE,
  kind: "write",
  destructive: false,
  nullIsOmission: true,
  input: z.strictObject(consoleFieldArgs).partial().required({ name: true }),
  output: z.object({ item: consoleSchema }),
  notes: ["How many consoles you may keep depends on the plan."],
  async handler({ db, auth, now, upgradeUrl }, args) {
    const values = {
      name: args.name,
      nameKana: args.nameKana ?? null,
      memo: args.memo ?? null,
      rating: args.rating ?? null,
      buyDate: args.buyDate ?? null,
      buyPrice: args.buyPrice ?? null,
      buyPlace: args.buyPlace ?? null,
      publisherName: args.publisherName ?? null,
      platformPriorities: args.platformPriorities ?? [],
    };
    await checkPlatformPriorities(db, auth.userId, values.platformPriorities);
    const consoleId = await insertConsole(db, { ...auth, upgradeUrl }, values, now.toISOString());
    return { item: await renderConsole(db, auth.userId, consoleId, CONSOLE_FIELD_GROUPS) };
  },
});
