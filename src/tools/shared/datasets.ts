import { and, count, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { statements } from "../../platform/db";
import { counted } from "../../platform/previewText";
import type { Decided, RestoreContext, StagedRow } from "./decisions";
import type { MyDataset } from "./exportDataset";

/**
 * One dataset of a user's records, as its family defines it (src/tools/<family>/*dataset.ts): what
 * exportMyData writes, what importMyData reads back and decides, and what a replace import removes
 * first. The engines iterate the registry (src/tools/datasets.ts) and name no family.
 */
export interface UserDataset<S extends z.ZodObject = z.ZodObject> {
  /** exportMyData's definition: its plans, filters, sorts, columns and rows. */
  export: MyDataset;
  /** One row of the file as a restore reads it back (built from the write tools' own argument schemas). */
  rowSchema: S;
  /** Decides a batch of staged rows: added, already there, or failed with its column (see shared/restore.ts). */
  restore(ctx: RestoreContext, rows: StagedRow<z.output<S>>[]): Promise<Decided>;
  /** What a replace import removes first: all of the user's records, through the family's removal cascade. */
  removal(userId: string, now: string): Removal;
}

/** A dataset, its restore typed by its row schema. */
export const defineDataset = <S extends z.ZodObject>(dataset: UserDataset<S>) => dataset;

/**
 * What a replace import removes before the file's rows are added: everything the matching remove
 * tools would take with the records, plus the ids earlier restores re-issued for them.
 */
export interface Removal {
  /** What is removed, counted: each name's statement reads one count. */
  counts: Record<string, SQLWrapper>;
  /** A value that changes whenever what is removed changes: the confirmation's revision. */
  revision: SQLWrapper;
  statements: SQL[];
  describe(counts: Record<string, number>): string;
}

/** A table of a user's records: its user_id and updatedAt. */
type UserTable = SQLiteTable & { userId: SQLiteColumn; updatedAt: SQLiteColumn };

export const countOf = (table: SQLiteTable, where: SQL | undefined) => statements.select({ n: count() }).from(table).where(where);

/** The user's rows of the table (that meet `also`), counted. */
export const countOfUser = (table: UserTable, userId: string, also?: SQL) => countOf(table, and(eq(table.userId, userId), also));

/** The user's rows of the table, counted, then their last change: differs once any was added, changed or removed. */
export const lastChange = (table: UserTable, userId: string) =>
  statements
    .select({ r: sql`COUNT(*) || ifnull(max(${table.updatedAt}), '')` })
    .from(table)
    .where(eq(table.userId, userId));

/** The removal of a dataset whose records take nothing with them: its table's rows of the user, called `one` (`many`). */
export const recordsRemoval = (table: UserTable, userId: string, removing: SQL[], one: string, many?: string): Removal => ({
  counts: { records: countOfUser(table, userId) },
  revision: lastChange(table, userId),
  statements: removing,
  describe: (c) => counted(c.records ?? 0, one, many),
});

// ---- Row schema parts the datasets share

/** A restored record's timestamps, kept when the file has them. */
export const restoredTimes = {
  createdAt: z.iso.datetime().nullish(),
  updatedAt: z.iso.datetime().nullish(),
};

/** A list column of at most `max` items: absent or null is empty. */
export const listOf = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .nullish()
    .transform((value) => value ?? []);

/** A list column: absent or null is empty. */
export const orEmpty = <T extends z.ZodType<unknown[]>>(schema: T) => schema.nullish().transform((value) => (value ?? []) as z.output<T>);
