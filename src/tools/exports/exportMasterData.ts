import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { masterMeta, platforms } from "../../db/schema";
import { ApiError } from "../../platform/errors";
import { PREMIUM_ONLY } from "../../platform/plans";
import { positiveId } from "../../platform/schemas";
import { EXPORT_LINK_TTL_SEC, issueExportLink } from "../../platform/signedLinks";
import { defineTool } from "../../registry/defineTool";
import { EMPTY_GENERATION, generationKey } from "../games/generation";
import { DOWNLOAD_COSTS, downloadCost } from "./downloadCosts";
import { MASTER_EXPORT_DATASETS } from "./masterData";
import { countQueries, MASTER_COLUMNS } from "./masterData/rows";

const { masterData: costs } = DOWNLOAD_COSTS;

export const exportMasterData = defineTool({
  name: "exportMasterData",
  family: "exports",
  title: "マスターデータのエクスポート",
  description:
    "Issues a download URL for an NDJSON file of game master data in the master row format: `games` of one official platform " +
    "(platformId required; your own custom games on it are merged in, flagged custom: true), `platforms` and `companies` " +
    "(including your custom ones, flagged custom: true) or the main `genres`. The URL is valid for 15 minutes and anyone " +
    `holding it can download: do not share it. Each download consumes daily quota (games ${costs.games}, the others ` +
    `${costs.platforms}); a failed download gives it back. A generation equal to the one you last fetched means the data have not changed. ` +
    "Personal use only: credit the service when you embed the data; do not distribute or publish the file.",
  restNote: "In REST, POST /rest/v1/exportMasterData, then GET the returned url (no Authorization header needed).",
  scopes: ["games:read"],
  plans: PREMIUM_ONLY,
  // Issuing a link changes nothing, but the spec gives exports POST only: a write tool that is idempotent.
  kind: "write",
  destructive: false,
  idempotent: true,
  restOnly: true,
  input: z
    .strictObject({
      dataset: z
        .enum(MASTER_EXPORT_DATASETS)
        .describe("games: one platform's games; platforms; companies (publishers); genres (main genres)."),
      platformId: positiveId.optional().describe("games only, and required there: an official platform's id (listPlatforms)."),
    })
    .superRefine((value, ctx) => {
      if (value.dataset === "games" && value.platformId === undefined) {
        ctx.addIssue({ code: "custom", path: ["platformId"], message: "required for the games dataset" });
      }
      if (value.dataset !== "games" && value.platformId !== undefined) {
        ctx.addIssue({ code: "custom", path: ["platformId"], message: `only the games dataset takes platformId, not ${value.dataset}` });
      }
    }),
  output: z.object({
    url: z.string().describe("Absolute download URL; GET it within expiresInSec."),
    dataset: z.enum(MASTER_EXPORT_DATASETS),
    format: z.literal("ndjson"),
    platformId: z.number().int().optional().describe("games only."),
    generation: z.string().describe('The dataset\'s master generation ("empty" before any import).'),
    totalCount: z.number().int().describe("Rows the file holds as of now."),
    expiresInSec: z.number().int(),
    expiresAt: z.string(),
    columns: z.array(z.string()),
    downloadCost: z.number().int().describe("Daily quota units one download of the URL consumes."),
  }),
  notes: [
    "platformId is required for games and refused (400) for the other datasets; a custom or unknown platform is 404 not_found.",
    `One download costs ${costs.games} quota units for games and ${costs.platforms} for the other datasets; issuing the URL costs 1.`,
    "Rows of games are ordered by release date ascending (undated last), then gameId; the other datasets by their id.",
  ],
  async handler({ env, db, auth, now, origin }, args) {
    const { dataset, platformId } = args;
    const [platformRows, generations, counts] = await db.batch([
      db
        .select({ owner: platforms.ownerUserId })
        .from(platforms)
        // No platform asked: no row.
        .where(platformId === undefined ? sql`0` : eq(platforms.id, platformId)),
      db
        .select({ value: masterMeta.value })
        .from(masterMeta)
        .where(eq(masterMeta.key, generationKey(dataset))),
      dataset === "games" ? countQueries.games(db, auth.userId, platformId!) : countQueries[dataset](db, auth.userId),
    ]);
    if (platformId !== undefined && (platformRows.length === 0 || platformRows[0]!.owner !== null)) {
      throw new ApiError("not_found", `platformId ${platformId} is not an official platform.`, { field: "platformId" });
    }
    const request = { kind: "masterData", dataset, format: "ndjson", args: platformId === undefined ? {} : { platformId } } as const;
    const link = await issueExportLink({ env, now, origin, userId: auth.userId }, request);
    return {
      url: link.url,
      dataset,
      format: "ndjson" as const,
      ...(platformId === undefined ? {} : { platformId }),
      generation: generations[0]?.value ?? EMPTY_GENERATION,
      totalCount: counts[0]?.n ?? 0,
      expiresInSec: EXPORT_LINK_TTL_SEC,
      expiresAt: link.expiresAt,
      columns: [...MASTER_COLUMNS[dataset]],
      downloadCost: downloadCost(request),
    };
  },
});
