import { z } from "zod";
import { notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { tagFieldArgs, tagSchema, toTag } from "./items";
import { findTag, insertTag } from "./queries";

export const addTag = defineTool({
  name: "addTag",
  family: "tags",
  title: "タグ追加",
  description: "Creates a tag to group games you own your way; add games with updateTagGames.",
  restNote: 'In REST, POST /rest/v1/addTag with {"name": ...}.',
  scopes: ["library:write"],
  plans: LIGHT_AND_ABOVE,
  kind: "write",
  destructive: false,
  // A repeat is 409 already_exists (names are unique).
  idempotent: true,
  nullIsOmission: true,
  input: z.strictObject(tagFieldArgs).partial().required({ name: true }),
  output: z.object({ item: tagSchema }),
  conflicts: ["already_exists"],
  async handler({ db, auth, now, upgradeUrl }, args) {
    const values = { name: args.name, nameKana: args.nameKana ?? null, color: args.color ?? null, description: args.description ?? null };
    const tagId = await insertTag(db, { ...auth, upgradeUrl }, values, now.toISOString());
    return { item: toTag(readBack(await findTag(db, auth.userId, tagId), () => notFound(`Your tag ${tagId}`))) };
  },
});
