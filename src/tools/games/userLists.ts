import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db";
import { orderOf, type SortKey, sortArgs } from "../../platform/keyset";
import { LIST_REST_NOTE, listFieldCaps, type PageLimit, pageArgs, pageOffset, USER_LIST_PAGING } from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { type ListName, listSize } from "../../platform/registeredLimits";
import type { ToolDefinition } from "../../registry/defineTool";
import type { GameRecord } from "./gameObject";
import { allOf, GAME_CORE_SELECT, GAME_JOINS, GAME_SELECT, visibleTo } from "./queries";

/**
 * A user's own list of games (library, wishlist, play records): a table with user_id and game_id read
 * together with its games (alias g), so filters, sorts and the `game` field group work alike.
 */
export interface UserList {
  table: "library_entries" | "wishlist_entries" | "play_records";
  alias: "l" | "w" | "r";
  /** The list's own columns, qualified with the alias. */
  columns: SQL;
  /** Its name in list_counts, where its size is kept. */
  counted: ListName;
}

/** The list joined with its games (g): what its filters and sorts read. */
export const userListFrom = (list: UserList) => sql.raw(`${list.table} ${list.alias} JOIN games g ON g.id = ${list.alias}.game_id`);
const from = userListFrom;

/**
 * A user's list filtered in two parts: conditions on the list's own rows (its alias; the user's
 * condition first) and conditions on its games (alias g). Visibility is not among them: every row
 * of a user's list refers to a game its user can see (the adds check it; a custom game leaves its
 * owner's lists in the batch that removes it; official games are never removed), so the list is
 * joined with its games only when a game filter or a game sort needs them.
 */
export interface ListFilter {
  own: SQL[];
  games: SQL[];
  /** False when the filter is the user's whole list (its total is then read from list_counts). */
  narrowed: boolean;
}

/** The filter as conditions over the list joined with its games (userListFrom), visibility included: exports read that way. */
export const joinedConditions = (userId: string, filter: ListFilter): SQL[] => [...filter.own, visibleTo(userId), ...filter.games];

/** A page of a user's list as its tool reads it: the list, its filter and sort, the page, and whether game columns are shown. */
export interface ListPageRequest {
  list: UserList;
  userId: string;
  filter: ListFilter;
  sort: readonly SortKey[];
  page: { limit: number; offset: number };
  withGame: boolean;
  /** More statements for the same round trip (e.g. the attribute labels); their rows come back as `also`. */
  also?: readonly SQL[];
}

/**
 * One page of the list plus the total, as one batch. The page's rows are chosen first from the
 * list alone (its own indexes: user, then the sort; see sortIndexes in schema.ts), reading no further than
 * the page; only those rows are then joined with their games and rendered. The total of a whole
 * list is read from list_counts; a filtered one counts the list's index entries. Every sort is of the list's own columns (a game's title and release date
 * are copied into its rows, see schema.ts); games are joined to count and choose the page only for
 * game filters. Game columns (core fields: list items show no game field groups) only when asked
 * for. Read it with ctx.read, then listPageOf.
 */
// raw SQL: the list page machinery: a page of rowids chosen from the list alone, then joined with its games.
export function listPageQueries({ list, userId, filter, sort, page, withGame, also = [] }: ListPageRequest): SQL[] {
  const joined = { from: userListFrom(list), where: allOf(joinedConditions(userId, filter)) };
  const alone = { from: sql.raw(`${list.table} ${list.alias}`), where: allOf(filter.own) };
  const source = filter.games.length > 0 ? joined : alone;
  const order = orderOf(sort);
  const alias = list.alias;
  return [
    sql`SELECT ${list.columns}${withGame ? sql`, ${GAME_CORE_SELECT}` : sql``}
      FROM (SELECT ${sql.raw(alias)}.rowid AS page_rowid FROM ${source.from} WHERE ${source.where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}) page
      JOIN ${sql.raw(`${list.table} ${alias}`)} ON ${sql.raw(alias)}.rowid = page.page_rowid
      ${withGame ? sql`JOIN games g ON g.id = ${sql.raw(alias)}.game_id ${GAME_JOINS}` : sql``}
      ORDER BY ${order}`,
    filter.narrowed ? sql`SELECT COUNT(*) AS n FROM ${source.from} WHERE ${source.where}` : listSize(list.counted, userId),
    ...also,
  ];
}

/** What the lists of a user's games (library, wishlist) declare alike: library:read on every plan, paged alike. */
export const GAME_LIST_TOOL = {
  restNote: LIST_REST_NOTE,
  scopes: ["library:read"],
  plans: ALL_PLANS,
  kind: "read",
  paging: USER_LIST_PAGING,
} as const satisfies Partial<ToolDefinition>;

/** A user-list tool's sortBy, sortOrder, page and limit arguments (every user list pages alike). */
export const listArgs = <K extends string>(sorts: Record<K, unknown>, defaults: { sortBy: K; sortOrder: "asc" | "desc" }) => ({
  ...sortArgs(sorts, defaults),
  ...pageArgs(USER_LIST_PAGING),
});

/** What a user-list tool asks of its page: the list read, its groups (the game group joins games) and its paging. */
export interface ListReadRequest extends Omit<ListPageRequest, "page" | "withGame"> {
  groups: ReadonlySet<string>;
  args: { page: number; limit?: number };
  pageLimit: PageLimit;
}

/**
 * A user-list tool's page (getLibrary, getWishlist, getPlayRecords): the limit it answers with, by
 * the tool's paging and its field groups' caps, and the statements it reads (listPageQueries).
 */
export function listPageReads({ groups, args, pageLimit, ...request }: ListReadRequest) {
  const limit = pageLimit(args.limit, listFieldCaps(groups));
  const page = { limit: limit.effectiveLimit, offset: pageOffset(args.page, limit) };
  return { limit, queries: listPageQueries({ ...request, page, withGame: groups.has("game") }) };
}

/** The rows of listPageQueries: the page, the total, and the rows of the `also` statements. */
export function listPageOf<R>([rows, total, ...also]: unknown[][]): {
  rows: (R & Partial<GameRecord>)[];
  totalCount: number;
  also: unknown[][];
} {
  return { rows: rows as (R & Partial<GameRecord>)[], totalCount: (total as { n: number }[])[0]?.n ?? 0, also };
}

/** One row of the caller's list with its game; undefined when the game is not on it. */
export async function userListRow<R>(db: Db, list: UserList, userId: string, gameId: number) {
  // raw SQL: the list machinery's FROM and columns, with GAME_SELECT's aliased joins.
  const [row] = await db.all<R & GameRecord>(sql`
    SELECT ${list.columns}, ${GAME_SELECT} FROM ${from(list)} ${GAME_JOINS}
    WHERE ${sql.raw(list.alias)}.user_id = ${userId} AND ${sql.raw(list.alias)}.game_id = ${gameId}`);
  return row;
}
