import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { collections, consoles, games, playLogs, playRecords, tags } from "../../db/schema";
import { randomCustomId } from "../../platform/customIds";
import { type Db, guardStatement, isUniqueViolation, runGuarded } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { type Plan, REGISTERED_LIMITS, type RegisteredResource } from "../../platform/plans";
import { limitGuardAfter, type PlanCounter, roomLeft } from "../../platform/registeredLimits";
import { CUSTOM_ID_BASE } from "../../platform/schemas";
import { attributeLabels, insertOwnAttribute } from "../attributes/queries";
import type { NewCollection } from "../collections/items";
import { COLLECTIONS_COUNTER, checkCollectionFields, insertCollectionSql } from "../collections/queries";
import { CONSOLES_COUNTER, insertConsoleSql } from "../consoles/queries";
import type { CustomGameFields } from "../customGames/items";
import { CUSTOM_GAMES_COUNTER, insertCustomGameStatements, referencesStillUsable } from "../customGames/queries";
import { usableIds } from "../games/queries";
import { insertEntrySql, LIBRARY_COUNTER } from "../library/queries";
import { endLatestSql, insertPlayLogSql, insertPlaySql, newPlayId } from "../play/queries";
import { allOwnedSql, insertTagSql, TAGS_COUNTER, tagGamesInsertSql, tagIdByNameSql } from "../tags/queries";
import { deleteWishSql, insertWishSql, WISHLIST_COUNTER } from "../wishlist/queries";
import type { ReportedRow } from "./jobs";
import { type MatchResult, matchGames } from "./matching";
import {
  allPlayRecordsKept,
  genreParents,
  held,
  idMap,
  inLibrary,
  mapSql,
  onWishlist,
  playRecordExists,
  tagsNamed,
  visibleGames,
  withLatestPlay,
} from "./queries";
import type { ExportRowOf, StagedRow, TrackerRow } from "./rows";

/**
 * Writes one batch of staged rows. Everything a batch needs is read first (which games exist and
 * are visible, what is already there, ids re-issued by earlier restores, the room the plan leaves);
 * then every row is decided (added, already there, or failed with its column), and the rows to add
 * go to D1 as ONE batch: a row's statements commit together or not at all, and the plan limits
 * are checked again inside that batch (limitGuardAfter), so a concurrent add cannot push the
 * account past its limit. A batch broken by a concurrent writer is decided and written again once.
 */
export interface ApplyContext {
  db: Db;
  userId: string;
  plan: Plan;
  now: Date;
}

export interface BatchOutcome {
  added: number;
  existing: number;
  failed: number;
  reported: ReportedRow[];
}

type Statement = SQL | D1PreparedStatement;

interface Decided {
  statements: Statement[];
  outcome: BatchOutcome;
}

class Decisions {
  statements: Statement[] = [];
  outcome: BatchOutcome = { added: 0, existing: 0, failed: 0, reported: [] };
  add(...statements: Statement[]) {
    this.statements.push(...statements);
    this.outcome.added++;
  }
  exists(row: number, column: string, message: string) {
    this.outcome.existing++;
    this.outcome.reported.push({ row, column, code: "already_exists", message });
  }
  fail(row: number, column: string | null, code: ReportedRow["code"], message: string, candidates?: number[]) {
    this.outcome.failed++;
    this.outcome.reported.push({ row, column, code, message, ...(candidates ? { candidates } : {}) });
  }
  get decided(): Decided {
    return { statements: this.statements, outcome: this.outcome };
  }
}

/** The plan's room for one dataset's new rows: each new row takes one, or is reported as past the limit. */
class Room {
  constructor(
    private left: number,
    private readonly reportPast: (row: number) => void,
  ) {}

  take(row: number): boolean {
    if (this.left <= 0) {
      this.reportPast(row);
      return false;
    }
    this.left--;
    return true;
  }
}

/**
 * Attribute labels as ids; a label the account does not have yet is created (within the plan's
 * attribute limit), since attributes travel as labels in an export. Unresolvable labels: null.
 */
