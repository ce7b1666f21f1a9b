import { z } from "zod";
import type { playLogs, playRecords } from "../../db/schema";
import type { RowOf } from "../../platform/db";
import { attributeSetArg, rating } from "../../platform/filters";
import { isoDate, text } from "../../platform/schemas";
import type { Attribute } from "../attributes/items";
import { type GameRecord, toGame } from "../games/gameObject";
import { personalFieldsOutput, userLink } from "../library/items";

export const PLAY_STATUSES = ["PLANNED", "PLAYING", "PAUSED", "COMPLETED", "DROPPED"] as const;
export type PlayStatus = (typeof PLAY_STATUSES)[number];
/** Unfinished cycles: the ones a clear target can be overdue for. */
export const UNFINISHED: readonly PlayStatus[] = ["PLANNED", "PLAYING", "PAUSED"];

export const PLAY_FIELD_GROUPS = ["game", "console", "goal", "attributes", "userLinks", "memo", "timestamps"] as const;
export type PlayFieldGroup = (typeof PLAY_FIELD_GROUPS)[number];
/** Every field group, game included: how write results and getGamePlayHistory show a record. */
export const EVERY_PLAY_GROUP: ReadonlySet<PlayFieldGroup> = new Set(PLAY_FIELD_GROUPS);

/** The most untracked minutes a record takes: 10,000 hours. */
export const UNTRACKED_PLAY_TIME_MAX = 600_000;

/** Fields a user sets on a play record (updatePlayRecord; addPlayRecord takes them too). */
export const playFieldArgs = {
  status: z.enum(PLAY_STATUSES),
  playStartDate: isoDate.nullable(),
  playEndDate: isoDate.nullable(),
  clearTargetDate: isoDate.nullable().describe("The date you mean to finish by."),
  rating: rating.nullable(),
  memo: text(2000).nullable(),
  userLinks: z.array(userLink).max(20).describe("Strategy URLs and the like."),
  attributes: attributeSetArg,
  consoleId: z.string().min(1).max(40).nullable().describe("One of your consoles (LIGHT and above)."),
  untrackedPlayTime: z
    .number()
    .int()
    .min(0)
    .max(UNTRACKED_PLAY_TIME_MAX)
    .describe("Minutes played beyond the logs (42 hours told afterwards: 2520), added to totalPlayTime; 0 clears."),
};

export const playRecordSchema = z
  .object({
    playId: z.string(),
    gameId: z.number().int(),
    status: z.enum(PLAY_STATUSES),
    playStartDate: z.string().nullable(),
    playEndDate: z.string().nullable(),
    totalPlayTime: z.number().int().describe("Minutes: untrackedPlayTime plus the sum of the cycle's play logs."),
    untrackedPlayTime: z.number().int().describe("Minutes recorded as a total, without play logs."),
    rating: z.number().int().nullable(),
    hasHistory: z.boolean().describe("True when earlier cycles of the game are kept (PREMIUM)."),
    isLatest: z.boolean(),
    revision: z.string(),
    clearTargetDate: z.string().nullable().optional(),
    consoleId: z.string().nullable().optional(),
    console: z.object({ consoleId: z.string(), name: z.string() }).nullable().optional(),
    ...personalFieldsOutput,
  })
  .meta({ id: "PlayRecord" });

/** The columns of a play record that its items show (its id is read as play_id: joined games bring their own id). */
export const PLAY_KEYS = [
  "gameId",
  "status",
  "playStartDate",
  "playEndDate",
  "clearTargetDate",
  "rating",
  "memo",
  "userLinks",
  "attributeIds",
  "consoleId",
  "isLatest",
  "untrackedPlayTime",
  "totalPlayTime",
  "createdAt",
  "updatedAt",
  "revision",
] as const;

export type PlayRow = RowOf<typeof playRecords, (typeof PLAY_KEYS)[number]> & {
  play_id: string;
  console_name: string | null;
  has_history: number;
};

export function toPlayRecord(
  row: PlayRow & Partial<GameRecord>,
  groups: ReadonlySet<PlayFieldGroup>,
  labels: ReadonlyMap<string, Attribute>,
) {
  return {
    playId: row.play_id,
    gameId: row.game_id,
    status: row.status,
    playStartDate: row.play_start_date,
    playEndDate: row.play_end_date,
    totalPlayTime: row.total_play_time,
    untrackedPlayTime: row.untracked_play_time,
    rating: row.rating,
    hasHistory: row.has_history === 1,
    isLatest: row.is_latest === 1,
    revision: row.revision,
    ...(groups.has("goal") ? { clearTargetDate: row.clear_target_date } : {}),
    ...(groups.has("console")
      ? {
          consoleId: row.console_id,
          console: row.console_id && row.console_name ? { consoleId: row.console_id, name: row.console_name } : null,
        }
      : {}),
    ...(groups.has("attributes") ? { attributes: (JSON.parse(row.attribute_ids) as string[]).flatMap((id) => labels.get(id) ?? []) } : {}),
    ...(groups.has("userLinks") ? { userLinks: JSON.parse(row.user_links) } : {}),
    ...(groups.has("memo") ? { memo: row.memo } : {}),
    ...(groups.has("timestamps") ? { createdAt: row.created_at, updatedAt: row.updated_at } : {}),
    ...(groups.has("game") && row.title !== undefined ? { game: toGame(row as GameRecord, new Set()) } : {}),
  };
}

export const playLogSchema = z
  .object({
    playLogId: z.string(),
    playId: z.string(),
    playDate: z.string().nullable(),
    playTime: z.number().int().describe("Minutes of the session."),
    memo: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "PlayLog" });

export type LogRow = typeof playLogs.$inferSelect;

export const toPlayLog = (row: LogRow) => ({
  playLogId: row.id,
  playId: row.playId,
  playDate: row.playDate,
  playTime: row.playTime,
  memo: row.memo,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
