import type { z } from "zod";
import { ApiError } from "../../platform/errors";
import type { gameSchema } from "../../tools/games/gameObject";
import { searchGames } from "../../tools/games/searchGames";
import { getLibrary } from "../../tools/library/getLibrary";
import { getPhysicalCopies } from "../../tools/physicalCopies/getPhysicalCopies";
import { getWishlist } from "../../tools/wishlist/getWishlist";
import type { PersonCall } from "./asPerson";

export type Game = z.output<typeof gameSchema>;

/** A game the scan found, with where the person has it. */
export interface ScannedGame {
  game: Game;
  inLibrary: boolean;
  onWishlist: boolean;
  /** Physical copies of it in the library; null when the plan keeps none (PREMIUM only) or it is not in the library. */
  copies: number | null;
}

/** Games a code finds: one code is one game, rarely a few (editions of several games). */
const CODE_HITS = 5;
/** Games a title search offers to suggest the code for. */
const TITLE_HITS = 10;
/** The user lists' title filter takes at most this many characters. */
const TITLE_FILTER_CHARS = 30;

/** A 4xx of one code: the field at fault shown beside the form. */
export const isCodeFormatError = (error: unknown) => error instanceof ApiError && error.code === "invalid_input";

/**
 * A user list narrowed to the game's title and platform (the lists take no game id), fetched
 * whole: the game is on the list when its id is among the rows.
 */
const narrowedTo = (game: Game) => ({
  title: game.title.slice(0, TITLE_FILTER_CHARS),
  platformIds: [game.platform.platformId],
  fields: [],
  limit: 200,
});

const holds = (list: { items: { gameId: number }[] }, game: Game) => list.items.some((item) => item.gameId === game.gameId);

/** The person's copies of a game in their library; null where their plan keeps no copies. */
async function copiesOf(call: PersonCall, gameId: number): Promise<number | null> {
  try {
    return (await call(getPhysicalCopies, { gameId, limit: 1 })).totalCount;
  } catch (error) {
    if (error instanceof ApiError && error.code === "plan_required") return null;
    throw error;
  }
}

async function withHoldings(call: PersonCall, game: Game): Promise<ScannedGame> {
  const [library, wishlist] = await Promise.all([call(getLibrary, narrowedTo(game)), call(getWishlist, narrowedTo(game))]);
  const inLibrary = holds(library, game);
  const onWishlist = holds(wishlist, game);
  return { game, inLibrary, onWishlist, copies: inLibrary ? await copiesOf(call, game.gameId) : null };
}

/** The games with this JAN code as the person's searches find them (their own suggestions too), with their holdings. */
export async function gamesWithCode(call: PersonCall, janCode: string): Promise<ScannedGame[]> {
  const { items } = await call(searchGames, { janCode, limit: CODE_HITS, fields: [] });
  return Promise.all(items.map((game) => withHoldings(call, game)));
}

/** Catalog games matching a title, to suggest a code for. */
export async function gamesByTitle(call: PersonCall, query: string): Promise<Game[]> {
  return (await call(searchGames, { query, limit: TITLE_HITS, fields: [] })).items;
}
