import { z } from "zod";
import type { Db } from "../../platform/db";
import { positiveId } from "../../platform/schemas";
import { GAME_FIELD_GROUPS, gameSchema, toGame } from "../games/gameObject";
import { gameRow } from "../games/masterRows";
import { loadGameRecords } from "../games/queries";

/** What a user may set on a custom game: the master row's fields, with references that may
 * also point at the user's own custom platforms and publishers. */
export const customGameFields = {
  ...gameRow.pick({
    title: true,
    titleReading: true,
    titleEn: true,
    aliases: true,
    releaseDate: true,
    janCode: true,
    modelNumber: true,
    price: true,
  }).shape,
  platformId: positiveId.describe("An official platform or one of your custom platforms."),
  publisherId: positiveId.nullable(),
  genreId: positiveId.nullable().describe("A main (root) genre."),
  genreSubId: positiveId.nullable().describe("A support genre."),
};

export const customGameResult = z
  .object({ item: gameSchema, revision: z.string().describe("Send it back to updateCustomGame.") })
  .meta({ id: "CustomGameResult" });

/** The stored game as a Game object with every field group, for tool results. */
export async function renderCustomGame(db: Db, userId: string, gameId: number) {
  const record = (await loadGameRecords(db, userId, [gameId])).get(gameId)!;
  return toGame(record, new Set(GAME_FIELD_GROUPS));
}
