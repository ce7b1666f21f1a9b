import { z } from "zod";
import type { games } from "../../db/schema";
import { sha256Hex } from "../../platform/hashing";
import { positiveId } from "../../platform/schemas";
import { gameSchema } from "../games/gameObject";
import { gameRow } from "../games/masterRows";

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

/** The stored fields of a custom game: the games columns customGameFields sets. Its revision is their hash. */
export type CustomGameFields = Pick<typeof games.$inferSelect, keyof typeof customGameFields>;

/**
 * A custom record's revision (games here, platforms and publishers in customMaster): the hash of
 * its fields. Key order does not matter: the same fields always give the same revision.
 */
export const customRevision = (fields: object) =>
  sha256Hex(JSON.stringify(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)))).then((hash) => hash.slice(0, 16));
