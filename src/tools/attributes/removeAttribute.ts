import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { invalidInput, notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { counted, listed } from "../../platform/previewText";
import { text } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { carriersOf, deleteOwnAttribute, findOwnAttribute, systemAttribute } from "./queries";

export const removeAttribute = defineTool({
  name: "removeAttribute",
  family: "attributes",
  title: "属性削除",
  description:
    "Removes one of your own attribute labels (two-step), taking it off every entry, copy and play record that carries it; system labels stay.",
  restNote: 'In REST, POST /rest/v1/removeAttribute with {"attribute": id or label}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: ALL_PLANS,
  kind: "delete",
  input: z.strictObject({
    attribute: text(40).describe("Your attribute's id or exact label."),
    confirmToken: confirmTokenArg,
  }),
  output: removalResult({ id: z.string() }),
  notes: [TWO_STEP_NOTE],
  async handler(ctx, args) {
    const { db, auth } = ctx;
    if (systemAttribute(args.attribute)) throw invalidInput("attribute", "attribute: system labels cannot be removed.");
    const own = await findOwnAttribute(db, auth.userId, args.attribute);
    if (!own) throw notFound(`Your attribute '${args.attribute}'`);
    const { entries, copies, plays } = await carriersOf(db, auth.userId, own.id);
    const carriers = listed([
      entries.count && counted(entries.count, "library entry", "library entries"),
      copies.count && counted(copies.count, "physical copy", "physical copies"),
      plays.count && counted(plays.count, "play record"),
    ]);
    return confirmTwoStep(ctx, args, {
      targetRevision: [own.id, own.label, entries.fingerprint, copies.fingerprint, plays.fingerprint].join(":"),
      summary: `Removes your attribute '${own.label}'${carriers ? ` and takes it off ${carriers}` : ""}.`,
      async execute(marker) {
        await deleteOwnAttribute(db, auth.userId, own.id, ctx.now.toISOString(), marker);
        return { id: own.id, removed: true as const };
      },
    });
  },
});
