import type { Bindings } from "../../env";
import type { ExportReader, ExportRequest, ExportSource } from "./exportSource";
import { openMasterDataSource } from "./masterData";
import { openMyDataSource } from "./myData";

/**
 * Daily quota units one download of an export link costs, per dataset (one place; the README's
 * Exports section mirrors it). Issuing the link is an ordinary call (1 unit). A games master file
 * is a whole platform's catalogue, so it costs more than the other master files, as the spec says.
 */
export const DOWNLOAD_COSTS = {
  myData: 5,
  masterData: { games: 20, platforms: 5, companies: 5, genres: 5 },
} as const;

export function downloadCost(request: Pick<ExportRequest, "kind" | "dataset">): number {
  if (request.kind === "myData") return DOWNLOAD_COSTS.myData;
  return DOWNLOAD_COSTS.masterData[request.dataset as keyof typeof DOWNLOAD_COSTS.masterData] ?? DOWNLOAD_COSTS.masterData.platforms;
}

export interface OpenerContext {
  env: Bindings;
  /** Where a plan_required raised at download time points. */
  upgradeUrl: string;
}

/** Opens the source a link names, for the link's user as they are at download time. */
export type ExportOpener = (reader: ExportReader, request: ExportRequest, ctx: OpenerContext) => Promise<ExportSource>;
export type ExportOpeners = Record<ExportRequest["kind"], ExportOpener>;

export const EXPORT_OPENERS: ExportOpeners = {
  myData: (reader, request, { upgradeUrl }) => openMyDataSource(reader, request.dataset, request.args, upgradeUrl),
  masterData: (reader, request, { env, upgradeUrl }) =>
    openMasterDataSource(reader, request.dataset, request.args, env.EXPORTS, upgradeUrl),
};
