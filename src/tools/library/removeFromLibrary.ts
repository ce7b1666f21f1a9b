import { confirmTwoStep, gameRemoval } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { ALL_PLANS } from "../../platform/plans";
import { counted, listed, quotedNames } from "../../platform/previewText";
import { defineTool } from "../../registry/defineTool";
import { pick } from "../shared/cascade";
import { tagsHoldingGame } from "../tags/removal";
import { findEntry } from "./queries";
import { countCopies, gamePlaysOf, libraryEntriesRemovalSql } from "./removal";

export const removeFromLibrary = defineTool({
  name: "removeFromLibrary",
  family: "library",
  title: "ライブラリ削除",
  description:
    "Removes a game from your library with its physical copies, play records and logs and its places in your tags (two-step; the preview counts them).",
  restNote: 'In REST, POST /rest/v1/removeFromLibrary with {"gameId": ...}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: ALL_PLANS,
  ...gameRemoval(),
  async handler(ctx, args) {
    const { db, auth, now } = ctx;
    const entry = await findEntry(db, auth.userId, args.gameId);
    if (!entry) throw notFound(`Game ${args.gameId} in your library`);
    const [copies, plays, tags] = await Promise.all([
      countCopies(db, auth.userId, args.gameId),
      gamePlaysOf(db, auth.userId, args.gameId),
      tagsHoldingGame(db, auth.userId, args.gameId),
    ]);
    const alsoGoes = listed([
      copies && counted(copies, "physical copy", "physical copies"),
      plays.count && `${counted(plays.count, "play record")} with their logs`,
    ]);
    const untagged = tags.length ? ` It leaves ${tags.length === 1 ? "the tag" : "the tags"} ${quotedNames(tags.map((t) => t.name))}.` : "";
    return confirmTwoStep(ctx, args, {
      targetRevision: `${entry.revision}:${copies}:${plays.fingerprint}:${tags.map((t) => t.id).join(",")}`,
      summary: `Removes '${entry.title}' from your library, with its purchase data, memo, links and attributes${alsoGoes ? `, and ${alsoGoes}` : ""}.${untagged}`,
      async execute(marker) {
        await queryBatch(db, [marker, ...libraryEntriesRemovalSql(auth.userId, pick.one(args.gameId), now.toISOString())]);
        return { gameId: args.gameId, removed: true as const };
      },
    });
  },
});
