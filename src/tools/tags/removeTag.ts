import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { deleteTagSql, findTag } from "./queries";

export const removeTag = defineTool({
  name: "removeTag",
  family: "tags",
  title: "タグ削除",
  description:
    "Removes a tag, in two steps: the first call only previews; call again with the same arguments plus its confirmToken. The games stay in your library.",
  restNote: 'In REST, POST /rest/v1/removeTag with {"tagId": ...}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: LIGHT_AND_ABOVE,
  kind: "delete",
  input: z.strictObject({ tagId: positiveId, confirmToken: confirmTokenArg }),
  output: removalResult({ tagId: z.number().int() }),
  notes: [TWO_STEP_NOTE],
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const tag = await findTag(db, auth.userId, args.tagId);
    if (!tag) throw notFound(`Your tag ${args.tagId}`);
    return confirmTwoStep(ctx, args, {
      targetRevision: tag.revision,
      summary: `Removes your tag '${tag.name}' from ${tag.game_count} ${tag.game_count === 1 ? "game" : "games"}; the games stay in your library.`,
      async execute(marker) {
        await queryBatch(db, [marker, ...deleteTagSql(auth.userId, args.tagId)]);
        return { tagId: args.tagId, removed: true as const };
      },
    });
  },
});
