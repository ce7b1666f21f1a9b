import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { jsonArrayHolds } from "../../platform/columns";
import type { Db } from "../../platform/db";
import { orderOf, type SortKey, type SortTable, sortArgs } from "../../platform/keyset";
import { buildAfterLookups, type LookupPlan, type Lookups } from "../../platform/lookups";
import {
  type LimitResolution,
  type PageCap,
  type PageLimit,
  type PageWindow,
  type Paging,
  pageArgs,
  pageWindow,
} from "../../platform/paging";
import { ALL_PLANS } from "../../platform/plans";
import { type ListName, listSize } from "../../platform/registeredLimits";
import { todayOf } from "../../platform/timeZones";
import type { ToolDefinition } from "../../registry/defineTool";
import { resolveAttributeIds } from "../attributes/queries";
import type { GameRecord } from "../games/gameObject";
import {
  allOf,
  GAME_CORE_SELECT,
  GAME_JOINS,
  GAME_SELECT,
  type GameFilters,
  type GameLookups,
  gameConditions,
  gameLookups,
  joinGame,
  visibleTo,
} from "../games/queries";

const GAME_GROUP_CAP: PageCap = { cap: 100, reason: "the game field group caps the page at 100" };
const USER_LINKS_GROUP_CAP: PageCap = { cap: 50, reason: "the userLinks field group caps the page at 50" };

/** Field groups that make each item larger cap a user list's page lower (getLibrary, getWishlist, getPlayRecords). */
export function listFieldCaps(groups: ReadonlySet<string>): PageCap[] {
  const caps: PageCap[] = [];
  if (groups.has("game")) caps.push(GAME_GROUP_CAP);
  if (groups.has("userLinks")) caps.push(USER_LINKS_GROUP_CAP);
  return caps;
}

/** The page size of a user's lists of games (getLibrary, getWishlist, getPlayRecords). */
export const USER_LIST_PAGING: Paging = { cap: 200, defaultLimit: 50 };

/** The REST sentence of the user-list tools (getLibrary, getWishlist). */
export const LIST_REST_NOTE = "In REST, GET arrays are comma-separated and fields= with no value gives core fields only.";

/** A list's table under its alias: one row per game of one user (or per play cycle). */
type ListRows = SQLiteTable & { userId: SQLiteColumn; gameId: SQLiteColumn };

/**
 * A user's own list of games (library, wishlist, play records): its table under an alias, read
 * together with its games (g, see GAME_VIEW), so filters, sorts and the `game` field group work alike.
 */
export interface UserList {
  /** The table under its alias (library l, wishlist w, play records r): what the list's filters, sorts and columns name. */
  rows: ListRows;
  /** The table under its alias as a FROM item (an alias alone renders as its name). */
  from: SQL;
  /** The list's own columns, of its alias. */
  columns: SQL;
  /** Its name in list_counts, where its size is kept. */
  counted: ListName;
}

/** A user list over `rows`, the alias of `table`. */
export const userList = (table: SQLiteTable, rows: ListRows, columns: SQL, counted: ListName): UserList => ({
  rows,
  from: sql`${table} ${rows}`,
  columns,
  counted,
});

/** The list joined with its games (g): what its filters and sorts read. */
export const userListFrom = (list: UserList) => sql`${list.from} ${joinGame("JOIN", list.rows.gameId)}`;

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

/** The filters a user's list takes besides its own columns': the game filters and, for library and play records, attributes. */
export interface ListFilters extends GameFilters {
  attributes?: string[];
}

/**
 * What a list's filters look up before their conditions: the game filters' genre, the attribute
 * ids by id or label, and the user's today (their time zone's day) for a filter relative to it.
 */
export interface ListLookups extends GameLookups {
  attributeIds: string[];
  today: string;
}

/**
 * The lookups of a user's list filters: the game filters', the attributes' ids when attributes
 * are filtered by, and the user's day at `todayAt` when a filter needs today (an overdue filter).
 */
export function listLookups(userId: string, filters: ListFilters, todayAt?: Date): Lookups<ListLookups> {
  const { attributes = [] } = filters;
  const byAttributes: Lookups<ListLookups> = { attributeIds: (db) => resolveAttributeIds(db, userId, attributes, "attributes") };
  const byDay: Lookups<ListLookups> = { today: (db) => todayOf(db, userId, todayAt!) };
  return { ...gameLookups(filters), ...(attributes.length ? byAttributes : {}), ...(todayAt ? byDay : {}) };
}

/** The user's today as its lookup read it: a filter relative to today asks for it (listLookups' todayAt). */
export function lookedToday(looked: Partial<ListLookups>): string {
  if (looked.today === undefined) throw new Error("A filter relative to today was built without looking today up.");
  return looked.today;
}

