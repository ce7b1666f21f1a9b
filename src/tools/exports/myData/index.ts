import { sql } from "drizzle-orm";
import { invalidInput } from "../../../platform/errors";
import type { ExportReader, ExportRow, ExportSource } from "../../../platform/exportSource";
import { countRows, keysetPages, type SortKey } from "../../../platform/keyset";
import { parseWith } from "../../../platform/validation";
import { enforcePlanDifferences } from "../../../registry/enforceAccess";
import { type MyDatasetName, USER_DATASETS } from "../../datasets";
import { EXPORT_PAGE_SIZE, type MyDataset } from "../../shared/exportDataset";
import { MY_DATA_PLAN_DIFFERENCES, type MyDataArgs, myDataInput } from "./args";

/** An export source that can also count its rows (the tool's rowCount). */
export interface MyDataSource extends ExportSource {
  dataset: MyDatasetName;
  format: MyDataArgs["format"];
  rowCount(): Promise<number>;
}

/** Where a plan_required raised at download time points, when the caller does not say: this service's docs. */
const DOWNLOAD_UPGRADE_URL = "/docs";

/** Refuses every argument the dataset does not take (400 naming it), and a sort it does not have; answers its order. */
function checkApplies(dataset: MyDataset, args: MyDataArgs): SortKey[] | undefined {
  const accepted = new Set<string>(["dataset", "format", ...dataset.accepts]);
  for (const [name, value] of Object.entries(args)) {
    if (value !== undefined && !accepted.has(name)) {
      throw invalidInput(name, `${name}: does not apply to the ${dataset.name} dataset.`);
    }
  }
  if (!dataset.sorts) return undefined;
  const { values, default: fallback } = dataset.sorts;
  if (args.sortBy !== undefined && !values.includes(args.sortBy)) {
    throw invalidInput("sortBy", `sortBy: the ${dataset.name} dataset sorts by ${values.join(", ")}.`);
  }
  return dataset.sorts.of(args.sortBy ?? fallback.sortBy, args.sortOrder);
}

/**
 * The rows of one personal dataset for the reader, with the arguments reapplied as the tool took
 * them: validated again, checked against the reader's plan now (a plan lowered since the link
 * was issued refuses what it no longer allows, 403 plan_required naming the argument), and
 * refused when they do not apply to the dataset (400 naming the argument).
 */
export async function prepareMyData(
  reader: ExportReader,
  dataset: string,
  rawArgs: Record<string, unknown>,
  upgradeUrl = DOWNLOAD_UPGRADE_URL,
): Promise<MyDataSource> {
  const args = parseWith(myDataInput, { ...rawArgs, dataset });
  enforcePlanDifferences({ planDifferences: MY_DATA_PLAN_DIFFERENCES }, reader, args, upgradeUrl);
  const definition = USER_DATASETS[args.dataset].export;
  const order = checkApplies(definition, args);
  const query = await definition.query(reader, args, order);
  const from = query.joins ? sql`${query.from} ${query.joins}` : query.from;
  return {
    dataset: args.dataset,
    format: args.format,
    columns: definition.columns,
    rowCount: () => countRows(reader.db, query.from, query.where),
    async *pages(): AsyncIterable<ExportRow[]> {
      for await (const rows of keysetPages(
        reader.db,
        { select: query.select, from, where: query.where, keys: query.keys },
        EXPORT_PAGE_SIZE,
      )) {
        yield await query.render(rows);
      }
    },
  };
}

/** The opener exportFileOf uses for exportMyData links (see exportSource.ts). */
export const openMyDataSource = (
  reader: ExportReader,
  dataset: string,
  args: Record<string, unknown>,
  upgradeUrl?: string,
): Promise<ExportSource> => prepareMyData(reader, dataset, args, upgradeUrl);
