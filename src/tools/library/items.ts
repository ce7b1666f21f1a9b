import { z } from "zod";
import type { libraryEntries } from "../../db/schema";
import type { RowOf } from "../../platform/db";
import { attributeSetArg, rating } from "../../platform/filters";
import { PRICE_DESCRIPTION, recordedDate, text } from "../../platform/schemas";
import { type Attribute, attributeSchema } from "../attributes/items";
import { type GameRecord, gameSchema, toGame } from "../games/gameObject";
import type { GameTag } from "../tags/queries";

export const LIBRARY_FIELD_GROUPS = ["game", "purchase", "attributes", "userLinks", "memo", "latestPlay", "timestamps", "tags"] as const;
export type LibraryFieldGroup = (typeof LIBRARY_FIELD_GROUPS)[number];
export const DEFAULT_LIBRARY_FIELDS: readonly LibraryFieldGroup[] = ["game", "purchase", "attributes"];
/** What a write answers with: everything but latestPlay, which needs another scope. */
export const WRITE_RESULT_FIELDS: readonly LibraryFieldGroup[] = ["game", "purchase", "attributes", "userLinks", "memo", "timestamps"];

export const userLink = z.strictObject({
  name: text(50),
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(500),
});

/** Fields a user sets on an entry (addToLibrary, updateLibraryEntry). */
export const entryFieldArgs = {
  rating: rating.nullable(),
  buyDate: recordedDate("Purchase date").nullable(),
  buyPrice: z.number().min(0).nullable().describe(PRICE_DESCRIPTION),
  buyPlace: text(100).nullable(),
  memo: text(2000).nullable(),
  userLinks: z.array(userLink).max(20),
  attributes: attributeSetArg,
};

/** Output fields a user's own records share (library entries, play records), each in its field group. */
export const personalFieldsOutput = {
  attributes: z.array(attributeSchema).optional(),
  userLinks: z.array(z.object({ name: z.string(), url: z.string() })).optional(),
  memo: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  game: gameSchema.optional(),
};

export const libraryEntrySchema = z
  .object({
    gameId: z.number().int(),
    rating: z.number().int().nullable(),
    revision: z.string().describe("Send it back to updateLibraryEntry."),
    buyDate: z.string().nullable().optional(),
    buyPrice: z.number().nullable().optional(),
    buyPlace: z.string().nullable().optional(),
    ...personalFieldsOutput,
    latestPlay: z
      .object({
        hasPlayRecord: z.boolean(),
        playId: z.string().optional(),
        status: z.string().optional(),
        hasHistory: z.boolean().optional(),
      })
      .optional()
      .describe("hasPlayRecord false only means no play record was created; it is not a backlog flag."),
    tags: z
      .array(z.object({ tagId: z.number().int(), name: z.string() }))
      .optional()
      .describe("Your tags holding the game, by name (field group tags)."),
  })
  .meta({ id: "LibraryEntry" });
export type LibraryItem = z.infer<typeof libraryEntrySchema>;

/** The columns of a library row that its items show. */
export const ENTRY_KEYS = [
  "gameId",
  "rating",
  "buyDate",
  "buyPrice",
  "buyPlace",
  "memo",
  "userLinks",
  "attributeIds",
  "createdAt",
  "updatedAt",
  "revision",
] as const;

/** One library row as the library queries read it (plus the game's columns when joined). */
export type EntryRow = RowOf<typeof libraryEntries, (typeof ENTRY_KEYS)[number]>;

/** Renders an entry with the asked field groups; empty values inside a group are null. */
export interface LatestPlay {
  playId: string;
  status: string;
  hasHistory: boolean;
}

export function toLibraryItem(
  row: EntryRow & Partial<GameRecord>,
  groups: ReadonlySet<LibraryFieldGroup>,
  labels: ReadonlyMap<string, Attribute>,
  latestPlays: ReadonlyMap<number, LatestPlay> = new Map(),
  tagsOf: ReadonlyMap<number, GameTag[]> = new Map(),
): LibraryItem {
  const play = latestPlays.get(row.game_id);
  return {
    gameId: row.game_id,
    rating: row.rating,
    revision: row.revision,
    ...(groups.has("purchase") ? { buyDate: row.buy_date, buyPrice: row.buy_price, buyPlace: row.buy_place } : {}),
    ...(groups.has("attributes") ? { attributes: (JSON.parse(row.attribute_ids) as string[]).flatMap((id) => labels.get(id) ?? []) } : {}),
    ...(groups.has("userLinks") ? { userLinks: JSON.parse(row.user_links) } : {}),
    ...(groups.has("memo") ? { memo: row.memo } : {}),
    ...(groups.has("timestamps") ? { createdAt: row.created_at, updatedAt: row.updated_at } : {}),
    ...(groups.has("game") && row.id !== undefined ? { game: toGame(row as GameRecord, new Set()) } : {}),
    ...(groups.has("latestPlay") ? { latestPlay: play ? { hasPlayRecord: true, ...play } : { hasPlayRecord: false } } : {}),
    ...(groups.has("tags") ? { tags: tagsOf.get(row.game_id) ?? [] } : {}),
  };
}