async function attributeResolver(ctx: ApplyContext, labels: readonly string[]) {
  const known = new Map<string, string>();
  for (const a of (await attributeLabels(ctx.db, ctx.userId)).values()) {
    known.set(a.label, a.id);
    known.set(a.id, a.id);
  }
  const missing = [...new Set(labels.filter((label) => !known.has(label)))];
  for (const label of missing) {
    try {
      const created = await insertOwnAttribute(ctx.db, { userId: ctx.userId, plan: ctx.plan, upgradeUrl: "" }, label);
      known.set(label, created.id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Created meanwhile: read it; over the limit: the rows carrying it fail.
      const again = await attributeLabels(ctx.db, ctx.userId);
      for (const a of again.values()) if (a.label === label) known.set(label, a.id);
    }
  }
  return (refs: readonly string[]): string[] | null => {
    const ids = refs.map((ref) => known.get(ref));
    return ids.every((id) => id !== undefined) ? [...new Set(ids as string[])] : null;
  };
}

/** The row's values of these columns, an empty one (absent from the file) as null. */
const orNull = <R, K extends keyof R>(row: R, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, row[key] ?? null])) as { [P in K]-?: NonNullable<R[P]> | null };

const timesOf = (row: { createdAt?: string | null; updatedAt?: string | null }, now: string) => {
  const createdAt = row.createdAt ?? now;
  return { createdAt, updatedAt: row.updatedAt ?? createdAt };
};

/** Custom game ids of another account are mapped through earlier customGames restores; official ids are kept. */
async function mappedGameIds(ctx: ApplyContext, ids: readonly number[]): Promise<Map<number, number>> {
  const custom = ids.filter((id) => id >= CUSTOM_ID_BASE).map(String);
  const mapped = await idMap(ctx.db, ctx.userId, "game", custom);
  return new Map(ids.map((id) => [id, Number(mapped.get(String(id)) ?? id)]));
}

/** The file's game ids mapped to this account's, and the distinct games they land on. */
/** Reports a row whose game this account cannot see (not there, or another user's custom game); true when it did. */
function unseenGame(d: Decisions, r: number, fileGameId: number, visible: ReadonlySet<number>, gameId: number): boolean {
  if (visible.has(gameId)) return false;
  d.fail(r, "gameId", "not_found", `Game ${fileGameId} does not exist here (or is another user's custom game).`);
  return true;
}

/** rowsContext for rows of games, with which of their games this account can see and which its library holds. */
async function gameRowsContext(ctx: ApplyContext, fileGameIds: readonly number[]) {
  const rows = await rowsContext(ctx, fileGameIds);
  const [visible, owned] = await Promise.all([
    visibleGames(rows.db, rows.userId, rows.targets),
    inLibrary(rows.db, rows.userId, rows.targets),
  ]);
  return { ...rows, visible, owned };
}

/** A dataset's rows in this account: its handles, the time written, and the rows' game ids mapped (with the distinct targets). */
async function rowsContext(ctx: ApplyContext, fileGameIds: readonly number[]) {
  const gameIds = await mappedGameIds(ctx, fileGameIds);
  return { db: ctx.db, userId: ctx.userId, now: ctx.now.toISOString(), gameIds, targets: [...new Set(gameIds.values())] };
}

const limitMessage = (plan: Plan, resource: RegisteredResource, noun = `${resource} entries`) =>
  `The ${plan} plan allows ${REGISTERED_LIMITS[resource][plan]} ${noun}; this row is past the limit and was not imported.`;

/** How a restore names one kind of record in its reports. */
interface RestoredKind {
  /** The file column of the record's id. */
  field: string;
  /** "Console", "Custom game": what a report calls one. */
  label: string;
  resource: RegisteredResource;
  /** The plan limit's noun ("consoles"). */
  plural: string;
}

/**
 * A restoring dataset's decisions: a row whose record is already here (restored earlier, or the
 * account's own) is reported as existing; a new one takes the plan's room or is reported past it.
 */
function restoringDecisions<T extends string | number>(
  ctx: ApplyContext,
  kind: RestoredKind,
  restored: { has(id: T): boolean },
  room: number,
) {
  const d = new Decisions();
  const left = new Room(room, (r) => d.fail(r, kind.field, "plan_limit", limitMessage(ctx.plan, kind.resource, kind.plural)));
  const alreadyHere = (r: number, id: T) => {
    if (!restored.has(id)) return false;
    d.exists(r, kind.field, `${kind.label} ${id} was already restored (or is yours); kept as it is.`);
    return true;
  };
  return { d, left, alreadyHere };
}

/** The decided rows, their batch closed by the plan-limit guards of the counters (when it writes anything). */
function decidedWithin(ctx: ApplyContext, d: Decisions, ...counters: PlanCounter[]): Decided {
  for (const counter of counters) {
    const guard = limitGuardAfter(ctx, counter);
    if (guard && d.statements.length > 0) d.statements.push(guard);
  }
  return d.decided;
}

