import { count, desc, eq, sql } from "drizzle-orm";
import { accountEvents } from "../db/schema";
import { type Db, statements } from "../platform/db";
import { newId } from "../platform/ids";

export type AccountEventKind = (typeof accountEvents.$inferSelect)["kind"];
export type AccountEventDetail = Record<string, string>;

export interface AccountEvent {
  kind: AccountEventKind;
  detail: AccountEventDetail;
  createdAt: string;
}

/** Records an event of the user's activity list, as a statement for the batch that does what it records. */
export const eventStatement = (userId: string, kind: AccountEventKind, detail: AccountEventDetail = {}) =>
  statements
    .insert(accountEvents)
    .values({ id: newId("evt"), userId, kind, detail })
    .getSQL();

/** Records an event on its own (when nothing else is written with it). */
export async function recordEvent(db: Db, userId: string, kind: AccountEventKind, detail: AccountEventDetail = {}): Promise<void> {
  await db.run(eventStatement(userId, kind, detail));
}

const ofUser = (userId: string) => eq(accountEvents.userId, userId);

/**
 * A page of the user's events, newest first, with the total. Events of one batch share their
 * instant, so the insertion order (rowid) breaks the tie.
 */
export async function listEvents(
  db: Db,
  userId: string,
  page: number,
  limit: number,
): Promise<{ items: AccountEvent[]; totalCount: number }> {
  const [items, [total]] = await db.batch([
    db
      .select({ kind: accountEvents.kind, detail: accountEvents.detail, createdAt: accountEvents.createdAt })
      .from(accountEvents)
      .where(ofUser(userId))
      // raw SQL: rowid is no schema column.
      .orderBy(desc(accountEvents.createdAt), sql`rowid DESC`)
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(accountEvents).where(ofUser(userId)),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}
