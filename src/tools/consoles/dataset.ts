import { isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { consoles, maintenanceLogs, playRecords } from "../../db/schema";
import { newId } from "../../platform/ids";
import { LIGHT_AND_ABOVE } from "../../platform/plans";
import { counted } from "../../platform/previewText";
import { positiveId } from "../../platform/schemas";
import { usableIds } from "../games/queries";
import { pick } from "../shared/cascade";
import { countOfUser, defineDataset, lastChange, orEmpty, restoredTimes } from "../shared/datasets";
import type { RestoreContext, StagedRow } from "../shared/decisions";
import { listToolArgs, rowOf, timestampsOf } from "../shared/exportDataset";
import { orNull, type RestoredKind, restoringDecisions, timesOf } from "../shared/restore";
import { forgetIdsSql, REISSUED } from "../shared/restoreReads";
import { type ConsoleRow, consoleFieldArgs, type LogRow, maintenanceFieldArgs, toMaintenanceLog } from "./items";
import {
  CONSOLE_SORTS,
  CONSOLES_COUNTER,
  type ConsoleFilters,
  consoleConditions,
  consoleFilterArgs,
  insertConsoleSql,
  insertLogSql,
  logsOf,
  platformsOf,
} from "./queries";

/**
 * A log as a console row carries it: as getConsoleMaintenanceLogs shows it, without the console's
 * id (the row's) and its own (a restore issues new ones, and nothing refers to a log).
 */
const exportedLog = (row: LogRow) => {
  const { consoleId: _console, maintenanceLogId: _id, ...log } = toMaintenanceLog(row);
  return log;
};

import { consolesRemovalSql } from "./removal";

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
  "maintenanceLogs",
  "createdAt",
  "updatedAt",
] as const;

/** A console's maintenance logs one import row restores: far more than a console is serviced, within a row's size. */
const MAX_RESTORED_LOGS = 1_000;

const rowSchema = z.object({
  consoleId: z.string().min(1).max(60),
  name: consoleFieldArgs.name,
  nameKana: consoleFieldArgs.nameKana.nullish(),
  publisherName: consoleFieldArgs.publisherName.nullish(),
  rating: consoleFieldArgs.rating.nullish(),
  buyDate: consoleFieldArgs.buyDate.nullish(),
  buyPrice: consoleFieldArgs.buyPrice.nullish(),
  buyPlace: consoleFieldArgs.buyPlace.nullish(),
  memo: consoleFieldArgs.memo.nullish(),
  /** As exported: {platformId, name, priority}, highest priority first (name is ignored). */
  platforms: orEmpty(z.array(z.object({ platformId: positiveId, priority: z.number().int().min(1).max(5) })).max(20)),
  /** As exported: the console's maintenance logs, oldest logged first (their ids are issued anew). */
  maintenanceLogs: orEmpty(
    z
      .array(
        z.object({
          ...maintenanceFieldArgs,
          memo: maintenanceFieldArgs.memo.nullish(),
          scheduledDate: maintenanceFieldArgs.scheduledDate.nullish(),
          completedDate: maintenanceFieldArgs.completedDate.nullish(),
          ...restoredTimes,
        }),
      )
      .max(MAX_RESTORED_LOGS),
  ),
  ...restoredTimes,
});

/** The log's statements for the restored console `consoleId`, its times kept. */
const restoredLogsSql = (userId: string, consoleId: string, logs: z.output<typeof rowSchema>["maintenanceLogs"], now: string) =>
  logs.map((log) =>
    insertLogSql(
      userId,
      consoleId,
      { title: log.title, status: log.status, ...orNull(log, ["memo", "scheduledDate", "completedDate"]) },
      timesOf(log, now),
    ),
  );

const RESTORED: RestoredKind<string> = { field: "consoleId", label: "Console", record: REISSUED.console, counter: CONSOLES_COUNTER };

/** Consoles: new ids (kind console in import_id_map), through which later play record files reference them. */
async function restoreConsoles(ctx: RestoreContext, rows: StagedRow<z.output<typeof rowSchema>>[]) {
  const { db, userId } = ctx;
  const now = ctx.now.toISOString();
  const [restoring, platforms] = await Promise.all([
    restoringDecisions(
      ctx,
      RESTORED,
      rows.map((r) => r.d.consoleId),
    ),
    usableIds(
      db,
      "platforms",
      userId,
      rows.flatMap((r) => r.d.platforms.map((p) => p.platformId)),
    ),
  ]);
  const { d } = restoring;
  for (const { r, d: row } of rows) {
    if (restoring.alreadyHere(r, row.consoleId)) continue;
    const missing = row.platforms.findIndex((p) => !platforms.has(p.platformId));
    if (missing >= 0) {
      d.fail(r, `platforms[${missing}].platformId`, "not_found", `Platform ${row.platforms[missing]!.platformId} is not one you can use.`);
      continue;
    }
    if (!restoring.roomFor(r)) continue;
    const id = newId("con");
    const values = {
      name: row.name,
      ...orNull(row, ["nameKana", "memo", "rating", "buyDate", "buyPrice", "buyPlace", "publisherName"]),
      platformPriorities: row.platforms.map(({ platformId, priority }) => ({ platformId, priority })),
    };
    restoring.add(row.consoleId, id, [
      ...insertConsoleSql(id, userId, values, now, timesOf(row, now)),
      ...restoredLogsSql(userId, id, row.maintenanceLogs, now),
    ]);
  }
  return restoring.decided();
}

/** One row per owned console: getConsoles' filters and sorts, through getConsoles' own builders. */
export const consolesDataset = defineDataset({
  export: {
    name: "consoles",
    plans: LIGHT_AND_ABOVE,
    ...listToolArgs(consoleFilterArgs, CONSOLE_SORTS),
    columns,
    async query({ db, userId }, args: ConsoleFilters, order) {
      return {
        // raw SQL: read through the keyset machinery (platform/keyset.ts), with getConsoles' own conditions and sorts.
        from: sql`${consoles} ${listed}`,
        where: consoleConditions(userId, args),
        select: sql`${listed}.*`,
        keys: order!,
        async render(rows: ConsoleRow[]) {
          const ids = rows.map((row) => row.id);
          const [platforms, logs] = await Promise.all([platformsOf(db, ids), logsOf(db, ids)]);
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
              maintenanceLogs: (logs.get(row.id) ?? []).map(exportedLog),
              ...timestampsOf(row),
            }),
          );
        },
      };
    },
  },
  rowSchema,
  restore: restoreConsoles,
  removal: (userId, now) => ({
    counts: {
      consoles: countOfUser(consoles, userId),
      logs: countOfUser(maintenanceLogs, userId),
      plays: countOfUser(playRecords, userId, isNotNull(playRecords.consoleId)),
    },
    revision: lastChange(consoles, userId),
    statements: [...consolesRemovalSql(userId, pick.all, now), forgetIdsSql(userId, ["console"])],
    describe: (c) =>
      `${counted(c.consoles ?? 0, "console")} with their ${counted(c.logs ?? 0, "maintenance log")}; ${counted(c.plays ?? 0, "play record")} lose their console`,
  }),
});