/** A record a restore gives a new id to (import_id_map kind), its id and owner columns, and how a stored id reads back. */
interface RestorableRecord<T extends string | number> {
  kind: string;
  id: SQLiteColumn;
  owner: SQLiteColumn;
  asId: (reissued: string) => T;
}

const CUSTOM_GAME_RECORD: RestorableRecord<number> = { kind: "game", id: games.id, owner: games.ownerUserId, asId: Number };
const CONSOLE_RECORD: RestorableRecord<string> = { kind: "console", id: consoles.id, owner: consoles.userId, asId: String };
const COLLECTION_RECORD: RestorableRecord<string> = { kind: "collection", id: collections.id, owner: collections.userId, asId: String };

/**
 * Which of a file's record ids are here already: the account's own, one whose re-issued id (kind
 * in import_id_map, from an earlier restore) still exists, or one this batch adds (add).
 */
async function restoredIds<T extends string | number>({ db, userId }: ApplyContext, record: RestorableRecord<T>, fileIds: readonly T[]) {
  const { kind, asId } = record;
  const [reissued, own] = await Promise.all([
    idMap(db, userId, kind, fileIds.map(String)),
    held(db, record.owner, userId, record.id, fileIds),
  ]);
  const restored = await held(db, record.owner, userId, record.id, [...reissued.values()].map(asId));
  const added = new Set<T>();
  return {
    has(fileId: T) {
      const again = reissued.get(String(fileId));
      return own.has(fileId) || (again !== undefined && restored.has(asId(again))) || added.has(fileId);
    },
    add: (fileId: T) => added.add(fileId),
  };
}

