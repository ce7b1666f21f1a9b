import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { collections, tagGames, tags } from "../../db/schema";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { limitGuardAfter, roomLeft } from "../../platform/registeredLimits";
import { positiveId } from "../../platform/schemas";
import { tagCollectionsOn } from "../collections/removal";
import { pick } from "../shared/cascade";
import { countOf, countOfUser, defineDataset, lastChange, orEmpty, restoredTimes } from "../shared/datasets";
import { Decisions, type RestoreContext, type StagedRow } from "../shared/decisions";
import { rowOf } from "../shared/exportDataset";
import { limitMessage, orNull, Room, timesOf } from "../shared/restore";
import { allOwnedGuard, forgetIdsSql, inLibrary, mapSql, rowsContext } from "../shared/restoreReads";
import { type TagRow, tagFieldArgs, toTag } from "./items";
import { insertTagSql, TAG_ORDER, TAG_SELECT, TAGS_COUNTER, tagGamesInsertSql, tagIdByNameSql, tagsNamed } from "./queries";
import { ofUserTags, tagsRemovalSql } from "./removal";

/** Tags as getTags' columns and order name them. */
const listed = alias(tags, "t");

const columns = ["tagId", "name", "nameKana", "color", "description", "gameCount", "gameIds", "createdAt", "updatedAt"] as const;

const rowSchema = z.object({
  tagId: positiveId,
  name: tagFieldArgs.name,
  nameKana: tagFieldArgs.nameKana.nullish(),
  color: tagFieldArgs.color.nullish(),
  description: tagFieldArgs.description.nullish(),
  gameIds: orEmpty(z.array(positiveId).max(1000)),
  ...restoredTimes,
});

/**
 * Tags: a tag is known by its name (unique per account): one the account has is kept as it is
 * (already_exists) and the file's tagId maps to it, so TAG collections restored later find it.
 * Its games must be in the library (restore the library first), as updateTagGames requires.
 */
async function restoreTags(ctx: RestoreContext, rows: StagedRow<z.output<typeof rowSchema>>[]) {
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
  // Only a batch that adds tags is guarded (one that only maps existing tags must not break on the limit).
  if (d.outcome.added > 0) {
    const guard = limitGuardAfter(ctx, TAGS_COUNTER);
    if (guard) d.statements.push(guard);
    // The games must still be in the library when the batch runs (a removal racing the import breaks it).
    if (tagged.length > 0) d.statements.unshift(allOwnedGuard(userId, [...new Set(tagged)]));
  }
  return d.decided;
}

/** One row per tag with its games' ids, oldest tag first (getTags' order); no filters. */
export const tagsDataset = defineDataset({
  export: {
    name: "tags",
    plans: LIGHT_AND_ABOVE,
    accepts: [],
    columns,
    async query({ userId }) {
      return {
        // raw SQL: read through the keyset machinery (platform/keyset.ts); json_group_array has no builder form.
        from: sql`${tags} ${listed}`,
        where: [eq(listed.userId, userId)],
        select: sql`${TAG_SELECT}, (SELECT json_group_array(game_id) FROM (SELECT game_id FROM ${tagGames} WHERE tag_id = ${listed.id} ORDER BY game_id)) AS game_ids`,
        keys: TAG_ORDER,
        render: (rows: (TagRow & { game_ids: string; created_at: string })[]) =>
          rows.map((row) => rowOf(columns, { ...toTag(row), gameIds: JSON.parse(row.game_ids), createdAt: row.created_at })),
      };
    },
  },
  rowSchema,
  restore: restoreTags,
  removal: (userId) => ({
    counts: {
      tags: countOfUser(tags, userId),
      memberships: countOf(tagGames, ofUserTags(userId)),
      collections: countOfUser(collections, userId, tagCollectionsOn(pick.all)),
    },
    revision: sql`${lastChange(tags, userId)} || ':' || ${lastChange(collections, userId)}`,
    statements: [...tagsRemovalSql(userId, pick.all), forgetIdsSql(userId, ["tag"])],
    describe: (c) =>
      `${counted(c.tags ?? 0, "tag")} with their ${counted(c.memberships ?? 0, "game membership")} (the games stay in your library) and the ${counted(c.collections ?? 0, "TAG collection")} built on them`,
  }),
});
