import { confirmTwoStep, gameRemoval } from "../../platform/confirm";
import { notFound } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { defineTool } from "../../registry/defineTool";
import { findEntry } from "../library/queries";
import { findWish } from "../wishlist/queries";
import { customRevision } from "./items";
import { deleteCustomGame, findCustomGame } from "./queries";

export const removeCustomGame = defineTool({
  name: "removeCustomGame",
  family: "customGames",
  title: "カスタムゲーム削除",
  description:
    "Removes one of your custom games, in two steps: the first call only previews what goes; call again with the same arguments plus its confirmToken to remove it.",
  restNote: 'In REST, POST /rest/v1/removeCustomGame with {"gameId": ...}, then again with confirmToken.',
  scopes: ["library:delete"],
  plans: PREMIUM_ONLY,
  ...gameRemoval(),
  async handler(ctx, args) {
    const { db, auth } = ctx;
    const game = await findCustomGame(db, auth.userId, args.gameId);
    if (!game) throw notFound(`Your custom game ${args.gameId}`);
    const [entry, wish] = await Promise.all([findEntry(db, auth.userId, args.gameId), findWish(db, auth.userId, args.gameId)]);
    const alsoGoes = [entry && "its library entry", wish && "its wishlist entry"].filter(Boolean).join(" and ");
    return confirmTwoStep(ctx, args, {
      targetRevision: `${await customRevision(game)}:${entry?.revision ?? "-"}:${wish?.revision ?? "-"}`,
      summary: `Removes your custom game '${game.title}'${alsoGoes ? ` with ${alsoGoes}` : ""}.`,
      async execute(marker) {
        await deleteCustomGame(db, auth.userId, args.gameId, marker);
        return { gameId: args.gameId, removed: true as const };
      },
    });
  },
});
