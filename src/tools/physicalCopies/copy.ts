import { z } from "zod";
import { rating } from "../../platform/filters";
import { isoDate, text } from "../../platform/schemas";
import { attributeSchema } from "../attributes/listAttributes";
import type { Attribute } from "../attributes/queries";

/** What a copy records: the library entry's purchase data, per copy. */
export const copyFieldArgs = {
  quantity: z.number().int().min(1).describe("Identical copies this row stands for; default 1."),
  buyDate: isoDate.nullable(),
  buyPrice: z.number().min(0).nullable().describe("JPY."),
  buyPlace: text(100).nullable(),
  rating: rating.nullable(),
  memo: text(2000).nullable(),
  attributes: z.array(text(40)).max(20).describe("Attribute ids or exact labels; replaces the whole set, [] clears."),
  editionRef: z.strictObject({ kind: z.literal("base") }).describe("Which edition the copy is; only the base game for now."),
  makeActive: z.boolean().describe("true makes this copy the representative: its data overwrites the library entry's."),
};

export const physicalCopySchema = z
  .object({
    physicalId: z.string(),
    gameId: z.number().int(),
    quantity: z.number().int(),
    isActive: z.boolean().describe("true: the representative copy, whose data the library entry shows."),
    buyDate: z.string().nullable(),
    buyPrice: z.number().nullable(),
    buyPlace: z.string().nullable(),
    rating: z.number().int().nullable(),
    memo: z.string().nullable(),
    attributes: z.array(attributeSchema),
    editionRef: z.object({ kind: z.literal("base") }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "PhysicalCopy" });

export interface CopyRow {
  id: string;
  game_id: number;
  quantity: number;
  is_active: number;
  rating: number | null;
  buy_date: string | null;
  buy_price: number | null;
  buy_place: string | null;
  memo: string | null;
  attribute_ids: string;
  edition_kind: "base";
  created_at: string;
  updated_at: string;
}

export const toPhysicalCopy = (row: CopyRow, labels: ReadonlyMap<string, Attribute>) => ({
  physicalId: row.id,
  gameId: row.game_id,
  quantity: row.quantity,
  isActive: row.is_active === 1,
  buyDate: row.buy_date,
  buyPrice: row.buy_price,
  buyPlace: row.buy_place,
  rating: row.rating,
  memo: row.memo,
  attributes: (JSON.parse(row.attribute_ids) as string[]).flatMap((id) => labels.get(id) ?? []),
  editionRef: { kind: row.edition_kind },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
