import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { consoles } from "../../../db/schema";
import type { ConsoleRow } from "../../consoles/items";
import {
  CONSOLE_DEFAULT_SORT,
  CONSOLE_SORTS,
  type ConsoleSort,
  consoleConditions,
  consoleFilterArgs,
  consoleSort,
  platformsOf,
} from "../../consoles/queries";
import { MY_DATASET_PLANS } from "./args";
import { type MyDataset, rowOf, SORT_ARGS } from "./dataset";

/** Consoles as getConsoles' conditions and sorts name them. */
const listed = alias(consoles, "c");

const columns = [
  "consoleId",
  "name",
  "nameKana",
  "publisherName",
  "rating",
  "buyDate",
  "buyPrice",
  "buyPlace",
  "memo",
  "platforms",
  "createdAt",
  "updatedAt",
] as const;

/** One row per owned console: getConsoles' filters and sorts, through getConsoles' own builders. */
export const consolesDataset: MyDataset = {
  name: "consoles",
  plans: MY_DATASET_PLANS.consoles,
  accepts: [...(Object.keys(consoleFilterArgs) as (keyof typeof consoleFilterArgs)[]), ...SORT_ARGS],
  sorts: { values: Object.keys(CONSOLE_SORTS), default: CONSOLE_DEFAULT_SORT },
  columns,
  async query({ db, userId }, args, sort) {
    return {
      // raw SQL: read through the keyset machinery (platform/keyset.ts), with getConsoles' own conditions and sorts.
      from: sql`${consoles} ${listed}`,
      where: consoleConditions(userId, args),
      select: sql`${listed}.*`,
      keys: consoleSort(sort!.sortBy as ConsoleSort, sort!.sortOrder),
      async render(rows: ConsoleRow[]) {
        const platforms = await platformsOf(
          db,
          rows.map((row) => row.id),
        );
        return rows.map((row) =>
          rowOf(columns, {
            consoleId: row.id,
            name: row.name,
            nameKana: row.name_kana,
            publisherName: row.publisher_name,
            rating: row.rating,
            buyDate: row.buy_date,
            buyPrice: row.buy_price,
            buyPlace: row.buy_place,
            memo: row.memo,
            platforms: platforms.get(row.id) ?? [],
            createdAt: row.created_at,
            updatedAt: row.updated_at,
          }),
        );
      },
    };
  },
};
