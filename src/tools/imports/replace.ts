import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db";
import { newRevision } from "../../platform/ids";

/**
 * What `replace` removes before the file's rows are added, per dataset: everything the matching
 * remove tools would take with the records (a library entry takes its play records and logs,
 * physical copies and tag memberships), plus the ids earlier restores re-issued for them.
 */
export interface Removal {
  counts: SQL;
  revision: SQL;
  statements: SQL[];
  describe(counts: Record<string, number>): string;
}

const forgetIds = (userId: string, kinds: string[]) =>
  sql`DELETE FROM import_id_map WHERE user_id = ${userId} AND kind IN (SELECT value FROM json_each(${JSON.stringify(kinds)}))`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function removalOf(userId: string, dataset: string): Removal {
  switch (dataset) {
    case "library":
      return {
        counts: sql`SELECT (SELECT COUNT(*) FROM library_entries WHERE user_id = ${userId}) AS entries,
          (SELECT COUNT(*) FROM play_records WHERE user_id = ${userId}) AS plays,
          (SELECT COUNT(*) FROM play_logs WHERE user_id = ${userId}) AS logs,
          (SELECT COUNT(*) FROM physical_copies WHERE user_id = ${userId}) AS copies`,
        revision: sql`SELECT (SELECT COUNT(*) || max(updated_at) FROM library_entries WHERE user_id = ${userId}) ||
          (SELECT COUNT(*) || ifnull(max(updated_at), '') FROM play_records WHERE user_id = ${userId}) AS r`,
        statements: [
          sql`DELETE FROM physical_copies WHERE user_id = ${userId}`,
          sql`DELETE FROM play_logs WHERE user_id = ${userId}`,
          sql`DELETE FROM play_records WHERE user_id = ${userId}`,
          sql`DELETE FROM tag_games WHERE tag_id IN (SELECT id FROM tags WHERE user_id = ${userId})`,
          sql`DELETE FROM library_entries WHERE user_id = ${userId}`,
          forgetIds(userId, ["play", "log"]),
        ],
        describe: (c) =>
          `${plural(c.entries ?? 0, "library entry", "library entries")} with their ${plural(c.plays ?? 0, "play record")}, ${plural(c.logs ?? 0, "play log")}, ${plural(c.copies ?? 0, "physical copy", "physical copies")} and tag memberships`,
      };
    case "wishlist":
      return {
        counts: sql`SELECT COUNT(*) AS entries FROM wishlist_entries WHERE user_id = ${userId}`,
        revision: sql`SELECT COUNT(*) || ifnull(max(updated_at), '') AS r FROM wishlist_entries WHERE user_id = ${userId}`,
        statements: [sql`DELETE FROM wishlist_entries WHERE user_id = ${userId}`],
        describe: (c) => plural(c.entries ?? 0, "wishlist entry", "wishlist entries"),
      };
    case "playRecords":
      return {
        counts: sql`SELECT (SELECT COUNT(*) FROM play_records WHERE user_id = ${userId}) AS plays, (SELECT COUNT(*) FROM play_logs WHERE user_id = ${userId}) AS logs`,
        revision: sql`SELECT COUNT(*) || ifnull(max(updated_at), '') AS r FROM play_records WHERE user_id = ${userId}`,
        statements: [
          sql`DELETE FROM play_logs WHERE user_id = ${userId}`,
          sql`DELETE FROM play_records WHERE user_id = ${userId}`,
          forgetIds(userId, ["play", "log"]),
        ],
        describe: (c) => `${plural(c.plays ?? 0, "play record")} (every cycle) with their ${plural(c.logs ?? 0, "play log")}`,
      };
    case "playLogs":
      return {
        counts: sql`SELECT COUNT(*) AS logs FROM play_logs WHERE user_id = ${userId}`,
        revision: sql`SELECT COUNT(*) || ifnull(max(updated_at), '') AS r FROM play_logs WHERE user_id = ${userId}`,
        statements: [sql`DELETE FROM play_logs WHERE user_id = ${userId}`, forgetIds(userId, ["log"])],
        describe: (c) => plural(c.logs ?? 0, "play log"),
      };
    case "customGames": {
      // What removeCustomGame takes with each game, for every custom game of the account.
      const games = sql`SELECT id FROM games WHERE owner_user_id = ${userId}`;
      return {
        counts: sql`SELECT (SELECT COUNT(*) FROM games WHERE owner_user_id = ${userId}) AS games,
          (SELECT COUNT(*) FROM library_entries WHERE user_id = ${userId} AND game_id IN (${games})) AS entries,
          (SELECT COUNT(*) FROM wishlist_entries WHERE user_id = ${userId} AND game_id IN (${games})) AS wishes,
          (SELECT COUNT(*) FROM play_records WHERE user_id = ${userId} AND game_id IN (${games})) AS plays`,
        revision: sql`SELECT COUNT(*) || ':' || ifnull(group_concat(content_hash), '') AS r FROM games WHERE owner_user_id = ${userId}`,
        statements: [
          sql`DELETE FROM physical_copies WHERE user_id = ${userId} AND game_id IN (${games})`,
          sql`DELETE FROM play_logs WHERE user_id = ${userId} AND play_id IN (SELECT id FROM play_records WHERE user_id = ${userId} AND game_id IN (${games}))`,
          sql`DELETE FROM play_records WHERE user_id = ${userId} AND game_id IN (${games})`,
          sql`DELETE FROM tag_games WHERE game_id IN (${games}) AND tag_id IN (SELECT id FROM tags WHERE user_id = ${userId})`,
          sql`DELETE FROM library_entries WHERE user_id = ${userId} AND game_id IN (${games})`,
          sql`DELETE FROM wishlist_entries WHERE user_id = ${userId} AND game_id IN (${games})`,
          sql`DELETE FROM game_editions WHERE game_id IN (${games})`,
          sql`DELETE FROM games WHERE owner_user_id = ${userId}`,
          forgetIds(userId, ["game"]),
        ],
        describe: (c) =>
          `${plural(c.games ?? 0, "custom game")} with their ${plural(c.entries ?? 0, "library entry", "library entries")}, ${plural(c.wishes ?? 0, "wishlist entry", "wishlist entries")}, ${plural(c.plays ?? 0, "play record")} (and their logs, physical copies and tag memberships)`,
      };
    }
    case "consoles":
      // What removeConsole takes with each console: its platforms and maintenance logs (which exports do not hold); play records lose it.
      return {
        counts: sql`SELECT (SELECT COUNT(*) FROM consoles WHERE user_id = ${userId}) AS consoles,
          (SELECT COUNT(*) FROM maintenance_logs WHERE user_id = ${userId}) AS logs,
          (SELECT COUNT(*) FROM play_records WHERE user_id = ${userId} AND console_id IS NOT NULL) AS plays`,
        revision: sql`SELECT COUNT(*) || ifnull(max(updated_at), '') AS r FROM consoles WHERE user_id = ${userId}`,
        statements: [
          sql`UPDATE play_records SET console_id = NULL, revision = ${newRevision()} WHERE user_id = ${userId} AND console_id IS NOT NULL`,
          sql`DELETE FROM maintenance_logs WHERE user_id = ${userId}`,
          sql`DELETE FROM console_platforms WHERE console_id IN (SELECT id FROM consoles WHERE user_id = ${userId})`,
          sql`DELETE FROM consoles WHERE user_id = ${userId}`,
          forgetIds(userId, ["console"]),
        ],
        describe: (c) =>
          `${plural(c.consoles ?? 0, "console")} with their ${plural(c.logs ?? 0, "maintenance log")} (not in exports: they cannot be restored); ${plural(c.plays ?? 0, "play record")} lose their console`,
      };
    case "tags":
      return {
        counts: sql`SELECT (SELECT COUNT(*) FROM tags WHERE user_id = ${userId}) AS tags,
          (SELECT COUNT(*) FROM tag_games WHERE tag_id IN (SELECT id FROM tags WHERE user_id = ${userId})) AS memberships`,
        revision: sql`SELECT COUNT(*) || ifnull(max(updated_at), '') AS r FROM tags WHERE user_id = ${userId}`,
        statements: [
          sql`DELETE FROM tag_games WHERE tag_id IN (SELECT id FROM tags WHERE user_id = ${userId})`,
          sql`DELETE FROM tags WHERE user_id = ${userId}`,
          forgetIds(userId, ["tag"]),
        ],
        describe: (c) =>
          `${plural(c.tags ?? 0, "tag")} with their ${plural(c.memberships ?? 0, "game membership")} (the games stay in your library)`,
      };
    case "collections":
      return {
        counts: sql`SELECT COUNT(*) AS collections FROM collections WHERE user_id = ${userId}`,
        revision: sql`SELECT COUNT(*) || ifnull(max(updated_at), '') AS r FROM collections WHERE user_id = ${userId}`,
        statements: [
          sql`DELETE FROM collection_games WHERE collection_id IN (SELECT id FROM collections WHERE user_id = ${userId})`,
          sql`DELETE FROM collections WHERE user_id = ${userId}`,
          forgetIds(userId, ["collection"]),
        ],
        describe: (c) => plural(c.collections ?? 0, "collection"),
      };
    default:
      throw new Error(`replace is not defined for ${dataset}`);
  }
}

export async function removalPreview(db: Db, removal: Removal) {
  const [[counts], [revision]] = await Promise.all([
    db.all<Record<string, number>>(removal.counts),
    db.all<{ r: string | null }>(removal.revision),
  ]);
  return { description: removal.describe(counts ?? {}), revision: revision?.r ?? "" };
}
