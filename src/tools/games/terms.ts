import { normalizeCode, normalizeSearchText } from "../../platform/normalize";

export type TermField = "title" | "titleEn" | "alias" | "janCode" | "modelNumber";

export interface GameTerm {
  gameId: number;
  editionId: number | null;
  field: TermField;
  term: string;
}

export interface SearchableGame {
  gameId: number;
  title: string;
  titleReading: string | null;
  titleEn: string[];
  aliases: string[];
  janCode: string | null;
  modelNumber: string[];
  editions: { gameEditionId: number; janCode: string | null; modelNumber: string[] }[];
}

/**
 * Every searchable value of a game in its normalised form. The reading counts as an alias: the
 * spec's matchedBy `alias` covers "a hiragana reading or nickname", not an official title.
 */
export function gameTermsOf(game: SearchableGame): GameTerm[] {
  const terms = new Map<string, GameTerm>();
  const add = (field: TermField, value: string | null, editionId: number | null = null) => {
    const term = value === null ? "" : field === "janCode" || field === "modelNumber" ? normalizeCode(value) : normalizeSearchText(value);
    if (term) terms.set(`${field}\u0000${editionId}\u0000${term}`, { gameId: game.gameId, editionId, field, term });
  };
  add("title", game.title);
  game.titleEn.forEach((title) => add("titleEn", title));
  add("alias", game.titleReading);
  game.aliases.forEach((alias) => add("alias", alias));
  add("janCode", game.janCode);
  game.modelNumber.forEach((code) => add("modelNumber", code));
  for (const edition of game.editions) {
    add("janCode", edition.janCode, edition.gameEditionId);
    edition.modelNumber.forEach((code) => add("modelNumber", code, edition.gameEditionId));
  }
  return [...terms.values()];
}

export const GAME_TERM_COLUMNS = [
  { column: "game_id", key: "gameId" },
  { column: "edition_id", key: "editionId" },
  { column: "field", key: "field" },
  { column: "term", key: "term" },
] as const;
