import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { PREMIUM_ONLY } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { PUBLISHER, deleteCustomPublisher, findCustom, notYours, publisherGameCount } from "./queries";
import { companyIdArg } from "./shared";

export const removeCustomPublisher = defineTool({
  name: "removeCustomPublisher",
  family: "customMaster",
  title: "カスタムメーカー削除",
  description:
    "Removes one of your custom publishers, in two steps: the first call only previews what goes (and how many of your custom games lose it as publisher); call again with the same arguments plus its confirmToken to remove it.",
  restNote: "In REST, POST /rest/v1/removeCustomPublisher with {\"companyId\": ...}, then again with confirmToken.",
  scopes: ["library:delete"],
  plans: PREMIUM_ONLY,
  kind: "delete",
  input: z.strictObject({ companyId: companyIdArg, confirmToken: confirmTokenArg }),
  output: removalResult({ companyId: z.number().int() }),
  notes: [TWO_STEP_NOTE, "Custom games that name it keep existing with publisherId null."],
  async handler({ db, env, auth, now }, args) {
    const publisher = await findCustom(db, PUBLISHER, auth.userId, args.companyId);
    if (!publisher) throw notYours(PUBLISHER, args.companyId);
    const games = await publisherGameCount(db, auth.userId, args.companyId);
    const cleared = games ? ` ${games === 1 ? "1 of your custom games keeps" : `${games} of your custom games keep`} existing without a publisher.` : "";
    return confirmTwoStep({ kv: env.KV, db, auth, now }, "removeCustomPublisher", args, {
      targetRevision: `${publisher.revision}:${games}`,
      summary: `Removes your custom publisher '${publisher.fields.name}'.${cleared}`,
      async execute(marker) {
        await deleteCustomPublisher(db, auth.userId, args.companyId, marker);
        return { companyId: args.companyId, removed: true as const };
      },
    });
  },
});
