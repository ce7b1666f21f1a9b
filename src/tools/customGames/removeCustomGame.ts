import { confirmTwoStep, gameRemoval } from "../../platform/confirm";
import { queryBatch } from "../../platform/db";
import { notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { counted, listed, quotedNames } from "../../platform/previewText";
import { defineTool } from "../../registry/defineTool";
import { collectionsListingGame } from "../collections/queries";
import { findEntry } from "../library/queries";
import { countCopies, gamePlaysOf } from "../library/removal";
import { pick } from "../shared/cascade";
import { tagsHoldingGame } from "../tags/removal";
import { findWish } from "../wishlist/queries";
import { customRevision } from "./items";
import { findCustomGame } from "./queries";
import { customGamesRemovalSql } from "./removal";

/** "the tag 'a'", "the collections 'a' and 'b'": the named records a removal changes. */
const named = (one: string, records: readonly { name: string }[]) =>
  records.length > 0 && `the ${records.length === 1 ? one : `${one}s`} ${quotedNames(records.map((r) => r.name))}`;

export const removeCustomGame = defineTool({
  name: "removeCustomGame",
  family: "customGames",
  title: "カスタムゲーム削除",
  description:
    "Removes one of your custom games (two-step) with its library entry, copies, play records and logs and wishlist entry; tags and collections lose it.",
  restNote: 'In REST, POST /rest/v1/removeCustomGame with {"gameId": ...}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: PREMIUM_ONLY,
  ...gameRemoval(),
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const game = await findCustomGame(db, auth.userId, args.gameId);
    if (!game) throw notFound(`Your custom game ${args.gameId}`);
    const [entry, wish, copies, plays, tags, collections] = await Promise.all([
      findEntry(db, auth.userId, args.gameId),
      findWish(db, auth.userId, args.gameId),
      countCopies(db, auth.userId, args.gameId),
      gamePlaysOf(db, auth.userId, args.gameId),
      tagsHoldingGame(db, auth.userId, args.gameId),
      collectionsListingGame(db, auth.userId, args.gameId),
    ]);
    const alsoGoes = listed([
      entry && "its library entry",
      copies && counted(copies, "physical copy", "physical copies"),
      plays.count && `${counted(plays.count, "play record")} with their logs`,
      wish && "its wishlist entry",
    ]);
    const leaves = listed([named("tag", tags), named("collection", collections)]);
    return confirmTwoStep(ctx, args, {
      // The entry's revision moves with every copy write; the rest is named by id.
      targetRevision: [
        await customRevision(game),
        entry?.revision ?? "-",
        wish?.revision ?? "-",
        plays.fingerprint,
        tags.map((t) => t.id).join(","),
        collections.map((c) => c.id).join(","),
      ].join(":"),
      summary: `Removes your custom game '${game.title}'${alsoGoes ? ` with ${alsoGoes}` : ""}.${leaves ? ` It leaves ${leaves}.` : ""}`,
      async execute(marker) {
        await queryBatch(db, [marker, ...customGamesRemovalSql(auth.userId, pick.one(args.gameId), ctx.now.toISOString())]);
        return { gameId: args.gameId, removed: true as const };
      },
    });
  },
});
