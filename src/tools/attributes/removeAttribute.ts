import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { invalidInput, notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { text } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { countCarriers, deleteOwnAttribute, findOwnAttribute, systemAttribute } from "./queries";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const removeAttribute = defineTool({
  name: "removeAttribute",
  family: "attributes",
  title: "属性削除",
  description:
    "Removes one of your own attribute labels, in two steps: the first call only previews what goes; call again with the same arguments plus its confirmToken to remove it. System labels cannot be removed.",
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
    const { entries, copies } = await countCarriers(db, auth.userId, own.id);
    const carriers = [
      entries && plural(entries, "library entry", "library entries"),
      copies && plural(copies, "physical copy", "physical copies"),
    ]
      .filter(Boolean)
      .join(" and ");
    return confirmTwoStep(ctx, args, {
      targetRevision: `${own.id}:${own.label}:${entries}:${copies}`,
      summary: `Removes your attribute '${own.label}'${carriers ? ` and takes it off ${carriers}` : ""}.`,
      async execute(marker) {
        await deleteOwnAttribute(db, auth.userId, own.id, marker);
        return { id: own.id, removed: true as const };
      },
    });
  },
});
