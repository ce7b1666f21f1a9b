import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { tags } from "../../../db/schema";
import { type TagRow, toTag } from "../../tags/items";
import { TAG_ORDER, TAG_SELECT } from "../../tags/queries";
import { MY_DATASET_PLANS } from "./args";
import { type MyDataset, rowOf } from "./dataset";

/** Tags as getTags' columns and order name them. */
const listed = alias(tags, "t");

const columns = ["tagId", "name", "nameKana", "color", "description", "gameCount", "gameIds", "createdAt", "updatedAt"] as const;

/** One row per tag with its games' ids, oldest tag first (getTags' order); no filters. */
export const tagsDataset: MyDataset = {
  name: "tags",
  plans: MY_DATASET_PLANS.tags,
  accepts: [],
  columns,
  async query({ userId }) {
    return {
      // raw SQL: read through the keyset machinery (platform/keyset.ts); json_group_array has no builder form.
      from: sql`${tags} ${listed}`,
      where: [eq(listed.userId, userId)],
      select: sql`${TAG_SELECT}, (SELECT json_group_array(game_id) FROM (SELECT game_id FROM tag_games WHERE tag_id = ${listed.id} ORDER BY game_id)) AS game_ids`,
      keys: TAG_ORDER,
      render: (rows: (TagRow & { game_ids: string; created_at: string })[]) =>
        rows.map((row) => rowOf(columns, { ...toTag(row), gameIds: JSON.parse(row.game_ids), createdAt: row.created_at })),
    };
  },
};
