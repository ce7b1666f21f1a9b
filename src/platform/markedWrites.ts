import type { SQL } from "drizzle-orm";
import { renderQuery } from "./db";

/**
 * What every write of one call carries into its own D1 batch, so that nothing can happen between
 * the write and what it records (idempotency.ts): `guard`, run first, breaks the batch (rolling
 * it back) when the call may no longer write; `marker`, run right after each statement that may
 * write, sees that statement's changes() and records that something was saved. They commit with
 * the write or not at all.
 */
export interface WriteMarks {
  guard: SQL;
  marker: SQL;
  /** When a batch that writes fails: the error to answer instead (the guard broke), or undefined for the batch's own. */
  explain(error: unknown): Promise<Error | undefined>;
}

/**
 * Only a SELECT is known to write nothing. Anything else (a WITH included) is taken to be a write:
 * a marker after a statement that wrote nothing sees changes() of a statement before it in the same
 * batch (a write already marked, or a marker, which changes a row only once something was saved),
 * or the guard's 0. So taking a read for a write never marks what was not written.
 */
const mayWrite = (text: string) => !/^\s*select\b/i.test(text);

/** A statement that may write: run alone, it still runs in a batch with the marks. */
class MarkedStatement {
  constructor(
    private readonly marked: MarkedD1,
    readonly statement: D1PreparedStatement,
  ) {}

  bind(...values: unknown[]) {
    return new MarkedStatement(this.marked, this.statement.bind(...values));
  }

  private async result(): Promise<D1Result> {
    const [result] = await this.marked.batch([this as unknown as D1PreparedStatement]);
    return result!;
  }

  run() {
    return this.result();
  }

  all() {
    return this.result();
  }

  async first(column?: string) {
    const row = (await this.result()).results[0] as Record<string, unknown> | undefined;
    if (row === undefined) return null;
    return column === undefined ? row : row[column];
  }

  /** Rows as arrays in column order, as D1's raw() answers (a batch answers objects; drizzle maps its own batches the same way). */
  async raw(options?: { columnNames?: boolean }) {
    const rows = (await this.result()).results as Record<string, unknown>[];
    const values = rows.map((row) => Object.values(row));
    return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
  }
}

class MarkedD1 {
  private readonly guard: D1PreparedStatement;
  private readonly marker: D1PreparedStatement;

  constructor(
    private readonly d1: D1Database,
    private readonly marks: WriteMarks,
  ) {
    this.guard = this.prepareSql(marks.guard);
    this.marker = this.prepareSql(marks.marker);
  }

  private prepareSql(query: SQL) {
    const { sql, params } = renderQuery(query);
    return this.d1.prepare(sql).bind(...params);
  }

  prepare(text: string) {
    const statement = this.d1.prepare(text);
    return mayWrite(text) ? (new MarkedStatement(this, statement) as unknown as D1PreparedStatement) : statement;
  }

  async batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    const writes = statements.map((statement) => (statement as unknown) instanceof MarkedStatement);
    if (!writes.includes(true)) return this.d1.batch(statements);
    const escorted: D1PreparedStatement[] = [this.guard];
    const own: number[] = [];
    statements.forEach((statement, i) => {
      own.push(escorted.length);
      if (!writes[i]) escorted.push(statement);
      else escorted.push((statement as unknown as MarkedStatement).statement, this.marker);
    });
    try {
      const results = await this.d1.batch(escorted);
      return own.map((at) => results[at]!);
    } catch (error) {
      throw (await this.marks.explain(error)) ?? error;
    }
  }
}

/**
 * The D1 binding as one call's handler sees it: every batch, and every statement run alone, that
 * may write carries `marks` (a batch of reads runs as it is). One mechanism for every handler,
 * whichever way it writes (the query builder, a guarded batch, raw statements).
 */
export const markWrites = (d1: D1Database, marks: WriteMarks): D1Database =>
  // Only what drizzle and the platform's batch helpers call on a binding: prepare and batch.
  new MarkedD1(d1, marks) as unknown as D1Database;
