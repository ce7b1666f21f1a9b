import { z } from "zod";
import { PREMIUM_ONLY } from "../../platform/plans";
import { CUSTOM_ID_NOTE } from "../../platform/schemas";
import { defineTool } from "../../registry/defineTool";
import { customGameFields, customGameResult, customRevision } from "./items";
import { checkCustomGameReferences, insertCustomGame, renderCustomGame } from "./queries";

export const addCustomGame = defineTool({
  name: "addCustomGame",
  family: "customGames",
  title: "カスタムゲーム追加",
  description: "Registers a game the master data lacks as your own custom game, seen only by you and usable wherever a gameId is.",
  restNote: "In REST, POST /rest/v1/addCustomGame; the new gameId is in item.gameId.",
  scopes: ["library:write"],
  plans: PREMIUM_ONLY,
  kind: "write",
  destructive: false,
  nullIsOmission: true,
  input: z.strictObject(customGameFields).partial().required({ title: true, platformId: true }),
  output: customGameResult,
  notes: [CUSTOM_ID_NOTE],
  async handler({ db, auth, upgradeUrl }, args) {
    const fields = {
      title: args.title,
      titleReading: args.titleReading ?? null,
      titleEn: args.titleEn ?? [],
      aliases: args.aliases ?? [],
      platformId: args.platformId,
      publisherId: args.publisherId ?? null,
      genreId: args.genreId ?? null,
      genreSubId: args.genreSubId ?? null,
      releaseDate: args.releaseDate ?? null,
      janCode: args.janCode ?? null,
      modelNumber: args.modelNumber ?? [],
      price: args.price ?? null,
    };
    await checkCustomGameReferences(db, auth.userId, fields);
    const gameId = await insertCustomGame(db, { ...auth, upgradeUrl }, fields);
    return { item: await renderCustomGame(db, auth.userId, gameId), revision: await customRevision(fields) };
  },
});
