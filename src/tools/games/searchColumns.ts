import { type SQL, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { games } from "../../db/schema";
import { sameNamedColumns } from "../../platform/bulkWrite";
import { normalizeCode, searchForm } from "../../platform/normalize";

/**
 * The version of the stored search forms (searchForm, searchColumnsOf). Part of a master game
 * row's content hash, so when a release changes how forms are computed, the next master import
 * (`npm run admin -- master load`) rewrites every official game with its new forms. Change it
 * with them.
 */
export const SEARCH_FORMS_VERSION = "forms-2";

/** Joins several search forms in one column; "|" cannot occur in a normalised form. */
export const SEARCH_SEPARATOR = "|";

export interface SearchableGame {
  title: string;
  titleReading: string | null;
  titleEn: string[];
  aliases: string[];
  janCode: string | null;
  modelNumber: string[];
  editions: { title: string | null; janCode: string | null; modelNumber: string[] }[];
}

export interface SearchColumns {
  searchTitle: string;
  searchTitleEn: string;
  searchAlias: string;
  searchModel: string;
  searchEditionModel: string;
  searchEditionTitle: string;
}

const joined = (values: readonly (string | null)[], normalize: (value: string) => string) =>
  [
    ...new Set(
      values
        .filter((v): v is string => v !== null)
        .map(normalize)
        .filter(Boolean),
    ),
  ].join(SEARCH_SEPARATOR);

/**
 * A game's searchable values in normalised form. The reading counts as an alias: the spec's
 * matchedBy `alias` covers "a hiragana reading or nickname", not an official title.
 */
export function searchColumnsOf(game: SearchableGame): SearchColumns {
  return {
    searchTitle: searchForm(game.title),
    searchTitleEn: joined(game.titleEn, searchForm),
    searchAlias: joined([game.titleReading, ...game.aliases], searchForm),
    searchModel: joined(game.modelNumber, normalizeCode),
    searchEditionModel: joined(
      game.editions.flatMap((e) => e.modelNumber),
      normalizeCode,
    ),
    searchEditionTitle: joined(
      game.editions.map((e) => e.title),
      searchForm,
    ),
  };
}

export const SEARCH_COLUMNS = sameNamedColumns(games, [
  "searchTitle",
  "searchTitleEn",
  "searchAlias",
  "searchModel",
  "searchEditionModel",
  "searchEditionTitle",
]);

/** A search column of joined forms ("a|b") holds `form` as one of them. */
export const holdsForm = (column: SQL | AnySQLiteColumn, form: string) =>
  sql`instr(${SEARCH_SEPARATOR} || ${column} || ${SEARCH_SEPARATOR}, ${SEARCH_SEPARATOR + form + SEARCH_SEPARATOR}) > 0`;
