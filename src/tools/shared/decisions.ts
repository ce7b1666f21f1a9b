import type { SQL } from "drizzle-orm";
import type { Db } from "../../platform/db";
import type { Plan } from "../../platform/plans";

/**
 * What a dataset's restore decides a batch of staged rows with. The restore reads everything the
 * batch needs first (shared/restoreReads.ts: which games exist and are visible, what is already
 * there, ids re-issued by earlier restores, the room the plan leaves), then decides every row
 * (added, already there, or failed with its column). The import engine (imports/apply.ts) writes
 * the rows to add as ONE D1 batch: a row's statements commit together or not at all, and the plan
 * limits are checked again inside that batch (decidedWithin), so a concurrent add cannot push the
 * account past its limit.
 */
export interface RestoreContext {
  db: Db;
  userId: string;
  plan: Plan;
  now: Date;
}

/** One staged row: its number in the file and its validated values. */
export interface StagedRow<T = unknown> {
  r: number;
  d: T;
}

export const REPORT_CODES = ["not_found", "unmatched", "ambiguous", "already_exists", "plan_limit", "invalid_input", "skipped"] as const;

/** A row not added, with its number in the file, its column and the reason. */
export interface ReportedRow {
  row: number;
  column: string | null;
  code: (typeof REPORT_CODES)[number];
  message: string;
  candidates?: number[];
}

export interface BatchOutcome {
  added: number;
  existing: number;
  failed: number;
  reported: ReportedRow[];
}

export type Statement = SQL | D1PreparedStatement;

export interface Decided {
  statements: Statement[];
  outcome: BatchOutcome;
}

export class Decisions {
  statements: Statement[] = [];
  outcome: BatchOutcome = { added: 0, existing: 0, failed: 0, reported: [] };
  add(...statements: Statement[]) {
    this.statements.push(...statements);
    this.outcome.added++;
  }
  exists(row: number, column: string, message: string) {
    this.outcome.existing++;
    this.outcome.reported.push({ row, column, code: "already_exists", message });
  }
  fail(row: number, column: string | null, code: ReportedRow["code"], message: string, candidates?: number[]) {
    this.outcome.failed++;
    this.outcome.reported.push({ row, column, code, message, ...(candidates ? { candidates } : {}) });
  }
  get decided(): Decided {
    return { statements: this.statements, outcome: this.outcome };
  }
}
