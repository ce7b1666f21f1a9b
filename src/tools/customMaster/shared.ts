import { z } from "zod";
import { positiveId } from "../../platform/schemas";
import { companyRow, platformRow } from "../games/masterRows";

/** What a user may set on a custom platform: the master row's fields (name required on add). */
export const customPlatformFields = platformRow.pick({ name: true, nameEn: true, shortName: true, maker: true, releaseDate: true }).shape;

/** What a user may set on a custom publisher: the companies master row's fields. */
export const customPublisherFields = companyRow.pick({ name: true, nameKana: true, nameEn: true }).shape;

export const platformIdArg = positiveId.describe("One of your custom platforms (listPlatforms, custom: true).");
export const companyIdArg = positiveId.describe("One of your custom publishers (listPublishers, custom: true).");

const revision = z.string().describe("Send it back to the update tool to be told when the record changed since.");

export const customPlatformSchema = z.object({
  platformId: z.number().int(),
  name: z.string(),
  nameEn: z.string().nullable(),
  shortName: z.string().nullable(),
  maker: z.string().nullable(),
  releaseDate: z.string().nullable(),
  custom: z.literal(true),
}).meta({ id: "CustomPlatform" });

export const customPublisherSchema = z.object({
  companyId: z.number().int(),
  name: z.string(),
  nameKana: z.string().nullable(),
  nameEn: z.string().nullable(),
  custom: z.literal(true),
}).meta({ id: "CustomPublisher" });

export const customPlatformResult = z.object({ item: customPlatformSchema, revision }).meta({ id: "CustomPlatformResult" });
export const customPublisherResult = z.object({ item: customPublisherSchema, revision }).meta({ id: "CustomPublisherResult" });

export const CUSTOM_ID_NOTE = "Custom ids are random integers of 1,000,000,000 and above (at most 2^53 - 1); they never collide with official ids.";
