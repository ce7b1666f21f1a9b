import { and, count, eq, inArray, isNotNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  collectionGames,
  collections,
  consolePlatforms,
  consoles,
  gameEditions,
  games,
  importIdMap,
  libraryEntries,
  maintenanceLogs,
  physicalCopies,
  playLogs,
  playRecords,
  tagGames,
  tags,
  wishlistEntries,
} from "../../db/schema";
import { type Db, statements } from "../../platform/db";
import { newRevision } from "../../platform/ids";
import { deleteTagCollectionsSql, TAG_COLLECTIONS } from "../collections/queries";
import { counted } from "../shared/previewText";

/**
 * What `replace` removes before the file's rows are added, per dataset: everything the matching
 * remove tools would take with the records (a library entry takes its play records and logs,
 * physical copies and tag memberships), plus the ids earlier restores re-issued for them.
 */
export interface Removal {
  /** What is removed, counted: each name's statement reads one count. */
  counts: Record<string, SQLWrapper>;
  /** A value that changes whenever what is removed changes: the confirmation's revision. */
  revision: SQLWrapper;
  statements: SQL[];
  describe(counts: Record<string, number>): string;
}

/** The tables a user's rows of are removed from, through their user_id. */
type UserTable =
  | typeof libraryEntries
  | typeof wishlistEntries
  | typeof playRecords
  | typeof playLogs
  | typeof physicalCopies
  | typeof consoles
  | typeof maintenanceLogs
  | typeof tags
  | typeof collections;

const countOf = (table: SQLiteTable, where: SQL | undefined) => statements.select({ n: count() }).from(table).where(where);
const ofUser = (table: UserTable, userId: string) => eq(table.userId, userId);
const countOfUser = (table: UserTable, userId: string, also?: SQL) => countOf(table, and(ofUser(table, userId), also));
const deleteWhere = (table: SQLiteTable, where: SQL | undefined) => statements.delete(table).where(where).getSQL();
const deleteOfUser = (table: UserTable, userId: string, also?: SQL) => deleteWhere(table, and(ofUser(table, userId), also));

/** The user's rows of the table, counted, then their last change: differs once any was added, changed or removed. */
const lastChange = (table: UserTable, userId: string) =>
  statements
    .select({ r: sql`COUNT(*) || ifnull(max(${table.updatedAt}), '')` })
    .from(table)
    .where(ofUser(table, userId));

const idsOf = (table: typeof tags | typeof collections | typeof consoles, userId: string) =>
  statements.select({ id: table.id }).from(table).where(ofUser(table, userId));

const forgetIds = (userId: string, kinds: string[]) =>
  deleteWhere(importIdMap, and(eq(importIdMap.userId, userId), inArray(importIdMap.kind, kinds)));

