import { type SQL, sql } from "drizzle-orm";
import type { ExportReader, ExportRow } from "../../platform/exportSource";
import type { SortKey, SortTable } from "../../platform/keyset";
import type { Plan } from "../../platform/plans";
import type { Attribute } from "../attributes/items";
import { GAME_LEFT_JOINS, GAME_VIEW } from "../games/queries";
import { type UserList, userListFrom } from "./userLists";

/** Rows per keyset page: one D1 query each, so a file of any size is read in bounded memory. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * Which rows a dataset reads for one reader and one set of arguments, and how to render a page.
 * Its parts are SQL fragments because they go through the keyset machinery (platform/keyset.ts),
 * which the list tools' own conditions and sorts are built for.
 */
export interface DatasetQuery<R = Record<string, unknown>> {
  /** FROM and JOINs the conditions need (what rowCount counts over). */
  from: SQL;
  /** JOINs only the rows' columns need (game names, ...). */
  joins?: SQL;
  where: SQL[];
  select: SQL;
  /** The order, unique per row (the list tool's order when the dataset has one). */
  keys: SortKey[];
  /** One page of rows as export rows, each with exactly the dataset's columns; at most one query per page. */
  render(rows: R[]): Promise<ExportRow[]> | ExportRow[];
}

/** The arguments a dataset's query is handed: exportMyData's, validated; each family types the ones it takes by its own filters. */
export type DatasetArgs = Readonly<Record<string, unknown>>;

/**
 * exportMyData's side of a dataset (UserDataset.export, shared/datasets.ts), defined by its family
 * with the rest of it: its name, the plans it is exported on, the arguments it takes.
 */
export interface MyDataset {
  name: string;
  plans: readonly Plan[];
  /** The arguments it takes besides dataset and format; any other argument is refused. */
  accepts: readonly string[];
  /** Its sorts (the matching list tool's sort table); absent: one fixed order. */
  sorts?: SortTable<string>;
  /** The file's columns, in order. */
  columns: readonly string[];
  /**
   * `args`: exportMyData's validated arguments, of which the dataset reads those it accepts (the
   * family types them by its own filters); `order`: the sort table's keys for the sortBy and
   * sortOrder asked for (else its default), when it has sorts.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each dataset reads rows of its own type; the registry only passes them on.
  query(reader: ExportReader, args: DatasetArgs, order: SortKey[] | undefined): Promise<DatasetQuery<any>>;
}

/** Sort arguments, for the datasets that take them. */
const SORT_ARGS = ["sortBy", "sortOrder"] as const;

/** What a dataset over a list tool takes: the tool's filters (its own argument schemas), any `also`, and its sort table. */
export const listToolArgs = (filters: object, sorts: SortTable<string>, ...also: string[]) => ({
  accepts: [...Object.keys(filters), ...also, ...SORT_ARGS],
  sorts,
});

/** The game filters (every list of games has them). */
export const GAME_FILTER_NAMES = ["platformIds", "genreId", "title", "releaseDateFrom", "releaseDateTo"] as const;

/** A record's createdAt and updatedAt, as raw SQL reads them. */
export const timestampsOf = (row: { created_at: string; updated_at: string }) => ({ createdAt: row.created_at, updatedAt: row.updated_at });

/** A row with every column in order; a missing value is null. */
export const rowOf = (columns: readonly string[], values: Record<string, unknown>): ExportRow =>
  Object.fromEntries(columns.map((column) => [column, values[column] ?? null]));

/** A game's platform, publisher and main genre: each id, then its name. */
export const GAME_REFERENCE_COLUMNS = ["platformId", "platformName", "publisherId", "publisherName", "genreId", "genreName"] as const;

/** The game a row is about, flattened into columns (names resolved; null when unknown). */
export const GAME_COLUMNS = ["gameTitle", ...GAME_REFERENCE_COLUMNS, "releaseDate", "custom"] as const;

/** A row's game and what GAME_LEFT_JOINS joins to it: the shared game view's aliases. */
const { game, platform, publisher, mainGenre } = GAME_VIEW;

/** GAME_COLUMNS' values; goes with GAME_LEFT_JOINS over games g. */
export const GAME_COLUMNS_SELECT = sql`${game.title} AS game_title, ${game.platformId} AS game_platform_id,
  ${platform.name} AS game_platform_name, ${game.publisherId} AS game_publisher_id, ${publisher.name} AS game_publisher_name,
  ${game.genreId} AS game_genre_id, ${mainGenre.name} AS game_genre_name, ${game.releaseDate} AS game_release_date,
  ${game.ownerUserId} IS NOT NULL AS game_custom`;

export interface GameColumnsRow {
  game_title: string;
  game_platform_id: number;
  game_platform_name: string | null;
  game_publisher_id: number | null;
  game_publisher_name: string | null;
  game_genre_id: number | null;
  game_genre_name: string | null;
  game_release_date: string | null;
  game_custom: number;
}

export const gameColumns = (row: GameColumnsRow) => ({
  gameTitle: row.game_title,
  platformId: row.game_platform_id,
  platformName: row.game_platform_name,
  publisherId: row.game_publisher_id,
  publisherName: row.game_publisher_name,
  genreId: row.game_genre_id,
  genreName: row.game_genre_name,
  releaseDate: row.game_release_date,
  custom: row.game_custom === 1,
});

/**
 * A dataset over a user's list (library, wishlist, play records): the list joined with its games,
 * its columns and then GAME_COLUMNS' values, in the list tool's order.
 */
export const userListQuery = <R>(
  list: UserList,
  where: SQL[],
  keys: SortKey[],
  render: DatasetQuery<R & GameColumnsRow>["render"],
): DatasetQuery<R & GameColumnsRow> => ({
  // raw SQL: the list's FROM and columns are the list machinery's (games/userLists.ts), shared with the list tools.
  from: userListFrom(list),
  joins: GAME_LEFT_JOINS,
  where,
  select: sql`${list.columns}, ${GAME_COLUMNS_SELECT}`,
  keys,
  render,
});

/** Attribute ids (a JSON array) as their labels, in the stored order; unknown ids are left out. */
const attributeLabelsOf = (attributeIds: string, labels: ReadonlyMap<string, Attribute>) =>
  (JSON.parse(attributeIds) as string[]).flatMap((id) => labels.get(id)?.label ?? []);

/** A personal record of a game as the library and play lists read it (userListQuery). */
interface PersonalRow extends GameColumnsRow {
  game_id: number;
  attribute_ids: string;
  user_links: string;
  memo: string | null;
  created_at: string;
  updated_at: string;
}

/** The columns the library's and the play records' rows share: the game, attribute labels, links, memo and timestamps. */
export const personalColumns = (row: PersonalRow, labels: ReadonlyMap<string, Attribute>) => ({
  gameId: row.game_id,
  ...gameColumns(row),
  attributes: attributeLabelsOf(row.attribute_ids, labels),
  userLinks: JSON.parse(row.user_links),
  memo: row.memo,
  ...timestampsOf(row),
});
