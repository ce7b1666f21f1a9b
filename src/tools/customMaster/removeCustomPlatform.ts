import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { PREMIUM_ONLY } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { PLATFORM, deleteCustomPlatform, findCustom, notYours, platformInUse, platformUsage } from "./queries";
import { platformIdArg } from "./shared";

export const removeCustomPlatform = defineTool({
  name: "removeCustomPlatform",
  family: "customMaster",
  title: "カスタム機種削除",
  description:
    "Removes one of your custom platforms, in two steps: the first call only previews what goes; call again with the same arguments plus its confirmToken to remove it. A platform your custom games or collections still use cannot be removed (400 naming platformId); consoles simply stop listing it.",
  restNote: "In REST, POST /rest/v1/removeCustomPlatform with {\"platformId\": ...}, then again with confirmToken.",
  scopes: ["library:delete"],
  plans: PREMIUM_ONLY,
  kind: "delete",
  input: z.strictObject({ platformId: platformIdArg, confirmToken: confirmTokenArg }),
  output: removalResult({ platformId: z.number().int() }),
  notes: [TWO_STEP_NOTE, "Move or remove the custom games and PLATFORM collections on it first."],
  async handler({ db, env, auth, now }, args) {
    const platform = await findCustom(db, PLATFORM, auth.userId, args.platformId);
    if (!platform) throw notYours(PLATFORM, args.platformId);
    const { name } = platform.fields;
    const usage = await platformUsage(db, auth.userId, args.platformId);
    if (usage.games || usage.collections) throw platformInUse(name, args.platformId, usage);
    const consoles = usage.consoles ? ` ${usage.consoles === 1 ? "1 console stops" : `${usage.consoles} consoles stop`} listing it.` : "";
    return confirmTwoStep({ kv: env.KV, db, auth, now }, "removeCustomPlatform", args, {
      targetRevision: `${platform.revision}:${usage.consoles}`,
      summary: `Removes your custom platform '${name}'.${consoles}`,
      async execute(marker) {
        await deleteCustomPlatform(db, auth.userId, args.platformId, name, now.toISOString(), marker);
        return { platformId: args.platformId, removed: true as const };
      },
    });
  },
});
