import { z } from "zod";
import { confirmTokenArg, confirmTwoStep, removalResult, TWO_STEP_NOTE } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { counted, quotedNames } from "../../platform/previewText";
import { positiveId } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { collectionsOnTag } from "../collections/queries";
import { pick } from "../shared/cascade";
import { findTag } from "./queries";
import { tagsRemovalSql } from "./removal";

export const removeTag = defineTool({
  name: "removeTag",
  family: "tags",
  title: "タグ削除",
  description: "Removes a tag (two-step); the games stay in your library.",
  restNote: 'In REST, POST /rest/v1/removeTag with {"tagId": ...}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: LIGHT_AND_ABOVE,
  kind: "delete",
  input: z.strictObject({ tagId: positiveId, confirmToken: confirmTokenArg }),
  output: removalResult({ tagId: z.number().int() }),
  notes: [TWO_STEP_NOTE, "The TAG collections built on the tag go with it (the preview names them)."],
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const tag = await findTag(db, auth.userId, args.tagId);
    if (!tag) throw notFound(`Your tag ${args.tagId}`);
    const collections = await collectionsOnTag(db, auth.userId, args.tagId);
    const alsoGoes = collections.length
      ? ` Also removes the TAG ${collections.length === 1 ? "collection" : "collections"} built on it: ${quotedNames(collections.map((c) => c.name))}.`
      : "";
    return confirmTwoStep(ctx, args, {
      targetRevision: [tag.revision, ...collections.map((c) => `${c.id}@${c.revision}`)].join(":"),
      summary: `Removes your tag '${tag.name}' from ${counted(tag.game_count, "game")}; the games stay in your library.${alsoGoes}`,
      async execute(marker) {
        await queryBatch(db, [marker, ...tagsRemovalSql(auth.userId, pick.one(args.tagId))]);
        return { tagId: args.tagId, removed: true as const };
      },
    });
  },
});
