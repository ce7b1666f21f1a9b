import { z } from "zod";
import type { wishlistEntries } from "../../db/schema";
import type { RowOf } from "../../platform/db";
import { rating } from "../../platform/filters";
import { recordedDate, text } from "../../platform/schemas";
import { type GameRecord, gameSchema, toGame } from "../games/gameObject";

export const WISHLIST_FIELD_GROUPS = ["game", "wish", "memo", "timestamps"] as const;
export type WishlistFieldGroup = (typeof WISHLIST_FIELD_GROUPS)[number];
export const DEFAULT_WISHLIST_FIELDS: readonly WishlistFieldGroup[] = ["game", "wish"];

/** Fields a user sets on a wishlist entry. */
export const wishFieldArgs = {
  priority: rating.nullable().describe("1 (someday) to 5 (most wanted)."),
  wishDate: recordedDate("Planned purchase date").nullable(),
  wishPrice: z.number().min(0).nullable().describe("Price you expect to pay, JPY."),
  wishPlace: text(100).nullable().describe("Where you mean to buy it."),
  memo: text(2000).nullable(),
};

export const wishlistEntrySchema = z
  .object({
    gameId: z.number().int(),
    priority: z.number().int().nullable(),
    revision: z.string().describe("Send it back to updateWishlistEntry."),
    wishDate: z.string().nullable().optional(),
    wishPrice: z.number().nullable().optional(),
    wishPlace: z.string().nullable().optional(),
    memo: z.string().nullable().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    game: gameSchema.optional(),
  })
  .meta({ id: "WishlistEntry" });

/** The columns of a wishlist row that its items show. */
export const WISH_KEYS = [
  "gameId",
  "priority",
  "wishDate",
  "wishPrice",
  "wishPlace",
  "memo",
  "createdAt",
  "updatedAt",
  "revision",
] as const;

export type WishRow = RowOf<typeof wishlistEntries, (typeof WISH_KEYS)[number]>;

export function toWishlistItem(row: WishRow & Partial<GameRecord>, groups: ReadonlySet<WishlistFieldGroup>) {
  return {
    gameId: row.game_id,
    priority: row.priority,
    revision: row.revision,
    ...(groups.has("wish") ? { wishDate: row.wish_date, wishPrice: row.wish_price, wishPlace: row.wish_place } : {}),
    ...(groups.has("memo") ? { memo: row.memo } : {}),
    ...(groups.has("timestamps") ? { createdAt: row.created_at, updatedAt: row.updated_at } : {}),
    ...(groups.has("game") && row.id !== undefined ? { game: toGame(row as GameRecord, new Set()) } : {}),
  };
}