/**
 * A list's filter: its own conditions (the user's first) and the game filters' conditions on its
 * games. With at most `wholeList` own conditions and no game condition it is the user's whole list
 * (false: never, e.g. every cycle of the play records, which list_counts does not keep).
 */
export function listFilter(own: SQL[], filters: GameFilters, looked: Partial<GameLookups>, wholeList: number | false = 1): ListFilter {
  const games = gameConditions(filters, looked);
  return { own, games, narrowed: wholeList === false || own.length > wholeList || games.length > 0 };
}

/** The attribute filter: the list's attribute ids (a JSON array column) hold every looked-up attribute. */
export const attributeConditions = (attributeIds: SQLiteColumn, looked: Partial<ListLookups>) =>
  (looked.attributeIds ?? []).map((id) => jsonArrayHolds(attributeIds, id));

/** The filter as conditions over the list joined with its games (userListFrom), visibility included: exports read that way. */
export const joinedConditions = (userId: string, filter: ListFilter): SQL[] => [...filter.own, visibleTo(userId), ...filter.games];

/** A list's filter (built by `filterOf` from its lookups, read first) as joinedConditions. */
export const readJoinedConditions = (
  db: Db,
  userId: string,
  filters: ListFilters,
  filterOf: (looked: Partial<ListLookups>) => ListFilter,
  todayAt?: Date,
): Promise<SQL[]> =>
  buildAfterLookups(db, { lookups: listLookups(userId, filters, todayAt), build: (looked) => joinedConditions(userId, filterOf(looked)) });

/** A page of a user's list as its tool reads it: the list, its filter and sort, the page, and whether game columns are shown. */
export interface ListPageRequest {
  list: UserList;
  userId: string;
  filter: ListFilter;
  sort: readonly SortKey[];
  page: PageWindow;
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
  const alone = { from: list.from, where: allOf(filter.own) };
  const source = filter.games.length > 0 ? joined : alone;
  const order = orderOf(sort);
  const { rows } = list;
  return [
    sql`SELECT ${list.columns}${withGame ? sql`, ${GAME_CORE_SELECT}` : sql``}
      FROM (SELECT ${rows}.rowid AS page_rowid FROM ${source.from} WHERE ${source.where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}) page
      JOIN ${list.from} ON ${rows}.rowid = page.page_rowid
      ${withGame ? sql`${joinGame("JOIN", rows.gameId)} ${GAME_JOINS}` : sql``}
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
export const listArgs = <K extends string>(sorts: SortTable<K>) => ({
  ...sortArgs(sorts),
  ...pageArgs(USER_LIST_PAGING),
});

/** What a user-list tool asks of its page: the list read, its filter, its groups (the game group joins games) and its paging. */
export interface ListReadRequest extends Omit<ListPageRequest, "page" | "withGame" | "filter"> {
  /** The list's filter, from what the lookups of its arguments' filters (listLookups) looked up. */
  filter(looked: Partial<ListLookups>): ListFilter;
  groups: ReadonlySet<string>;
  args: ListFilters & { page: number; limit?: number };
  pageLimit: PageLimit;
  /** The call's instant, when a filter is relative to the user's today (listLookups). */
  todayAt?: Date;
}

/** A user-list tool's page: the limit it answers with and the statements it reads (listPageQueries). */
export interface ListPageReads {
  limit: LimitResolution;
  queries: SQL[];
}

/**
 * A user-list tool's page (getLibrary, getWishlist, getPlayRecords): the limit it answers with, by
 * the tool's paging and its field groups' caps, and the statements it reads, built from its
 * filter's lookups. Its firstReads build them when no lookup is needed (buildWithoutLookups), its
 * handler after reading them (buildAfterLookups): the same function, so the read-ahead answers.
 */
export function listPageReads({
  filter,
  groups,
  args,
  pageLimit,
  todayAt,
  ...request
}: ListReadRequest): LookupPlan<ListLookups, ListPageReads> {
  const limit = pageLimit(args.limit, listFieldCaps(groups));
  const page = pageWindow(args.page, limit);
  return {
    lookups: listLookups(request.userId, args, todayAt),
    build: (looked) => ({ limit, queries: listPageQueries({ ...request, filter: filter(looked), page, withGame: groups.has("game") }) }),
  };
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
  const { rows } = list;
  // raw SQL: the list machinery's FROM and columns, with GAME_SELECT's aliased joins.
  const [row] = await db.all<R & GameRecord>(sql`
    SELECT ${list.columns}, ${GAME_SELECT} FROM ${userListFrom(list)} ${GAME_JOINS}
    WHERE ${and(eq(rows.userId, userId), eq(rows.gameId, gameId))}`);
  return row;
}
