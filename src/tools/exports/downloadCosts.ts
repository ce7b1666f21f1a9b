import type { ExportRequest } from "../../platform/exportSource";

/**
 * Daily quota units one download of an export link costs, per dataset (one place; docs/exports-and-imports.md,
 * "Download links", mirrors it). Issuing the link is an ordinary call (1 unit). A games master file
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
