import { sharedFilterArgs } from "../../../platform/filters";
import { attributeLabels } from "../../attributes/queries";
import type { EntryRow } from "../../library/items";
import { LIBRARY, LIBRARY_DEFAULT_SORT, LIBRARY_SORTS, type LibrarySort, libraryConditions, librarySort } from "../../library/queries";
import { latestPlays } from "../../shared/dependentRecords";
import { MY_DATASET_PLANS } from "./args";
import { attributeLabelsOf, GAME_COLUMNS, gameColumns, type MyDataset, rowOf, SORT_ARGS, userListQuery } from "./dataset";

const columns = [
  "gameId",
  ...GAME_COLUMNS,
  "rating",
  "buyDate",
  "buyPrice",
  "buyPlace",
  "attributes",
  "userLinks",
  "memo",
  "latestPlayId",
  "latestPlayStatus",
  "createdAt",
  "updatedAt",
] as const;

/** One row per owned game: getLibrary's filters and sorts, through getLibrary's own builders. */
export const libraryDataset: MyDataset = {
  name: "library",
  plans: MY_DATASET_PLANS.library,
  accepts: [...(Object.keys(sharedFilterArgs) as (keyof typeof sharedFilterArgs)[]), ...SORT_ARGS],
  sorts: { values: Object.keys(LIBRARY_SORTS), default: LIBRARY_DEFAULT_SORT },
  columns,
  async query({ db, userId }, args, sort) {
    const [where, labels] = await Promise.all([libraryConditions(db, userId, args), attributeLabels(db, userId)]);
    return userListQuery<EntryRow>(LIBRARY, where, librarySort(sort!.sortBy as LibrarySort, sort!.sortOrder), async (rows) => {
      const plays = await latestPlays(
        db,
        userId,
        rows.map((row) => row.game_id),
      );
      return rows.map((row) => {
        const play = plays.get(row.game_id);
        return rowOf(columns, {
          gameId: row.game_id,
          ...gameColumns(row),
          rating: row.rating,
          buyDate: row.buy_date,
          buyPrice: row.buy_price,
          buyPlace: row.buy_place,
          attributes: attributeLabelsOf(row.attribute_ids, labels),
          userLinks: JSON.parse(row.user_links),
          memo: row.memo,
          latestPlayId: play?.playId,
          latestPlayStatus: play?.status,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
        });
      });
    });
  },
};
