// Master game rows in tests: what a row holds when a source knows none of its identifiers.
import type { GameRow } from "../../src/tools/games/masterRows";

/** A game row's identifier, price and edition fields when none of them is known. */
export const WITHOUT_IDENTIFIERS = {
  janCode: null,
  modelNumber: [],
  price: null,
  mediaId: null,
  gpsId: null,
  dbId: null,
  dbSlug: null,
  dbCoverId: null,
  editions: [],
} satisfies Partial<GameRow>;
