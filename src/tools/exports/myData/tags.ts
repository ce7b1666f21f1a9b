import { sql } from "drizzle-orm";
import { TAG_ORDER, TAG_SELECT, type TagRow, toTag } from "../../tags/queries";
import { MY_DATASET_PLANS } from "./args";
import { type MyDataset, rowOf } from "./dataset";

const columns = ["tagId", "name", "nameKana", "color", "description", "gameCount", "gameIds", "createdAt", "updatedAt"] as const;

/** One row per tag with its games' ids, oldest tag first (getTags' order); no filters. */
export const tagsDataset: MyDataset = {
  name: "tags",
  plans: MY_DATASET_PLANS.tags,
  accepts: [],
  columns,
  async query({ userId }) {
    return {
      from: sql`tags t`,
      where: [sql`t.user_id = ${userId}`],
      select: sql`${TAG_SELECT}, (SELECT json_group_array(game_id) FROM (SELECT game_id FROM tag_games WHERE tag_id = t.id ORDER BY game_id)) AS game_ids`,
      keys: TAG_ORDER,
      render: (rows: (TagRow & { game_ids: string; created_at: string })[]) =>
        rows.map((row) => rowOf(columns, { ...toTag(row), gameIds: JSON.parse(row.game_ids), createdAt: row.created_at })),
    };
  },
};
