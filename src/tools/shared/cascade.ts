import { eq, inArray, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * Which of a user's records a removal cascade takes, as a condition on a column that holds their
 * ids (undefined: every one of the user's). Each parent family writes its cascade once (its
 * removal.ts), and the picks let that one cascade serve the remove tool (one record), a replace
 * import (all of them) and the removal of a parent above it (those a subquery selects).
 */
export type Picked = (ids: SQLiteColumn) => SQL | undefined;

/** The one record of this id. */
function one(id: string | number): Picked {
  return (ids) => eq(ids, id);
}

/** Every one of the user's. */
const all: Picked = () => undefined;

/** Those whose id the select (of one column) yields. */
function among(selected: SQLWrapper): Picked {
  return (ids) => inArray(ids, selected);
}

export const pick = { one, all, among };
