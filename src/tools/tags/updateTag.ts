import { z } from "zod";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { positiveId, REVISION_NOTE, UPDATE_NOTE } from "../../platform/schemas";
import { givenFields } from "../../platform/updates";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { tagFieldArgs, tagSchema, toTag } from "./items";
import { findTag, patchTag, revisionConflict } from "./queries";

export const updateTag = defineTool({
  name: "updateTag",
  family: "tags",
  title: "タグ更新",
  description: "Changes a tag's name, reading, colour or description. Membership changes use updateTagGames.",
  restNote: "In REST, POST /rest/v1/updateTag with tagId and the fields to change.",
  scopes: ["library:write"],
  plans: LIGHT_AND_ABOVE,
  kind: "write",
  idempotent: true,
  input: z
    .strictObject({ tagId: positiveId, ...tagFieldArgs, revision: z.string().min(1).describe("From getTags; optional.") })
    .partial()
    .required({ tagId: true }),
  output: z.object({ item: tagSchema }),
  conflicts: ["already_exists", "revision_conflict"],
  notes: [UPDATE_NOTE, REVISION_NOTE],
  async handler({ db, auth, now }, { tagId, revision, ...changes }) {
    const tag = await findTag(db, auth.userId, tagId);
    if (!tag) throw notFound(`Your tag ${tagId}`);
    if (revision !== undefined && revision !== tag.revision) throw revisionConflict();
    await patchTag(db, auth.userId, tagId, givenFields(changes), revision, now.toISOString());
    return { item: toTag(readBack(await findTag(db, auth.userId, tagId), () => notFound(`Your tag ${tagId}`))) };
  },
});
