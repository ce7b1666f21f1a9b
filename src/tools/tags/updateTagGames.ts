import { z } from "zod";
import { guardStatement, runGuarded } from "../../platform/db";
import { ApiError, invalidInput, notFound } from "../../platform/errors";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { positiveId, REVISION_NOTE } from "../../platform/schemas";
import { readBack } from "../../platform/writes";
import { defineTool } from "../../registry/defineTool";
import { allOwnedGuard } from "../shared/restoreReads";
import {
  checkOwned,
  countTagged,
  findTag,
  revisionConflict,
  TAG_GAME_LIMIT,
  tagGamesStatements,
  tagStillThereSql,
  tagWithinLimitSql,
} from "./queries";

export const updateTagGames = defineTool({
  name: "updateTagGames",
  family: "tags",
  title: "タグのゲーム更新",
  description:
    "Adds games you own to a tag, removes them, or replaces the whole set (with the tag's revision). A tag holds at most 1,000 games.",
  restNote: "In REST, POST /rest/v1/updateTagGames with {tagId, mode, gameIds[, revision]}.",
  scopes: ["library:write"],
  plans: LIGHT_AND_ABOVE,
  kind: "write",
  // Destructive: remove and replace drop games. The set is written as a set, and the revision and
  // updatedAt move only when it really changes, so a repeat changes nothing in any mode.
  idempotent: true,
  input: z.strictObject({
    tagId: positiveId,
    mode: z.enum(["add", "remove", "replace"]),
    gameIds: z.array(positiveId).max(TAG_GAME_LIMIT).describe(`Up to ${TAG_GAME_LIMIT}; only games in your library.`),
    revision: z.string().min(1).optional().describe("The tag's revision; required for replace."),
  }),
  output: z.object({
    tagId: z.number().int(),
    gameCount: z.number().int(),
    mode: z.enum(["add", "remove", "replace"]),
    revision: z.string(),
  }),
  conflicts: ["revision_conflict"],
  notes: ["replace without revision is 400.", REVISION_NOTE],
  async handler({ db, auth, now }, args) {
    const tag = await findTag(db, auth.userId, args.tagId);
    if (!tag) throw notFound(`Your tag ${args.tagId}`);
    if (args.mode === "replace" && args.revision === undefined)
      throw invalidInput("revision", "revision: replace needs the tag's revision.");
    if (args.revision !== undefined && args.revision !== tag.revision) throw revisionConflict();
    const gameIds = [...new Set(args.gameIds)];
    if (args.mode !== "remove") {
      await checkOwned(db, auth.userId, args.gameIds);
      const after =
        args.mode === "replace" ? gameIds.length : tag.game_count + gameIds.length - (await countTagged(db, args.tagId, gameIds));
      if (after > TAG_GAME_LIMIT) throw invalidInput("gameIds", `gameIds: the tag would hold ${after} games; at most ${TAG_GAME_LIMIT}.`);
    }
    const broken = new Error("updateTagGames guard");
    try {
      await runGuarded(
        db,
        [
          guardStatement(tagStillThereSql(auth.userId, args.tagId, tag.revision)),
          // Ownership is checked again in the batch that writes: a game leaving the library meanwhile is not tagged.
          ...(args.mode !== "remove" ? [allOwnedGuard(auth.userId, gameIds)] : []),
          ...tagGamesStatements(auth.userId, args.tagId, args.mode, gameIds, now.toISOString()),
          guardStatement(tagWithinLimitSql(args.tagId)),
        ],
        () => broken,
      );
    } catch (error) {
      if (error !== broken) throw error;
      if (!(await findTag(db, auth.userId, args.tagId))) throw notFound(`Your tag ${args.tagId}`);
      if (args.mode !== "remove") await checkOwned(db, auth.userId, args.gameIds);
      throw new ApiError(
        "revision_conflict",
        `The tag changed meanwhile, or would hold more than ${TAG_GAME_LIMIT} games; read it again.`,
        { field: "revision" },
      );
    }
    const updated = readBack(await findTag(db, auth.userId, args.tagId), () => notFound(`Your tag ${args.tagId}`));
    return { tagId: args.tagId, gameCount: updated.game_count, mode: args.mode, revision: updated.revision };
  },
});