async function decideLibrary(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"library">>[]): Promise<Decided> {
  const { userId, now, gameIds, visible, owned } = await gameRowsContext(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const [room, resolve] = await Promise.all([
    roomLeft(ctx.db, ctx, LIBRARY_COUNTER),
    attributeResolver(
      ctx,
      rows.flatMap((r) => r.d.attributes),
    ),
  ]);
  const d = new Decisions();
  let left = room;
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    if (unseenGame(d, r, row.gameId, visible, gameId)) continue;
    if (owned.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is already in your library; kept as it is.`);
    else if (left <= 0) d.fail(r, "gameId", "plan_limit", limitMessage(ctx.plan, "library"));
    else {
      const attributeIds = resolve(row.attributes);
      if (attributeIds === null) {
        d.fail(r, "attributes", "plan_limit", "An attribute label could not be created (the plan's attribute limit).");
        continue;
      }
      owned.add(gameId);
      left--;
      const values = { ...orNull(row, ["rating", "buyDate", "buyPrice", "buyPlace", "memo"]), userLinks: row.userLinks, attributeIds };
      d.add(insertEntrySql(userId, gameId, values, now, timesOf(row, now)), deleteWishSql(userId, gameId));
    }
  }
  return decidedWithin(ctx, d, LIBRARY_COUNTER);
}

async function decideWishlist(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"wishlist">>[]): Promise<Decided> {
  const { db, userId, now, gameIds, targets, visible, owned } = await gameRowsContext(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const [wished, room] = await Promise.all([onWishlist(db, userId, targets), roomLeft(db, ctx, WISHLIST_COUNTER)]);
  const d = new Decisions();
  let left = room;
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    if (unseenGame(d, r, row.gameId, visible, gameId)) continue;
    if (wished.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is already on your wishlist; kept as it is.`);
    else if (owned.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is in your library, so it cannot be wished for.`);
    else if (left <= 0) d.fail(r, "gameId", "plan_limit", limitMessage(ctx.plan, "wishlist"));
    else {
      wished.add(gameId);
      left--;
      const values = orNull(row, ["priority", "wishDate", "wishPrice", "wishPlace", "memo"]);
      d.add(insertWishSql(userId, gameId, values, now, timesOf(row, now)));
    }
  }
  return decidedWithin(ctx, d, WISHLIST_COUNTER);
}

/** Games (distinct) that must still be in the library when the batch runs (a removal racing the import breaks it). */
const allOwnedGuard = (userId: string, gameIds: readonly number[]) => guardStatement(allOwnedSql(userId, gameIds));

async function decidePlayRecords(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"playRecords">>[]): Promise<Decided> {
  const fileGameIds = rows.map((r) => r.d.gameId);
  const { db, userId, now, gameIds, targets } = await rowsContext(ctx, fileGameIds);
  const playIds = rows.map((r) => r.d.playId);
  const consoleRefs = [...new Set(rows.flatMap((r) => (r.d.consoleId ? [r.d.consoleId] : [])))];
  const [owned, mappedPlays, ownPlays, latest, consoleMap, ownConsoles, resolve] = await Promise.all([
    inLibrary(db, userId, targets),
    idMap(db, userId, "play", playIds),
    held(db, playRecords.userId, userId, playRecords.id, playIds),
    withLatestPlay(db, userId, targets),
    idMap(db, userId, "console", consoleRefs),
    held(db, consoles.userId, userId, consoles.id, consoleRefs),
    attributeResolver(
      ctx,
      rows.flatMap((r) => r.d.attributes),
    ),
  ]);
  const existingIds = new Set(ownPlays);
  const currentConsoles = await held(db, consoles.userId, userId, consoles.id, [...consoleMap.values()]);
  const d = new Decisions();
  const touched: number[] = [];
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    const mapped = mappedPlays.get(row.playId);
    if (existingIds.has(row.playId) || (mapped !== undefined && (await playRecordExists(db, userId, mapped)))) {
      d.exists(r, "playId", `Play record ${row.playId} was already imported (or is yours); kept as it is.`);
      continue;
    }
    if (!owned.has(gameId)) {
      d.fail(r, "gameId", "not_found", `Game ${row.gameId} is not in your library: import the library file first.`);
      continue;
    }
    if (!row.isLatest && ctx.plan !== "PREMIUM") {
      d.fail(r, "isLatest", "plan_limit", "Earlier play cycles (history) are kept on PREMIUM only.");
      continue;
    }
    if (row.isLatest && latest.has(gameId)) {
      d.exists(r, "gameId", `Game ${gameId} already has a current play record; kept as it is.`);
      continue;
    }
    let consoleId: string | null = null;
    if (row.consoleId) {
      const target = consoleMap.get(row.consoleId) ?? row.consoleId;
      if (ctx.plan === "FREE") {
        d.fail(r, "consoleId", "plan_limit", "Consoles are recorded on LIGHT and above.");
        continue;
      }
      if (!ownConsoles.has(target) && !currentConsoles.has(target)) {
        d.fail(r, "consoleId", "not_found", `Console ${row.consoleId} is not one of your consoles: import the consoles file first.`);
        continue;
      }
      consoleId = target;
    }
    const attributeIds = resolve(row.attributes);
    if (attributeIds === null) {
      d.fail(r, "attributes", "plan_limit", "An attribute label could not be created (the plan's attribute limit).");
      continue;
    }
    const playId = newPlayId();
    const values = {
      status: row.status,
      ...orNull(row, ["playStartDate", "playEndDate", "clearTargetDate", "rating", "memo"]),
      userLinks: row.userLinks,
      attributeIds,
      consoleId,
    };
    if (row.isLatest) latest.add(gameId);
    existingIds.add(row.playId);
    touched.push(gameId);
    d.add(
      ...(row.isLatest ? [endLatestSql(userId, gameId)] : []),
      insertPlaySql(userId, gameId, playId, values, now, { ...timesOf(row, now), isLatest: row.isLatest }),
      mapSql(userId, "play", row.playId, playId),
    );
  }
  if (touched.length > 0) d.statements.unshift(allOwnedGuard(userId, [...new Set(touched)]));
  return d.decided;
}

async function decidePlayLogs(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"playLogs">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const logIds = rows.map((r) => r.d.playLogId);
  const playRefs = [...new Set(rows.map((r) => r.d.playId))];
  const [mappedLogs, ownLogs, mappedPlays] = await Promise.all([
    idMap(db, userId, "log", logIds),
    held(db, playLogs.userId, userId, playLogs.id, logIds),
    idMap(db, userId, "play", playRefs),
  ]);
  const candidates = [...new Set([...playRefs, ...mappedPlays.values()])];
  const [records, mappedLogsThere] = await Promise.all([
    held(db, playRecords.userId, userId, playRecords.id, candidates),
    held(db, playLogs.userId, userId, playLogs.id, [...mappedLogs.values()]),
  ]);
  const d = new Decisions();
  const parents: string[] = [];
  for (const { r, d: row } of rows) {
    const mapped = mappedLogs.get(row.playLogId);
    if (ownLogs.has(row.playLogId) || (mapped !== undefined && mappedLogsThere.has(mapped))) {
      d.exists(r, "playLogId", `Play log ${row.playLogId} was already imported (or is yours); kept as it is.`);
      continue;
    }
    const mappedPlay = mappedPlays.get(row.playId);
    const playId = mappedPlay !== undefined && records.has(mappedPlay) ? mappedPlay : records.has(row.playId) ? row.playId : null;
    if (playId === null) {
      d.fail(r, "playId", "not_found", `Play record ${row.playId} is not here: import the playRecords file (with history) first.`);
      continue;
    }
    const id = newId("plog");
    ownLogs.add(row.playLogId);
    parents.push(playId);
    d.add(
      insertPlayLogSql(userId, playId, id, { ...orNull(row, ["playDate", "memo"]), playTime: row.playTime }, now, timesOf(row, now)),
      mapSql(userId, "log", row.playLogId, id),
    );
  }
  if (parents.length > 0) d.statements.unshift(guardStatement(allPlayRecordsKept(userId, [...new Set(parents)])));
  return d.decided;
}

/** Tracker rows: matched through searchGames' own search, then library (or wishlist) and play record. */
async function decideTracker(ctx: ApplyContext, rows: StagedRow<TrackerRow>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const matches: MatchResult[] = await matchGames(
    db,
    userId,
    rows.map((r) => r.d),
  );
  const targets = [...new Set(matches.flatMap((m) => (m.kind === "matched" ? [m.gameId] : [])))];
  const [owned, wished, latest, libraryRoom, wishRoom] = await Promise.all([
    inLibrary(db, userId, targets),
    onWishlist(db, userId, targets),
    withLatestPlay(db, userId, targets),
    roomLeft(db, ctx, LIBRARY_COUNTER),
    roomLeft(db, ctx, WISHLIST_COUNTER),
  ]);
  const d = new Decisions();
  let libraryLeft = libraryRoom;
  let wishLeft = wishRoom;
  const touched: number[] = [];
  const decideRow = ({ r, d: row }: (typeof rows)[number], i: number) => {
    const match = matches[i]!;
    if (match.kind === "unmatched") return d.fail(r, match.column, "unmatched", match.message);
    if (match.kind === "ambiguous") return d.fail(r, match.column, "ambiguous", match.message, match.candidates);
    const gameId = match.gameId;
    if (row.status === "WISHLIST") {
      if (owned.has(gameId)) return d.exists(r, "status", `Game ${gameId} is in your library, so it cannot be wished for.`);
      if (wished.has(gameId)) return d.exists(r, "title", `Game ${gameId} is already on your wishlist; kept as it is.`);
      if (wishLeft <= 0) return d.fail(r, "title", "plan_limit", limitMessage(ctx.plan, "wishlist"));
      wishLeft--;
      wished.add(gameId);
      return d.add(
        insertWishSql(userId, gameId, { priority: null, wishDate: null, wishPrice: null, wishPlace: row.buyPlace, memo: row.memo }, now),
      );
    }
    const statements: SQL[] = [];
    if (!owned.has(gameId)) {
      if (libraryLeft <= 0) return d.fail(r, "title", "plan_limit", limitMessage(ctx.plan, "library"));
      libraryLeft--;
      owned.add(gameId);
      const values = {
        rating: row.rating,
        buyDate: row.buyDate,
        buyPrice: row.buyPrice,
        buyPlace: row.buyPlace,
        memo: row.memo,
        userLinks: [],
        attributeIds: [],
      };
      statements.push(insertEntrySql(userId, gameId, values, now), deleteWishSql(userId, gameId));
    }
    if (row.status !== null && !latest.has(gameId)) {
      latest.add(gameId);
      touched.push(gameId);
      // The file tells the past: a date it does not give stays unknown, never today (withStatusDates is for play happening now).
      const values = {
        status: row.status,
        playStartDate: row.playStartDate,
        playEndDate: row.playEndDate,
        clearTargetDate: null,
        rating: row.rating,
        memo: null,
        userLinks: [],
        attributeIds: [],
        consoleId: null,
      };
      statements.push(insertPlaySql(userId, gameId, newPlayId(), values, now));
    }
    if (statements.length === 0)
      return d.exists(r, "title", `Game ${gameId} is already in your library${row.status ? " with a play record" : ""}; kept as it is.`);
    return d.add(...statements);
  };
  for (const [i, staged] of rows.entries()) decideRow(staged, i);
  // After the library entries the batch adds: the games of its play records must be in the library then.
  if (touched.length > 0) d.statements.push(allOwnedGuard(userId, [...new Set(touched)]));
  return decidedWithin(ctx, d, LIBRARY_COUNTER, WISHLIST_COUNTER);
}

/**
 * Custom games: each gets a new id from the custom-id allocator, recorded in import_id_map (kind
 * game), through which later library, wishlist, play record, tag and collection files of the same
 * export find it. Custom platforms and publishers are not in exports: a game naming one the
 * account cannot use is reported (not_found).
 */
async function decideCustomGames(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"customGames">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const genreIds = [...new Set(rows.flatMap((r) => [r.d.genreId, r.d.genreSubId].filter((id): id is number => id != null)))];
  const fileIds = rows.map((r) => r.d.gameId);
  const [restored, platforms, companies, parents, room] = await Promise.all([
    restoredIds(ctx, CUSTOM_GAME_RECORD, fileIds),
    usableIds(
      db,
      "platforms",
      userId,
      rows.map((r) => r.d.platformId),
    ),
    usableIds(
      db,
      "companies",
      userId,
      rows.flatMap((r) => (r.d.publisherId != null ? [r.d.publisherId] : [])),
    ),
    genreParents(db, genreIds),
    roomLeft(db, ctx, CUSTOM_GAMES_COUNTER),
  ]);
  const kind = { field: "gameId", label: "Custom game", resource: "customGames", plural: "custom games" } as const;
  const { d, left, alreadyHere } = restoringDecisions(ctx, kind, restored, room);
  const references = new Map<string, SQL>();
  for (const { r, d: row } of rows) {
    if (alreadyHere(r, row.gameId)) continue;
    const unusable = (
      [
        ["platformId", "Platform", platforms],
        ["publisherId", "Publisher", companies],
      ] as const
    ).find(([field, , usable]) => row[field] != null && !usable.has(row[field]!));
    if (unusable) {
      const [field, noun] = unusable;
      d.fail(
        r,
        field,
        "not_found",
        `${noun} ${row[field]} is not one you can use (custom ${noun.toLowerCase()}s are not in exports: add it first).`,
      );
      continue;
    }
    const badGenre = (["genreId", "genreSubId"] as const).find((field) => row[field] != null && !parents.has(row[field]!));
    if (badGenre) {
      d.fail(r, badGenre, "not_found", `Genre ${row[badGenre]} does not exist here.`);
      continue;
    }
    if (row.genreId != null && parents.get(row.genreId) !== null) {
      d.fail(r, "genreId", "invalid_input", `Genre ${row.genreId} is a support genre; the main genre must be a root genre.`);
      continue;
    }
    if (!left.take(r)) continue;
    restored.add(row.gameId);
    const fields: CustomGameFields = {
      title: row.title,
      titleEn: row.titleEn,
      aliases: row.aliases,
      platformId: row.platformId,
      modelNumber: row.modelNumber,
      ...orNull(row, ["titleReading", "publisherId", "genreId", "genreSubId", "releaseDate", "janCode", "price"]),
    };
    for (const condition of referencesStillUsable(userId, { platformId: fields.platformId }))
      references.set(`platform ${fields.platformId}`, condition.holds);
    for (const condition of referencesStillUsable(userId, { publisherId: fields.publisherId }))
      references.set(`publisher ${fields.publisherId}`, condition.holds);
    const gameId = randomCustomId();
    d.add(...(await insertCustomGameStatements(db, userId, gameId, fields)), mapSql(userId, "game", String(row.gameId), String(gameId)));
  }
  // The platforms and publishers named must still be usable when the batch runs (as addCustomGame checks).
  if (d.statements.length > 0) d.statements.unshift(...[...references.values()].map((holds) => guardStatement(holds)));
  return decidedWithin(ctx, d, CUSTOM_GAMES_COUNTER);
}

/** Consoles: new ids (kind console in import_id_map), through which later play record files reference them. */
async function decideConsoles(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"consoles">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const platformIds = rows.flatMap((r) => r.d.platforms.map((p) => p.platformId));
  const fileIds = rows.map((r) => r.d.consoleId);
  const [restored, platforms, room] = await Promise.all([
    restoredIds(ctx, CONSOLE_RECORD, fileIds),
    usableIds(db, "platforms", userId, platformIds),
    roomLeft(db, ctx, CONSOLES_COUNTER),
  ]);
  const kind = { field: "consoleId", label: "Console", resource: "consoles", plural: "consoles" } as const;
  const { d, left, alreadyHere } = restoringDecisions(ctx, kind, restored, room);
  for (const { r, d: row } of rows) {
    if (alreadyHere(r, row.consoleId)) continue;
    const missing = row.platforms.findIndex((p) => !platforms.has(p.platformId));
    if (missing >= 0) {
      d.fail(r, `platforms[${missing}].platformId`, "not_found", `Platform ${row.platforms[missing]!.platformId} is not one you can use.`);
      continue;
    }
    if (!left.take(r)) continue;
    restored.add(row.consoleId);
    const id = newId("con");
    const values = {
      name: row.name,
      ...orNull(row, ["nameKana", "memo", "rating", "buyDate", "buyPrice", "buyPlace", "publisherName"]),
      platformPriorities: row.platforms.map(({ platformId, priority }) => ({ platformId, priority })),
    };
    d.add(...insertConsoleSql(id, userId, values, now, timesOf(row, now)), mapSql(userId, "console", row.consoleId, id));
  }
  return decidedWithin(ctx, d, CONSOLES_COUNTER);
}

/**
 * Tags: a tag is known by its name (unique per account): one the account has is kept as it is
 * (already_exists) and the file's tagId maps to it, so TAG collections restored later find it.
 * Its games must be in the library (restore the library first), as updateTagGames requires.
 */
async function decideTags(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"tags">>[]): Promise<Decided> {
  const fileGameIds = rows.flatMap((r) => r.d.gameIds);
  const { db, userId, now, gameIds, targets } = await rowsContext(ctx, fileGameIds);
  const [named, owned, room] = await Promise.all([
    tagsNamed(
      db,
      userId,
      rows.map((r) => r.d.name),
    ),
    inLibrary(db, userId, targets),
    roomLeft(db, ctx, TAGS_COUNTER),
  ]);
  const byName = new Map<string, number | null>(named.map((t) => [t.name, t.id]));
  const d = new Decisions();
  const tagged: number[] = [];
  const left = new Room(room, (r) => d.fail(r, "name", "plan_limit", limitMessage(ctx.plan, "tags", "tags")));
  for (const { r, d: row } of rows) {
    if (byName.has(row.name)) {
      const existing = byName.get(row.name);
      d.exists(r, "name", `You already have a tag named '${row.name}'; kept as it is.`);
      if (existing != null && existing !== row.tagId) d.statements.push(mapSql(userId, "tag", String(row.tagId), String(existing)));
      continue;
    }
    const ids = [...new Set(row.gameIds.map((id) => gameIds.get(id)!))];
    const missing = row.gameIds.findIndex((id) => !owned.has(gameIds.get(id)!));
    if (missing >= 0) {
      d.fail(r, `gameIds[${missing}]`, "not_found", `Game ${row.gameIds[missing]} is not in your library: import the library file first.`);
      continue;
    }
    if (!left.take(r)) continue;
    byName.set(row.name, null);
    tagged.push(...ids);
    const values = { name: row.name, ...orNull(row, ["nameKana", "color", "description"]) };
    const tagId = tagIdByNameSql(userId, row.name);
    d.add(
      insertTagSql(userId, values, now, timesOf(row, now)),
      ...(ids.length > 0 ? [tagGamesInsertSql(userId, tagId, ids)] : []),
      mapSql(userId, "tag", String(row.tagId), sql`CAST(${tagId} AS TEXT)`),
    );
  }
  if (d.outcome.added > 0) {
    const guard = limitGuardAfter(ctx, TAGS_COUNTER);
    if (guard) d.statements.push(guard);
    // The games must still be in the library when the batch runs (a removal racing the import breaks it).
    if (tagged.length > 0) d.statements.unshift(allOwnedGuard(userId, [...new Set(tagged)]));
  }
  return d.decided;
}

/** Collections: new ids (kind collection); their tag, platform and games are checked as addCollection checks them. */
async function decideCollections(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"collections">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const gameIds = await mappedGameIds(
    ctx,
    rows.flatMap((r) => [...r.d.gameIds, ...r.d.excludeGameIds]),
  );
  const tagRefs = [...new Set(rows.flatMap((r) => (r.d.tagId != null ? [String(r.d.tagId)] : [])))];
  /** The file's tag ids re-issued by the tags restore, and which tags (by their id here) exist. */
  const tagsHere = async () => {
    const mappedTags = await idMap(db, userId, "tag", tagRefs);
    return { mappedTags, existing: await held(db, tags.userId, userId, tags.id, [...tagRefs, ...mappedTags.values()].map(Number)) };
  };
  const platformIds = rows.flatMap((r) => (r.d.platformId != null ? [r.d.platformId] : []));
  const fileIds = rows.map((r) => r.d.collectionId);
  const [restored, { mappedTags, existing: ownTags }, visible, platforms, room] = await Promise.all([
    restoredIds(ctx, COLLECTION_RECORD, fileIds),
    tagsHere(),
    visibleGames(db, userId, [...new Set(gameIds.values())]),
    usableIds(db, "platforms", userId, platformIds),
    roomLeft(db, ctx, COLLECTIONS_COUNTER),
  ]);
  const kind = { field: "collectionId", label: "Collection", resource: "collections", plural: "collections" } as const;
  const { d, left, alreadyHere } = restoringDecisions(ctx, kind, restored, room);
  for (const { r, d: row } of rows) {
    if (alreadyHere(r, row.collectionId)) continue;
    const mappedTag = row.tagId != null ? Number(mappedTags.get(String(row.tagId)) ?? row.tagId) : null;
    const collection: NewCollection = {
      name: row.name,
      type: row.type,
      purpose: row.purpose,
      tagId: mappedTag,
      ...orNull(row, ["description", "platformId", "genreId", "releaseDateFrom", "releaseDateTo"]),
      gameIds: [...new Set(row.gameIds.map((id) => gameIds.get(id)!))],
      excludeGameIds: [...new Set(row.excludeGameIds.map((id) => gameIds.get(id)!))],
    };
    try {
      checkCollectionFields(collection);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      d.fail(r, String(error.details.field ?? "type"), "invalid_input", error.message);
      continue;
    }
    if (mappedTag !== null && !ownTags.has(mappedTag)) {
      d.fail(r, "tagId", "not_found", `Tag ${row.tagId} is not one of your tags: import the tags file first.`);
      continue;
    }
    if (collection.platformId !== null && !platforms.has(collection.platformId)) {
      d.fail(r, "platformId", "not_found", `Platform ${collection.platformId} is not one you can use.`);
      continue;
    }
    const unknown = (["gameIds", "excludeGameIds"] as const).flatMap((field) => {
      const index = row[field].findIndex((id) => !visible.has(gameIds.get(id)!));
      return index >= 0 ? [{ field, index, id: row[field][index]! }] : [];
    })[0];
    if (unknown) {
      d.fail(
        r,
        `${unknown.field}[${unknown.index}]`,
        "not_found",
        `Game ${unknown.id} does not exist here (or is another user's custom game): import the customGames file first.`,
      );
      continue;
    }
    if (!left.take(r)) continue;
    restored.add(row.collectionId);
    const id = newId("col");
    d.add(...insertCollectionSql(id, userId, collection, now, timesOf(row, now)), mapSql(userId, "collection", row.collectionId, id));
  }
  return decidedWithin(ctx, d, COLLECTIONS_COUNTER);
}

