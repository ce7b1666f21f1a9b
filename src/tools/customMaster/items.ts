import { z } from "zod";
import type { companies, platforms } from "../../db/schema";
import { positiveId } from "../../platform/schemas";
import { companyRow, platformRow } from "../games/masterRows";
import { platformObjectShape, publisherObjectShape } from "../games/shared";

/** What a user may set on a custom platform: the master row's fields (name required on add). */
export const customPlatformFields = platformRow.pick({ name: true, nameEn: true, shortName: true, maker: true, releaseDate: true }).shape;

/** What a user may set on a custom publisher: the companies master row's fields. */
export const customPublisherFields = companyRow.pick({ name: true, nameKana: true, nameEn: true }).shape;

/** A custom platform's stored fields: the platforms columns customPlatformFields sets. */
export type PlatformFields = Pick<typeof platforms.$inferSelect, keyof typeof customPlatformFields>;

/** A custom publisher's stored fields: the companies columns customPublisherFields sets. */
export type PublisherFields = Pick<typeof companies.$inferSelect, keyof typeof customPublisherFields>;

export type Named = { name: string };

/** A stored record's fields and revision. */
export interface Stored<F> {
  fields: F;
  revision: string;
}

export const platformIdArg = positiveId.describe("One of your custom platforms (listPlatforms, custom: true).");
export const companyIdArg = positiveId.describe("One of your custom publishers (listPublishers, custom: true).");

const revision = z.string().describe("Send it back to the update tool to be told when the record changed since.");

export const customPlatformSchema = z.object({ ...platformObjectShape, custom: z.literal(true) }).meta({ id: "CustomPlatform" });
export const customPublisherSchema = z.object({ ...publisherObjectShape, custom: z.literal(true) }).meta({ id: "CustomPublisher" });

export const customPlatformResult = z.object({ item: customPlatformSchema, revision }).meta({ id: "CustomPlatformResult" });
export const customPublisherResult = z.object({ item: customPublisherSchema, revision }).meta({ id: "CustomPublisherResult" });

/** The record as the tools answer it, under its id argument's name. */
export const customItemOf = (idField: string, id: number, fields: Named) => ({ [idField]: id, ...fields, custom: true as const });
