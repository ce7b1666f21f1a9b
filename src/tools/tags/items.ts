import { z } from "zod";
import type { tags } from "../../db/schema";
import type { RowOf } from "../../platform/db";
import { nameText, text } from "../../platform/schemas";

export const tagFieldArgs = {
  name: nameText(30).describe("Unique among your tags."),
  nameKana: text(60).nullable(),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be #rrggbb"),
  description: text(500).nullable(),
};

export const tagSchema = z
  .object({
    tagId: z.number().int(),
    name: z.string(),
    nameKana: z.string().nullable(),
    gameCount: z.number().int(),
    revision: z.string().describe("Send it back to updateTag and updateTagGames."),
    description: z.string().nullable(),
    color: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: "Tag" });

/** What a user sets on a tag. */
export type TagValues = Pick<typeof tags.$inferSelect, "name" | "nameKana" | "color" | "description">;

/** The columns of a tag that the tag queries (TAG_SELECT) read. */
export const TAG_KEYS = ["id", "name", "nameKana", "color", "description", "revision", "createdAt", "updatedAt"] as const;

/** A tag as TAG_SELECT reads it (raw rows, keyed by column name), with how many games it holds. */
export type TagRow = RowOf<typeof tags, (typeof TAG_KEYS)[number]> & { game_count: number };

export const toTag = (row: TagRow) => ({
  tagId: row.id,
  name: row.name,
  nameKana: row.name_kana,
  gameCount: row.game_count,
  revision: row.revision,
  description: row.description,
  color: row.color,
  updatedAt: row.updated_at,
});
