import { z } from "zod";
import type { GameFieldGroup } from "./gameObject";

/** What search and browse return when `fields` is omitted. */
export const DEFAULT_GAME_FIELDS: readonly GameFieldGroup[] = ["editions", "specs", "supportGenre"];

export const coverageSchema = z
  .object({
    totalGames: z.number().int(),
    platforms: z.array(z.string()),
    note: z.string(),
  })
  .meta({ id: "Coverage" });

/** A platform as the tools show it (listPlatforms, the custom platform tools), all but `custom`. */
export const platformObjectShape = {
  platformId: z.number().int(),
  name: z.string(),
  nameEn: z.string().nullable(),
  shortName: z.string().nullable(),
  maker: z.string().nullable(),
  releaseDate: z.string().nullable(),
};

/** A publisher as the tools show it (listPublishers, the custom publisher tools), all but `custom`. */
export const publisherObjectShape = {
  companyId: z.number().int(),
  name: z.string(),
  nameKana: z.string().nullable(),
  nameEn: z.string().nullable(),
};
