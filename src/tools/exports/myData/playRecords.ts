import { alias } from "drizzle-orm/sqlite-core";
import { playRecords } from "../../../db/schema";
import type { SortKey } from "../../../platform/keyset";
import { attributeLabels } from "../../attributes/queries";
import type { PlayRow } from "../../play/items";
import { PLAY_DEFAULT_SORT, PLAY_RECORDS, PLAY_SORTS, type PlaySort, playConditions, playFilterArgs, playSort } from "../../play/queries";
import { MY_DATASET_PLANS } from "./args";
import { attributeLabelsOf, GAME_COLUMNS, gameColumns, type MyDataset, rowOf, SORT_ARGS, userListQuery } from "./dataset";

/** Play records as the play list names them. */
const record = alias(playRecords, "r");

const columns = [
  "playId",
  "gameId",
  ...GAME_COLUMNS,
  "status",
  "playStartDate",
  "playEndDate",
  "clearTargetDate",
  "totalPlayTime",
  "rating",
  "consoleId",
  "consoleName",
  "attributes",
  "userLinks",
  "memo",
  "isLatest",
  "hasHistory",
  "createdAt",
  "updatedAt",
] as const;

/**
 * The latest play record of each game, as getPlayRecords lists them (its filters and sorts, through
 * its own builders); with includeHistory every kept cycle, one row per record, the cycles of one
 * game oldest first where the sort ties.
 */
export const playRecordsDataset: MyDataset = {
  name: "playRecords",
  plans: MY_DATASET_PLANS.playRecords,
  accepts: [...(Object.keys(playFilterArgs) as (keyof typeof playFilterArgs)[]), "includeHistory", ...SORT_ARGS],
  sorts: { values: Object.keys(PLAY_SORTS), default: PLAY_DEFAULT_SORT },
  columns,
  async query({ db, userId, now }, args, sort) {
    const history = args.includeHistory === true;
    const [where, labels] = await Promise.all([
      playConditions(db, userId, args, now, history ? "all" : "latest"),
      attributeLabels(db, userId),
    ]);
    const keys = playSort(sort!.sortBy as PlaySort, sort!.sortOrder);
    // The list's tie-break (gameId) is unique among latest records only; cycles of a game follow in creation order.
    const order: SortKey[] = history
      ? [...keys, { column: record.createdAt, direction: "asc" }, { column: record.id, direction: "asc" }]
      : keys;
    return userListQuery<PlayRow>(PLAY_RECORDS, where, order, (rows) =>
      rows.map((row) =>
        rowOf(columns, {
          playId: row.play_id,
          gameId: row.game_id,
          ...gameColumns(row),
          status: row.status,
          playStartDate: row.play_start_date,
          playEndDate: row.play_end_date,
          clearTargetDate: row.clear_target_date,
          totalPlayTime: row.total_play_time,
          rating: row.rating,
          consoleId: row.console_id,
          consoleName: row.console_name,
          attributes: attributeLabelsOf(row.attribute_ids, labels),
          userLinks: JSON.parse(row.user_links),
          memo: row.memo,
          isLatest: row.is_latest === 1,
          hasHistory: row.has_history === 1,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
        }),
      ),
    );
  },
};
