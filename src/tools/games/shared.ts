import { z } from "zod";
import type { GameFieldGroup } from "./gameObject";

/** What search and browse return when `fields` is omitted. */
export const DEFAULT_GAME_FIELDS: readonly GameFieldGroup[] = ["editions", "specs", "supportGenre"];

export const coverageSchema = z.object({
  totalGames: z.number().int(),
  platforms: z.array(z.string()),
  note: z.string(),
}).meta({ id: "Coverage" });
