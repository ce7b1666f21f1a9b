import { SQL, sql } from "drizzle-orm";
import { randomCustomId } from "../../platform/customIds";
import { type Db, guardStatement, isUniqueViolation, prepare, queryBatch } from "../../platform/db";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { type Plan, REGISTERED_LIMITS, type RegisteredResource } from "../../platform/plans";
import { limitGuardAfter, type PlanCounter, roomLeft } from "../../platform/registeredLimits";
import { CUSTOM_ID_BASE } from "../../platform/schemas";
import { attributeLabels, insertOwnAttribute } from "../attributes/queries";
import { COLLECTIONS_COUNTER, checkCollectionFields, insertCollectionSql, type NewCollection } from "../collections/queries";
import { CONSOLES_COUNTER, insertConsoleSql } from "../consoles/queries";
import { CUSTOM_GAMES_COUNTER, type CustomGameFields, insertCustomGameStatements, referencesStillUsable } from "../customGames/queries";
import { usableIds } from "../games/queries";
import { insertEntrySql, LIBRARY_COUNTER } from "../library/queries";
import { insertPlayLogSql } from "../play/logs";
import { endLatestSql, insertPlaySql, newPlayId, withStatusDates } from "../play/queries";
import { allOwnedSql, insertTagSql, TAGS_COUNTER, tagGamesInsertSql, tagIdByNameSql } from "../tags/queries";
import { deleteWishSql, insertWishSql, WISHLIST_COUNTER } from "../wishlist/queries";
import type { ReportedRow } from "./jobs";
import { type MatchResult, matchGames } from "./matching";
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

const json = (values: readonly unknown[]) => JSON.stringify(values);

/** Ids re-issued by earlier restores of this user: old id (as in the file) -> new id. */
async function idMap(db: Db, userId: string, kind: string, oldIds: readonly string[]): Promise<Map<string, string>> {
  if (oldIds.length === 0) return new Map();
  const rows = await db.all<{ old_id: string; new_id: string }>(sql`
    SELECT old_id, new_id FROM import_id_map WHERE user_id = ${userId} AND kind = ${kind} AND old_id IN (SELECT value FROM json_each(${json(oldIds)}))`);
  return new Map(rows.map((r) => [r.old_id, r.new_id]));
}

/** Records a re-issued id; `newIdValue` may be SQL (a tag's id is known only once it is inserted). */
const mapSql = (userId: string, kind: string, oldId: string, newIdValue: string | SQL) =>
  sql`INSERT INTO import_id_map (user_id, kind, old_id, new_id) VALUES (${userId}, ${kind}, ${oldId}, ${newIdValue})
      ON CONFLICT (user_id, kind, old_id) DO UPDATE SET new_id = excluded.new_id`;

/** The ids among `ids` the user can see (official games and their own custom games). */
async function visibleGames(db: Db, userId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.all<{ id: number }>(sql`
    SELECT id FROM games WHERE id IN (SELECT value FROM json_each(${json(ids)})) AND ifnull(owner_user_id, ${userId}) = ${userId}`);
  return new Set(rows.map((r) => r.id));
}

