import { z } from "zod";
import type { attributes } from "../../db/schema";
import type { RowOf } from "../../platform/db";
import { SYSTEM_ATTRIBUTES } from "../../platform/systemAttributes";

export const attributeSchema = z.object({ id: z.string(), label: z.string(), custom: z.boolean() }).meta({ id: "Attribute" });
export type Attribute = z.infer<typeof attributeSchema>;

/** A user's own attribute as ownAttributesQuery reads it. */
export type OwnAttributeRow = RowOf<typeof attributes, "id" | "label">;

export const toOwnAttribute = (row: OwnAttributeRow): Attribute => ({ id: row.id, label: row.label, custom: true });

/** Every attribute label the user can see, by id (system and own), from ownAttributesQuery's rows. */
export function attributeLabelsFrom(own: readonly OwnAttributeRow[]): Map<string, Attribute> {
  return new Map<string, Attribute>([
    ...SYSTEM_ATTRIBUTES.map((a) => [a.id, { ...a, custom: false }] as const),
    ...own.map((a) => [a.id, toOwnAttribute(a)] as const),
  ]);
}
