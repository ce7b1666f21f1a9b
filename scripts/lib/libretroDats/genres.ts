// No-Intro's genres (libretro's metadat/genre, WonderSwan and MSX) in the catalog's taxonomy. Only
// names that say one genre of it are mapped; `Shooter` (scrolling or gun?), `Card` (playing or
// trading cards?), `Various` and the like stay null.
import type { GenreRow } from "../masterRows";

const TAXONOMY_KEY_OF: Record<string, string> = {
  Action: "action",
  Platform: "action.platformer",
  "Beat'em Up": "brawler",
  Fighting: "fighting",
  "Shoot'em Up": "shmup",
  "Role-playing (RPG)": "rpg",
  Adventure: "adventure",
  Puzzle: "puzzle",
  Strategy: "sim.strategy",
  Simulation: "sim",
  Sports: "sports",
  Racing: "racing",
  Board: "board",
  Quiz: "quiz",
  Pinball: "parlor.pinball",
  "Music / Dancing": "rhythm",
  Educational: "notagame.educational",
};

export interface GameGenre {
  genreId: number;
  genreName: string;
  genreKey: string;
}

/** libretro genre -> the game's main genre (the taxonomy's top of the key) and its key; unknown ones undefined. */
export function genreIndex(genres: GenreRow[]): (genre: string | null) => GameGenre | undefined {
  const byKey = new Map(genres.map((genre) => [genre.taxonomyKey, genre]));
  return (genre) => {
    const key = genre === null ? undefined : TAXONOMY_KEY_OF[genre];
    const main = key === undefined ? undefined : byKey.get(key.split(".")[0] as string);
    return key === undefined || main === undefined || !byKey.has(key)
      ? undefined
      : { genreId: main.genreId, genreName: main.name, genreKey: key };
  };
}
