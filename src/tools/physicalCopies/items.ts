import { z } from "zod";
import type { physicalCopies } from "../../db/schema";
import { attributeSetArg, rating } from "../../platform/filters";
import { newId } from "../../platform/ids";
import { PRICE_DESCRIPTION, recordedDate, text } from "../../platform/schemas";
import { type Attribute, attributeSchema } from "../attributes/items";

/** What a copy records: the library entry's purchase data, per copy. */
export const copyFieldArgs = {
  quantity: z.number().int().min(1).describe("Identical copies this row stands for."),
  buyDate: recordedDate("Purchase date").nullable(),
  buyPrice: z.number().min(0).nullable().describe(PRICE_DESCRIPTION),
  buyPlace: text(100).nullable(),
  rating: rating.nullable(),
  memo: text(2000).nullable(),
  attributes: attributeSetArg,
  editionRef: z.strictObject({ kind: z.literal("base") }).describe("Only the base game for now."),
  makeActive: z.boolean(),
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

/** What addPhysicalCopy and updatePhysicalCopy answer besides their own fields. */
export const copyWriteResult = {
  item: physicalCopySchema,
  activePhysicalId: z.string().nullable(),
  remainingCount: z.number().int().describe("Copies of the game after this call."),
  libraryEntryRetained: z.boolean(),
  librarySynced: z.boolean().describe("True when the library entry now shows this copy's data."),
  revision: z.string().describe("The whole game's new revision."),
};

export type CopyRow = typeof physicalCopies.$inferSelect;

/** A copy's own values: the purchase data a library entry also has, plus its quantity. */
export type CopyValues = Pick<CopyRow, "quantity" | "rating" | "buyDate" | "buyPrice" | "buyPlace" | "memo" | "attributeIds">;

export interface NewCopy extends CopyValues {
  id: string;
  isActive: boolean;
}

export const newCopy = (values: CopyValues, isActive: boolean): NewCopy => ({ ...values, id: newId("phy"), isActive });

export const copyValuesOf = (row: CopyRow): CopyValues => ({
  quantity: row.quantity,
  rating: row.rating,
  buyDate: row.buyDate,
  buyPrice: row.buyPrice,
  buyPlace: row.buyPlace,
  memo: row.memo,
  attributeIds: row.attributeIds,
});

export const toPhysicalCopy = (row: CopyRow, labels: ReadonlyMap<string, Attribute>) => ({
  physicalId: row.id,
  gameId: row.gameId,
  quantity: row.quantity,
  isActive: row.isActive,
  buyDate: row.buyDate,
  buyPrice: row.buyPrice,
  buyPlace: row.buyPlace,
  rating: row.rating,
  memo: row.memo,
  attributes: row.attributeIds.flatMap((id) => labels.get(id) ?? []),
  // insertCopySql writes no other kind (the column itself is plain text).
  editionRef: { kind: row.editionKind as "base" },
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