export function removalOf(userId: string, dataset: string, now: string): Removal {
  switch (dataset) {
    case "library":
      return {
        counts: {
          entries: countOfUser(libraryEntries, userId),
          plays: countOfUser(playRecords, userId),
          logs: countOfUser(playLogs, userId),
          copies: countOfUser(physicalCopies, userId),
        },
        revision: sql`${statements
          .select({ r: sql`COUNT(*) || max(${libraryEntries.updatedAt})` })
          .from(libraryEntries)
          .where(ofUser(libraryEntries, userId))} || ${lastChange(playRecords, userId)}`,
        statements: [
          deleteOfUser(physicalCopies, userId),
          deleteOfUser(playLogs, userId),
          deleteOfUser(playRecords, userId),
          deleteWhere(tagGames, inArray(tagGames.tagId, idsOf(tags, userId))),
          deleteOfUser(libraryEntries, userId),
          forgetIds(userId, ["play", "log"]),
        ],
        describe: (c) =>
          `${counted(c.entries ?? 0, "library entry", "library entries")} with their ${counted(c.plays ?? 0, "play record")}, ${counted(c.logs ?? 0, "play log")}, ${counted(c.copies ?? 0, "physical copy", "physical copies")} and tag memberships`,
      };
    case "wishlist":
      return {
        counts: { entries: countOfUser(wishlistEntries, userId) },
        revision: lastChange(wishlistEntries, userId),
        statements: [deleteOfUser(wishlistEntries, userId)],
        describe: (c) => counted(c.entries ?? 0, "wishlist entry", "wishlist entries"),
      };
    case "playRecords":
      return {
        counts: { plays: countOfUser(playRecords, userId), logs: countOfUser(playLogs, userId) },
        revision: lastChange(playRecords, userId),
        statements: [deleteOfUser(playLogs, userId), deleteOfUser(playRecords, userId), forgetIds(userId, ["play", "log"])],
        describe: (c) => `${counted(c.plays ?? 0, "play record")} (every cycle) with their ${counted(c.logs ?? 0, "play log")}`,
      };
    case "playLogs":
      return {
        counts: { logs: countOfUser(playLogs, userId) },
        revision: lastChange(playLogs, userId),
        statements: [deleteOfUser(playLogs, userId), forgetIds(userId, ["log"])],
        describe: (c) => counted(c.logs ?? 0, "play log"),
      };
    case "customGames": {
      // What removeCustomGame takes with each game, for every custom game of the account.
      const own = eq(games.ownerUserId, userId);
      const customGameIds = statements.select({ id: games.id }).from(games).where(own);
      const ofCustomGames = (gameId: SQLiteColumn) => inArray(gameId, customGameIds);
      return {
        counts: {
          games: countOf(games, own),
          entries: countOfUser(libraryEntries, userId, ofCustomGames(libraryEntries.gameId)),
          wishes: countOfUser(wishlistEntries, userId, ofCustomGames(wishlistEntries.gameId)),
          plays: countOfUser(playRecords, userId, ofCustomGames(playRecords.gameId)),
        },
        revision: statements
          .select({ r: sql`COUNT(*) || ':' || ifnull(group_concat(${games.contentHash}), '')` })
          .from(games)
          .where(own),
        statements: [
          deleteOfUser(physicalCopies, userId, ofCustomGames(physicalCopies.gameId)),
          deleteOfUser(
            playLogs,
            userId,
            inArray(
              playLogs.playId,
              statements
                .select({ id: playRecords.id })
                .from(playRecords)
                .where(and(ofUser(playRecords, userId), ofCustomGames(playRecords.gameId))),
            ),
          ),
          deleteOfUser(playRecords, userId, ofCustomGames(playRecords.gameId)),
          deleteWhere(tagGames, and(inArray(tagGames.gameId, customGameIds), inArray(tagGames.tagId, idsOf(tags, userId)))),
          deleteOfUser(libraryEntries, userId, ofCustomGames(libraryEntries.gameId)),
          deleteOfUser(wishlistEntries, userId, ofCustomGames(wishlistEntries.gameId)),
          deleteWhere(gameEditions, inArray(gameEditions.gameId, customGameIds)),
          deleteWhere(games, own),
          forgetIds(userId, ["game"]),
        ],
        describe: (c) =>
          `${counted(c.games ?? 0, "custom game")} with their ${counted(c.entries ?? 0, "library entry", "library entries")}, ${counted(c.wishes ?? 0, "wishlist entry", "wishlist entries")}, ${counted(c.plays ?? 0, "play record")} (and their logs, physical copies and tag memberships)`,
      };
    }
    case "consoles": {
      // What removeConsole takes with each console: its platforms and maintenance logs (which exports do not hold); play records lose it.
      const withConsole = isNotNull(playRecords.consoleId);
      return {
        counts: {
          consoles: countOfUser(consoles, userId),
          logs: countOfUser(maintenanceLogs, userId),
          plays: countOfUser(playRecords, userId, withConsole),
        },
        revision: lastChange(consoles, userId),
        statements: [
          statements
            .update(playRecords)
            .set({ consoleId: null, updatedAt: now, revision: newRevision() })
            .where(and(ofUser(playRecords, userId), withConsole))
            .getSQL(),
          deleteOfUser(maintenanceLogs, userId),
          deleteWhere(consolePlatforms, inArray(consolePlatforms.consoleId, idsOf(consoles, userId))),
          deleteOfUser(consoles, userId),
          forgetIds(userId, ["console"]),
        ],
        describe: (c) =>
          `${counted(c.consoles ?? 0, "console")} with their ${counted(c.logs ?? 0, "maintenance log")} (not in exports: they cannot be restored); ${counted(c.plays ?? 0, "play record")} lose their console`,
      };
    }
    case "tags":
      // What removeTag takes with each tag: its memberships and the TAG collections built on it.
      return {
        counts: {
          tags: countOfUser(tags, userId),
          memberships: countOf(tagGames, inArray(tagGames.tagId, idsOf(tags, userId))),
          collections: countOfUser(collections, userId, TAG_COLLECTIONS),
        },
        revision: sql`${lastChange(tags, userId)} || ':' || ${lastChange(collections, userId)}`,
        statements: [
          ...deleteTagCollectionsSql(userId),
          deleteWhere(tagGames, inArray(tagGames.tagId, idsOf(tags, userId))),
          deleteOfUser(tags, userId),
          forgetIds(userId, ["tag"]),
        ],
        describe: (c) =>
          `${counted(c.tags ?? 0, "tag")} with their ${counted(c.memberships ?? 0, "game membership")} (the games stay in your library) and the ${counted(c.collections ?? 0, "TAG collection")} built on them`,
      };
    case "collections":
      return {
        counts: { collections: countOfUser(collections, userId) },
        revision: lastChange(collections, userId),
        statements: [
          deleteWhere(collectionGames, inArray(collectionGames.collectionId, idsOf(collections, userId))),
          deleteOfUser(collections, userId),
          forgetIds(userId, ["collection"]),
        ],
        describe: (c) => counted(c.collections ?? 0, "collection"),
      };
    default:
      throw new Error(`replace is not defined for ${dataset}`);
  }
}

export async function removalPreview(db: Db, removal: Removal) {
  const [row] = await db.all<Record<string, number> & { r: string | null }>(
    // raw SQL: one row of scalar subqueries, a SELECT without FROM, which the builder cannot say
    sql`SELECT ${sql.join(
      Object.entries(removal.counts).map(([name, counted]) => sql`${counted} AS ${sql.identifier(name)}`),
      sql`, `,
    )}, ${removal.revision} AS r`,
  );
  const { r, ...counts } = row!;
  return { description: removal.describe(counts), revision: r ?? "" };
}