// biome-ignore lint/suspicious/noExplicitAny: each dataset decides rows of its own staged type.
const DECIDERS: Record<string, (ctx: ApplyContext, rows: StagedRow<any>[]) => Promise<Decided>> = {
  customGames: decideCustomGames,
  consoles: decideConsoles,
  tags: decideTags,
  collections: decideCollections,
  library: decideLibrary,
  wishlist: decideWishlist,
  playRecords: decidePlayRecords,
  playLogs: decidePlayLogs,
  tracker: decideTracker,
};

/** Decides and writes one batch (see the file comment); retried once when a concurrent writer broke it. */
export async function applyBatch(ctx: ApplyContext, dataset: string, rows: StagedRow[]): Promise<BatchOutcome> {
  const decide = DECIDERS[dataset];
  if (!decide) throw new Error(`no importer for ${dataset}`);
  for (let attempt = 0; ; attempt++) {
    const { statements, outcome } = await decide(ctx, rows);
    if (statements.length === 0) return outcome;
    const guardBroken = new Error("a guard of the batch broke");
    try {
      await runGuarded(ctx.db, statements, () => guardBroken);
      return outcome;
    } catch (error) {
      const raced = error === guardBroken || isUniqueViolation(error);
      if (!raced || attempt >= 1) throw error;
    }
  }
}