async function idsIn(db: Db, query: SQL): Promise<Set<number | string>> {
  return new Set((await db.all<{ id: number | string }>(query)).map((r) => r.id));
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
async function mappedTargets(ctx: ApplyContext, ids: readonly number[]) {
  const gameIds = await mappedGameIds(ctx, ids);
  return { gameIds, targets: [...new Set(gameIds.values())] };
}

const limitMessage = (plan: Plan, resource: RegisteredResource, noun = `${resource} entries`) =>
  `The ${plan} plan allows ${REGISTERED_LIMITS[resource][plan]} ${noun}; this row is past the limit and was not imported.`;

/** The decided rows, their batch closed by the plan-limit guard of `counter` (when it writes anything). */
function decidedWithin(ctx: ApplyContext, d: Decisions, counter: PlanCounter): Decided {
  const guard = limitGuardAfter(ctx, counter);
  if (guard && d.statements.length > 0) d.statements.push(guard);
  return d.decided;
}

async function decideLibrary(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"library">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const { gameIds, targets } = await mappedTargets(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const [visible, owned, room, resolve] = await Promise.all([
    visibleGames(db, userId, targets),
    idsIn(
      db,
      sql`SELECT game_id AS id FROM library_entries WHERE user_id = ${userId} AND game_id IN (SELECT value FROM json_each(${json(targets)}))`,
    ),
    roomLeft(db, ctx, LIBRARY_COUNTER),
    attributeResolver(
      ctx,
      rows.flatMap((r) => r.d.attributes),
    ),
  ]);
  const d = new Decisions();
  let left = room;
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    if (!visible.has(gameId))
      d.fail(r, "gameId", "not_found", `Game ${row.gameId} does not exist here (or is another user's custom game).`);
    else if (owned.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is already in your library; kept as it is.`);
    else if (left <= 0) d.fail(r, "gameId", "plan_limit", limitMessage(ctx.plan, "library"));
    else {
      const attributeIds = resolve(row.attributes);
      if (attributeIds === null) {
        d.fail(r, "attributes", "plan_limit", "An attribute label could not be created (the plan's attribute limit).");
        continue;
      }
      owned.add(gameId);
      left--;
      const values = {
        rating: row.rating ?? null,
        buyDate: row.buyDate ?? null,
        buyPrice: row.buyPrice ?? null,
        buyPlace: row.buyPlace ?? null,
        memo: row.memo ?? null,
        userLinks: row.userLinks,
        attributeIds,
      };
      d.add(insertEntrySql(userId, gameId, values, now, timesOf(row, now)), deleteWishSql(userId, gameId));
    }
  }
  return decidedWithin(ctx, d, LIBRARY_COUNTER);
}

async function decideWishlist(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"wishlist">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const { gameIds, targets } = await mappedTargets(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const inTargets = sql`game_id IN (SELECT value FROM json_each(${json(targets)}))`;
  const [visible, owned, wished, room] = await Promise.all([
    visibleGames(db, userId, targets),
    idsIn(db, sql`SELECT game_id AS id FROM library_entries WHERE user_id = ${userId} AND ${inTargets}`),
    idsIn(db, sql`SELECT game_id AS id FROM wishlist_entries WHERE user_id = ${userId} AND ${inTargets}`),
    roomLeft(db, ctx, WISHLIST_COUNTER),
  ]);
  const d = new Decisions();
  let left = room;
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    if (!visible.has(gameId))
      d.fail(r, "gameId", "not_found", `Game ${row.gameId} does not exist here (or is another user's custom game).`);
    else if (wished.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is already on your wishlist; kept as it is.`);
    else if (owned.has(gameId)) d.exists(r, "gameId", `Game ${gameId} is in your library, so it cannot be wished for.`);
    else if (left <= 0) d.fail(r, "gameId", "plan_limit", limitMessage(ctx.plan, "wishlist"));
    else {
      wished.add(gameId);
      left--;
      const values = {
        priority: row.priority ?? null,
        wishDate: row.wishDate ?? null,
        wishPrice: row.wishPrice ?? null,
        wishPlace: row.wishPlace ?? null,
        memo: row.memo ?? null,
      };
      d.add(insertWishSql(userId, gameId, values, now, timesOf(row, now)));
    }
  }
  return decidedWithin(ctx, d, WISHLIST_COUNTER);
}

/** Games that must still be in the library when the batch runs (a removal racing the import breaks it). */
const allOwnedGuard = (userId: string, gameIds: readonly number[]) =>
  guardStatement(sql`NOT EXISTS (SELECT 1 FROM json_each(${json(gameIds)}) j
    WHERE NOT EXISTS (SELECT 1 FROM library_entries WHERE user_id = ${userId} AND game_id = j.value))`);

async function decidePlayRecords(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"playRecords">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const { gameIds, targets } = await mappedTargets(
    ctx,
    rows.map((r) => r.d.gameId),
  );
  const playIds = rows.map((r) => r.d.playId);
  const consoleRefs = [...new Set(rows.flatMap((r) => (r.d.consoleId ? [r.d.consoleId] : [])))];
  const [owned, mappedPlays, ownPlays, latest, consoleMap, ownConsoles, resolve] = await Promise.all([
    idsIn(
      db,
      sql`SELECT game_id AS id FROM library_entries WHERE user_id = ${userId} AND game_id IN (SELECT value FROM json_each(${json(targets)}))`,
    ),
    idMap(db, userId, "play", playIds),
    idsIn(db, sql`SELECT id FROM play_records WHERE user_id = ${userId} AND id IN (SELECT value FROM json_each(${json(playIds)}))`),
    idsIn(
      db,
      sql`SELECT game_id AS id FROM play_records WHERE user_id = ${userId} AND is_latest = 1 AND game_id IN (SELECT value FROM json_each(${json(targets)}))`,
    ),
    idMap(db, userId, "console", consoleRefs),
    idsIn(db, sql`SELECT id FROM consoles WHERE user_id = ${userId} AND id IN (SELECT value FROM json_each(${json(consoleRefs)}))`),
    attributeResolver(
      ctx,
      rows.flatMap((r) => r.d.attributes),
    ),
  ]);
  const existingIds = new Set([...ownPlays].map(String));
  const currentConsoles = await idsIn(
    db,
    sql`SELECT id FROM consoles WHERE user_id = ${userId} AND id IN (SELECT value FROM json_each(${json([...consoleMap.values()])}))`,
  );
  const d = new Decisions();
  const touched: number[] = [];
  for (const { r, d: row } of rows) {
    const gameId = gameIds.get(row.gameId)!;
    const mapped = mappedPlays.get(row.playId);
    if (existingIds.has(row.playId) || (mapped !== undefined && (await stillThere(db, userId, mapped)))) {
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
      playStartDate: row.playStartDate ?? null,
      playEndDate: row.playEndDate ?? null,
      clearTargetDate: row.clearTargetDate ?? null,
      rating: row.rating ?? null,
      memo: row.memo ?? null,
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

async function stillThere(db: Db, userId: string, playId: string) {
  const [row] = await db.all(sql`SELECT 1 FROM play_records WHERE user_id = ${userId} AND id = ${playId}`);
  return row !== undefined;
}

async function decidePlayLogs(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"playLogs">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const logIds = rows.map((r) => r.d.playLogId);
  const playRefs = [...new Set(rows.map((r) => r.d.playId))];
  const [mappedLogs, ownLogs, mappedPlays] = await Promise.all([
    idMap(db, userId, "log", logIds),
    idsIn(db, sql`SELECT id FROM play_logs WHERE user_id = ${userId} AND id IN (SELECT value FROM json_each(${json(logIds)}))`),
    idMap(db, userId, "play", playRefs),
  ]);
  const candidates = [...new Set([...playRefs, ...mappedPlays.values()])];
  const [records, mappedLogsThere] = await Promise.all([
    idsIn(db, sql`SELECT id FROM play_records WHERE user_id = ${userId} AND id IN (SELECT value FROM json_each(${json(candidates)}))`),
    idsIn(
      db,
      sql`SELECT id FROM play_logs WHERE user_id = ${userId} AND id IN (SELECT value FROM json_each(${json([...mappedLogs.values()])}))`,
    ),
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
      insertPlayLogSql(
        userId,
        playId,
        id,
        { playDate: row.playDate ?? null, playTime: row.playTime, memo: row.memo ?? null },
        now,
        timesOf(row, now),
      ),
      mapSql(userId, "log", row.playLogId, id),
    );
  }
  if (parents.length > 0) {
    d.statements.unshift(
      guardStatement(sql`NOT EXISTS (SELECT 1 FROM json_each(${json([...new Set(parents)])}) j
        WHERE NOT EXISTS (SELECT 1 FROM play_records WHERE user_id = ${userId} AND id = j.value))`),
    );
  }
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
  const inTargets = sql`game_id IN (SELECT value FROM json_each(${json(targets)}))`;
  const [owned, wished, latest, libraryRoom, wishRoom] = await Promise.all([
    idsIn(db, sql`SELECT game_id AS id FROM library_entries WHERE user_id = ${userId} AND ${inTargets}`),
    idsIn(db, sql`SELECT game_id AS id FROM wishlist_entries WHERE user_id = ${userId} AND ${inTargets}`),
    idsIn(db, sql`SELECT game_id AS id FROM play_records WHERE user_id = ${userId} AND is_latest = 1 AND ${inTargets}`),
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
      const values = withStatusDates(
        {
          status: row.status,
          playStartDate: row.playStartDate,
          playEndDate: row.playEndDate,
          clearTargetDate: null,
          rating: row.rating,
          memo: null,
          userLinks: [],
          attributeIds: [],
          consoleId: null,
        },
        null,
        ctx.now,
      );
      statements.push(insertPlaySql(userId, gameId, newPlayId(), values, now));
    }
    if (statements.length === 0)
      return d.exists(r, "title", `Game ${gameId} is already in your library${row.status ? " with a play record" : ""}; kept as it is.`);
    return d.add(...statements);
  };
  for (const [i, staged] of rows.entries()) decideRow(staged, i);
  for (const counter of [LIBRARY_COUNTER, WISHLIST_COUNTER]) {
    const guard = limitGuardAfter(ctx, counter);
    if (guard && d.statements.length > 0) d.statements.push(guard);
  }
  if (touched.length > 0) d.statements.push(allOwnedGuard(userId, [...new Set(touched)]));
  return d.decided;
}

/** The ids among `ids` (of `table`, owned through `owner`) that exist; for records re-issued by earlier restores. */
const existingIds = (
  db: Db,
  table: "games" | "consoles" | "tags" | "collections",
  owner: "owner_user_id" | "user_id",
  userId: string,
  ids: readonly (string | number)[],
) =>
  idsIn(
    db,
    sql`SELECT id FROM ${sql.raw(table)} WHERE ${sql.raw(owner)} = ${userId} AND id IN (SELECT value FROM json_each(${json(ids)}))`,
  );

/**
 * Custom games: each gets a new id from the custom-id allocator, recorded in import_id_map (kind
 * game), through which later library, wishlist, play record, tag and collection files of the same
 * export find it. Custom platforms and publishers are not in exports: a game naming one the
 * account cannot use is reported (not_found).
 */
async function decideCustomGames(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"customGames">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const oldIds = rows.map((r) => r.d.gameId);
  const genreIds = [...new Set(rows.flatMap((r) => [r.d.genreId, r.d.genreSubId].filter((id): id is number => id != null)))];
  const [mapped, own, platforms, companies, genres, room] = await Promise.all([
    idMap(db, userId, "game", oldIds.map(String)),
    existingIds(db, "games", "owner_user_id", userId, oldIds),
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
    db.all<{ id: number; parent_id: number | null }>(
      sql`SELECT id, parent_id FROM genres WHERE id IN (SELECT value FROM json_each(${json(genreIds)}))`,
    ),
    roomLeft(db, ctx, CUSTOM_GAMES_COUNTER),
  ]);
  const restored = await existingIds(db, "games", "owner_user_id", userId, [...mapped.values()].map(Number));
  const parents = new Map(genres.map((g) => [g.id, g.parent_id]));
  const d = new Decisions();
  const seen = new Set<number>();
  const references = new Map<string, SQL>();
  let left = room;
  for (const { r, d: row } of rows) {
    const again = mapped.get(String(row.gameId));
    if (own.has(row.gameId) || (again !== undefined && restored.has(Number(again))) || seen.has(row.gameId)) {
      d.exists(r, "gameId", `Custom game ${row.gameId} was already restored (or is yours); kept as it is.`);
      continue;
    }
    if (!platforms.has(row.platformId)) {
      d.fail(
        r,
        "platformId",
        "not_found",
        `Platform ${row.platformId} is not one you can use (custom platforms are not in exports: add it first).`,
      );
      continue;
    }
    if (row.publisherId != null && !companies.has(row.publisherId)) {
      d.fail(
        r,
        "publisherId",
        "not_found",
        `Publisher ${row.publisherId} is not one you can use (custom publishers are not in exports: add it first).`,
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
    if (left <= 0) {
      d.fail(r, "gameId", "plan_limit", limitMessage(ctx.plan, "customGames", "custom games"));
      continue;
    }
    left--;
    seen.add(row.gameId);
    const fields: CustomGameFields = {
      title: row.title,
      titleReading: row.titleReading ?? null,
      titleEn: row.titleEn,
      aliases: row.aliases,
      platformId: row.platformId,
      publisherId: row.publisherId ?? null,
      genreId: row.genreId ?? null,
      genreSubId: row.genreSubId ?? null,
      releaseDate: row.releaseDate ?? null,
      janCode: row.janCode ?? null,
      modelNumber: row.modelNumber,
      price: row.price ?? null,
    };
    for (const condition of referencesStillUsable(userId, { platformId: fields.platformId }))
      references.set(`platform ${fields.platformId}`, condition.holds);
    for (const condition of referencesStillUsable(userId, { publisherId: fields.publisherId }))
      references.set(`publisher ${fields.publisherId}`, condition.holds);
    const gameId = randomCustomId();
    d.add(...(await insertCustomGameStatements(db, userId, gameId, fields)), mapSql(userId, "game", String(row.gameId), String(gameId)));
  }
  if (d.statements.length > 0) {
    // The platforms and publishers named must still be usable when the batch runs (as addCustomGame checks).
    d.statements.unshift(...[...references.values()].map((holds) => guardStatement(holds)));
    const guard = limitGuardAfter(ctx, CUSTOM_GAMES_COUNTER);
    if (guard) d.statements.push(guard);
  }
  return d.decided;
}

/** Consoles: new ids (kind console in import_id_map), through which later play record files reference them. */
async function decideConsoles(ctx: ApplyContext, rows: StagedRow<ExportRowOf<"consoles">>[]): Promise<Decided> {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const consoleIds = rows.map((r) => r.d.consoleId);
  const [mapped, own, platforms, room] = await Promise.all([
    idMap(db, userId, "console", consoleIds),
    existingIds(db, "consoles", "user_id", userId, consoleIds),
    usableIds(
      db,
      "platforms",
      userId,
      rows.flatMap((r) => r.d.platforms.map((p) => p.platformId)),
    ),
    roomLeft(db, ctx, CONSOLES_COUNTER),
  ]);
  const restored = await existingIds(db, "consoles", "user_id", userId, [...mapped.values()]);
  const d = new Decisions();
  const seen = new Set<string>();
  let left = room;
  for (const { r, d: row } of rows) {
    const again = mapped.get(row.consoleId);
    if (own.has(row.consoleId) || (again !== undefined && restored.has(again)) || seen.has(row.consoleId)) {
      d.exists(r, "consoleId", `Console ${row.consoleId} was already restored (or is yours); kept as it is.`);
      continue;
    }
    const missing = row.platforms.findIndex((p) => !platforms.has(p.platformId));
    if (missing >= 0) {
      d.fail(r, `platforms[${missing}].platformId`, "not_found", `Platform ${row.platforms[missing]!.platformId} is not one you can use.`);
      continue;
    }
    if (left <= 0) {
      d.fail(r, "consoleId", "plan_limit", limitMessage(ctx.plan, "consoles", "consoles"));
      continue;
    }
    left--;
    seen.add(row.consoleId);
    const id = newId("con");
    const values = {
      name: row.name,
      nameKana: row.nameKana ?? null,
      memo: row.memo ?? null,
      rating: row.rating ?? null,
      buyDate: row.buyDate ?? null,
      buyPrice: row.buyPrice ?? null,
      buyPlace: row.buyPlace ?? null,
      publisherName: row.publisherName ?? null,
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
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const { gameIds, targets } = await mappedTargets(
    ctx,
    rows.flatMap((r) => r.d.gameIds),
  );
  const [named, owned, room] = await Promise.all([
    db.all<{ id: number; name: string }>(
      sql`SELECT id, name FROM tags WHERE user_id = ${userId} AND name IN (SELECT value FROM json_each(${json(rows.map((r) => r.d.name))}))`,
    ),
    idsIn(
      db,
      sql`SELECT game_id AS id FROM library_entries WHERE user_id = ${userId} AND game_id IN (SELECT value FROM json_each(${json(targets)}))`,
    ),
    roomLeft(db, ctx, TAGS_COUNTER),
  ]);
  const byName = new Map<string, number | null>(named.map((t) => [t.name, t.id]));
  const d = new Decisions();
  const tagged: number[] = [];
  let left = room;
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
    if (left <= 0) {
      d.fail(r, "name", "plan_limit", limitMessage(ctx.plan, "tags", "tags"));
      continue;
    }
    left--;
    byName.set(row.name, null);
    tagged.push(...ids);
    const values = { name: row.name, nameKana: row.nameKana ?? null, color: row.color ?? null, description: row.description ?? null };
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
    if (tagged.length > 0) d.statements.unshift(guardStatement(allOwnedSql(userId, [...new Set(tagged)])));
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
  const collectionIds = rows.map((r) => r.d.collectionId);
  const tagRefs = [...new Set(rows.flatMap((r) => (r.d.tagId != null ? [String(r.d.tagId)] : [])))];
  const [mapped, own, mappedTags, visible, platforms, room] = await Promise.all([
    idMap(db, userId, "collection", collectionIds),
    existingIds(db, "collections", "user_id", userId, collectionIds),
    idMap(db, userId, "tag", tagRefs),
    visibleGames(db, userId, [...new Set(gameIds.values())]),
    usableIds(
      db,
      "platforms",
      userId,
      rows.flatMap((r) => (r.d.platformId != null ? [r.d.platformId] : [])),
    ),
    roomLeft(db, ctx, COLLECTIONS_COUNTER),
  ]);
  const [restored, tags] = await Promise.all([
    existingIds(db, "collections", "user_id", userId, [...mapped.values()]),
    existingIds(db, "tags", "user_id", userId, [...tagRefs, ...mappedTags.values()].map(Number)),
  ]);
  const d = new Decisions();
  const seen = new Set<string>();
  let left = room;
  for (const { r, d: row } of rows) {
    const again = mapped.get(row.collectionId);
    if (own.has(row.collectionId) || (again !== undefined && restored.has(again)) || seen.has(row.collectionId)) {
      d.exists(r, "collectionId", `Collection ${row.collectionId} was already restored (or is yours); kept as it is.`);
      continue;
    }
    const mappedTag = row.tagId != null ? Number(mappedTags.get(String(row.tagId)) ?? row.tagId) : null;
    const collection: NewCollection = {
      name: row.name,
      description: row.description ?? null,
      type: row.type,
      purpose: row.purpose,
      tagId: mappedTag,
      platformId: row.platformId ?? null,
      genreId: row.genreId ?? null,
      releaseDateFrom: row.releaseDateFrom ?? null,
      releaseDateTo: row.releaseDateTo ?? null,
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
    if (mappedTag !== null && !tags.has(mappedTag)) {
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
    if (left <= 0) {
      d.fail(r, "collectionId", "plan_limit", limitMessage(ctx.plan, "collections", "collections"));
      continue;
    }
    left--;
    seen.add(row.collectionId);
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
    try {
      await ctx.db.$client.batch(statements.map((s) => (s instanceof SQL ? prepare(ctx.db, s) : s)));
      return outcome;
    } catch (error) {
      const raced = /CHECK constraint failed/.test(String(error) + String((error as Error)?.cause ?? "")) || isUniqueViolation(error);
      if (!raced || attempt >= 1) throw error;
    }
  }
}

export { queryBatch };
